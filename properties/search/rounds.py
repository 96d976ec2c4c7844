"""What a game's own round-level explorer (`SearchHooks.explorers`; Go-Explore by rounds: a
population of games carried from one round's start to the next) shares with another: a member of
the population, the node count its rollouts play within, and `first_found`, which tries
explorations in turn within that count. Game knowledge (the step and round costs) stays with the
game (properties/duel/hoard.py, properties/azul/lockup_explorer.py)."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

import attrs

from properties.search.chance import ChanceRecord

UNLIMITED = 10**18


@attrs.define
class Line:
    """A game of the population: the game and the actions that led to it."""

    game: Any
    actions: list[str]


class OutOfNodes(Exception):
    """The rollouts have played the nodes they were given."""


class Nodes:
    """Actions the rollouts played (trials aside) and the most they may play."""

    __slots__ = ("limit", "used")

    def __init__(self) -> None:
        self.used = 0
        self.limit = UNLIMITED

    def play(self) -> None:
        """Count one action, before it is played: OutOfNodes once the limit is reached."""
        if self.used >= self.limit:
            raise OutOfNodes
        self.used += 1


def first_found(explore: Callable[[int], Line | None], seeds: Iterable[int], nodes: Nodes,
                limit: int) -> tuple[tuple[list[str], ChanceRecord] | None, int]:
    """Explorations from `seeds` in turn, their rollouts playing at most `limit` actions in all: the
    actions and chance record of the first game found (or None), and the actions played."""
    nodes.used, nodes.limit = 0, limit
    try:
        for seed in seeds:
            line = explore(seed)
            if line is not None:
                return (line.actions, line.game.chance.record), nodes.used
    except OutOfNodes:
        pass
    finally:
        nodes.limit = UNLIMITED
    return None, nodes.used
