"""Chance for property tests: Hypothesis draws every random event (so failures shrink over chance
too), and a recorder keeps what was drawn so the game can be replayed from a scenario file."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from hypothesis import strategies as st

from model.chance import Chance, pick_weighted


class HypothesisChance:
    """Draws from the `data` object of the running Hypothesis rule (set before each step)."""

    def __init__(self, data: Any) -> None:
        self.data = data

    def first_player(self, players: int = 2) -> int:
        return self.data.draw(st.integers(0, players - 1), label="first player")

    def shuffle_plates(self, plates: Sequence[int]) -> list[int]:
        return list(self.data.draw(st.permutations(sorted(plates)), label="plate pile"))

    def draw_tile(self, bag: Sequence[int]) -> int:
        return pick_weighted(bag, self.data.draw(st.integers(0, sum(bag) - 1), label="bag draw"))

    def draw_chip(self, supply: Sequence[int]) -> int:
        return self.data.draw(st.sampled_from(sorted(supply)), label="chip draw")

    def fork(self) -> HypothesisChance:
        """Every draw is a choice of the running example's data: a copy draws from the same data, so
        unlike a seeded fork, playing the copy does move what the original draws next (nothing plays
        a copy under Hypothesis: the machine keeps snapshots)."""
        return HypothesisChance(self.data)


class RecordingChance:
    """Wraps a chance and records its outcomes in scenario form (tiles, plate order, chips, first)."""

    def __init__(self, inner: Chance) -> None:
        self.inner = inner
        self.tiles: list[int] = []
        self.plates: list[int] | None = None
        self.chips: list[int] = []
        self.first: int | None = None

    def first_player(self, players: int = 2) -> int:
        self.first = self.inner.first_player(players)
        return self.first

    def shuffle_plates(self, plates: Sequence[int]) -> list[int]:
        order = self.inner.shuffle_plates(plates)
        self.plates = list(order)
        return order

    def draw_tile(self, bag: Sequence[int]) -> int:
        colour = self.inner.draw_tile(bag)
        self.tiles.append(colour)
        return colour

    def draw_chip(self, supply: Sequence[int]) -> int:
        chip = self.inner.draw_chip(supply)
        self.chips.append(chip)
        return chip

    def fork(self) -> RecordingChance:
        twin = RecordingChance(self.inner.fork())
        twin.tiles, twin.chips, twin.first = self.tiles[:], self.chips[:], self.first
        twin.plates = None if self.plates is None else self.plates[:]
        return twin
