"""The rules of Azul Duel: a Game holds the state, the ruleset and the chance, and offers
`legal_actions()` (generation), `why_illegal()` (the legality predicate, written separately),
`apply()`, `is_over`, `outcome()`, `returns()` and `copy()`.

Phase changes go through the phase graph (model.phases); every rule site cites its clause.
"""

from __future__ import annotations

import functools
from itertools import combinations, permutations

from model.actions import Action, Kind, act, sort_key
from model.chance import Chance
from model.clauses import RECORDER, cite, cite_alternative, cite_edge
from model.colours import COLOURS, EMPTY, SPECIAL, WILD
from model.components import ComponentTables
from model.errors import IllegalAction
from model.events import Event, Outcome
from model.phases import check_transition
from model.ruleset import Ruleset
from model.scoring import broken_penalty, special_row_points, tablet_points, tile_points
from model.state import CELL_SLOT, SLOT_CELLS, GameState, Pending, Player
from model.supply import fill_factories, refill_display

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


def band_full(pl: Player, line: int) -> bool:
    """Are the 3 plates of the band of pattern line `line` (0-based) all placed?"""
    base = (line // 2) * 3
    return bool(pl.plates[base] and pl.plates[base + 1] and pl.plates[base + 2])


def matching_cells(pl: Player, line: int, colour: int) -> list[int]:
    """Empty cells of Dome row `line` on placed plates that accept `colour`."""
    row = line * 6
    out = []
    for c in range(row, row + 6):
        space = pl.dome_space[c]
        if pl.dome_tile[c] == EMPTY and (space == colour or space == WILD):
            out.append(c)
    return out


def bonus_options(pl: Player, colour: int, missing: int, tables: ComponentTables) -> list[tuple[int, ...]]:
    """Every set of chips (sorted id tuples) that replaces `missing` tiles of `colour`: each tile
    needs two chips showing the colour or any three chips (duel.bonus.complete-line)."""
    chips = pl.chips
    out: list[tuple[int, ...]] = []
    for size in range(2 * missing, 3 * missing + 1):
        if size > len(chips):
            break
        pairs = 3 * missing - size          # groups of two matching chips
        for combo in combinations(chips, size):
            if sum(colour in tables.chips[c - 1].colours for c in combo) >= 2 * pairs:
                out.append(combo)
    return out


def has_bonus_option(pl: Player, colour: int, missing: int, tables: ComponentTables) -> bool:
    """Whether any chip set can replace `missing` tiles: k matching pairs and missing-k triples need
    2k chips showing the colour and 2k + 3(missing - k) chips in all."""
    chips = pl.chips
    n = len(chips)
    if n < 2 * missing:
        return False
    matching = sum(colour in tables.chips[c - 1].colours for c in chips)
    return any(2 * k <= matching and n >= 3 * missing - k for k in range(missing + 1))


def bonus_valid(pl: Player, colour: int, missing: int, ids: tuple[int, ...],
                tables: ComponentTables) -> str | None:
    def chip_colours(c: int) -> tuple[int, ...]:
        return tables.chips[c - 1].colours
    if len(set(ids)) != len(ids) or any(i not in pl.chips for i in ids):
        return "those chips are not face up in the player's storage"
    size = len(ids)
    if not 2 * missing <= size <= 3 * missing:
        return f"{missing} missing tile(s) take 2 matching or 3 any chips each"
    pairs = 3 * missing - size
    if sum(colour in chip_colours(c) for c in ids) < 2 * pairs:
        return f"not enough chips showing {COLOURS[colour]} to form {pairs} pair(s)"
    return None


_UNSORTED_DECISIONS = frozenset({"draw", "return", "bonus"})
_TURN_KINDS = frozenset({Kind.TAKE_PLATE, Kind.DRAW_PLATE, Kind.SUN, Kind.MOON, Kind.CHIP, Kind.PASS})
_DECISION_CLAUSE = {
    Kind.KEEP_PLATE: "duel.acquire.plate.keep-one", Kind.PLACE_PLATE: "duel.acquire.plate.placement",
    Kind.RETURN_PLATE: "duel.acquire.plate.keep-one", Kind.STACK: "duel.acquire.sun.small-leftovers",
    Kind.LINE: "duel.lines.one-line", Kind.BONUS: "duel.bonus.complete-line",
    Kind.NO_BONUS: "duel.bonus.complete-line", Kind.TILE: "duel.tiling.move-rightmost",
}


class Game:
    """One game of Azul Duel."""

    __slots__ = ("state", "rules", "chance")

    def __init__(self, state: GameState, rules: Ruleset, chance: Chance) -> None:
        self.state = state
        self.rules = rules
        self.chance = chance

    # --- queries ---------------------------------------------------------------------------
    @property
    def current_player(self) -> int:
        """The player to act, or -1 when nobody can (game over or stalled)."""
        s = self.state
        if s.pending is not None:
            return s.pending.player
        return s.to_move if s.phase == "acquisition" and s.to_move >= 0 else -1

    @property
    def is_over(self) -> bool:
        return self.state.phase == "game_over"

    @property
    def is_stalled(self) -> bool:
        """Not over, yet nobody can act: a rules deadlock (possible under some interpretations)."""
        s = self.state
        return s.phase == "acquisition" and s.pending is None and s.to_move < 0

    def copy(self) -> "Game":
        return Game(self.state.copy(), self.rules, self.chance)

    def outcome(self) -> Outcome | None:
        if not self.is_over:
            return None
        s = self.state
        scores = (s.players[0].score, s.players[1].score)
        if scores[0] != scores[1]:
            cite("duel.end.winner")
            w = 0 if scores[0] > scores[1] else 1
            return Outcome(scores, w, "more points", "duel.end.winner")
        cite("duel.end.tie-break")
        holders = [i for i in (0, 1) if s.players[i].start_tile]
        if holders:
            return Outcome(scores, holders[0], "tie: holds the Starting player tile", "duel.end.tie-break")
        alt = self.rules.choices["duel.end.tie-without-tile"]
        cite_alternative("duel.end.tie-without-tile", alt)
        if alt == "draw":
            return Outcome(scores, None, "tie: nobody holds the Starting player tile, a draw", "duel.end.tie-break")
        return Outcome(scores, s.starter, "tie: nobody holds the Starting player tile, round-5 starter wins",
                       "duel.end.tie-break")

    def returns(self) -> tuple[float, float]:
        o = self.outcome()
        if o is None or o.winner is None:
            return (0.0, 0.0)
        return (1.0, -1.0) if o.winner == 0 else (-1.0, 1.0)

    # --- generation ------------------------------------------------------------------------
    def legal_actions(self) -> list[Action]:
        """Every legal action, sorted. Empty when the game is over or stalled."""
        s = self.state
        p = s.pending
        if p is not None:
            out = self._pending_actions(p)
            if p.kind in _UNSORTED_DECISIONS:
                out.sort(key=sort_key)
            return out
        if s.phase == "acquisition" and s.to_move >= 0:
            # generated in key order already: plates, draw, suns (large, then 1-4), moons, chips
            return self._turn_actions(s.to_move) or [PASS]
        return []

    def _turn_actions(self, who: int) -> list[Action]:
        s, rules = self.state, self.rules
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
            if s.pile and (pl.score > 0 or not rules.draw_needs_points):
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
            out.extend(CHIP[f] for f, fac in enumerate(s.small, 1) if fac.chip_revealed and fac.chip)
        elif any(fac.chip_revealed for fac in s.small):
            cite("duel.acquire.chip.limit")
            cite_alternative("duel.chips.per-round", "hard-cap")
        return out

    def _pending_actions(self, p: Pending) -> list[Action]:
        s, rules = self.state, self.rules
        pl = s.players[p.player]
        k = p.kind
        if k == "opening":
            return [act(Kind.TAKE_PLATE, i) for i in range(3) if s.display[i]]
        if k == "draw":
            out = [act(Kind.KEEP_PLATE, pid) for pid in p.extra]
            if s.pile and (pl.score > 0 or not rules.draw_needs_points):
                out.append(DRAW)
            return out
        if k == "place":
            return [a for slot in range(9) if not pl.plates[slot] for a in PLACE[slot]]
        if k == "return":
            return [act(Kind.RETURN_PLATE, pid) for pid in p.extra]
        if k == "stack":
            return list(_stack_orders(p.extra))
        if k == "line":
            colour, n = p.data
            out = [LINE[0]]
            for line in range(6):
                room = line + 1 - pl.line_count[line]
                if room and pl.line_colour[line] in (EMPTY, colour):
                    out.append(LINE[line + 1])
                    if rules.any_split:
                        out.extend(act(Kind.LINE, line + 1, x) for x in range(1, min(n, room)))
            return out
        if k == "bonus":
            line = p.data[0]
            missing = line + 1 - pl.line_count[line]
            out = [act(Kind.BONUS, *sorted(ids)) for ids in bonus_options(pl, pl.line_colour[line], missing, rules.tables)]
            out.append(NO_BONUS)
            return out
        if k == "tile":
            return [act(Kind.TILE, cell % 6) for cell in p.extra]
        raise AssertionError(f"unknown pending decision {k}")

    # --- the legality predicate (independent of generation; tests check they agree) --------
    def why_illegal(self, a: Action) -> tuple[str, str] | None:
        """None if `a` is legal now, else (clause id, reason)."""
        s, rules = self.state, self.rules
        if s.phase == "game_over":
            return "duel.end.after-round-5", "the game is over"
        if self.is_stalled:
            return "duel.acquire.end", "nobody can act (the phase is stalled)"
        p = s.pending
        k = a.kind
        expected = {"opening": (Kind.TAKE_PLATE,), "draw": (Kind.DRAW_PLATE, Kind.KEEP_PLATE),
                    "place": (Kind.PLACE_PLATE,), "return": (Kind.RETURN_PLATE,), "stack": (Kind.STACK,),
                    "line": (Kind.LINE,), "bonus": (Kind.BONUS, Kind.NO_BONUS), "tile": (Kind.TILE,)}
        if p is not None and k not in expected[p.kind]:
            clause = {"opening": "duel.setup.opening-plates", "draw": "duel.acquire.plate.keep-one",
                      "place": "duel.acquire.plate.placement", "return": "duel.acquire.plate.keep-one",
                      "stack": "duel.acquire.sun.small-leftovers", "line": "duel.lines.one-line",
                      "bonus": "duel.bonus.complete-line", "tile": "duel.tiling.move-rightmost"}[p.kind]
            return clause, f"a '{p.kind}' decision must be made first"
        if p is None and (s.phase != "acquisition"):
            return "duel.acquire.actions", f"no decision is open in phase {s.phase}"
        if p is None and k not in _TURN_KINDS:
            return _DECISION_CLAUSE[k], f"'{a}' answers a decision that is not open"
        who = self.current_player
        pl = s.players[who]
        args = a.args
        if k is Kind.TAKE_PLATE:
            if not 0 <= args[0] < 3 or not s.display[args[0]]:
                return "duel.acquire.plate.display", f"display space {args[0] + 1} is empty"
            if p is None:
                return self._token_problem(pl)
            return None
        if k is Kind.DRAW_PLATE:
            if p is None:
                problem = self._token_problem(pl)
                if problem:
                    return problem
            if not s.pile:
                return "duel.acquire.plate.draw", "the plate pile is empty"
            if rules.draw_needs_points and pl.score < 1:
                cite_alternative("duel.plate.draw-at-zero", "must-pay")
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
            if self._can_act(who):
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

    def _token_problem(self, pl: Player) -> tuple[str, str] | None:
        if self.state.round >= 5:
            return "duel.acquire.plate.tokens-required", "no Player tokens are used in round 5"
        if pl.tokens_used >= 2:
            return "duel.acquire.plate.token", "both Player tokens are already used this round"
        if 0 not in pl.plates:
            return "duel.acquire.plate.placement", "the Dome has no empty space for another plate"
        return None

    def _can_act(self, who: int) -> bool:
        """Predicate form of 'has some action other than pass' (separate from generation)."""
        s, rules = self.state, self.rules
        pl = s.players[who]
        if s.round < 5 and pl.tokens_used < 2 and 0 in pl.plates and (
                any(s.display) or (s.pile and (pl.score > 0 or not rules.draw_needs_points))):
            return True
        if s.large.has_tiles or any(f.has_tiles for f in s.small):
            return True
        return any(f.chip and f.chip_revealed for f in s.small) and (
            pl.chips_this_round < 2 or not rules.chip_cap)

    # --- applying --------------------------------------------------------------------------
    def apply(self, action: Action) -> list[Event]:
        """Apply a legal action; raise IllegalAction (state unchanged) otherwise."""
        problem = self.why_illegal(action)
        if problem is not None:
            raise IllegalAction(action, *problem)
        events: list[Event] = []
        self._apply(action, events)
        return events

    def _apply(self, a: Action, events: list[Event]) -> None:
        s = self.state
        k = a.kind
        who = self.current_player
        pl = s.players[who]
        p = s.pending
        # the commonest actions first
        if k is Kind.LINE:
            assert p is not None
            self._place_tiles(who, p.data[0], p.data[1], a.args, events)
            self._end_turn(who, events)
            return
        if k is Kind.MOON:
            self._moon_pick(who, a.args[0], events)
            return
        if k is Kind.TAKE_PLATE:
            plate = s.display[a.args[0]]
            s.display[a.args[0]] = 0
            if p is None:
                self._use_token(pl)
                cite("duel.acquire.plate.display")
            s.pending = Pending("place", who, (plate, 1 if p is not None else 0), ())
            return
        if k is Kind.DRAW_PLATE:
            drawn: tuple[int, ...] = ()
            if p is None:
                self._use_token(pl)
            else:
                drawn = p.extra
            cite("duel.acquire.plate.draw")
            cite("duel.acquire.plate.draw-blind")
            paid = 1 if pl.score > 0 else 0
            if not paid:
                cite("duel.score.floor")
                cite_alternative("duel.plate.draw-at-zero", "free-at-zero")
            pl.score -= paid
            events.append(Event("pay", "duel.acquire.plate.draw", who, -paid, "draws a face-down plate"))
            s.pending = Pending("draw", who, (), drawn + (s.pile.pop(0),))
            return
        if k is Kind.KEEP_PLATE:
            assert p is not None
            cite("duel.acquire.plate.keep-one")
            rest = tuple(x for x in p.extra if x != a.args[0])
            s.pending = Pending("place", who, (a.args[0], 0), rest)
            return
        if k is Kind.PLACE_PLATE:
            assert p is not None
            self._place_plate(pl, p.data[0], *a.args)
            events.append(Event("plate", "duel.acquire.plate.placement", who,
                                detail=f"P{p.data[0]:02d} on space {a.args[0] + 1} r{a.args[1]}"))
            if p.data[1]:                      # an opening pick
                s.pending = None
                self._after_opening_pick(events)
                return
            rest = p.extra
            if len(rest) >= 2:
                s.pending = Pending("return", who, (), rest)
                return
            if rest:
                cite("duel.acquire.plate.keep-one")
                s.pile.append(rest[0])
            self._end_turn(who, events)
            return
        if k is Kind.RETURN_PLATE:
            assert p is not None
            cite("duel.acquire.plate.keep-one")
            s.pile.append(a.args[0])
            rest = tuple(x for x in p.extra if x != a.args[0])
            if len(rest) >= 2:
                s.pending = Pending("return", who, (), rest)
                return
            s.pile.append(rest[0])
            self._end_turn(who, events)
            return
        if k is Kind.SUN:
            self._sun_pick(who, a.args[0], a.args[1], events)
            return
        if k is Kind.STACK:
            assert p is not None
            cite("duel.acquire.sun.small-leftovers")
            s.small[p.data[0] - 1].moon = list(a.args)
            s.pending = Pending("line", who, p.data[1:], ())
            return
        if k is Kind.CHIP:
            cite("duel.acquire.chip.take")
            fac = s.small[a.args[0] - 1]
            pl.chips.append(fac.chip)
            pl.chips.sort()
            pl.chips_this_round += 1
            if pl.chips_this_round > 2:
                cite_alternative("duel.chips.per-round", "no-cap")
            events.append(Event("chip", "duel.acquire.chip.take", who, detail=f"takes C{fac.chip:02d}"))
            fac.chip = 0
            fac.chip_revealed = False
            self._end_turn(who, events)
            return
        if k is Kind.PASS:
            cite("duel.acquire.pass")
            pl.passed = True
            events.append(Event("pass", "duel.acquire.pass", who, detail="cannot act"))
            self._end_turn(who, events)
            return
        if k is Kind.BONUS:
            assert p is not None
            cite("duel.bonus.complete-line")
            line = p.data[0]
            if any(len(self.rules.tables.chip(c).colours) == 2 for c in a.args):
                cite("duel.bonus.two-colour")
            for c in a.args:
                pl.chips.remove(c)
                pl.used_chips.append(c)
            pl.used_chips.sort()
            missing = line + 1 - pl.line_count[line]
            pairs = 3 * missing - len(a.args)
            kinds = ([f"{pairs} matching pair(s)"] if pairs else []) + (
                [f"{missing - pairs} any-3"] if missing - pairs else [])
            events.append(Event("bonus", "duel.bonus.complete-line", who,
                                detail=f"line {line + 1} completed with " + "+".join(f"C{c:02d}" for c in a.args)
                                + f" ({', '.join(kinds)})"))
            s.pending = None
            order, _, _ = s.tiling
            s.tiling = (order, line, 2)
            self._advance_tiling(events)
            return
        if k is Kind.NO_BONUS:
            assert p is not None
            s.pending = None
            self._advance_tiling(events)
            return
        if k is Kind.TILE:
            assert p is not None
            line = p.data[0]
            s.pending = None
            self._move_line_to_dome(who, line, line * 6 + a.args[0], events)
            self._advance_tiling(events)
            return
        raise AssertionError(k)

    # --- Phase 1 helpers -------------------------------------------------------------------
    def _use_token(self, pl: Player) -> None:
        cite("duel.acquire.plate.token")
        cite("duel.acquire.actions")
        pl.tokens_used += 1

    def _place_plate(self, pl: Player, plate_id: int, slot: int, rot: int) -> None:
        cite("duel.acquire.plate.placement")
        spaces = self.rules.tables.plates[plate_id - 1].rotations[rot]
        pl.plates[slot] = plate_id
        pl.rotations[slot] = rot
        for cell, space in zip(SLOT_CELLS[slot], spaces, strict=True):
            pl.dome_space[cell] = space

    def _sun_pick(self, who: int, f: int, c: int, events: list[Event]) -> None:
        s = self.state
        cite("duel.acquire.sun.take-colour")
        cite("duel.acquire.actions")
        if f == 0:
            sun = s.large.sun
            n = sun[c]
            sun[c] = 0
            if any(sun):
                cite("duel.acquire.sun.large-leftovers")
                for x in range(5):
                    s.large.moon[x] += sun[x]
                    sun[x] = 0
            s.pending = Pending("line", who, (c, n), ())
            return
        fac = s.small[f - 1]
        n = fac.sun[c]
        fac.sun[c] = 0
        leftover = tuple(x for x in range(5) for _ in range(fac.sun[x]))
        fac.sun = [0, 0, 0, 0, 0]
        if not leftover:
            cite("duel.acquire.sun.reveal-monochrome")
            self._reveal(f, events, "duel.acquire.sun.reveal-monochrome")
            s.pending = Pending("line", who, (c, n), ())
        elif len(set(leftover)) == 1:
            cite("duel.acquire.sun.small-leftovers")
            fac.moon = list(leftover)
            s.pending = Pending("line", who, (c, n), ())
        else:
            s.pending = Pending("stack", who, (f, c, n), leftover)

    def _reveal(self, f: int, events: list[Event], clause: str) -> None:
        fac = self.state.small[f - 1]
        cite("duel.acquire.chip.accessible")
        if fac.chip and not fac.chip_revealed:
            fac.chip_revealed = True
            events.append(Event("reveal-chip", clause, detail=f"Factory {f} is empty: C{fac.chip:02d} revealed"))

    def _moon_pick(self, who: int, c: int, events: list[Event]) -> None:
        s = self.state
        cite("duel.acquire.moon.take-colour")
        cite("duel.acquire.actions")
        n = 0
        for f, fac in enumerate(s.small, 1):
            if fac.moon and fac.moon[-1] == c:
                fac.moon.pop()
                n += 1
                if c in fac.moon:
                    cite("duel.acquire.moon.top-tile-only")
                if not fac.moon:
                    cite("duel.acquire.moon.reveal-chip")
                    self._reveal(f, events, "duel.acquire.moon.reveal-chip")
        if s.large.moon[c]:
            n += s.large.moon[c]
            s.large.moon[c] = 0
            if s.large.start_tile:
                cite("duel.acquire.moon.start-player-tile")
                s.large.start_tile = False
                s.players[who].start_tile = True
                events.append(Event("start-tile", "duel.acquire.moon.start-player-tile", who,
                                    detail="takes the Starting player tile"))
        s.pending = Pending("line", who, (c, n), ())

    def _break(self, pl: Player, colour: int, n: int, events: list[Event], who: int, clause: str) -> None:
        if n <= 0:
            return
        cite(clause)
        room = 4 - len(pl.broken)
        kept = min(room, n)
        pl.broken.extend([colour] * kept)
        if n > kept:
            cite("duel.broken.capacity")
            self.state.tower[colour] += n - kept
        events.append(Event("broken", clause, who, detail=f"{n} {COLOURS[colour]} broken"
                            + (f", {n - kept} to the Tower" if n > kept else "")))

    def _place_tiles(self, who: int, colour: int, n: int, args: tuple[int, ...], events: list[Event]) -> None:
        pl = self.state.players[who]
        cite("duel.lines.one-line")
        line = args[0]
        if line == 0:
            self._break(pl, colour, n, events, who, "duel.broken.stack")
            return
        i = line - 1
        cite("duel.lines.capacity")
        cite("duel.lines.right-to-left")
        if pl.line_count[i]:
            cite("duel.lines.same-colour")
        room = line - pl.line_count[i]
        placed = min(n, room) if len(args) == 1 else args[1]
        if len(args) > 1:
            cite_alternative("duel.lines.voluntary-break", "any-split")
        elif n > 1 and not self.rules.any_split:
            cite_alternative("duel.lines.voluntary-break", "whole-batch")
        pl.line_colour[i] = colour
        pl.line_count[i] += placed
        if RECORDER.enabled and not matching_cells(pl, i, colour):
            cite("duel.lines.premature")
        events.append(Event("line", "duel.lines.one-line", who, detail=f"{placed} {COLOURS[colour]} on line {line}"))
        if n > placed:
            self._break(pl, colour, n - placed, events, who,
                        "duel.lines.overflow" if placed == room else "duel.broken.stack")

    def _end_turn(self, who: int, events: list[Event]) -> None:
        s, rules = self.state, self.rules
        s.pending = None
        if self._acquisition_over():
            self._change_phase("dome_tiling", events)
            self._start_tiling(events)
            return
        nxt = -1
        for cand in (1 - who, who):
            pl = s.players[cand]
            if not pl.passed:
                nxt = cand
                break
            if not rules.pass_permanent and self._can_act(cand):
                cite_alternative("duel.acquire.pass.permanent", "recheck")
                pl.passed = False
                nxt = cand
                break
        if nxt == who and s.players[1 - who].passed:
            cite("duel.acquire.pass.asymmetric")
        elif nxt >= 0:
            cite("duel.acquire.turn-order")
        s.to_move = nxt
        if nxt < 0:
            events.append(Event("stalled", "duel.acquire.end", detail="nobody can act and the phase cannot end"))

    def _acquisition_over(self) -> bool:
        s, rules = self.state, self.rules
        small = s.small
        # A chip stays on its Factory until taken, so this first test settles most calls cheaply.
        if small[0].chip or small[1].chip or small[2].chip or small[3].chip:
            return False
        if s.large.has_tiles or any(f.has_tiles for f in small):
            return False
        if s.round < 5:
            for pl in s.players:
                if pl.tokens_used < 2:
                    if pl.passed and rules.strict_tokens:
                        cite_alternative("duel.acquire.end.passed-tokens", "strict")
                    if not pl.passed or rules.strict_tokens:
                        return False
                    cite_alternative("duel.acquire.end.passed-tokens", "pass-counts-as-done")
        cite("duel.acquire.end")
        if s.round < 5:
            cite("duel.acquire.plate.tokens-required")
        return True

    def _after_opening_pick(self, events: list[Event]) -> None:
        s = self.state
        refill_display(s, "duel.setup.opening-plates")
        s.opening_picks += 1
        if s.opening_picks == 1:
            s.pending = Pending("opening", s.starter)
            return
        self._change_phase("acquisition", events)
        s.to_move = s.starter

    def _change_phase(self, target: str, events: list[Event]) -> None:
        s = self.state
        check_transition(s.phase, target)
        cite("duel.round.structure")
        cite_edge(s.phase, target)
        events.append(Event("phase", "duel.round.structure", detail=f"{s.phase} -> {target} (round {s.round})"))
        s.phase = target

    # --- Phase 2: Dome-tiling --------------------------------------------------------------
    def _start_tiling(self, events: list[Event]) -> None:
        cite("duel.tiling.simultaneous")
        self.state.tiling = (0, 0, 0)
        self.state.to_move = -2          # no turns in this phase; decisions come as pending
        self._advance_tiling(events)

    def _advance_tiling(self, events: list[Event]) -> None:
        """Resolve Dome-tiling from the cursor `state.tiling` = (player order, line, stage) until a
        decision is needed (stage 0: Bonus chips; stage 1: placement; stage 2: placement of a line
        just completed with chips) or both players are done."""
        s, rules = self.state, self.rules
        order, line, stage = s.tiling
        while order < 2:
            who = s.starter if order == 0 else 1 - s.starter
            pl = s.players[who]
            counts, colours = pl.line_count, pl.line_colour
            if line == 0 and stage == 0:
                cite("duel.tiling.top-to-bottom")
            while line < 6:
                count = counts[line]
                if count == 0:
                    line, stage = line + 1, 0
                    continue
                cap, colour = line + 1, colours[line]
                if stage == 0:
                    stage = 1
                    if count < cap and pl.chips and has_bonus_option(pl, colour, cap - count, rules.tables):
                        s.tiling = (order, line, 1)
                        s.pending = Pending("bonus", who, (line,))
                        return
                if count == cap or stage == 2:
                    cells = matching_cells(pl, line, colour)
                    if len(cells) >= 2:
                        s.tiling = (order, line + 1, 0)
                        s.pending = Pending("tile", who, (line,), tuple(cells))
                        return
                    if cells:
                        self._move_line_to_dome(who, line, cells[0], events)
                    elif band_full(pl, line):
                        self._unplaceable(who, line, events)
                    else:
                        cite("duel.tiling.wait")
                elif band_full(pl, line) and not matching_cells(pl, line, colour):
                    alt = rules.choices["duel.tiling.unplaceable-scope"]
                    cite_alternative("duel.tiling.unplaceable-scope", alt)
                    if rules.unplaceable_any_line:
                        self._unplaceable(who, line, events)
                    else:
                        cite("duel.tiling.incomplete-stay")
                else:
                    cite("duel.tiling.incomplete-stay")
                line, stage = line + 1, 0
            self._penalties(who, events)
            order, line, stage = order + 1, 0, 0
        s.tiling = (2, 0, 0)
        self._change_phase("preparation" if s.round < 5 else "tablet_scoring", events)
        if s.round < 5:
            self._prepare(events)
        else:
            self._score_tablets(events)

    def _unplaceable(self, who: int, line: int, events: list[Event]) -> None:
        pl = self.state.players[who]
        cite("duel.tiling.unplaceable")
        colour, n = pl.line_colour[line], pl.line_count[line]
        pl.line_colour[line], pl.line_count[line] = EMPTY, 0
        self._break(pl, colour, n, events, who, "duel.tiling.unplaceable")

    def _move_line_to_dome(self, who: int, line: int, cell: int, events: list[Event]) -> None:
        s = self.state
        pl = s.players[who]
        colour, count = pl.line_colour[line], pl.line_count[line]
        cite("duel.tiling.move-rightmost")
        if pl.dome_space[cell] == WILD:
            cite("duel.tiling.joker-space")
        pl.dome_tile[cell] = colour
        pl.line_colour[line], pl.line_count[line] = EMPTY, 0
        if count > 1:
            cite("duel.tiling.discard-rest")
            s.tower[colour] += count - 1
        points = tile_points(pl.dome_tile, cell)
        pl.score += points
        events.append(Event("score", "duel.tiling.move-rightmost", who, points,
                            f"{COLOURS[colour]} to row {line + 1} column {cell % 6 + 1}"))
        slot = CELL_SLOT[cell]
        plate_cells = SLOT_CELLS[slot]
        special = [c for c in plate_cells if pl.dome_space[c] == SPECIAL]
        if special and pl.dome_tile[special[0]] == EMPTY and all(
                pl.dome_tile[c] != EMPTY for c in plate_cells if c != special[0]):
            cite("duel.plate.special-space")
            cite("duel.score.special-no-adjacency")
            pl.dome_tile[special[0]] = SPECIAL
            s.special_supply -= 1
            row = special[0] // 6
            bonus = special_row_points(self.rules, row)
            pl.score += bonus
            events.append(Event("score", "duel.plate.special-space", who, bonus,
                                f"Special tile in row {row + 1}"))

    def _penalties(self, who: int, events: list[Event]) -> None:
        s = self.state
        pl = s.players[who]
        if pl.broken:
            n = len(pl.broken)
            loss = broken_penalty(self.rules, n)
            self._lose(pl, loss, who, events, "duel.score.broken-penalty", f"{n} broken tiles")
            for colour in pl.broken:
                s.tower[colour] += 1
            pl.broken = []
        if pl.start_tile:
            cite("duel.score.start-player-tile")
            self._lose(pl, 2, who, events, "duel.score.start-player-tile", "Starting player tile")

    def _lose(self, pl: Player, loss: int, who: int, events: list[Event], clause: str, why: str) -> None:
        actual = min(loss, pl.score)
        if actual < loss:
            cite("duel.score.floor")
        pl.score -= actual
        events.append(Event("penalty", clause, who, -actual, why + (f" (floor: {loss} due)" if actual < loss else "")))

    # --- Phase 3 and the end ---------------------------------------------------------------
    def _prepare(self, events: list[Event]) -> None:
        s, rules = self.state, self.rules
        cite("duel.prep.tokens-back")
        for pl in s.players:
            pl.tokens_used = 0
            pl.passed = False
            pl.chips_this_round = 0
        refill_display(s, "duel.prep.display-refill")
        fill_factories(s, rules, self.chance, events, "duel.prep.factories-refill")
        holders = [i for i in (0, 1) if s.players[i].start_tile]
        cite("duel.prep.start-player")
        if holders:
            s.starter = holders[0]
            s.players[holders[0]].start_tile = False
        else:
            alt = rules.choices["duel.prep.untaken-start-tile"]
            cite_alternative("duel.prep.untaken-start-tile", alt)
            if alt == "alternate":
                s.starter = 1 - s.starter
        s.large.start_tile = True
        s.round += 1
        self._change_phase("acquisition", events)
        s.to_move = s.starter

    def _score_tablets(self, events: list[Event]) -> None:
        s = self.state
        cite("duel.end.after-round-5")
        cite("duel.prep.skip-last")
        cite("duel.end.tablets-scored")
        for who, pl in enumerate(s.players):
            for side in self.rules.tablets:
                pts = tablet_points(side, self.rules, pl.dome_space, pl.dome_tile)
                if pts > 0:
                    pl.score += pts
                    events.append(Event("tablet", "duel.end.tablets-scored", who, pts, side))
                elif pts < 0:
                    self._lose(pl, -pts, who, events, "duel.end.tablets-scored", side)
        self._change_phase("game_over", events)
        s.to_move = -1
