"""Duel matrix rows whose reading scores a tablet side the first game does not use choose the tablets
in play (properties/duel/hooks.py ROW_SETUPS, through the registry's `new_game` key "tablets"): such a
row decides something in play, and a counterexample from it names its tablets as a scenario does."""

from __future__ import annotations

from pathlib import Path

import pytest

from model.duel.game import TABLETS, start
from model.duel.ruleset import FIRST_GAME_TABLETS
from model.errors import RulesetError
from properties.matrix import row_setups, run_matrix
from properties.simulate import play_checked, write_failure

OUTER = "duel.tablet.outer-scope=outer-plates"
SIDES = ("colourful-rows", "outer-spaces", "wild-spaces")


@pytest.mark.clause("duel.setup.tablets")
def test_the_games_new_game_takes_the_tablets_beside_the_readings() -> None:
    game = start(seed=0, overrides={TABLETS: ",".join(SIDES), "duel.tablet.outer-scope": "outer-plates"})
    assert game.rules.tablets == SIDES and game.rules.choices["duel.tablet.outer-scope"] == "outer-plates"
    assert start(seed=0).rules.tablets == FIRST_GAME_TABLETS
    with pytest.raises(RulesetError, match="two sides of one tablet"):
        start(seed=0, overrides={TABLETS: "rows-complete,colourful-rows,diagonals"})


def test_a_tablet_row_is_played_with_its_tablets_and_decides_in_play() -> None:
    assert row_setups("duel")[OUTER].context == {TABLETS: ",".join(SIDES)}
    [row] = run_matrix(2, game="duel", only=[OUTER])
    assert row.label == f"{OUTER} [{TABLETS}={','.join(SIDES)}]" and row.overrides[TABLETS] == ",".join(SIDES)
    assert not row.broken and row.decided > 0, "the outer-plates reading never decided in play"


def test_a_counterexample_of_a_tablet_row_names_its_tablets_and_replays(tmp_path: Path) -> None:
    from harness.scenarios import load_scenario, run_scenario

    overrides = {TABLETS: ",".join(SIDES), "duel.tablet.outer-scope": "outer-plates"}
    report = play_checked(0, overrides, game="duel", max_steps=12)       # stops as a livelock at step 12
    assert report.failure is not None and len(report.actions_log) == 12
    path = write_failure(report, overrides, tmp_path)
    scenario = load_scenario(path)
    assert scenario.tablets == SIDES and scenario.interpretations == {"duel.tablet.outer-scope": "outer-plates"}
    assert run_scenario(scenario).passed, "the game's 12 steps replay under its tablets"
