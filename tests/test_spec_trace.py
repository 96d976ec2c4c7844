"""Sentence tracing: every rule-bearing sentence of the Duel documents is cited, every citation
still matches its sentence. The documents live outside the repository; tests that need them skip
with the reason when they are absent. No document text is written here: tampering works on the
sentences the splitter finds at run time."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from harness.cli import cli
from harness.errors import UserError
from model.duel.game import new_game
from spec import load_catalogue
from spec.sentences import SplitError, fingerprint, split_document
from spec.trace import Finding, TraceReport, default_documents_dir, split_catalogue_documents, trace

REPO = Path(__file__).resolve().parent.parent


def _seeds() -> Path | None:
    for candidate in (Path("/work/shared/seeds"), default_documents_dir(REPO)):
        if candidate is not None and candidate.is_dir():
            return candidate
    return None


SEEDS = _seeds()
needs_documents = pytest.mark.skipif(
    SEEDS is None, reason="the Duel documents are not here (/work/shared/seeds or ../shared/seeds)",
)


def _describe(report: TraceReport) -> str:
    return "\n".join(f"{f.kind} {f.locator} fp={f.fp} actual={f.actual_fp} by={f.by}: {f.detail}"
                     for f in report.findings)


@pytest.fixture
def documents(tmp_path: Path) -> Path:
    """A writable copy of the documents."""
    assert SEEDS is not None
    dest = tmp_path / "seeds"
    shutil.copytree(SEEDS, dest)
    return dest


def _rewrite_sentence(documents: Path, doc: str, at: str, change: str = "edit") -> tuple[str, str]:
    """Change one sentence of a copied document in place; returns (old fp, new fp)."""
    catalogue = load_catalogue()
    split = split_catalogue_documents(catalogue, documents)[doc]
    sentence = split.sentence(at)
    assert sentence is not None
    if change == "edit":
        new = sentence.text[:-1] + " never" + sentence.text[-1]
    elif change == "whitespace":
        new = sentence.text.replace(" ", "   ").upper()
    else:
        new = ""
    path = documents / catalogue.document(doc).file
    text = path.read_text(encoding="utf-8")
    assert text.count(sentence.text) >= 1
    path.write_text(text.replace(sentence.text, new, 1), encoding="utf-8")
    return sentence.fingerprint, fingerprint(new)


# --- the real documents ---------------------------------------------------------------------------

@needs_documents
def test_every_rule_bearing_sentence_is_cited_and_every_citation_matches() -> None:
    assert SEEDS is not None
    report = trace(load_catalogue(), SEEDS)
    assert report.findings == (), _describe(report)
    assert report.ok and report.share == 1.0
    assert {d.doc for d in report.documents} == {"rulebook", "guide", "summary-de"}
    assert report.rule_bearing >= 200


@needs_documents
def test_trace_command_on_the_real_documents() -> None:
    assert SEEDS is not None
    result = CliRunner().invoke(cli, ["spec", "trace", "--documents", str(SEEDS)])
    assert result.exit_code == 0, result.output
    assert "(100.0%), 0 finding(s)" in result.output


# --- what the trace must catch --------------------------------------------------------------------

@needs_documents
def test_a_changed_sentence_is_a_fingerprint_mismatch(documents: Path) -> None:
    old, new = _rewrite_sentence(documents, "rulebook", "scoring/s2")
    report = trace(load_catalogue(), documents)
    changed = report.of_kind("changed")
    assert [(f.locator, f.fp, f.actual_fp) for f in changed] == [("rulebook:scoring/s2", old, new)]
    assert changed[0].by == "duel.score.isolated"
    assert not report.ok


@needs_documents
def test_whitespace_and_case_do_not_change_a_fingerprint(documents: Path) -> None:
    old, new = _rewrite_sentence(documents, "rulebook", "scoring/s2", change="whitespace")
    assert old == new
    assert trace(load_catalogue(), documents).ok


@needs_documents
def test_a_changed_excluded_sentence_is_reported(documents: Path) -> None:
    _rewrite_sentence(documents, "rulebook", "game-setup/s22")
    report = trace(load_catalogue(), documents)
    assert [f.locator for f in report.of_kind("excluded-changed")] == ["rulebook:game-setup/s22"]


@needs_documents
def test_an_uncited_sentence_is_reported(spec_copy: Path) -> None:
    assert SEEDS is not None
    f = spec_copy / "azul_duel" / "09-end-of-game.toml"
    line = '  { doc = "rulebook", at = "end-of-game/s3", fp = "3f3ab99e" },\n'
    text = f.read_text()
    assert text.count(line) == 1
    f.write_text(text.replace(line, ""))
    report = trace(load_catalogue(spec_copy), SEEDS)
    assert [(x.locator, x.actual_fp) for x in report.findings] == [("rulebook:end-of-game/s3", "3f3ab99e")]
    assert report.findings[0].kind == "uncited"
    assert report.cited == report.rule_bearing - 1 and report.share < 1.0 and not report.ok


@needs_documents
def test_a_removed_sentence_makes_citations_missing(documents: Path) -> None:
    _rewrite_sentence(documents, "rulebook", "end-of-game/s2", change="delete")
    report = trace(load_catalogue(), documents)
    # s3 moved up to s2: its citation now mismatches, the old s3 is gone, the section table is stale
    assert {f.kind for f in report.findings} == {"changed", "missing", "sections"}
    assert [f.by for f in report.of_kind("missing")] == ["duel.end.tie-break"]
    assert {f.locator for f in report.of_kind("missing")} == {"rulebook:end-of-game/s3"}


@needs_documents
def test_an_excluded_sentence_that_a_clause_cites_is_reported(spec_copy: Path) -> None:
    assert SEEDS is not None
    f = spec_copy / "azul_duel" / "09-end-of-game.toml"
    old = '{ doc = "rulebook", at = "end-of-game/s3", fp = "3f3ab99e" }'
    f.write_text(f.read_text().replace(old, old + ',\n  { doc = "rulebook", at = "game-setup/s22", fp = "075dbc86" }'))
    report = trace(load_catalogue(spec_copy), SEEDS)
    assert [(x.kind, x.locator, x.by) for x in report.findings] == [
        ("excluded-cited", "rulebook:game-setup/s22", "duel.end.tie-break")]


@needs_documents
def test_a_missing_document_is_a_finding(documents: Path) -> None:
    (documents / load_catalogue().document("guide").file).unlink()
    report = trace(load_catalogue(), documents)
    assert [(f.kind, f.doc) for f in report.findings] == [("document", "guide")]
    assert not report.ok


@needs_documents
def test_trace_command_json_fails_and_never_carries_text(documents: Path) -> None:
    _rewrite_sentence(documents, "guide", "close-the-acquisition-phase/s4")
    result = CliRunner().invoke(cli, ["spec", "trace", "--documents", str(documents), "--json"])
    assert result.exit_code == 1
    data = json.loads(result.output)
    assert data["ok"] is False
    assert [(f["kind"], f["locator"]) for f in data["findings"]] == [
        ("changed", "guide:close-the-acquisition-phase/s4")]
    split = split_catalogue_documents(load_catalogue(), documents)["guide"]
    tampered = split.sentence("close-the-acquisition-phase/s4")
    assert tampered is not None and tampered.text not in result.output


def test_trace_command_without_documents_is_a_clear_error(tmp_path: Path) -> None:
    result = CliRunner().invoke(cli, ["spec", "trace", "--documents", str(tmp_path / "nowhere")])
    assert isinstance(result.exception, UserError)
    assert "nowhere: not a directory" in str(result.exception)


def test_a_finding_to_json_holds_no_text() -> None:
    f = Finding("uncited", "rulebook", "scoring/s2", "no clause cites this sentence", actual_fp="4b530196",
                text="the sentence")
    assert "the sentence" not in json.dumps(f.to_json())


# --- the splitter, on made-up documents -----------------------------------------------------------

TOC_DOC = """Title

