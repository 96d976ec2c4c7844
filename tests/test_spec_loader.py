"""The spec loader: the real catalogue loads, and every kind of breakage is named precisely."""

from __future__ import annotations

from pathlib import Path

import pytest

from spec import SpecError, load_catalogue, validate
from spec.catalogue import CLAUSE_KINDS


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text()
    assert old in text, f"fixture text not found: {old!r}"
    path.write_text(text.replace(old, new, 1))


def _only_error(root: Path) -> SpecError:
    catalogue, problems = validate(root)
    assert catalogue is None, "a broken spec must not load at all"
    assert problems, "the breakage was not detected"
    with pytest.raises(SpecError):
        load_catalogue(root)
    return problems[0]


def test_real_catalogue_loads_clean() -> None:
    catalogue, problems = validate()
    assert problems == []
    assert catalogue is not None and len(catalogue) >= 80
    assert {c.kind for c in catalogue} <= set(CLAUSE_KINDS)
    assert len(set(catalogue.ids)) == len(catalogue.ids)


def test_every_interpretation_has_exactly_one_default() -> None:
    catalogue = load_catalogue()
    for interp in catalogue.interpretations:
        assert sum(a.default for a in interp.alternatives) == 1, interp.id
        assert interp.default in interp.names


def test_issue_named_gaps_are_interpretation_points() -> None:
    """The audit must at least catch the ambiguities the catalogue issue names."""
    catalogue = load_catalogue()
    ids = {i.id for i in catalogue.interpretations}
    for expected in ("duel.score.start", "duel.plate.draw-at-zero", "duel.broken.penalties",
                     "duel.special.row-points", "duel.chips.per-round"):
        assert expected in ids


def test_every_clause_cites_the_rulebook_or_reference() -> None:
    catalogue = load_catalogue()
    for clause in catalogue:
        assert {"rulebook", "reference-components"} & set(clause.documents), clause.id


def test_components_data() -> None:
    comp = load_catalogue().components
    assert len(comp.plates) == 18
    assert sum("special" in p for p in comp.plates) == 9
    assert sum("wild" in p for p in comp.plates) == 9
    assert len(comp.chips) == 20
    assert len(comp.tablet_sides) == 8


def test_malformed_toml_names_file_and_line(spec_copy: Path) -> None:
    f = spec_copy / "azul_duel" / "03-acquisition.toml"
    _edit(f, 'kind = "phase"', 'kind = "phase')
    err = _only_error(spec_copy)
    assert err.file.endswith("03-acquisition.toml")
    assert "malformed TOML" in err.message and err.line is not None


def test_missing_field_names_clause_and_field(spec_copy: Path) -> None:
    f = spec_copy / "azul_duel" / "07-scoring.toml"
    _edit(f, 'title = "A tile with no neighbour scores 1"\n', "")
    err = _only_error(spec_copy)
    assert (err.clause, err.field) == ("duel.score.isolated", "title")
    assert "07-scoring.toml" in str(err) and "missing" in str(err)


def test_duplicate_id(spec_copy: Path) -> None:
    f = spec_copy / "azul_duel" / "07-scoring.toml"
    _edit(f, 'id = "duel.score.horizontal"', 'id = "duel.score.isolated"')
    err = _only_error(spec_copy)
    assert err.clause == "duel.score.isolated" and "duplicate clause id" in err.message
    assert err.line is not None


def test_unknown_document(spec_copy: Path) -> None:
    f = spec_copy / "azul_duel" / "07-scoring.toml"
    _edit(f, '{ doc = "rulebook", at = "scoring/s2", fp = "4b530196" }', '{ doc = "wiki", where = "x" }')
    err = _only_error(spec_copy)
    assert err.clause == "duel.score.isolated" and err.field == "sources[0].doc"
    assert "unknown document 'wiki'" in err.message


def test_unknown_kind(spec_copy: Path) -> None:
    f = spec_copy / "azul_duel" / "09-end-of-game.toml"
    _edit(f, 'kind = "end"', 'kind = "ending"')
    err = _only_error(spec_copy)
    assert err.field == "kind" and err.clause == "duel.end.after-round-5" and "ending" in err.message


