"""Action policies for simulation: `uniform` (every legal action equally likely: widest coverage)
and `careful` (uniform, except that tiles go where the fewest break and chips are used when they
can complete a line), which plays games with realistic scores for designer statistics."""

from __future__ import annotations

import random
from collections.abc import Callable

from model.actions import Action, Kind
from model.dome import band_full, matching_cells
from model.engine import Game

Policy = Callable[[Game, list[Action], random.Random], Action]


def uniform(game: Game, actions: list[Action], rng: random.Random) -> Action:
    return rng.choice(actions)


def _broken_count(game: Game, action: Action) -> int:
    p = game.state.pending
    assert p is not None
    colour, n = p.data
    line = action.args[0]
    if line == 0:
        return n
    pl = game.state.players[p.player]
    room = line - pl.line_count[line - 1]
    placed = min(n, room) if len(action.args) == 1 else action.args[1]
    return n - placed


def _line_cost(game: Game, action: Action) -> tuple[int, int, int]:
    """(tiles broken now, line can never be placed, no space for it yet) - smaller is better."""
    broken = _broken_count(game, action)
    line = action.args[0]
    if line == 0:
        return broken, 1, 1
    p = game.state.pending
    assert p is not None
    pl = game.state.players[p.player]
    colour = p.data[0]
    open_space = bool(matching_cells(pl, line - 1, colour))
    dead = not open_space and band_full(pl, line - 1)
    return broken, int(dead), int(not open_space)


def careful(game: Game, actions: list[Action], rng: random.Random) -> Action:
    p = game.state.pending
    if p is not None and p.kind == "line":
        costs = [_line_cost(game, a) for a in actions]
        best = min(costs)
        return rng.choice([a for a, c in zip(actions, costs, strict=True) if c == best])
    if p is not None and p.kind == "bonus":
        spend = [a for a in actions if a.kind is Kind.BONUS]
        if spend:
            return rng.choice(spend)
    return rng.choice(actions)


POLICIES: dict[str, Policy] = {"uniform": uniform, "careful": careful}
