"""The rules of Azul Duel: a Game holds the state, the ruleset and the chance, and offers
`legal_actions()` (model.duel.generation), `why_illegal()` (model.duel.legality, the predicate written
separately), `apply()`, `is_over`, `outcome()`, `returns()` and `copy()`. What the actions and
phases do lives in model.duel.acquisition, model.duel.tiling and model.duel.preparation.

Phase changes go through the phase graph (model.duel.phases); every rule site cites its clause.
"""

from __future__ import annotations

from model.duel.acquisition import Acquisition
from model.duel.actions import Action, Kind
from model.duel.bonus import bonus_options, has_bonus_option
from model.chance import Chance
from model.clauses import cite, cite_alternative, cite_edge
from model.duel.dome import band_full, matching_cells
from model.errors import IllegalAction
from model.events import Event, Outcome
from model.duel.generation import (
    CHIP,
    DRAW,
    LINE,
    MOON,
    NO_BONUS,
    PASS,
    PLACE,
    SUN,
    TAKE,
    Generation,
)
from model.duel.legality import Legality
from model.duel.phases import check_transition
from model.duel.preparation import Preparation
from model.duel.ruleset import Ruleset
from model.duel.state import GameState, Pending
from model.duel.tiling import Tiling

__all__ = ["CHIP", "DRAW", "LINE", "MOON", "NO_BONUS", "PASS", "PLACE", "SUN", "TAKE", "Game",
           "band_full", "bonus_options", "has_bonus_option", "matching_cells"]


class Game(Generation, Legality, Acquisition, Tiling, Preparation):
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

    def apply(self, action: Action) -> list[Event]:
        """Apply a legal action; raise IllegalAction (state unchanged) otherwise."""
        problem = self.why_illegal(action)
        if problem is not None:
            cite(problem[0])                   # the rule fired: it refused the action
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
            spent = "+".join(f"C{c:02d}" for c in a.args) + f" ({', '.join(kinds)})"
            if matching_cells(pl, line, pl.line_colour[line]):
                detail = f"line {line + 1} completed with {spent}"
            else:                              # only under duel.bonus.unmovable-line=spend-anyway
                detail = f"chips {spent} spent on line {line + 1}, which still cannot move: no free matching space"
            events.append(Event("bonus", "duel.bonus.complete-line", who, detail=detail))
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

    def _change_phase(self, target: str, events: list[Event]) -> None:
        s = self.state
        check_transition(s.phase, target)
        cite("duel.round.structure")
        cite_edge(s.phase, target)
        events.append(Event("phase", "duel.round.structure", detail=f"{s.phase} -> {target} (round {s.round})"))
        s.phase = target
