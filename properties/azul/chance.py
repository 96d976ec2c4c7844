"""Chance for classic Azul property tests: Hypothesis draws every bag draw and the first player
(so failures shrink over chance too), and a recorder keeps them for the replayable program.
The classic model asks chance only for `draw_tile(bag)` and `first_player(players)`."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from hypothesis import strategies as st

from model.chance import pick_weighted


class HypothesisChance:
    """Draws from the `data` object of the running Hypothesis step (set before each step)."""

    def __init__(self, data: Any) -> None:
        self.data = data

    def first_player(self, players: int = 2) -> int:
        return self.data.draw(st.integers(0, players - 1), label="first player")

    def draw_tile(self, bag: Sequence[int]) -> int:
        return pick_weighted(bag, self.data.draw(st.integers(0, sum(bag) - 1), label="bag draw"))

    def shuffle_plates(self, plates: Sequence[int]) -> list[int]:
        raise NotImplementedError("classic Azul has no plates")

    def draw_chip(self, supply: Sequence[int]) -> int:
        raise NotImplementedError("classic Azul has no chips")


class RecordingChance:
    """Wraps a chance and records the tiles drawn and the first player, in drawing order."""

    def __init__(self, inner: HypothesisChance) -> None:
        self.inner = inner
        self.tiles: list[int] = []
        self.first: int | None = None

    def first_player(self, players: int = 2) -> int:
        self.first = self.inner.first_player(players)
        return self.first

    def draw_tile(self, bag: Sequence[int]) -> int:
        colour = self.inner.draw_tile(bag)
        self.tiles.append(colour)
        return colour

    def shuffle_plates(self, plates: Sequence[int]) -> list[int]:
        return self.inner.shuffle_plates(plates)

    def draw_chip(self, supply: Sequence[int]) -> int:
        return self.inner.draw_chip(supply)
