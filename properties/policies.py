"""The policy every game has: uniform random over the legal actions. A game may register more
(registry field `policies`, e.g. Duel's greedy in properties/duel/policy.py)."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

Policy = Callable[[Any, Sequence[Any], random.Random], Any]


def uniform(game: Any, actions: Sequence[Any], rng: random.Random) -> Any:
    """Any legal action, each as likely."""
    return rng.choice(list(actions))


BASE_POLICIES: dict[str, Policy] = {"uniform": uniform}
