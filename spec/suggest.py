""""Did you mean" for a mistyped clause id, interpretation point or alternative."""

from __future__ import annotations

import difflib
from collections.abc import Iterable


def did_you_mean(word: str, choices: Iterable[str]) -> str:
    """" (did you mean 'x'?)" naming the closest choice, or "" when none is close."""
    choices = sorted(set(choices))
    close = difflib.get_close_matches(word, choices, n=1, cutoff=0.6)
    if not close:                                   # a missing or extra chapter prefix: "acquire.end"
        tail = [c for c in choices if c.endswith("." + word) or word.endswith("." + c.split(".", 1)[-1])]
        close = tail[:1]
    return f" (did you mean {close[0]!r}?)" if close else ""
