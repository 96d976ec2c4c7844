"""What a search looks for. A goal is met by the first step after which its condition holds:

- `ClauseGoal`: the step fired the clause (a `cite` at one of its model sites).
- `WhereGoal`: a designer's condition holds on the step's view (a named predicate or an expression).
- `DecideGoal`: the alternative changes what happens: the same actions and chance, played under
  the alternative and under the default, differ after the step (events, scores or legal actions).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

import attrs

from properties.search.hooks import Predicate
from properties.search.view import evaluate


def _frozen(c: Mapping[str, str] | Iterable[tuple[str, str]]) -> tuple[tuple[str, str], ...]:
    """A context as given (a mapping, or pairs) in one canonical order."""
    return tuple(sorted(dict(c).items()))


@attrs.frozen
class ClauseGoal:
    clause: str
    context: tuple[tuple[str, str], ...] = attrs.field(default=(), converter=_frozen)

    @property
    def key(self) -> str:
        return f"clause {self.clause}"

    @property
    def slug(self) -> str:
        return f"clause-{self.clause}"

    def question(self) -> str:
        return f"Can a game fire {self.clause}? Yes: this one does at its last step."


@attrs.frozen
class WhereGoal:
    text: str                                   # the name or expression the designer gave
    predicate: Predicate | None = None          # a named one
    code: Any = None                            # a compiled expression

    @property
    def key(self) -> str:
        return f"where {self.text}"

    @property
    def slug(self) -> str:
        import re
        return "where-" + (re.sub(r"[^a-z0-9]+", "-", self.text.lower()).strip("-")[:60] or "condition")

    def holds(self, view: Mapping[str, Any]) -> bool:
        if self.predicate is not None:
            return bool(self.predicate.holds(view))
        return evaluate(self.code, self.text, view)

    def distance(self, view: Mapping[str, Any]) -> float | None:
        if self.predicate is not None and self.predicate.distance is not None:
            return float(self.predicate.distance(view))
        return None

    def question(self) -> str:
        doc = f" ({self.predicate.doc})" if self.predicate is not None else ""
        return f"Can this happen: {self.text}{doc}? Yes: after this game's last step it holds."


@attrs.frozen
class DecideGoal:
    interp: str
    alternative: str
    default: str
    context: tuple[tuple[str, str], ...] = attrs.field(default=(), converter=_frozen)

    @property
    def key(self) -> str:
        return f"decide {self.interp}={self.alternative}"

    @property
    def slug(self) -> str:
        return f"decide-{self.interp}-{self.alternative}"

    @property
    def overrides(self) -> dict[str, str]:
        return {**dict(self.context), self.interp: self.alternative}

    @property
    def default_overrides(self) -> dict[str, str]:
        return dict(self.context)

    def question(self) -> str:
        return (f"Does {self.interp}={self.alternative} ever change what happens, against the default "
                f"{self.default}? Yes: the same actions and chance differ after the last step "
                f"(the expectations below hold under {self.alternative}; under {self.default} they fail).")


Goal = ClauseGoal | WhereGoal | DecideGoal
