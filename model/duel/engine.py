"""The rules of Azul Duel: a Game holds the state, the ruleset and the chance, and offers
`legal_actions()` (model.duel.generation), `why_illegal()` (model.duel.legality, the predicate written
separately), `apply()`, `is_over`, `outcome()`, `returns()` and `copy()`; the plumbing is model.base.

The data flow of one action is a straight line: `apply` checks the predicate (or trusts an action
from the list `legal_actions()` just offered for this state, see model.base), then the dispatch table
`RULES` sends the action to its rule function (model.duel.acquisition for the turn's actions,
model.duel.tiling for the Dome-tiling decisions). A turn that empties the Factories goes on to
tiling.start_tiling, a finished Dome-tiling to preparation.prepare or preparation.score_tablets.
Phase changes go through model.duel.flow and the phase graph; every rule site cites its clause.
"""

from __future__ import annotations

from collections.abc import Callable

from model.base import GameBase
from model.chance import Chance
from model.clauses import cite, cite_alternative
from model.duel import acquisition, generation, legality, tiling
from model.duel.actions import Action, Kind
from model.duel.bonus import bonus_options, has_bonus_option
from model.duel.dome import band_full, matching_cells
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
from model.events import Event, Outcome

__all__ = ["CHIP", "DRAW", "LINE", "MOON", "NO_BONUS", "PASS", "PLACE", "SUN", "TAKE", "Game",
           "band_full", "bonus_options", "has_bonus_option", "matching_cells"]


# what a rule function receives: the game, the player acting, the action's arguments, the events
Rule = Callable[["Game", int, tuple[int, ...], list[Event]], None]
PhaseWatcher = Callable[[str, str, list[Event]], None]


class Game(GameBase):
    """One game of Azul Duel."""

    __slots__ = ("on_phase_change",)
    TRUSTS_OFFER = True

    def __init__(self, state: GameState, rules: Ruleset, chance: Chance,
                 on_phase_change: PhaseWatcher | None = None) -> None:
        super().__init__(state, rules, chance)
        self.state: GameState
        self.rules: Ruleset
        self.on_phase_change = on_phase_change   # called (source, target, events) before a phase change

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

    # --- what model.base.GameBase asks of a game ------------------------------------------
    def _generate(self) -> list[Action]:
        return generation.legal_actions(self)

    def _check(self, action: Action) -> tuple[str, str] | None:
        return legality.why_illegal(self, action)

    def _carry_out(self, action: Action, events: list[Event]) -> None:
        s = self.state
        p = s.pending                          # a legal action has a player: the decision's, or the turn's
        RULES[action.kind](self, s.to_move if p is None else p.player, action.args, events)


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
