"""The matrix row `azul.prep.empty-round=stall` is decided (issue 12): uniform play never drains
all 100 tiles, so the row is played by `lock-up` with 4 players (properties/azul/policy.py,
properties/azul/hooks.py ROW_SETUPS). A lock-up game reaches a round with no tile at all, and the
model's own citations say which reading decided it."""

from __future__ import annotations

import random
import time

import pytest

from model.azul.start import start
from model.clauses import recording
from properties.azul import policy

STALLING_SEED = 6          # a 4-player lock-up game that reaches the empty round (about 1 in 5 does)
MAX_ACTIONS = 3000         # the test's own bound: lock-up games end or loop well before it


def _play(reading: str, seed: int = STALLING_SEED):  # type: ignore[no-untyped-def]
    game = start(seed=seed, overrides={"azul.prep.empty-round": reading}, players=4)
    rng = random.Random(seed)
    with recording() as rec:
        for _ in range(MAX_ACTIONS):
            if game.is_over or game.is_stalled:
                break
            game.apply(policy.lock_up(game, game.legal_actions(), rng))
    return game, dict(rec.alternatives)


@pytest.mark.clause("azul.prep.partial-fill")
@pytest.mark.parametrize("reading", ("stall", "end-game"))
def test_lock_up_reaches_a_round_with_no_tile_and_the_reading_decides_it(reading: str) -> None:
    game, decided = _play(reading)
    s = game.state
    assert not any(s.bag) and not any(s.lid) and not s.tiles_on_offer()
    assert sum(1 for b in s.boards for c in b.wall if c >= 0) + sum(sum(b.line_count) for b in s.boards) == 100
    assert decided.get(("azul.prep.empty-round", reading)) == 1
    assert game.is_stalled if reading == "stall" else game.is_over


def test_one_lock_up_decision_is_bounded() -> None:
    """The round search visits at most LOCK_NODES positions: no decision of a whole game is slow."""
    game = start(seed=STALLING_SEED, overrides={"azul.prep.empty-round": "stall"}, players=4)
    rng = random.Random(STALLING_SEED)
    slowest = 0.0
    while not (game.is_over or game.is_stalled):
        t = time.perf_counter()
        action = policy.lock_up(game, game.legal_actions(), rng)
        slowest = max(slowest, time.perf_counter() - t)
        game.apply(action)
    assert slowest < 5.0
