"""The clause-link lint as a CI gate: any problem fails the suite."""

from __future__ import annotations

from pathlib import Path

from harness.coverage import lint
from spec import load_catalogue
from tests.conftest import spec_copy  # noqa: F401  (fixture)


def test_clause_links_are_clean() -> None:
    assert lint(load_catalogue()) == []


def test_lint_reports_a_clause_the_model_never_cites(spec_copy: Path) -> None:  # noqa: F811
    chapter = spec_copy / "azul_duel" / "09-end-of-game.toml"
    chapter.write_text(chapter.read_text() + '''
[[clause]]
id = "duel.end.fireworks"
revision = 1
title = "Fireworks"
kind = "end"
text = "Celebrate."
sources = [{ doc = "rulebook", at = "end-of-game/s1", fp = "49bc44ee" }]
''')
    problems = lint(load_catalogue(spec_copy))
    assert any(p.startswith("duel.end.fireworks: cited nowhere in model/") for p in problems)


def test_every_registered_game_lints_clean() -> None:
    from properties.registry import game_names
    from spec import default_catalogue

    for game in game_names():
        assert lint(default_catalogue(game)) == [], game
