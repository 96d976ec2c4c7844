"""Benchmark: full random legal games per second, with clause recording off and on."""

from __future__ import annotations

import random
import time

import attrs

from model.duel import new_game
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


def play_random(seed: int) -> int:
    """One full game, uniform over legal actions; returns the number of actions."""
    from properties.duel.bounds import max_game_steps

    game = new_game(seed=seed)
    rng = random.Random(seed)
    n = 0
    bound = max_game_steps(game.rules)
    while not game.is_over:
        if n >= bound:
            raise RuntimeError(f"seed {seed}: no end after {bound} actions (livelock in phase {game.state.phase})")
        actions = game.legal_actions()
        if not actions:
            raise RuntimeError(f"seed {seed}: stalled")
        game._apply(rng.choice(actions), [])   # legal by construction; skips the predicate
        n += 1
    return n


def run(games: int, seed: int = 0, record: bool = False) -> BenchResult:
    start = time.perf_counter()
    actions = 0
    if record:
        with recording():
            for i in range(games):
                actions += play_random(seed + i)
    else:
        for i in range(games):
            actions += play_random(seed + i)
    return BenchResult(games, actions, time.perf_counter() - start)
