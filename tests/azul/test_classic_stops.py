"""Classic scenarios' `stop = "end-of-offer"` (harness/azul/scenarios/stops.py): the run halts between
the round's last take and its wall-tiling; a stop that is never reached, steps left after it and an
unknown stop name are failures or load errors naming the field; and a stopped game resumed runs the
rest of the step exactly as the model does (random games played both ways)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from harness.azul.scenarios.stops import StoppingGame
from harness.scenarios import load_scenario, run_scenario
from model.azul import new_game
from model.azul.state import OFFER
from tests.scenario_helpers import refusal, write_scenario

ROOT = Path(__file__).resolve().parents[2]
STOP_FILE = ROOT / "fixtures" / "azul" / "stops" / "end-of-offer-floor-order.toml"

LAST_TAKE = '''game = "azul"
id = "t.stop"
description = "the last take, stopped before wall-tiling"
clauses = ["azul.offer.end"]
stop = "end-of-offer"
when = ["take F1 red line 2"]

[given]
factories = { F1 = "RR" }

[then]
p1 = { lines = ["", "RR"], wall = [".....", ".....", ".....", ".....", "....."] }
factories = { F1 = "" }
phase = "offer"
invariants = "all"
'''


@pytest.mark.clause("azul.offer.end", "azul.wall.complete-only")
def test_a_run_stops_after_the_last_take_before_wall_tiling(tmp_path: Path) -> None:
    result = run_scenario(load_scenario(write_scenario(tmp_path, LAST_TAKE)))
    assert result.passed, result.diffs
    without = run_scenario(load_scenario(write_scenario(tmp_path, LAST_TAKE.replace('stop = "end-of-offer"\n', ""))))
    assert any("then.p1.lines" in d for d in without.diffs)       # tiled at once without the stop


@pytest.mark.clause("azul.offer.end")
def test_a_stop_never_reached_and_steps_after_it_fail(tmp_path: Path) -> None:
    early = LAST_TAKE.replace('F1 = "RR"', 'F1 = "RR", F2 = "BB"')
    result = run_scenario(load_scenario(write_scenario(tmp_path, early)))
    assert "stop: expected the run to stop at end-of-offer, but it ended in offer of round 1" in result.diffs
    late = LAST_TAKE.replace('when = ["take F1 red line 2"]', 'when = ["take F1 red line 2", "take F2 blue line 1"]')
    result = run_scenario(load_scenario(write_scenario(tmp_path, late)))
    assert "stop: the run stopped at end-of-offer with 1 step(s) of 'when' left unplayed" in result.diffs


def test_an_unknown_stop_is_a_load_error_with_a_suggestion(tmp_path: Path) -> None:
    err = refusal(tmp_path, LAST_TAKE, 'stop = "end-of-offer"', 'stop = "end-of-ofer"')
    assert "field 'stop': expected one of end-of-offer (did you mean 'end-of-offer'?)" in str(err)


def test_the_stop_fixture_passes_and_needs_its_stop(tmp_path: Path) -> None:
    assert run_scenario(load_scenario(STOP_FILE)).passed
    text = STOP_FILE.read_text().replace('stop = "end-of-offer"\n', "")
    result = run_scenario(load_scenario(write_scenario(tmp_path, text)))
    assert not result.passed and any("then.p1.floor" in diff for diff in result.diffs)


@pytest.mark.parametrize("players, wall", [(2, "coloured"), (3, "gray"), (4, "coloured")])
def test_a_stopped_game_resumed_plays_as_the_model(players: int, wall: str) -> None:
    """Every round's end of six random games: stop, resume, and compare state and events with the
    model playing the same take in one step."""
    stops = 0
    for seed in range(6):
        plain = new_game(players, seed=seed, wall=wall)
        stopping = StoppingGame(new_game(players, seed=seed, wall=wall), "end-of-offer")
        rng = random.Random(seed)
        for _ in range(400):                          # bounded: a game takes well under 400 actions
            if plain.is_over or plain.is_stalled:
                break
            action = rng.choice(plain.legal_actions())
            want = plain.apply(action)
            got = stopping.apply(action)
            if stopping.stopped is not None:
                stops += 1
                s = stopping.state
                assert s.phase == OFFER and not s.tiles_on_offer()
                got = got + stopping.resume()
            assert got == want and stopping.state == plain.state
    assert stops >= 6