def test_interpretation_without_default(spec_copy: Path) -> None:
    f = spec_copy / "azul_duel" / "02-setup.toml"
    _edit(f, 'name = "five"\ndefault = true', 'name = "five"')
    err = _only_error(spec_copy)
    assert err.clause == "duel.setup.scores" and "exactly one default" in err.message


def test_interpretation_with_two_defaults(spec_copy: Path) -> None:
    f = spec_copy / "azul_duel" / "02-setup.toml"
    _edit(f, 'name = "zero"', 'name = "zero"\ndefault = true')
    err = _only_error(spec_copy)
    assert "found 2" in err.message


def test_unknown_field_is_an_error(spec_copy: Path) -> None:
    f = spec_copy / "azul_duel" / "07-scoring.toml"
    _edit(f, 'id = "duel.score.isolated"', 'id = "duel.score.isolated"\ncolour = "red"')
    err = _only_error(spec_copy)
    assert err.field == "colour" and err.clause == "duel.score.isolated"


def test_bad_component_data(spec_copy: Path) -> None:
    f = spec_copy / "azul_duel" / "components.toml"
    _edit(f, 'spaces = ["yellow", "black", "turquoise", "special"]',
          'spaces = ["yellow", "pink", "turquoise", "special"]')
    err = _only_error(spec_copy)
    assert err.file.endswith("components.toml") and "pink" in err.message


def test_more_special_plates_than_special_tiles_is_refused(spec_copy: Path) -> None:
    """Replacement component data must not let the Special tile supply run out (no rule covers it)."""
    f = spec_copy / "azul_duel" / "components.toml"
    _edit(f, 'spaces = ["wild", "blue", "turquoise", "black"]', 'spaces = ["special", "blue", "turquoise", "black"]')
    err = _only_error(spec_copy)
    assert err.file.endswith("components.toml") and "10 Special plates" in err.message
    assert "duel.component.tiles" in err.message


def test_lint_reports_all_problems(spec_copy: Path) -> None:
    _edit(spec_copy / "azul_duel" / "09-end-of-game.toml", 'kind = "end"', 'kind = "ending"')
    _edit(spec_copy / "azul_duel" / "07-scoring.toml", 'kind = "scoring"', 'kind = "score"')
    _, problems = validate(spec_copy)
    assert len(problems) == 2


ISOLATED_SOURCE = '{ doc = "rulebook", at = "scoring/s2", fp = "4b530196" }'


def _source_error(spec_copy: Path, new: str) -> SpecError:
    f = spec_copy / "azul_duel" / "07-scoring.toml"
    _edit(f, ISOLATED_SOURCE, new)
    err = _only_error(spec_copy)
    assert err.clause == "duel.score.isolated" and err.file.endswith("07-scoring.toml")
    assert err.line == 11, "the error names the line of the broken source entry"
    return err


@pytest.mark.parametrize(("new", "field", "message"), [
    ('{ doc = "rulebook", at = "scoring-s2", fp = "4b530196" }', "sources[0].at", "malformed sentence locator"),
    ('{ doc = "rulebook", at = "scoring/2", fp = "4b530196" }', "sources[0].at", "malformed sentence locator"),
    ('{ doc = "rulebook", at = "Scoring/s2", fp = "4b530196" }', "sources[0].at", "malformed sentence locator"),
    ('{ doc = "rulebook", at = "scoring/s0", fp = "4b530196" }', "sources[0].at", "malformed sentence locator"),
    ('{ doc = "rulebook", at = "scorin/s2", fp = "4b530196" }', "sources[0].at", "has no section 'scorin'"),
    ('{ doc = "rulebook", at = "scoring/s99", fp = "4b530196" }', "sources[0].at", "has 19 sentences, not 99"),
    ('{ doc = "rulebook", at = "scoring/s2", fp = "4B530196" }', "sources[0].fp", "malformed fingerprint"),
    ('{ doc = "rulebook", at = "scoring/s2", fp = "4b5301" }', "sources[0].fp", "malformed fingerprint"),
    ('{ doc = "rulebook", at = "scoring/s2" }', "sources[0].at", "cited sentence by sentence"),
    ('{ doc = "rulebook", where = "Scoring, step 1" }', "sources[0].where", "cited sentence by sentence"),
    ('{ doc = "rulebook", at = "scoring/s2", fp = "4b530196", where = "x" }', "sources[0].where",
     "cited sentence by sentence"),
    ('{ doc = "reference-components", at = "scoring/s2", fp = "4b530196" }', "sources[0].where",
     "cited by a 'where' text"),
])
def test_malformed_sentence_citation(spec_copy: Path, new: str, field: str, message: str) -> None:
    err = _source_error(spec_copy, new)
    assert err.field == field and message in err.message, str(err)


