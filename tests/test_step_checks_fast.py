"""The step checks' shortcuts (issue 13: checked play faster) report what the checks written out in
full report: the sun check skips the suns a step left alone and steps that refill, the phase changes
are read from a step's events once."""

from __future__ import annotations

import random

from model.duel import new_game
from model.duel.actions import Kind, act
from model.duel.state import GameState
from properties.duel.factories import sun_picked_once
from properties.duel.policy import uniform
from properties.duel.steps import check_step


def _acquisition_state() -> GameState:
    game, rng = new_game(seed=2), random.Random(2)
    for _ in range(400):                              # bounded: round 1's Acquisition comes early
        s = game.state
        if s.phase == "acquisition" and s.pending is None and any(any(f.sun) for f in s.small):
            return s.copy()
        game.apply(uniform(game, game.legal_actions(), rng))
    raise AssertionError("no Acquisition turn in the seeded game")


def test_a_sun_that_gains_tiles_outside_a_refill_is_reported() -> None:
    a = _acquisition_state()
    for f in range(5):
        b = a.copy()
        (b.large if f == 0 else b.small[f - 1]).sun[3] += 1
        label = "the large Factory" if f == 0 else f"small Factory {f}"
        assert sun_picked_once(a, b, None, ("acquisition",)) == [f"{label}'s sun gained tiles outside a refill"]
        assert sun_picked_once(a, b, None, ("acquisition", "dome_tiling", "preparation", "acquisition")) == []


def test_a_sun_pick_that_leaves_tiles_is_reported() -> None:
    a = _acquisition_state()
    f = next(f for f in range(1, 5) if any(a.small[f - 1].sun))
    colour = next(c for c in range(5) if a.small[f - 1].sun[c])
    action = act(Kind.SUN, f, colour)
    assert action.kind is Kind.SUN
    assert sun_picked_once(a, a.copy(), action, ("acquisition",)) == [f"'{action}' left tiles on that sun"]
    assert sun_picked_once(a, a.copy(), action, ("acquisition", "preparation")) == []


def test_every_step_of_a_whole_game_passes_the_step_checks_with_its_phase_changes_read_once() -> None:
    game, rng = new_game(seed=5), random.Random(5)
    n = 0
    while not game.is_over and n < 400:              # a whole game: every kind of phase change
        before = game.state.copy()
        action = uniform(game, game.legal_actions(), rng)
        events = game.apply(action)
        n += 1
        assert check_step(before, game, events, n, 0, action=action) == []
    assert game.is_over


def test_a_silent_score_change_is_reported_and_a_quiet_step_passes() -> None:
    from properties.duel.steps import score_accounting

    a = _acquisition_state()
    assert score_accounting(a, a.copy(), []) == []
    for who in (0, 1):
        b = a.copy()
        b.players[who].score += 2
        assert score_accounting(a, b, []) == [f"P{who + 1}'s score changed by +2 but the step's events add up to +0"]


def test_a_chip_slipped_under_a_factory_moved_is_seen_whatever_else_changed() -> None:
    """The identity check leaves out a small Factory only when its chip stayed (every step that
    changes no Factory skips that test at once)."""
    from properties.duel.flows import _identity_regions, table_delta

    a = _acquisition_state()
    f = next(f for f, fac in enumerate(a.small) if fac.chip)
    b = a.copy()
    b.small[f].chip_revealed = not b.small[f].chip_revealed
    regions = table_delta(a, b)[1]
    assert _identity_regions(a, b, regions) == {f"small{f + 1}"}
    c = a.copy()
    c.small[f].sun[0] += 1                   # tiles only: no identity moved
    assert _identity_regions(a, c, table_delta(a, c)[1]) == frozenset()
    d = a.copy()
    d.pile.reverse()
    assert _identity_regions(a, d, table_delta(a, d)[1]) == table_delta(a, d)[1]
