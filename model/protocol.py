"""The one game interface shared layers see (cf. python-chess's `Board`, OpenSpiel's `State`).

Every game's `Game` class satisfies it structurally; shared code (properties/, harness/) types its
games as `model.protocol.Game` and gets them from the registry, never from a game's own package.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol, runtime_checkable

from model.events import Event, Outcome

NOBODY = -1          # `current_player` when nobody can act (the game is over or stalled)


@runtime_checkable
class Game(Protocol):
    """A game in progress. `apply` refuses an illegal action with `IllegalAction` naming its clause
    and leaves the state unchanged; `why_illegal` is the legality predicate written apart from the
    generator `legal_actions` (they must agree)."""

    state: Any

    def legal_actions(self) -> Sequence[Any]: ...
    def why_illegal(self, action: Any) -> tuple[str, str] | None: ...   # (clause id, reason) or None
    def apply(self, action: Any) -> list[Event]: ...
    def outcome(self) -> Outcome | None: ...
    def returns(self) -> tuple[float, ...]: ...
    def copy(self) -> Game: ...        # independent: its own (forked) chance
    def snapshot(self) -> Game: ...    # the position only: its chance refuses to draw

    @property
    def is_over(self) -> bool: ...

    @property
    def is_stalled(self) -> bool: ...

    @property
    def current_player(self) -> int: ...
