"""Legal-action generation, kept apart from the legality predicate (model.duel.legality); tests check
that the two agree on every state of random games."""

from __future__ import annotations

import functools
from itertools import permutations
from typing import TYPE_CHECKING

from model.clauses import cite, cite_alternative
from model.duel.actions import Action, Kind, act, sort_key
from model.duel.bonus import bonus_options
from model.duel.colours import EMPTY
from model.duel.state import Pending

if TYPE_CHECKING:
    from model.duel.engine import Game

PASS = act(Kind.PASS)
TAKE = tuple(act(Kind.TAKE_PLATE, i) for i in range(3))
SUN = tuple(tuple(act(Kind.SUN, f, c) for c in range(5)) for f in range(5))
MOON = tuple(act(Kind.MOON, c) for c in range(5))
CHIP = tuple(act(Kind.CHIP, f) for f in range(5))
PLACE = tuple(tuple(act(Kind.PLACE_PLATE, slot, r) for r in range(4)) for slot in range(9))
LINE = tuple(act(Kind.LINE, line) for line in range(7))
DRAW = act(Kind.DRAW_PLATE)
NO_BONUS = act(Kind.NO_BONUS)


@functools.cache
def _sun_actions(factory: int, *sun: int) -> tuple[Action, ...]:
    """Sun picks on a Factory whose sun holds `sun` tiles per colour (few distinct contents occur)."""
    return tuple(SUN[factory][c] for c in range(5) if sun[c])


@functools.cache
def _moon_actions(*exposed: int) -> tuple[Action, ...]:
    """Moon picks for the colours with an exposed moon tile."""
    return tuple(MOON[c] for c in range(5) if exposed[c])


@functools.cache
def _stack_orders(leftover: tuple[int, ...]) -> tuple[Action, ...]:
    """Every distinct order (bottom to top) of a small Factory's leftover tiles, sorted."""
    return tuple(act(Kind.STACK, *order) for order in sorted(set(permutations(leftover))))

_UNSORTED_DECISIONS = frozenset({"draw", "return", "bonus"})


def _may_draw(score: int, needs_points: bool) -> bool:
    """A face-down draw is offered unless must-pay applies at 0 points (recorded as deciding)."""
    if score > 0 or not needs_points:
        return True
    cite_alternative("duel.plate.draw-at-zero", "must-pay")
    return False


def legal_actions(g: Game) -> list[Action]:
    """Every legal action, sorted. Empty when the game is over or stalled."""
    s = g.state
    p = s.pending
    if p is not None:
        out = pending_actions(g, p)
        if p.kind in _UNSORTED_DECISIONS:
            out.sort(key=sort_key)
        return out
    if s.phase == "acquisition" and s.to_move >= 0:
        # generated in key order already: plates, draw, suns (large, then 1-4), moons, chips
        return turn_actions(g, s.to_move) or [PASS]
    return []


def turn_actions(g: Game, who: int) -> list[Action]:
    s, rules = g.state, g.rules
    pl = s.players[who]
    out: list[Action] = []
    if s.round < 5 and pl.tokens_used < 2 and 0 in pl.plates:
        d = s.display
        if d[0]:
            out.append(TAKE[0])
        if d[1]:
            out.append(TAKE[1])
        if d[2]:
            out.append(TAKE[2])
        if s.pile and _may_draw(pl.score, rules.draw_needs_points):
            out.append(DRAW)
    large = s.large
    lsun, lmoon = large.sun, large.moon
    if lsun[0] or lsun[1] or lsun[2] or lsun[3] or lsun[4]:
        out += _sun_actions(0, *lsun)
    exposed = [lmoon[0], lmoon[1], lmoon[2], lmoon[3], lmoon[4]]
    f = 0
    for fac in s.small:
        f += 1
        sun = fac.sun
        if sun[0] or sun[1] or sun[2] or sun[3] or sun[4]:
            out += _sun_actions(f, *sun)
        elif fac.moon:
            exposed[fac.moon[-1]] = 1
    out += _moon_actions(*exposed)
    if pl.chips_this_round < 2 or not rules.chip_cap:
        f = 0
        for fac in s.small:
            f += 1
            if fac.chip_revealed and fac.chip:
                out.append(CHIP[f])
    elif any(fac.chip_revealed for fac in s.small):
        cite("duel.acquire.chip.limit")
        cite_alternative("duel.chips.per-round", "hard-cap")
    return out


def pending_actions(g: Game, p: Pending) -> list[Action]:
    s, rules = g.state, g.rules
    pl = s.players[p.player]
    k = p.kind
    if k == "line":                    # the commonest decision first
        colour, n = p.data
        counts, colours = pl.line_count, pl.line_colour
        out = [LINE[0]]
        for line in range(6):
            room = line + 1 - counts[line]
            if room and colours[line] in (EMPTY, colour):
                out.append(LINE[line + 1])
                if rules.any_split:
                    out.extend(act(Kind.LINE, line + 1, x) for x in range(1, min(n, room)))
        return out
    if k == "opening":
        return [act(Kind.TAKE_PLATE, i) for i in range(3) if s.display[i]]
    if k == "draw":
        out = [act(Kind.KEEP_PLATE, pid) for pid in p.extra]
        if s.pile and _may_draw(pl.score, rules.draw_needs_points):
            out.append(DRAW)
        return out
    if k == "place":
        return [a for slot in range(9) if not pl.plates[slot] for a in PLACE[slot]]
    if k == "return":
        return [act(Kind.RETURN_PLATE, pid) for pid in p.extra]
    if k == "stack":
        return list(_stack_orders(p.extra))
    if k == "bonus":
        line = p.data[0]
        missing = line + 1 - pl.line_count[line]
        options = bonus_options(pl, pl.line_colour[line], missing, rules.tables)
        if pl.chips != sorted(pl.chips):          # a chip set is named in id order
            options = [tuple(sorted(ids)) for ids in options]
        out = [Action(Kind.BONUS, ids) for ids in options]   # many, rarely repeated: not shared
        out.append(NO_BONUS)
        return out
    if k == "tile":
        return [act(Kind.TILE, cell % 6) for cell in p.extra]
    raise AssertionError(f"unknown pending decision {k}")
