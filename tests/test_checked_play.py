"""Checked play (properties.simulate) with incremental invariants: Dome consistency is checked after
every step where that step changed a Dome, the full state invariants every `full_every` steps and at
each phase end (issue 13). A broken state is still reported: at most `full_every` - 1 steps late,
always before the game ends; a Dome corruption at the step it happens."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from model.duel.colours import EMPTY, SPECIAL, WILD
from model.duel.engine import Game
from model.duel.state import SLOT_CELLS, GameState
from properties.duel.hooks import incremental_invariants
from properties.duel.invariants import changed_domes, dome_consistency
from properties.simulate import play_checked
from tests.catch_helpers import corrupt_at

SEED = 4


def _corrupt_at(monkeypatch: pytest.MonkeyPatch, step: int, corrupt: Callable[[GameState], None]) -> None:
    corrupt_at(monkeypatch, Game, step, corrupt)


def _leak_a_tile(state: GameState) -> None:
    state.bag[0] += 1             # a tile from nowhere: only the full tile-conservation check sees it


def _reshape_a_plate(state: GameState) -> None:
    """One space of P1's first plate changes kind (no tile moves: only Dome consistency sees it)."""
    pl = state.players[0]
    slot = next(s for s in range(9) if pl.plates[s])
    cell = next(c for c in SLOT_CELLS[slot] if pl.dome_tile[c] == EMPTY and pl.dome_space[c] != SPECIAL)
    pl.dome_space[cell] = WILD if pl.dome_space[cell] != WILD else 0


def _clean_run() -> tuple[int, list[tuple[int, tuple[str, int]]]]:
    """(steps, [(step, (phase, round)) at each step that ended a phase]) of the uncorrupted game."""
    import random

    from model.duel import new_game
    from properties.simulate import policies

    game, rng, choose = new_game(seed=SEED), random.Random(SEED), policies()["uniform"]
    ends, step = [], 0
    while not game.is_over:
        stage = (game.state.phase, game.state.round)
        game.apply(choose(game, game.legal_actions(), rng))
        step += 1
        if (game.state.phase, game.state.round) != stage:
            ends.append((step, (game.state.phase, game.state.round)))
    return step, ends


@pytest.mark.clause("duel.invariant.tile-conservation")
def test_a_corruption_mid_round_is_caught_by_the_next_full_check(monkeypatch: pytest.MonkeyPatch) -> None:
    steps, ends = _clean_run()
    first_end = ends[0][0]
    start = next(s for s, _ in ends if s > 0)          # setup is over: Acquisition of round 1 runs
    planted = start + 3
    next_end = next(s for s, _ in ends if s >= planted)
    assert next_end - planted > 12, "the planted step must lie mid-phase for this test to say anything"
    _corrupt_at(monkeypatch, planted, _leak_a_tile)
    every = 10
    report = play_checked(SEED, record=False, deep_every=0, policy="uniform", full_every=every)
    assert report.failure is not None and report.failure[0] == "tile-conservation"
    next_full = min(next_end, -(-planted // every) * every)
    assert report.failure_step == next_full, (planted, first_end, report.failure_step)
    assert report.failure_step - planted < every


@pytest.mark.clause("duel.invariant.tile-conservation")
def test_with_no_periodic_check_the_phase_end_still_catches_it(monkeypatch: pytest.MonkeyPatch) -> None:
    steps, ends = _clean_run()
    planted = steps - 2                                # in the last phase: only the game's end is left
    later = [s for s, _ in ends if s >= planted]
    _corrupt_at(monkeypatch, planted, _leak_a_tile)
    report = play_checked(SEED, record=False, deep_every=0, policy="uniform", full_every=10**6)
    assert report.failure is not None and report.failure[0] == "tile-conservation"
    assert report.failure_step == (later[0] if later else steps)


@pytest.mark.clause("duel.invariant.dome-consistency")
def test_the_incremental_check_catches_a_dome_corruption_at_its_step(monkeypatch: pytest.MonkeyPatch) -> None:
    steps, ends = _clean_run()
    planted = next(s for s, _ in ends if s > 0) + 5
    _corrupt_at(monkeypatch, planted, _reshape_a_plate)
    report = play_checked(SEED, record=False, deep_every=0, policy="uniform", full_every=10**6)
    assert report.failure is not None
    assert report.failure[0] == "dome-consistency" and "does not show" in report.failure[1]
    assert report.failure_step == planted


@pytest.mark.clause("duel.invariant.dome-consistency")
def test_incremental_dome_check_says_what_the_full_check_says_where_it_looks() -> None:
    import random

    from model.duel import new_game
    from properties.simulate import policies

    game, rng, choose = new_game(seed=SEED), random.Random(SEED), policies()["uniform"]
    for _ in range(40):                                 # setup places a plate on each Dome
        if game.state.players[0].plate_count:
            break
        game.apply(choose(game, game.legal_actions(), rng))
    before = game.copy()
    _reshape_a_plate(game.state)
    pl = game.state.players[0]
    cell = next(c for c in range(36) if pl.dome_space[c] != before.state.players[0].dome_space[c])
    pl.dome_tile[cell] = 4 if pl.dome_space[cell] != 4 else 3            # and a tile on a wrong space
    assert changed_domes(before.state, game.state) == [(0, [next(s for s in range(9) if cell in SLOT_CELLS[s])],
                                                         [cell])]
    found = [msg for _, _, msg in incremental_invariants(before, game, [])]
    assert found and found == dome_consistency(game)
    assert incremental_invariants(before, before.copy(), []) == []


def test_periodic_checks_play_the_same_games() -> None:
    """Same seed, same game, whatever the checking period (the clauses the model cites are the
    same ones; how often differs, since the full check's progress invariant generates the actions)."""
    every_step = [play_checked(s, deep_every=0, full_every=1) for s in range(2)]
    periodic = [play_checked(s, deep_every=0) for s in range(2)]
    for a, b in zip(every_step, periodic, strict=True):
        assert a.failure is None and b.failure is None
        assert (a.actions_log, a.scores, a.winner, a.branches, a.draws, a.substep_hits, set(a.clause_hits)) == \
            (b.actions_log, b.scores, b.winner, b.branches, b.draws, b.substep_hits, set(b.clause_hits))
