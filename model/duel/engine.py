"""The rules of Azul Duel: a Game holds the state, the ruleset and the chance, and offers
`legal_actions()` (model.duel.generation), `why_illegal()` (model.duel.legality, the predicate written
separately), `apply()`, `is_over`, `outcome()`, `returns()` and `copy()`.

The data flow of one action is a straight line: `apply` checks the predicate, then the dispatch table
`RULES` sends the action to its rule function (model.duel.acquisition for the turn's actions,
model.duel.tiling for the Dome-tiling decisions). A turn that empties the Factories goes on to
tiling.start_tiling, a finished Dome-tiling to preparation.prepare or preparation.score_tablets.
Phase changes go through model.duel.flow and the phase graph; every rule site cites its clause.
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import repeat
from operator import is_

from model.duel import acquisition, generation, legality, tiling
from model.duel.actions import Action, Kind
from model.duel.bonus import bonus_options, has_bonus_option
from model.chance import Chance
from model.clauses import cite, cite_alternative
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
)
from model.duel.ruleset import Ruleset
from model.duel.state import GameState

__all__ = ["CHIP", "DRAW", "LINE", "MOON", "NO_BONUS", "PASS", "PLACE", "SUN", "TAKE", "Game",
           "band_full", "bonus_options", "has_bonus_option", "matching_cells"]


# what a rule function receives: the game, the player acting, the action's arguments, the events
Rule = Callable[["Game", int, tuple[int, ...], list[Event]], None]
PhaseWatcher = Callable[[str, str, list[Event]], None]


class Game:
    """One game of Azul Duel."""

    __slots__ = ("state", "rules", "chance", "on_phase_change", "_offered", "_offered_for")

    def __init__(self, state: GameState, rules: Ruleset, chance: Chance,
                 on_phase_change: PhaseWatcher | None = None) -> None:
        self.state = state
        self.rules = rules
        self.chance = chance
        self.on_phase_change = on_phase_change   # called (source, target, events) before a phase change
        self._offered: list[Action] | None = None   # the last legal_actions() list, until the next apply
        self._offered_for: GameState | None = None  # ... and the state it was generated for

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

    def legal_actions(self) -> list[Action]:
        """Every legal action, sorted. Empty when the game is over or stalled."""
        out = generation.legal_actions(self)
        self._offered, self._offered_for = out, self.state
        return out

    def why_illegal(self, action: Action) -> tuple[str, str] | None:
        """None if `action` is legal now, else (clause id, reason)."""
        return legality.why_illegal(self, action)

    # --- the one mutating entry point -----------------------------------------------------
    def apply(self, action: Action) -> list[Event]:
        """Apply a legal action and return what happened; IllegalAction (state unchanged) otherwise.

        An action object taken from the list the immediately preceding `legal_actions()` returned
        for this same state is legal by construction (the generator and the predicate agree, which
        the tests check on every state of random games), so it skips the predicate; any other
        action is checked by it. Edit `state` in place between the two calls and that list no
        longer speaks for it: call `legal_actions()` again (or `forget_offer()`)."""
        offered = self._offered
        self._offered = None
        if offered is None or self._offered_for is not self.state or not _offered_in(action, offered):
            problem = legality.why_illegal(self, action)
            if problem is not None:
                cite(problem[0])               # the rule fired: it refused the action
                raise IllegalAction(action, *problem)
        events: list[Event] = []
        RULES[action.kind](self, self.current_player, action.args, events)
        return events

    def forget_offer(self) -> None:
        """Drop the last `legal_actions()` list: the next `apply` checks its action in full."""
        self._offered = None


def _offered_in(action: Action, offered: list[Action]) -> bool:
    """Whether this very object (identity, not equality) is in the offered list."""
    return any(map(is_, offered, repeat(action)))


# Every kind of action and the rule function that carries it out.
RULES: dict[Kind, Rule] = {
    Kind.TAKE_PLATE: acquisition.take_plate,
    Kind.DRAW_PLATE: acquisition.draw_plate,
    Kind.KEEP_PLATE: acquisition.keep_plate,
    Kind.PLACE_PLATE: acquisition.put_plate,
    Kind.RETURN_PLATE: acquisition.return_plate,
    Kind.SUN: acquisition.sun,
    Kind.STACK: acquisition.stack,
    Kind.MOON: acquisition.moon,
    Kind.LINE: acquisition.line,
    Kind.CHIP: acquisition.chip,
    Kind.PASS: acquisition.pass_turn,
    Kind.BONUS: tiling.bonus,
    Kind.NO_BONUS: tiling.no_bonus,
    Kind.TILE: tiling.tile,
}
