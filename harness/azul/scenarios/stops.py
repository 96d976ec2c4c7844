"""Stopping a classic scenario where the factory offer ends (`stop = "end-of-offer"`), so `then` can
look at the position between the round's last take and its wall-tiling.

The model runs a round's end inside the last take (model/azul/game.py: the take, then wall-tiling,
floor scoring and the next round's preparation, all in one `apply`). A StoppingGame plays that take
the same way, the model's own functions in the model's order (offer.take_tiles, offer.end_turn), and
halts once end_turn says the offer is over: the factories and the centre are empty, every tile the
take brought lies on its line or floor, nothing is tiled, scored or refilled; `phase` still reads
"offer" and `to_move` still names the player who took last. `resume` then runs the rest of the step as
the model would (a test plays random games both ways and compares every state and event).
"""

from __future__ import annotations

from typing import Any

import model.azul.game as azul_game
from model.azul import offer, tiling
from model.azul.actions import Action, Kind
from model.azul.game import Game
from model.events import Event

END_OF_OFFER = "end-of-offer"
STOPS: tuple[str, ...] = (END_OF_OFFER,)

# What a stopped position is not yet: the round-end invariant expects an offer with nothing on it to
# have been tiled; the scoring oracle scores the wall-tiling that follows the last take; turn order
# expects the next mover. None of that has happened at the stop.
NOT_AT_A_STOP: tuple[str, ...] = ("round-end", "scoring-oracle", "turn-order")


class StoppingGame(Game):
    """A Game that halts at the end of the factory offer; `stopped` is the events of the step that got
    there (None until then). Copies and snapshots are plain games: they do not stop."""

    __slots__ = ("stop", "stopped")

    def __init__(self, game: Game, stop: str) -> None:
        super().__init__(game.state, game.rules, game.chance)
        self.stop = stop
        self.stopped: list[Event] | None = None

    # Not `Self` as model.base declares: a StoppingGame's copies are plain Games on purpose.
    def _game_on(self, state: Any, chance: Any) -> Game:  # type: ignore[override]
        return Game(state, self.rules, chance)

    def _carry_out(self, action: Action, events: list[Event]) -> None:
        if self.stopped is not None or action.kind is not Kind.TAKE:
            super()._carry_out(action, events)
            return
        offer.take_tiles(self.state, self.rules, action, events)
        if offer.end_turn(self.state, events):
            self.stopped = events

    def resume(self) -> list[Event]:
        """The rest of the stopped step, as the model runs it: wall-tiling, then the round's end."""
        events: list[Event] = []
        tiling.begin(self.state)
        azul_game._continue_tiling(self, events)
        self.stopped = None
        return events
