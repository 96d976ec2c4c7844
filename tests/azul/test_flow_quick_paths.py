"""Classic component flows settle most colours of a step without the matching (properties.azul.flows):
`_one_way` (every place left reaches every place entered) and `_greedy_fits` (a routing found place by
place). Both may only say "routable" where the exact matching (`_routable`) finds nothing, and a
tile sent where no flow takes it must still be named, also at a round's end where many lines empty
into walls and the lid at once and the quick tests are tried first."""

from __future__ import annotations

import random

from model.azul.actions import Action
from model.azul.colours import EMPTY, ROWS
from model.azul.start import start
from model.azul.state import AzulState
from model.events import Event
from properties.azul.flows import Loc, _greedy_fits, _one_way, _routable, flow_problems
from properties.azul.oracle import offer_ended

PLACES: tuple[Loc, ...] = tuple(("line", who, row) for who in range(2) for row in range(3)) + (
    ("lid", -1, -1), ("wall", 0, 0), ("wall", 1, 0))


def _instance(rng: random.Random) -> tuple[dict[Loc, int], dict[Loc, int], dict[Loc, frozenset[Loc]]]:
    places = rng.sample(PLACES, rng.randint(2, len(PLACES)))
    cut = rng.randint(1, len(places) - 1)
    out_of = {a: rng.randint(1, 3) for a in places[:cut]}
    into = {b: rng.randint(1, 3) for b in places[cut:]}
    reach = {a: frozenset(b for b in PLACES if b != a and rng.random() < 0.5) for a in PLACES}
    return out_of, into, reach


def test_the_quick_tests_never_pass_what_the_matching_refuses() -> None:
    rng = random.Random(24)
    settled = refused = 0
    for _ in range(3000):
        out_of, into, reach = _instance(rng)
        exact = _routable(out_of, into, reach)
        quick = _one_way(out_of, into, reach) or _greedy_fits(out_of, into, reach)
        if quick:
            settled += 1
            assert exact == [], (out_of, into, reach, exact)
        refused += bool(exact)
    assert settled > 300 and refused > 300, (settled, refused)     # both kinds of instance were drawn


def _round_end(seed: int) -> tuple[AzulState, AzulState, Action, list[Event]]:
    """(before, after, action, events) of the first step of a 2-player game that ends an offer and
    tiles walls."""
    game = start(seed=seed, players=2)
    rng = random.Random(seed)
    for _ in range(200):
        before = game.state.copy()
        action = rng.choice(game.legal_actions())
        events = game.apply(action)
        gained = [who for who in range(2) if game.state.boards[who].wall != before.boards[who].wall]
        if offer_ended(events) and gained:
            return before, game.state, action, events
    raise AssertionError("no round end with a wall tile in 200 steps")


def test_a_tile_laid_on_another_players_wall_at_the_round_end_is_named() -> None:
    found = 0
    for seed in range(6):
        before, after, action, events = _round_end(seed)
        assert flow_problems(before, after, action, events) == []       # the model's own step is lawful
        who = next(w for w in range(2) if after.boards[w].wall != before.boards[w].wall)
        other = 1 - who
        cell = next(c for c in range(ROWS * ROWS)
                    if before.boards[who].wall[c] == EMPTY != after.boards[who].wall[c])
        if after.boards[other].wall[cell] != EMPTY:
            continue
        after.boards[other].wall[cell], after.boards[who].wall[cell] = after.boards[who].wall[cell], EMPTY
        problems = flow_problems(before, after, action, events)
        assert any("moved" in m and f"P{other + 1} wall" in m for m in problems), problems
        found += 1
    assert found >= 3, found
