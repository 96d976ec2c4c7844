"""What every game's scenario shares about its `when` steps: a step as loaded, and the runner's way of
reporting each broken invariant once (the first place it shows), however many steps it stays broken."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import attrs


@attrs.frozen
class Step:
    """One `when` step: the action text, the clause it must be refused under (or None), the step's own
    expectations (or None) and its field (`when[N]`) for messages."""

    action: str
    error: str | None
    then: dict[str, Any] | None
    field: str


def once_per_invariant(diffs: list[str]) -> Callable[[list[str]], None]:
    """A `note(found)` that appends to `diffs` each invariant break not reported yet (the text after
    ": invariant " names the break)."""
    seen: set[str] = set()

    def note(found: list[str]) -> None:
        for d in found:
            key = d.split(": invariant ", 1)[-1]
            if key not in seen:
                seen.add(key)
                diffs.append(d)

    return note
