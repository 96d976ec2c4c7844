"""The classic Azul clause catalogue (spec/azul/): it loads and lints clean, holds every clause id
and interpretation point of the contract between spec and model, traces the classic guide to
100%, and a broken file is an error naming file, line, clause and field. Also: loading it leaves
the Duel catalogue exactly as it was, and the two catalogues do not see each other's documents."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from harness.cli import cli
from spec import SpecError, catalogue_games, load_catalogue, validate
from spec.sentences import split_document
from spec.trace import default_documents_dir, trace

REPO = Path(__file__).resolve().parents[2]
GUIDE = "001_5ab2cb2259808584.txt"

# The contract between the spec and the model (agreed when classic Azul was added; no file of its own):
# clause ids the model and properties cite. The catalogue may hold more; it must never lose or rename one of these.
CONTRACT_IDS = (
    "azul.component.tiles", "azul.component.players", "azul.component.board", "azul.component.factories",
    "azul.component.starting-marker",
    "azul.setup.wall-side", "azul.setup.scores", "azul.setup.factory-count", "azul.setup.bag",
    "azul.setup.first-player", "azul.setup.fill-factories",
    "azul.offer.marker-to-centre", "azul.offer.turn-order", "azul.offer.take-factory", "azul.offer.take-centre",
    "azul.offer.first-from-centre", "azul.offer.end", "azul.offer.actions",
    "azul.lines.one-line", "azul.lines.capacity", "azul.lines.same-colour", "azul.lines.wall-has-colour",
    "azul.lines.to-floor", "azul.floor.capacity", "azul.floor.overflow-lid",
    "azul.wall.top-to-bottom", "azul.wall.simultaneous", "azul.wall.complete-only", "azul.wall.move-rightmost",
    "azul.wall.discard-rest", "azul.wall.incomplete-stay", "azul.wall.no-space",
    "azul.score.immediate", "azul.score.isolated", "azul.score.row-run", "azul.score.column-run",
    "azul.floor.penalties", "azul.score.floor", "azul.floor.discard", "azul.floor.marker-kept",
    "azul.prep.continue", "azul.prep.refill", "azul.prep.bag-from-lid", "azul.prep.partial-fill",
    "azul.end.trigger", "azul.end.bonus-row", "azul.end.bonus-column", "azul.end.bonus-colour",
    "azul.end.winner", "azul.end.tie-break", "azul.end.shared-win",
    "azul.gray.free-placement", "azul.gray.column-unique", "azul.gray.row-unique",
    "azul.invariant.tile-conservation", "azul.invariant.floor-capacity", "azul.invariant.wall-colours",
    "azul.invariant.marker", "azul.invariant.round-end",
)
# Interpretation point -> (the clause it sits on, its alternatives, default first), from the contract.
CONTRACT_POINTS = {
    "azul.score.single-axis": ("azul.score.column-run", ("skip-single", "count-both")),
    "azul.offer.marker-on-full-floor": ("azul.offer.first-from-centre", ("marker-off-floor", "displace-to-lid")),
    "azul.offer.marker-untaken": ("azul.prep.refill", ("same-starter", "next-clockwise")),
    "azul.prep.empty-round": ("azul.prep.partial-fill", ("end-game", "stall")),
    "azul.gray.unplaceable-line": ("azul.lines.wall-has-colour", ("allowed", "refused")),
}


def _seeds() -> Path | None:
    for candidate in (Path("/work/shared/seeds"), default_documents_dir(REPO)):
        if candidate is not None and (candidate / GUIDE).is_file():
            return candidate
    return None


SEEDS = _seeds()
needs_guide = pytest.mark.skipif(
    SEEDS is None, reason=f"the classic Azul guide ({GUIDE}) is not here (/work/shared/seeds or ../shared/seeds)",
)


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, f"{old!r} not in {path}"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def _line_of(path: Path, needle: str) -> int:
    return next(n for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1) if needle in line)


# --- the catalogue -------------------------------------------------------------------------------

def test_the_classic_catalogue_loads_and_lints_clean() -> None:
    catalogue, problems = validate(game="azul")
    assert problems == [], "\n".join(map(str, problems))
    assert catalogue is not None
    assert (catalogue.game, catalogue.id_prefix) == ("azul", "azul.")
    assert [d.id for d in catalogue.documents] == ["azul-guide"]
    assert catalogue.components is None
    assert all(c.id.startswith("azul.") for c in catalogue)
    assert all(s.doc == "azul-guide" and s.at and s.fp for c in catalogue for s in c.sources)
    assert len(catalogue) >= len(CONTRACT_IDS)


def test_every_contract_id_is_a_clause() -> None:
    catalogue = load_catalogue(game="azul")
    missing = [i for i in CONTRACT_IDS if i not in catalogue]
    assert missing == []


def test_every_interpretation_point_has_exactly_one_default_and_the_contract_points_are_there() -> None:
    catalogue = load_catalogue(game="azul")
    for point in catalogue.interpretations:
        assert sum(a.default for a in point.alternatives) == 1, point.id
        assert len(point.alternatives) >= 2 and point.question and point.reason, point.id
        assert all(a.support.strip() for a in point.alternatives), point.id
    for point_id, (clause_id, names) in CONTRACT_POINTS.items():
        point = catalogue.interpretation(point_id)
        assert point.clause_id == clause_id
        assert point.names[: len(names)] == names or set(names) <= set(point.names)
        assert point.default == names[0], point_id


def test_the_duel_catalogue_is_still_the_default_and_unchanged() -> None:
    duel = load_catalogue()
    assert duel.game == "duel" and duel.id_prefix == "duel." and duel.components is not None
    assert "azul-guide" not in {d.id for d in duel.documents}
    assert not any(c.id.startswith("azul.") for c in duel)
    assert {"duel", "azul"} <= set(catalogue_games())


def test_an_unknown_game_names_the_known_ones() -> None:
    with pytest.raises(SpecError, match=r"no catalogue for game 'chess'.*games: azul, duel"):
        load_catalogue(game="chess")


# --- malformed classic files ---------------------------------------------------------------------

def test_a_malformed_classic_clause_names_file_line_clause_and_field(spec_copy: Path) -> None:
    f = spec_copy / "azul" / "06-scoring.toml"
    _edit(f, 'id = "azul.score.isolated"\nrevision = 1\ntitle = "A tile with no neighbour scores 1"\nkind = "scoring"',
          'id = "azul.score.isolated"\nrevision = 1\ntitle = "A tile with no neighbour scores 1"\nkind = "scorng"')
    _, problems = validate(spec_copy, game="azul")
    assert len(problems) == 1
    line = _line_of(f, 'kind = "scorng"')
    assert str(problems[0]).startswith(f"{f}:{line}, clause azul.score.isolated, field 'kind': unknown kind 'scorng'")
    with pytest.raises(SpecError):
        load_catalogue(spec_copy, game="azul")


def test_malformed_toml_in_a_classic_file_names_the_line(spec_copy: Path) -> None:
    f = spec_copy / "azul" / "08-end-of-game.toml"
    _edit(f, 'kind = "end"', 'kind = "end')
    _, problems = validate(spec_copy, game="azul")
    assert [(p.file, p.line) for p in problems] == [(str(f), _line_of(f, 'kind = "end'))]
    assert "malformed TOML" in str(problems[0])


def test_an_id_without_the_classic_prefix_is_refused(spec_copy: Path) -> None:
    f = spec_copy / "azul" / "09-gray-wall.toml"
    _edit(f, 'id = "azul.gray.row-unique"', 'id = "other.gray.row-unique"')
    _, problems = validate(spec_copy, game="azul")
    assert [(p.clause, p.field, p.line) for p in problems] == [
        ("other.gray.row-unique", "id", _line_of(f, 'id = "other.gray.row-unique"'))]
    assert "starting with 'azul.'" in str(problems[0])


def test_a_classic_clause_cannot_cite_a_duel_document(spec_copy: Path) -> None:
    f = spec_copy / "azul" / "09-gray-wall.toml"
    _edit(f, '{ doc = "azul-guide", at = "gray-side-variant-official/s2"', '{ doc = "rulebook", at = "gray-side-variant-official/s2"')
    _, problems = validate(spec_copy, game="azul")
    assert [(p.clause, p.field) for p in problems] == [("azul.gray.free-placement", "sources[0].doc")]
    assert "unknown document 'rulebook' (known: azul-guide)" in str(problems[0])


def test_a_bad_catalogue_file_is_named(spec_copy: Path) -> None:
    f = spec_copy / "azul" / "catalogue.toml"
    _edit(f, 'id_prefix = "azul."', 'id_prefix = "azul"')
    _, problems = validate(spec_copy, game="azul")
    assert [(p.file, p.field) for p in problems] == [(str(f), "id_prefix")]
    _edit(f, 'id_prefix = "azul"', 'id_prefix = "azul."\nrules = "all"')
    _, problems = validate(spec_copy, game="azul")
    assert [(p.file, p.field) for p in problems] == [(str(f), "rules")]


def test_two_folders_claiming_one_game_are_refused(spec_copy: Path) -> None:
    shutil.copytree(spec_copy / "azul", spec_copy / "azul_copy")
    _, problems = validate(spec_copy, game="azul")
    assert [(p.file, p.field) for p in problems] == [(str(spec_copy / "azul" / "catalogue.toml"), "game")]
    assert f"also claimed by {spec_copy / 'azul_copy'}" in str(problems[0])


def test_a_second_default_is_refused(spec_copy: Path) -> None:
    f = spec_copy / "azul" / "07-preparation.toml"
    _edit(f, 'name = "next-clockwise"\n', 'name = "next-clockwise"\ndefault = true\n')
    _, problems = validate(spec_copy, game="azul")
    assert [(p.clause, p.field) for p in problems] == [
        ("azul.prep.refill", "interpretations[0].alternatives.default")]


# --- the web-page layout ---------------------------------------------------------------------------

def test_the_web_page_layout_keeps_tables_and_questions_out_of_the_headings() -> None:
    text = "\n".join([
        "Parts of the game",                              # heading
        "| Part | Count |", "|---|---|", "| Tiles | 100 |",   # a table: rows are units, never headings
        "A first rule. A second rule.",
        "Questions and answers with rather more than ten words here",   # heading (12 words max)
        "Q. Can I split them?", "No.",
    ])
    split = split_document("page", text, "web-page")
    assert [(s.slug, len(s.sentences)) for s in split.sections] == [
        ("parts-of-the-game", 4), ("questions-and-answers-with-rather-more-than-ten-words-here", 2)]
    assert [s.text for s in split.sections[0].sentences] == ["Part | Count", "Tiles | 100", "A first rule.",
                                                            "A second rule."]
    assert [s.text for s in split.sections[1].sentences] == ["Can I split them?", "No."]


# --- the trace of the classic guide ----------------------------------------------------------------

@needs_guide
def test_the_classic_guide_is_traced_to_100_percent() -> None:
    assert SEEDS is not None
    report = trace(load_catalogue(game="azul"), SEEDS)
    assert report.findings == (), "\n".join(f"{f.kind} {f.locator} {f.detail}" for f in report.findings)
    assert [d.doc for d in report.documents] == ["azul-guide"]
    assert report.ok and report.share == 1.0 and report.rule_bearing >= 90


@needs_guide
def test_an_uncited_classic_sentence_fails_the_trace(spec_copy: Path) -> None:
    assert SEEDS is not None
    f = spec_copy / "azul" / "08-end-of-game.toml"
    text = f.read_text(encoding="utf-8")
    entry = re.search(r'  \{ doc = "azul-guide", at = "end-of-the-game-and-bonuses/s9", fp = "[0-9a-f]{8}" \},\n', text)
    assert entry is not None
    # azul.end.shared-win cites s8 (the tie-break sentence) instead of s9: s9 is then cited by no one.
    f.write_text(text.replace(entry[0], '  { doc = "azul-guide", at = "end-of-the-game-and-bonuses/s8", fp = "faf45ce4" },\n', 1),
                 encoding="utf-8")
    report = trace(load_catalogue(spec_copy, game="azul"), SEEDS)
    assert [f.locator for f in report.of_kind("uncited")] == ["azul-guide:end-of-the-game-and-bonuses/s9"]
    assert not report.ok


@needs_guide
def test_spec_trace_and_lint_commands_take_the_game(tmp_path: Path) -> None:
    assert SEEDS is not None
    runner = CliRunner()
    result = runner.invoke(cli, ["spec", "trace", "--game", "azul", "--documents", str(SEEDS), "--no-text"])
    assert result.exit_code == 0, result.output
    assert "azul-guide: 94/94 rule-bearing sentences cited (100.0%)" in result.output
    assert "rulebook" not in result.output
    result = runner.invoke(cli, ["spec", "lint", "--game", "azul"])
    assert result.exit_code == 0, result.output
    assert "no problems" in result.output
    result = runner.invoke(cli, ["spec", "sentences", "azul-guide", "setup", "--game", "azul",
                                 "--documents", str(SEEDS)])
    assert result.exit_code == 0, result.output
    assert "setup/s7" in result.output and "azul.setup.first-player" in result.output
    # A changed sentence of the guide is caught through the command too.
    docs = tmp_path / "seeds"
    shutil.copytree(SEEDS, docs)
    guide = docs / GUIDE
    guide.write_text(guide.read_text(encoding="utf-8").replace("+7 points", "+8 points"), encoding="utf-8")
    result = runner.invoke(cli, ["spec", "trace", "--game", "azul", "--documents", str(docs), "--no-text"])
    assert result.exit_code == 1
    assert "changed          azul-guide:end-of-the-game-and-bonuses/s5" in result.output


# A repository path in a clause's words: folders and a file with an extension (docs/x.md, model/a/b.py).
REPO_PATH = re.compile(r"\b(?:spec|model|properties|harness|fixtures|tests|docs|notes)/[\w./-]*\w\.(?:md|py|toml|txt)\b")


@pytest.mark.clause("azul.component.wall-pattern")
def test_every_file_a_classic_clause_names_is_in_the_repository() -> None:
    """Text, note and assumption name only files that exist (the wall layout's assumption once named
    a notes/ file the repository never had)."""
    named = {(clause.id, path) for clause in load_catalogue(game="azul").clauses
             for words in (clause.text, clause.note or "", clause.assumption or "")
             for path in REPO_PATH.findall(words)}
    assert named, "no clause names a file: the pattern finds nothing"
    assert [(cid, path) for cid, path in sorted(named) if not (REPO / path).exists()] == []
