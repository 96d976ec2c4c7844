"""A search chance's fork (properties/search/chance.py SearchChance.fork) draws what its parent would
draw from the fork on, whatever either draws afterwards; the parent's generator state is taken once
for every fork made while it does not move (a look-ahead forks one position for each trial move)."""

from __future__ import annotations

import random

import pytest

from properties.search.chance import SearchChance

BAG = [13, 13, 13, 13, 13]


def _draws(chance: SearchChance, n: int) -> list[int]:
    return [chance.draw_tile(BAG) for _ in range(n)]


@pytest.mark.parametrize("style", ["weighted", "colour", "same", "scarce"])
def test_a_fork_draws_what_its_parent_would(style: str) -> None:
    parent = SearchChance(11, style)
    _draws(parent, 7)
    first, second = parent.fork(), parent.fork()
    ahead = _draws(parent, 20)                       # the parent moves on first
    assert _draws(first, 20) == ahead
    deeper = second.fork()                           # a fork of a fork not yet drawn from
    assert _draws(second, 5) == ahead[:5]
    later = second.fork()                            # after the fork drew
    assert _draws(deeper, 20) == ahead and _draws(later, 15) == ahead[5:]
    assert first.record.tiles[-20:] == ahead and len(first.record.tiles) == len(parent.record.tiles)
    reseeded = parent.fork()
    reseeded.reseed(3, style)
    assert _draws(reseeded, 10) == _draws(SearchChance(3, style, parent.record.copy()), 10)


def test_the_state_is_taken_once_while_the_generator_stands(monkeypatch: pytest.MonkeyPatch) -> None:
    taken = {"n": 0}
    real = random.Random.getstate

    def counting(self: random.Random) -> object:
        taken["n"] += 1
        return real(self)

    monkeypatch.setattr(random.Random, "getstate", counting)
    parent = SearchChance(5, "colour")
    _draws(parent, 3)
    forks = [parent.fork() for _ in range(10)]
    assert taken["n"] == 1, f"the state was taken {taken['n']} times for 10 forks of one position"
    _draws(parent, 1)
    parent.fork()
    assert taken["n"] == 2, "a draw moves the generator: the next fork takes the state anew"
    assert len({tuple(_draws(f, 4)) for f in forks}) == 1
