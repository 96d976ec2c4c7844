"""What every game's engine shares and that is not a rule: an action as an ordered value, and the
plumbing of a game (state, ruleset, chance; `legal_actions` -> `apply` through the legality
predicate and a dispatch table). No game is named here; model.duel and model.azul build on it."""

from __future__ import annotations

import enum
from collections.abc import Sequence
from itertools import repeat
from operator import is_
from typing import Any, ClassVar, Self

import attrs

from model.chance import NO_DRAWS
from model.clauses import cite
from model.errors import IllegalAction
from model.events import Event


@attrs.frozen(slots=True, cache_hash=True)
class KeyedAction:
    """An action: its kind and integer arguments, a frozen value ordered by (kind, args). The sort
    key is kept as a plain tuple so sorting runs at C speed."""

    kind: enum.IntEnum
    args: tuple[int, ...]
    key: tuple[int, ...] = attrs.field(init=False, eq=False, repr=False)

    def __attrs_post_init__(self) -> None:
        object.__setattr__(self, "key", (int(self.kind),) + self.args)

    def __lt__(self, other: KeyedAction) -> bool:
        return self.key < other.key


class GameBase:
    """A game in progress: `state`, `rules` and `chance`, and the path of one action.

    A game supplies `_generate()` (every legal action), `_check(action)` (the legality predicate,
    written apart: (clause id, reason) or None) and `_carry_out(action, events)` (its dispatch table).
    `apply` refuses an illegal action with IllegalAction naming the clause, state unchanged.

    With `TRUSTS_OFFER`, an action object taken from the list the immediately preceding
    `legal_actions()` returned for this same state object is legal by construction (the tests check
    that generator and predicate agree on every state of random games) and skips the predicate;
    any other action, and every action after `apply` or `forget_offer()`, is checked."""

    __slots__ = ("state", "rules", "chance", "_offered", "_offered_for")
    TRUSTS_OFFER: ClassVar[bool] = False

    def __init__(self, state: Any, rules: Any, chance: Any) -> None:
        self.state = state
        self.rules = rules
        self.chance = chance
        self._offered: Sequence[Any] | None = None    # the last legal_actions() list, until the next apply
        self._offered_for: Any = None                 # ... and the state object it was generated for

    def _generate(self) -> list[Any]:
        raise NotImplementedError

    def _check(self, action: Any) -> tuple[str, str] | None:
        raise NotImplementedError

    def _carry_out(self, action: Any, events: list[Event]) -> None:
        raise NotImplementedError

    def legal_actions(self) -> list[Any]:
        """Every legal action, sorted. Empty when the game is over or stalled."""
        out = self._generate()
        if self.TRUSTS_OFFER:
            self._offered, self._offered_for = out, self.state
        return out

    def why_illegal(self, action: Any) -> tuple[str, str] | None:
        """None if `action` is legal now, else (clause id, reason)."""
        return self._check(action)

    def copy(self) -> Self:
        """An independent game: the state copied and the chance forked (the copy draws what this
        game would draw, and playing it never moves this game's draws)."""
        return self._game_on(self.state.copy(), self.chance.fork())

    def snapshot(self) -> Self:
        """The position as it is now, to look at: the state copied, a chance that refuses to draw."""
        return self._game_on(self.state.copy(), NO_DRAWS)

    def _game_on(self, state: Any, chance: Any) -> Self:
        """A game of this kind on `state` with `chance` (a subclass with its own constructor says how)."""
        return type(self)(state, self.rules, chance)

    def forget_offer(self) -> None:
        """Drop the last `legal_actions()` list (after editing `state` in place): the next `apply`
        checks its action in full."""
        self._offered = None

    # --- the one mutating entry point -----------------------------------------------------
    def apply(self, action: Any) -> list[Event]:
        """Apply a legal action and return what happened; IllegalAction (state unchanged) otherwise."""
        offered = self._offered
        self._offered = None
        if offered is None or self._offered_for is not self.state or not any(map(is_, offered, repeat(action))):
            problem = self._check(action)
            if problem is not None:
                cite(problem[0])                   # the rule fired: it refused the action
                raise IllegalAction(action, *problem)
        events: list[Event] = []
        self._carry_out(action, events)
        return events
