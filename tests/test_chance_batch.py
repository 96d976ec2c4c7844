"""Batched tile draws (issue 24) take the same random numbers as drawing one tile at a time: the
same seed gives the same factories, and the generator is left where single draws leave it."""

from __future__ import annotations

import random

import pytest

from model.chance import SeededChance


@pytest.mark.parametrize("seed", range(6))
def test_a_batch_draws_what_single_draws_draw(seed: int) -> None:
    shape = random.Random(seed)
    bag = [shape.randrange(0, 21) for _ in range(5)]
    bag[seed % 5] += 1
    k = shape.randrange(1, sum(bag) + 1)
    one, batch = SeededChance(seed), SeededChance(seed)
    singles, left = [], bag[:]
    for _ in range(k):
        colour = one.draw_tile(left)
        left[colour] -= 1
        singles.append(colour)
    batched_bag = bag[:]
    assert batch.draw_tiles(batched_bag, k) == singles
    assert batched_bag == left
    assert batch.first_player(4) == one.first_player(4)        # the stream goes on from the same place


def test_a_batch_honours_a_subclass_own_draw_and_refuses_an_overdraw() -> None:
    class Loaded(SeededChance):
        def draw_tile(self, bag):  # type: ignore[no-untyped-def]
            return next(c for c, n in enumerate(bag) if n)

    bag = [0, 2, 1, 0, 0]
    assert Loaded(0).draw_tiles(bag, 3) == [1, 1, 2] and bag == [0, 0, 0, 0, 0]
    with pytest.raises(ValueError, match="empty bag"):
        SeededChance(0).draw_tiles([1, 0, 0, 0, 0], 2)
