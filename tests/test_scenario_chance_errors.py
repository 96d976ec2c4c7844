"""A scenario whose scripted chance cannot happen fails with one line naming the file, the field
`chance.tiles` and the colour, never with a traceback (blind-audit follow-up, 2026-12-01)."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from harness.scenarios import ScenarioError, load_scenario
from model.chance import ChanceScriptError
from tests.scenario_helpers import write_scenario

FIXTURE = Path("fixtures/duel/interpretations/monochrome-unavoidable-tower-yellow-accept.toml")


def _black_scripted(tmp_path: Path) -> Path:
    text = FIXTURE.read_text()
    assert "\n[then]\n" in text
    return write_scenario(tmp_path, text.replace("\n[then]\n", '\n[chance]\ntiles = "K"\n[then]\n', 1))


def test_a_refill_of_the_given_phase_that_cannot_draw_the_scripted_tile_names_field_and_colour(tmp_path: Path) -> None:
    with pytest.raises(ScenarioError) as err:
        load_scenario(_black_scripted(tmp_path))
    text = str(err.value)
    assert "chance.tiles" in text and "scripted tile black is not in the bag" in text
    assert "s.toml:" in text                            # the file with the field's line


def test_the_cli_says_it_in_one_line_without_a_traceback(tmp_path: Path) -> None:
    from harness.cli import cli

    run = CliRunner().invoke(cli, ["scenario", str(_black_scripted(tmp_path))])
    assert "Traceback" not in run.output and run.exception is None or isinstance(run.exception, SystemExit)
    assert "field 'chance.tiles': scripted tile black is not in the bag" in run.output


def test_a_step_whose_draw_cannot_happen_fails_the_scenario_naming_chance_tiles(monkeypatch: pytest.MonkeyPatch) -> None:
    from harness.duel.scenarios.runner import run_scenario
    from model.base import GameBase

    scenario = load_scenario(Path("fixtures/duel/findings/must-pay-strict-deadlock.toml"))

    def no_such_tile(self: GameBase, action: object) -> list:
        raise ChanceScriptError("scripted tile colour 3 is not in the bag", colour=3)

    monkeypatch.setattr(GameBase, "apply", no_such_tile)
    result = run_scenario(scenario)
    assert not result.passed
    assert any("chance.tiles: scripted tile black is not in the bag" in d for d in result.diffs), result.diffs


def test_classic_names_the_scripted_colour_the_bag_lacks_too(tmp_path: Path) -> None:
    """One shared wording for both games (harness.scenarios.problems.chance_problem)."""
    path = write_scenario(tmp_path, 'game = "azul"\nid = "azul.bad-chance"\ndescription = "x"\n'
                                    'clauses = ["azul.floor.penalties"]\n\n[given]\nphase = "tiling"\n'
                                    'factories = {}\ncentre = ""\nbag = { blue = 20 }\n\n[chance]\ntiles = "K"\n\n[then]\n')
    with pytest.raises(ScenarioError) as err:
        load_scenario(path)
    assert "chance.tiles" in str(err.value) and "scripted tile black is not in the bag" in str(err.value)


def test_showing_a_step_whose_draw_cannot_happen_is_one_line() -> None:
    from types import SimpleNamespace

    from harness.duel.scenario_commands import _apply_step
    from harness.errors import UserError

    class NoSuchTile:
        def apply(self, action: object) -> list:
            raise ChanceScriptError("scripted tile colour 3 is not in the bag", colour=3)

    step = SimpleNamespace(action="pass", field="when[0]")
    with pytest.raises(UserError, match=r"s\.toml: when\[0\]: chance.tiles: scripted tile black is not in the bag"):
        _apply_step(NoSuchTile(), SimpleNamespace(file="s.toml"), step)
