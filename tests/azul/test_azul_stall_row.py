"""The matrix row `azul.prep.empty-round=stall` is decided (issue 12): uniform play never drains
all 100 tiles, so the row is played by `lock-up` with 4 players (properties/azul/policy.py,
properties/azul/hooks.py ROW_SETUPS); `azul.end.dead-game=stall` is decided by a search witness. A lock-up game
reaches a round with no tile at all, and the model's own citations say which reading decided it.
Checked play ends a stalled game as `stalled`, judged by the game's invariants, not as a broken
game; a game that never ends is still a livelock (docs/azul-dead-game.md "Stalls in simulation")."""

from __future__ import annotations

import random
import time
from pathlib import Path

import pytest

from model.azul.start import start
from model.clauses import recording
from properties.azul import policy
from properties.matrix import run_matrix
from properties.simulate import play_checked, run_campaign, write_failure

STALLING_SEED = 6          # a 4-player lock-up game that reaches the empty round (about 1 in 5 does)
MAX_ACTIONS = 3000         # the test's own bound: lock-up games end or loop well before it


def _play(reading: str, seed: int = STALLING_SEED):  # type: ignore[no-untyped-def]
    game = start(seed=seed, overrides={"azul.prep.empty-round": reading}, players=4)
    rng = random.Random(seed)
    with recording() as rec:
        for _ in range(MAX_ACTIONS):
            if game.is_over or game.is_stalled:
                break
            game.apply(policy.lock_up(game, game.legal_actions(), rng))
    return game, dict(rec.alternatives)


@pytest.mark.clause("azul.prep.partial-fill")
@pytest.mark.parametrize("reading", ("stall", "end-game"))
def test_lock_up_reaches_a_round_with_no_tile_and_the_reading_decides_it(reading: str) -> None:
    game, decided = _play(reading)
    s = game.state
    assert not any(s.bag) and not any(s.lid) and not s.tiles_on_offer()
    assert sum(1 for b in s.boards for c in b.wall if c >= 0) + sum(sum(b.line_count) for b in s.boards) == 100
    assert decided.get(("azul.prep.empty-round", reading)) == 1
    assert game.is_stalled if reading == "stall" else game.is_over


def test_one_lock_up_decision_is_bounded() -> None:
    """The round search visits at most LOCK_NODES positions: no decision of a whole game is slow."""
    game = start(seed=STALLING_SEED, overrides={"azul.prep.empty-round": "stall"}, players=4)
    rng = random.Random(STALLING_SEED)
    slowest = 0.0
    while not (game.is_over or game.is_stalled):
        t = time.perf_counter()
        action = policy.lock_up(game, game.legal_actions(), rng)
        slowest = max(slowest, time.perf_counter() - t)
        game.apply(action)
    assert slowest < 5.0


# --- the simulation and the matrix take a stall the reading allows as an outcome (issue 12) ---------

STALL = {"azul.prep.empty-round": "stall"}


def test_a_lock_up_game_that_stalls_ends_as_stalled_not_broken() -> None:
    report = play_checked(STALLING_SEED, STALL, policy="lock-up", game="azul", players=4, record=False,
                          full_every=1)
    assert report.failure is None, report.failure
    assert report.stalled and report.reason == "stalled" and report.winner is None


@pytest.mark.clause("azul.prep.partial-fill")
def test_a_stall_the_reading_does_not_allow_breaks_the_stall_invariant(monkeypatch: pytest.MonkeyPatch,
                                                                      tmp_path: Path) -> None:
    """A model that stalls under azul.prep.empty-round=end-game is caught by the `stall` invariant
    (the simulation asks the game's invariants about every stall), with a counterexample."""
    from model.azul import round_end

    def always_stall(state, rules, events):  # type: ignore[no-untyped-def]
        state.marker, state.phase, state.to_move = -1, "offer", -1
    monkeypatch.setattr(round_end, "empty_round", always_stall)
    report = play_checked(STALLING_SEED, {}, policy="lock-up", game="azul", players=4, record=False)
    assert report.failure is not None and report.failure[0] == "stall", report.failure
    assert "azul.prep.empty-round=end-game" in report.failure[1]
    path = write_failure(report, {}, tmp_path, "lock-up")
    assert 'clauses = ["azul.end.trigger"' in path.read_text()


def test_no_legal_action_while_neither_over_nor_stalled_fails_with_a_counterexample(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """`progress` is no classic invariant: its counterexample names the entry's progress clauses
    (writing it raised KeyError before)."""
    from model.azul.game import Game
    from properties.registry import get_game

    monkeypatch.setattr(Game, "legal_actions", lambda self: [])
    report = play_checked(0, {}, game="azul", players=2, record=False)
    assert report.failure is not None and report.failure[0] == "progress" and not report.stalled
    text = write_failure(report, {}, tmp_path).read_text()
    assert all(c in text for c in get_game("azul").progress_clauses)


@pytest.mark.clause("azul.end.trigger")
def test_the_same_starter_loop_of_lock_up_ends_as_a_dead_game() -> None:
    """Under the default same-starter reading, lock-up seed 3 is left with two blue tiles that only a
    seat which never starts could use (docs/azul-dead-game.md): the starter would floor them round
    after round. No wall can change, so azul.end.dead-game decides (default: the game ends) instead
    of the watchdog's livelock."""
    with recording() as rec:
        report = play_checked(3, {}, policy="lock-up", game="azul", players=4, record=False, max_steps=3000)
    assert report.failure is None and not report.stalled and report.rounds < 10
    assert rec.alternatives[("azul.end.dead-game", "end-game")] == 1


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


@pytest.mark.clause("azul.prep.partial-fill")
@pytest.mark.parametrize("reading", ("stall", "end-game"))
def test_the_matrix_row_setup_decides_and_passes_under_both_readings(reading: str, tmp_path: Path) -> None:
    """The row `azul.prep.empty-round=stall` is played as ROW_SETUPS says; 10 games (the ci profile's
    classic matrix) reach the empty round and hold every invariant, under the row's reading and
    under the default one alike."""
    from properties.azul.hooks import ROW_SETUPS

    setup = ROW_SETUPS["azul.prep.empty-round=stall"]
    assert (setup.policy, setup.players, setup.context) == ("lock-up", 4, {})
    campaign = run_campaign(10, 0, {"azul.prep.empty-round": reading}, game="azul",
                            players=4, policy="lock-up", deep_every=50)
    assert campaign.failures == [], [g.failure for g in campaign.failures]
    assert campaign.totals("alt_hits")[("azul.prep.empty-round", reading)] >= 1
    assert sum(g.stalled for g in campaign.games) == (campaign.totals("alt_hits")[("azul.prep.empty-round", "stall")])


def test_the_classic_matrix_shows_the_empty_round_row_deciding_and_holding(tmp_path: Path) -> None:
    """The empty-round stall reading decides in the ci profile's 10 games and breaks nothing (under the
    default same-starter reading: the loops of docs/azul-dead-game.md end as dead games, no livelock).
    The dead-game row is decided by its search witness (tests/azul/test_azul_matrix.py)."""
    label = "azul.prep.empty-round=stall"
    row, = run_matrix(10, 0, 1, tmp_path, game="azul", only=[label])
    assert row.label.startswith(label + " [") and "policy lock-up, 4 players" in row.label
    assert row.broken == {} and row.decided >= 1 and row.stalled == row.decided, row
    assert list(tmp_path.iterdir()) == []


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
    assert rows[1]["decided"] == rows[1]["stalled"] == 1 and rows[1]["broken"] == {}
