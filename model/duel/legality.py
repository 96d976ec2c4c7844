"""The legality predicate, written independently of generation (model.duel.generation)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from model.duel.actions import Action, Kind
from model.duel.bonus import bonus_valid
from model.duel.colours import COLOURS, EMPTY
from model.duel.dome import matching_cells
from model.duel.state import Player

if TYPE_CHECKING:
    from model.duel.engine import Game

_TURN_KINDS = frozenset({Kind.TAKE_PLATE, Kind.DRAW_PLATE, Kind.SUN, Kind.MOON, Kind.CHIP, Kind.PASS})
_DECISION_CLAUSE = {
    Kind.KEEP_PLATE: "duel.acquire.plate.keep-one", Kind.PLACE_PLATE: "duel.acquire.plate.placement",
    Kind.RETURN_PLATE: "duel.acquire.plate.keep-one", Kind.STACK: "duel.acquire.sun.small-leftovers",
    Kind.LINE: "duel.lines.one-line", Kind.BONUS: "duel.bonus.complete-line",
    Kind.NO_BONUS: "duel.bonus.complete-line", Kind.TILE: "duel.tiling.move-rightmost",
}


# How many arguments each kind of action carries (None: one or more). An action built by hand with
# more or fewer is not an action of the game (duel.acquire.actions), whatever its first arguments say.
_ARITY: dict[Kind, tuple[int, ...] | None] = {
    Kind.TAKE_PLATE: (1,), Kind.DRAW_PLATE: (0,), Kind.KEEP_PLATE: (1,), Kind.PLACE_PLATE: (2,),
    Kind.RETURN_PLATE: (1,), Kind.SUN: (2,), Kind.STACK: None, Kind.MOON: (1,), Kind.LINE: (1, 2),
    Kind.CHIP: (1,), Kind.BONUS: None, Kind.NO_BONUS: (0,), Kind.TILE: (1,), Kind.PASS: (0,),
}


# The actions each open decision accepts, and the clause that refuses any other.
_EXPECTED: dict[str, tuple[Kind, ...]] = {
    "opening": (Kind.TAKE_PLATE,), "draw": (Kind.DRAW_PLATE, Kind.KEEP_PLATE), "place": (Kind.PLACE_PLATE,),
    "return": (Kind.RETURN_PLATE,), "stack": (Kind.STACK,), "line": (Kind.LINE,),
    "bonus": (Kind.BONUS, Kind.NO_BONUS), "tile": (Kind.TILE,)}
_PENDING_CLAUSE: dict[str, str] = {
    "opening": "duel.setup.opening-plates", "draw": "duel.acquire.plate.keep-one",
    "place": "duel.acquire.plate.placement", "return": "duel.acquire.plate.keep-one",
    "stack": "duel.acquire.sun.small-leftovers", "line": "duel.lines.one-line",
    "bonus": "duel.bonus.complete-line", "tile": "duel.tiling.move-rightmost"}


def why_illegal(g: Game, a: Action) -> tuple[str, str] | None:
    """None if `a` is legal now, else (clause id, reason)."""
    s, rules = g.state, g.rules
    if s.phase == "game_over":
        return "duel.end.after-round-5", "the game is over"
    if g.is_stalled:
        return "duel.acquire.end", "nobody can act (the phase is stalled)"
    p = s.pending
    k = a.kind
    arity = _ARITY[k]
    if (len(a.args) not in arity) if arity is not None else not a.args:
        return "duel.acquire.actions", f"a '{k.name.lower()}' action with {len(a.args)} argument(s) is not an action of the game"
    if p is not None and k not in _EXPECTED[p.kind]:
        return _PENDING_CLAUSE[p.kind], f"a '{p.kind}' decision must be made first"
    if p is None and (s.phase != "acquisition"):
        return "duel.acquire.actions", f"no decision is open in phase {s.phase}"
    if p is None and k not in _TURN_KINDS:
        return _DECISION_CLAUSE[k], f"'{a}' answers a decision that is not open"
    who = g.current_player
    pl = s.players[who]
    args = a.args
    if k is Kind.TAKE_PLATE:
        if not 0 <= args[0] < 3 or not s.display[args[0]]:
            return "duel.acquire.plate.display", f"display space {args[0] + 1} is empty"
        if p is None:
            return token_problem(g, pl)
        return None
    if k is Kind.DRAW_PLATE:
        if p is None:
            problem = token_problem(g, pl)
            if problem:
                return problem
        if not s.pile:
            return "duel.acquire.plate.draw", "the plate pile is empty"
        if rules.draw_needs_points and pl.score < 1:
            return "duel.acquire.plate.draw", "a draw costs 1 point and the player has 0 (must-pay)"
        return None
    if k is Kind.KEEP_PLATE:
        assert p is not None
        return None if args[0] in p.extra else ("duel.acquire.plate.keep-one", f"P{args[0]:02d} was not drawn")
    if k is Kind.PLACE_PLATE:
        slot, rot = args
        if not 0 <= slot < 9 or pl.plates[slot]:
            return "duel.acquire.plate.placement", f"Dome space {slot + 1} is not empty"
        return None if 0 <= rot < 4 else ("duel.acquire.plate.placement", "rotation is r0-r3")
    if k is Kind.RETURN_PLATE:
        assert p is not None
        return None if args[0] in p.extra else ("duel.acquire.plate.keep-one", f"P{args[0]:02d} is not in hand")
    if k is Kind.SUN:
        f, c = args
        fac_sun = s.large.sun if f == 0 else (s.small[f - 1].sun if 1 <= f <= 4 else None)
        if not 0 <= c < len(COLOURS):
            return "duel.acquire.sun.take-colour", f"colour {c} is not one of the {len(COLOURS)} colours"
        if fac_sun is None or not fac_sun[c]:
            return "duel.acquire.sun.take-colour", f"no {COLOURS[c]} tile on that Factory's sun"
        return None
    if k is Kind.STACK:
        assert p is not None
        if sorted(args) != sorted(p.extra):
            return "duel.acquire.sun.small-leftovers", "the stack must hold exactly the leftover tiles"
        return None
    if k is Kind.MOON:
        c = args[0]
        if not 0 <= c < len(COLOURS):
            return "duel.acquire.moon.take-colour", f"colour {c} is not one of the {len(COLOURS)} colours"
        if s.large.moon[c] or any(f.moon and f.moon[-1] == c for f in s.small):
            return None
        if any(c in f.moon for f in s.small):
            return "duel.acquire.moon.top-tile-only", f"no {COLOURS[c]} tile on top of a moon stack"
        return "duel.acquire.moon.take-colour", f"no exposed {COLOURS[c]} tile on any moon"
    if k is Kind.LINE:
        assert p is not None
        colour, n = p.data
        line = args[0]
        if line == 0:
            return None
        if not 1 <= line <= 6:
            return "duel.lines.capacity", "pattern lines are 1-6"
        i = line - 1
        if pl.line_colour[i] not in (EMPTY, colour):
            return "duel.lines.same-colour", f"line {line} holds {COLOURS[pl.line_colour[i]]}"
        room = line - pl.line_count[i]
        if room == 0:
            return "duel.lines.capacity", f"line {line} is already complete (use 'broken')"
        if len(args) > 1:
            if not rules.any_split:
                return "duel.lines.one-line", "breaking part of a batch needs the any-split reading"
            if not 1 <= args[1] < min(n, room):
                return "duel.lines.one-line", f"x{args[1]} must be below {min(n, room)}"
        return None
    if k is Kind.CHIP:
        f = args[0]
        if not 1 <= f <= 4 or not s.small[f - 1].chip:
            return "duel.acquire.chip.take", "no Bonus chip on that Factory"
        if not s.small[f - 1].chip_revealed:
            return "duel.acquire.chip.accessible", f"Factory {f} still holds tiles; its chip is hidden"
        if rules.chip_cap and pl.chips_this_round >= 2:
            return "duel.acquire.chip.limit", "the player already took 2 Bonus chips this round"
        return None
    if k is Kind.PASS:
        if can_act(g, who):
            return "duel.acquire.pass", "a player who can act may not pass"
        return None
    if k is Kind.BONUS:
        assert p is not None
        line = p.data[0]
        why = bonus_valid(pl, pl.line_colour[line], line + 1 - pl.line_count[line], args, rules.tables)
        return ("duel.bonus.complete-line", why) if why else None
    if k is Kind.NO_BONUS:
        return None
    if k is Kind.TILE:
        assert p is not None
        line = p.data[0]
        cell = line * 6 + args[0]
        if cell not in matching_cells(pl, line, pl.line_colour[line]):
            return "duel.tiling.move-rightmost", f"column {args[0] + 1} of row {line + 1} cannot take the tile"
        return None
    return "duel.acquire.actions", f"unknown action {a}"


def token_problem(g: Game, pl: Player) -> tuple[str, str] | None:
    if g.state.round >= 5:
        return "duel.acquire.plate.tokens-required", "no Player tokens are used in round 5"
    if pl.tokens_used >= 2:
        return "duel.acquire.plate.token", "both Player tokens are already used this round"
    if 0 not in pl.plates:
        return "duel.acquire.plate.placement", "the Dome has no empty space for another plate"
    return None


def can_act(g: Game, who: int) -> bool:
    """Predicate form of 'has some action other than pass' (separate from generation)."""
    s, rules = g.state, g.rules
    pl = s.players[who]
    if s.round < 5 and pl.tokens_used < 2 and 0 in pl.plates and (
            any(s.display) or (s.pile and (pl.score > 0 or not rules.draw_needs_points))):
        return True
    if s.large.has_tiles or any(f.has_tiles for f in s.small):
        return True
    return any(f.chip and f.chip_revealed for f in s.small) and (
        pl.chips_this_round < 2 or not rules.chip_cap)