def test_the_same_sentence_cited_twice(spec_copy: Path) -> None:
    f = spec_copy / "azul_duel" / "07-scoring.toml"
    _edit(f, ISOLATED_SOURCE, ISOLATED_SOURCE + ",\n  " + ISOLATED_SOURCE)
    err = _only_error(spec_copy)
    assert err.clause == "duel.score.isolated" and "cited twice" in err.message


def test_second_source_entry_is_located_by_line(spec_copy: Path) -> None:
    f = spec_copy / "azul_duel" / "07-scoring.toml"
    _edit(f, '{ doc = "summary-de", at = "seiten-9-und-8/s1", fp = "201f2ffe" }',
          '{ doc = "summary-de", at = "seite-9/s1", fp = "201f2ffe" }')
    err = _only_error(spec_copy)
    assert (err.clause, err.field, err.line) == ("duel.score.isolated", "sources[1].at", 12)


def test_document_section_table_is_checked(spec_copy: Path) -> None:
    _edit(spec_copy / "documents.toml", 'layout = "toc"', 'layout = "chapters"')
    err = _only_error(spec_copy)
    assert err.field == "document[0].layout" and "toc" in err.message


@pytest.mark.parametrize(("old", "new", "field", "message"), [
    ('at = "game-setup/s4"', 'at = "game-setup/4"', "exclude[1].at", "malformed sentence locator"),
    ('at = "credits"', 'at = "credit"', "exclude[5].at", "has no section 'credit'"),
    ('doc = "summary-de"\nat = "front-matter"', 'doc = "classic-guide"\nat = "front-matter"', "exclude[11].doc",
     "not a sentence-traced document"),
    ('fp = "ecf4640c"', 'fp = "nothex!!"', "exclude[1].fp", "malformed fingerprint"),
    ('reason = "Closing remark', 'reasons = "Closing remark', "exclude[2].reasons", "unknown field"),
])
def test_malformed_exclusion(spec_copy: Path, old: str, new: str, field: str, message: str) -> None:
    _edit(spec_copy / "azul_duel" / "trace-exclusions.toml", old, new)
    err = _only_error(spec_copy)
    assert err.file.endswith("trace-exclusions.toml") and err.line is not None
    assert err.field == field and message in err.message, str(err)


@pytest.mark.parametrize(("new", "message"), [
    ("end-of-phase-one/s4", "no document has a section 'end-of-phase-one'"),
    ("end-of-phase-1/s8", "section 'end-of-phase-1' has 7 sentences"),
    ("end-of-phase-1/s4-s9", "section 'end-of-phase-1' has 7 sentences"),
])
def test_locators_in_notes_and_support_texts_must_exist(spec_copy: Path, new: str, message: str) -> None:
    f = spec_copy / "azul_duel" / "05-end-of-acquisition.toml"
    text = f.read_text()
    old = "close-the-acquisition-phase/s4, end-of-phase-1/s4)"
    assert old in text
    f.write_text(text.replace(old, f"close-the-acquisition-phase/s4, {new})"))
    err = _only_error(spec_copy)
    assert (err.clause, err.field) == ("duel.acquire.pass", "note") and message in err.message, str(err)
