"""Every action that could be asked of a classic Azul state, legal or not: the space over which the
generator and the legality predicate are compared."""

from __future__ import annotations

from model.azul.actions import CENTRE_SOURCE, FLOOR, Action, take, wall
from model.azul.colours import NUM_COLOURS, ROWS

CANDIDATES: tuple[Action, ...] = tuple(
    [take(src, c, d) for src in (*range(9), CENTRE_SOURCE) for c in range(NUM_COLOURS) for d in (*range(ROWS), FLOOR)]
    + [take(src, c, d, k) for src in (*range(9), CENTRE_SOURCE) for c in range(NUM_COLOURS) for d in range(ROWS)
       for k in range(1, d + 1)]
    + [wall(r, c) for r in range(ROWS) for c in range(ROWS)])


def candidate_actions() -> tuple[Action, ...]:
    return CANDIDATES
