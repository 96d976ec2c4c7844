"""One game of classic Azul: the state, the ruleset and the chance, and the public surface
(`legal_actions`, `why_illegal`, `apply`, `is_over`, `is_stalled`, `current_player`, `outcome`,
`returns`, `copy`).

The data flow of one action is a straight line: `apply` (model.base) checks the predicate, then the dispatch
table sends the action to its rule (offer.take_tiles / tiling.place_chosen); a finished offer goes
to tiling.advance, a finished tiling to round_end.finish_round.
"""

from __future__ import annotations

from collections.abc import Callable

from model.azul import generation, legality, offer, round_end, tiling
from model.azul.actions import Action, Kind
from model.azul.outcome import AzulOutcome, decide, returns
from model.azul.ruleset import Ruleset
from model.azul.state import NOBODY, OFFER, OVER, TILING, AzulState
from model.base import GameBase
from model.chance import Chance
from model.events import Event


class Game(GameBase):
    """One game of classic Azul (2-4 players, coloured or gray wall); the plumbing is model.base."""

    __slots__ = ()
    TRUSTS_OFFER = True      # an action object from the list just offered skips the predicate (model.base)
    state: AzulState
    rules: Ruleset
    chance: Chance

    # --- queries ---------------------------------------------------------------------------
    @property
    def players(self) -> int:
        return self.state.players

    @property
    def current_player(self) -> int:
        """The player to act, or NOBODY (-1) when the game is over or stalled."""
        s = self.state
        if s.phase == TILING:
            return s.tiling[0]
        return s.to_move if s.phase == OFFER else NOBODY

    @property
    def is_over(self) -> bool:
        return self.state.phase == OVER

    @property
    def is_stalled(self) -> bool:
        """Not over, yet nobody can act (azul.prep.empty-round=stall)."""
        return self.state.phase == OFFER and self.state.to_move == NOBODY

    def _generate(self) -> list[Action]:
        return generation.legal_actions(self.state, self.rules)

    def _check(self, action: Action) -> tuple[str, str] | None:
        return legality.why_illegal(self.state, self.rules, action)

    def outcome(self) -> AzulOutcome | None:
        return decide(self.state) if self.is_over else None

    def returns(self) -> tuple[float, ...]:
        return returns(self.outcome(), self.players)

    def _carry_out(self, action: Action, events: list[Event]) -> None:
        _RULES[action.kind](self, action, events)


def _take(game: Game, action: Action, events: list[Event]) -> None:
    s = game.state
    offer.take_tiles(s, game.rules, action, events)
    if offer.end_turn(s, events):
        tiling.begin(s)
        _continue_tiling(game, events)


def _wall(game: Game, action: Action, events: list[Event]) -> None:
    tiling.place_chosen(game.state, game.rules, action.args[0], action.args[1], events)
    _continue_tiling(game, events)


def _continue_tiling(game: Game, events: list[Event]) -> None:
    if tiling.advance(game.state, game.rules, events):
        round_end.finish_round(game.state, game.rules, game.chance, events)


_RULES: dict[Kind, Callable[[Game, Action, list[Event]], None]] = {Kind.TAKE: _take, Kind.WALL: _wall}
