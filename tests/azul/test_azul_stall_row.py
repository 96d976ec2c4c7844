"""The matrix row `azul.prep.empty-round=stall` is decided (issue 12): uniform play never drains
all 100 tiles, so the row is decided by the committed witness
fixtures/azul/witnesses/decide-azul.prep.empty-round-stall-4p.toml, found by the round-level
explorer properties/azul/lockup_explorer.py (4 players); `azul.end.dead-game=stall` is decided by a
search witness too. The witness reaches a round with no tile at all, and the model's own citations
say which reading decided it. Checked play ends a stalled game as `stalled`, judged by the game's
invariants, not as a broken game; a game that never ends is still a livelock (docs/azul-dead-game.md
"Stalls in simulation")."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

import pytest

from harness.scenarios import load_scenario, run_scenario, scenario_api
from model.azul.game import Game
from model.clauses import recording
from properties.azul import policy
from properties.azul.hooks import LETTERS
from properties.azul.predicates import start
from properties.search.chance import ChanceRecord
from properties.search.replay import script_of
from properties.simulate import play_checked, write_failure

WITNESS = Path(__file__).resolve().parents[2] / "fixtures/azul/witnesses/decide-azul.prep.empty-round-stall-4p.toml"


def _replay(reading: str) -> tuple[Game, dict[tuple[str, str], int]]:
    """The witness's actions on its chance, under `reading` (strict script: every draw as recorded)."""
    data: dict[str, Any] = tomllib.loads(WITNESS.read_text())
    record = ChanceRecord(tiles=[LETTERS.index(c) for c in data["chance"]["tiles"]],
                          first=int(data["chance"]["first"][1:]) - 1)
    with recording() as rec:
        game = start(data["seed"], {"azul.prep.empty-round": reading}, data["given"]["players"],
                     script_of(record, data["seed"], True))
        for text in data["when"]:
            game.apply(next(a for a in game.legal_actions() if str(a) == text))
    return game, dict(rec.alternatives)


@pytest.mark.clause("azul.prep.partial-fill")
@pytest.mark.parametrize("reading", ("stall", "end-game"))
def test_the_witness_reaches_a_round_with_no_tile_and_the_reading_decides_it(reading: str) -> None:
    game, decided = _replay(reading)
    s = game.state
    assert not any(s.bag) and not any(s.lid) and not s.tiles_on_offer()
    assert sum(1 for b in s.boards for c in b.wall if c >= 0) + sum(sum(b.line_count) for b in s.boards) == 100
    assert decided.get(("azul.prep.empty-round", reading)) == 1
    assert game.is_stalled if reading == "stall" else game.is_over


def test_no_policy_steers_the_empty_round_any_more() -> None:
    """The `lock-up` policy was retired for the explorer's witness: the matrix plays the row uniform."""
    from properties.azul.hooks import ROW_SETUPS

    assert "azul.prep.empty-round=stall" not in ROW_SETUPS and set(policy.POLICIES) == {"uniform"}


@pytest.mark.clause("azul.prep.partial-fill")
def test_a_stall_the_reading_does_not_allow_breaks_the_stall_invariant(monkeypatch: pytest.MonkeyPatch) -> None:
    """A model that stalls under azul.prep.empty-round=end-game is caught by the `stall` invariant
    (the scenario runner asks the game's invariants about every stall): the witness, checked under
    end-game, fails on it."""
    from model.azul import round_end

    scenario = load_scenario(WITNESS)
    under_end_game = scenario_api("azul").with_readings(scenario, {"azul.prep.empty-round": "end-game"})

    def always_stall(state, rules, events):  # type: ignore[no-untyped-def]
        state.marker, state.phase, state.to_move = -1, "offer", -1
    monkeypatch.setattr(round_end, "empty_round", always_stall)
    result = run_scenario(under_end_game)
    caught = [d for d in result.diffs if "invariant stall broken" in d and "azul.prep.empty-round=end-game" in d]
    assert not result.passed and caught, result.diffs


STALL = {"azul.prep.empty-round": "stall"}


def test_no_legal_action_while_neither_over_nor_stalled_fails_with_a_counterexample(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """`progress` is no classic invariant: its counterexample names the entry's progress clauses
    (writing it raised KeyError before)."""
    from properties.registry import get_game

    monkeypatch.setattr(Game, "legal_actions", lambda self: [])
    report = play_checked(0, {}, game="azul", players=2, record=False)
    assert report.failure is not None and report.failure[0] == "progress" and not report.stalled
    text = write_failure(report, {}, tmp_path).read_text()
    assert all(c in text for c in get_game("azul").progress_clauses)


def _floor_only(game, actions, rng):  # type: ignore[no-untyped-def]
    """Every take to the floor line (always legal, azul.lines.to-floor): walls never change, yet they
    always could, so no rule ends the game."""
    return next(a for a in actions if str(a).endswith("floor"))


def test_a_real_livelock_still_fails_with_a_counterexample(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Players who floor every take never end the game (no rule ends it: test_floor_only_play_never_ends):
    not stalled, so the watchdog's livelock, replayable."""
    from properties.registry import get_game

    monkeypatch.setitem(policy.POLICIES, "floor-only", _floor_only)
    report = play_checked(3, STALL, policy="floor-only", game="azul", players=4, record=False, max_steps=400)
    assert report.failure is not None and report.failure[0] == "livelock" and not report.stalled
    text = write_failure(report, STALL, tmp_path, "floor-only").read_text()
    assert all(c in text for c in get_game("azul").progress_clauses)


def test_interpretations_plays_one_row_after_the_defaults_and_names_an_unknown_one(tmp_path: Path) -> None:
    import json

    from tests.cli_helpers import run_cli

    run = run_cli("interpretations", "--game", "azul", "--row", "azul.prep.empty-round=stal", "--games", "1")
    assert run.returncode == 2 and run.stderr.count("\n") == 1, run.stderr
    assert "did you mean 'azul.prep.empty-round=stall'?" in run.stderr
    run = run_cli("interpretations", "--game", "azul", "--row", "azul.prep.empty-round=stall", "--games", "7",
                  "--jobs", "1", "--out", str(tmp_path), "--json", str(tmp_path / "m.json"))
    assert run.returncode == 0, run.stdout[-2000:] + run.stderr
    rows = json.loads((tmp_path / "m.json").read_text())
    assert [r["label"].split(" [")[0] for r in rows] == ["defaults", "azul.prep.empty-round=stall"]
    # uniform play (no policy steers the row any more) never drains the tiles: the witness decides it
    assert (rows[1]["policy"], rows[1]["decided"], rows[1]["stalled"], rows[1]["broken"]) == ("uniform", 0, 0, {})