Table of Contents

• Alpha
  • Beta One
• Gamma

Intro line.

Alpha

First rule. Second rule (e.g., a note) here.
• A bullet. Its second sentence.
1. A numbered step.

Beta One
Gamma

Beta One

Beta rule? Yes!

Gamma

Last rule.
"""


def test_toc_layout_sections_and_sentences() -> None:
    doc = split_document("d", TOC_DOC, "toc")
    assert [s.slug for s in doc.sections] == ["front-matter", "alpha", "beta-one", "gamma"]
    alpha = doc.section("alpha")
    assert alpha is not None
    # the lines that repeat the entries right after each other are list items, not headings
    assert [s.at for s in alpha.sentences] == [f"alpha/s{n}" for n in range(1, 8)]
    assert alpha.sentences[1].text == "Second rule (e.g., a note) here."
    assert alpha.sentences[2].text == "A bullet."
    assert alpha.sentences[4].text == "A numbered step."
    assert [s.text for s in alpha.sentences[5:]] == ["Beta One", "Gamma"]
    assert [s.text for s in doc.section("beta-one").sentences] == ["Beta rule?", "Yes!"]  # type: ignore[union-attr]


def test_toc_layout_refuses_a_missing_heading() -> None:
    with pytest.raises(SplitError, match="Gamma"):
        split_document("d", TOC_DOC.replace("\nGamma\n\nLast rule.", "\nLast rule."), "toc")


def test_bare_lines_layout() -> None:
    doc = split_document("g", "Opening words. More.\n\nA Heading?\n\nBody one. Body two.\n\nNot a heading.\n",
                         "bare-lines")
    assert [(s.slug, len(s.sentences)) for s in doc.sections] == [("introduction", 2), ("a-heading", 3)]


def test_page_references_layout() -> None:
    text = "Titel\n\nErster Satz. Zweiter Satz (Seite 5).\n\nDritter (Seite 6).\n\nVierter (Seite 5).\n\nFünfter (Seiten 9 und 8).\n"
    doc = split_document("s", text, "page-references")
    assert [(s.slug, len(s.sentences)) for s in doc.sections] == [
        ("front-matter", 1), ("seite-5", 3), ("seite-6", 1), ("seiten-9-und-8", 1)]
    with pytest.raises(SplitError, match="line 5"):
        split_document("s", "Titel\n\nEins (Seite 5).\n\nZwei ohne Seite.\n", "page-references")


def test_fingerprint_normalises_whitespace_case_and_list_markers() -> None:
    assert fingerprint("A  rule.") == fingerprint("a rule.") == fingerprint("• A rule.") == fingerprint("1. a rule.")
    assert fingerprint("A rule.") != fingerprint("A rules.")
    assert len(fingerprint("x")) == 8


# --- clauses the trace brought in -----------------------------------------------------------------

@pytest.mark.clause("duel.component.players")
def test_a_game_has_exactly_two_players() -> None:
    game = new_game(seed=3)
    assert len(game.state.players) == 2
    starters = {new_game(seed=s).state.starter for s in range(12)}
    assert starters == {0, 1}


# --- reading citations ----------------------------------------------------------------------------

def test_show_groups_sentences_by_section() -> None:
    catalogue = load_catalogue()
    lines = catalogue.source_lines(catalogue.clause("duel.acquire.pass"))
    assert lines == [
        "rulebook, End of Phase 1: s4, s5 (end-of-phase-1/...)",
        "guide, Close the acquisition phase: s4 (close-the-acquisition-phase/...)",
    ]
    result = CliRunner().invoke(cli, ["spec", "show", "duel.acquire.pass"])
    assert result.exit_code == 0 and "End of Phase 1: s4, s5" in result.output


@needs_documents
def test_sentences_command_lists_locators_and_citing_clauses() -> None:
    assert SEEDS is not None
    result = CliRunner().invoke(cli, ["spec", "sentences", "rulebook", "end-of-phase-1", "--documents", str(SEEDS)])
    assert result.exit_code == 0, result.output
    assert "end-of-phase-1/s4  b883a9fa  [duel.acquire.pass" in result.output
    assert "== rulebook:scoring" not in result.output
