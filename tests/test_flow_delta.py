"""The movement check (component-flows) reads a step's change in one pass over the table
(`table_delta`, issue 13: checked play faster). It must be exactly the difference of the two
censuses and the regions `changed_regions` names, for steps of played games and for pairs of
positions far apart (where every pile has changed)."""

from __future__ import annotations

import random
from collections.abc import Iterator
from itertools import pairwise

from model.duel import new_game
from model.duel.state import GameState
from properties.duel.flows import census, changed_regions, table_delta
from properties.duel.policy import greedy, uniform

MAX_STEPS = 400


def _states(seed: int, policy) -> Iterator[GameState]:  # type: ignore[no-untyped-def]
    game, rng = new_game(seed=seed), random.Random(seed)
    yield game.state.copy()
    for _ in range(MAX_STEPS):
        if game.is_over:
            return
        game.apply(policy(game, game.legal_actions(), rng))
        yield game.state.copy()


def _by_census(a: GameState, b: GameState) -> dict:  # type: ignore[type-arg]
    old, new = census(a), census(b)
    return {k: new.get(k, 0) - old.get(k, 0) for k in old.keys() | new.keys() if new.get(k, 0) != old.get(k, 0)}


def _pairs() -> Iterator[tuple[GameState, GameState]]:
    for seed, policy in ((0, greedy), (1, uniform), (2, greedy)):
        states = list(_states(seed, policy))
        yield from pairwise(states)                               # every step
        yield from zip(states, states[17::17], strict=False)                  # far apart
        yield states[-1], states[0]                             # the game backwards


def test_the_delta_is_the_census_difference() -> None:
    n = 0
    for a, b in _pairs():
        delta, regions = table_delta(a, b)
        assert delta == _by_census(a, b)
        assert regions == changed_regions(a, b)
        n += 1
    assert n > 500


def test_a_tile_from_nowhere_shows_in_the_delta() -> None:
    a = next(_states(3, uniform))
    b = a.copy()
    b.players[1].dome_tile[7] = 2
    b.small[0].moon.append(4)
    delta, regions = table_delta(a, b)
    assert delta == {("tile:2", ("dome", 1, 1)): 1, ("tile:4", ("moon", 1, -1)): 1}
    assert regions == {"dome1", "small1"}


def _acquisition_state() -> GameState:
    """A position of round 1's Acquisition, with a chip in the bag-side supply."""
    for s in _states(5, uniform):
        if s.phase == "acquisition" and s.pending is None and s.chip_supply and any(f.chip for f in s.small):
            return s
    raise AssertionError("no Acquisition position in the seeded game")


def test_a_chip_slipped_under_a_factory_is_a_movement_no_flow_allows() -> None:
    """The identity check skips a small Factory whose chip did not change (its tiles have no
    identity), never one a chip entered."""
    from model.duel.actions import Action, Kind
    from properties.duel.flows import flow_violations

    a = _acquisition_state()
    b = a.copy()
    f = next(f for f, fac in enumerate(b.small) if fac.chip and not fac.chip_revealed)
    chip = b.chip_supply.pop(0)                   # swapped for the Factory's own chip
    b.chip_supply = sorted(b.chip_supply + [b.small[f].chip])
    b.small[f].chip = chip
    problems = flow_violations(a, b, Action(Kind.MOON, (0,)), ("acquisition",))
    assert any(f"chip C{chip:02d} from chip-supply to chip-hidden[{f + 1}]" in m for m in problems), problems


def test_tiles_leaving_a_factory_with_its_chip_in_place_are_no_chip_movement() -> None:
    from model.duel.actions import Action, Kind
    from properties.duel.flows import flow_violations

    a = _acquisition_state()
    f = next(f for f, fac in enumerate(a.small) if fac.chip and any(fac.sun))
    colour = next(c for c in range(5) if a.small[f].sun[c])
    b = a.copy()
    n = b.small[f].sun[colour]
    b.small[f].sun[colour] = 0
    b.small[f].moon += [c for c in range(5) for _ in range(b.small[f].sun[c])]
    b.small[f].sun = [0] * 5
    b.pending = None
    problems = flow_violations(a, b, Action(Kind.SUN, (f + 1, colour)), ("acquisition",))
    assert not [m for m in problems if "chip C" in m], problems
    assert n


def _one_field_changed(state: GameState) -> Iterator[tuple[str, GameState]]:
    """Copies of `state` with exactly one field of one part changed (every field of every part)."""
    import attrs

    def changed(value):  # type: ignore[no-untyped-def]
        if isinstance(value, bool):
            return not value
        if isinstance(value, int):
            return value + 1
        if isinstance(value, list):
            return [*value, 0] if not value or not isinstance(value[0], int) else [value[0] + 1, *value[1:]]
        if isinstance(value, tuple):
            return (*value, 1)
        return value

    parts = {"state": lambda s: s, "large": lambda s: s.large, "pending": lambda s: s.pending,
             **{f"small{f}": (lambda s, f=f: s.small[f]) for f in range(4)},
             **{f"player{w}": (lambda s, w=w: s.players[w]) for w in (0, 1)}}
    for part, get in parts.items():
        obj = get(state)
        for field in attrs.fields(type(obj)):
            if field.name in ("large", "small", "players", "pending"):
                continue
            b = state.copy()
            new = changed(getattr(obj, field.name))
            if new is not getattr(obj, field.name) and new != getattr(obj, field.name):
                setattr(get(b), field.name, new)
                yield f"{part}.{field.name}", b


def test_every_field_of_every_part_shows_in_the_changed_regions() -> None:
    """The one-pass delta compares fields one by one: a field it forgot would hide a change
    (a chip turned face up, a hand's picked tiles) that `changed_regions` sees."""
    a = next(s for s in _states(4, uniform) if s.pending is not None and s.pending.extra)
    n = 0
    for what, b in _one_field_changed(a):
        delta, regions = table_delta(a, b)
        assert regions == changed_regions(a, b), what
        assert delta == _by_census(a, b), what
        n += 1
    assert n > 30
