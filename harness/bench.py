"""Benchmark: full random legal games per second, with clause recording off and on, for any game."""

from __future__ import annotations

import random
import time

import attrs

from harness.registry import DEFAULT_GAME, get_game
from model.clauses import recording


@attrs.frozen
class BenchResult:
    games: int
    actions: int
    seconds: float

    @property
    def games_per_s(self) -> float:
        return self.games / self.seconds

    @property
    def actions_per_s(self) -> float:
        return self.actions / self.seconds


def play_random(seed: int, game: str = DEFAULT_GAME, players: int | None = None) -> int:
    """One full game, uniform over legal actions (each checked by `apply`); returns the number of actions."""
    entry = get_game(game)
    played = entry.load("new_game")(seed=seed, players=players)
    rng = random.Random(seed)
    n = 0
    bound = entry.load("step_bound")(played)
    while not played.is_over:
        if n >= bound:
            raise RuntimeError(f"seed {seed}: no end after {bound} actions "
                               f"(livelock in phase {getattr(played.state, 'phase', '?')})")
        actions = played.legal_actions()
        if not actions:
            raise RuntimeError(f"seed {seed}: stalled")
        played.apply(rng.choice(actions))
        n += 1
    return n


def run(games: int, seed: int = 0, record: bool = False, game: str = DEFAULT_GAME,
        players: int | None = None) -> BenchResult:
    start = time.perf_counter()
    actions = 0
    if record:
        with recording():
            for i in range(games):
                actions += play_random(seed + i, game, players)
    else:
        for i in range(games):
            actions += play_random(seed + i, game, players)
    return BenchResult(games, actions, time.perf_counter() - start)
