"""Chance the search controls: every outcome is one the real game could produce (a colour the bag
holds, a permutation of the plates, a chip in the supply, a seat), chosen by the search's own
generator and recorded as it goes, so the game replays with `ScriptedChance(strict=True)`.

`SearchChance` keeps the record (`ChanceRecord`); `FollowingChance` plays another ruleset's game
on the same record, the way a scenario file's script is read (each queue in order), and says
when the record has no more for it (`RecordExhausted`)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import attrs

from model.chance import ChanceScriptError, pick_weighted


@attrs.define
class ChanceRecord:
    """What chance produced, in scenario form: the bag's draws, the plate order, chips, first seat."""

    tiles: list[int] = attrs.field(factory=list)
    plates: list[int] | None = None
    chips: list[int] = attrs.field(factory=list)
    first: int | None = None

    def copy(self) -> ChanceRecord:
        return ChanceRecord(self.tiles[:], None if self.plates is None else self.plates[:], self.chips[:], self.first)

    def draws(self) -> int:
        """How many scripted draws the record holds (tiles and chips; plates and seat count once)."""
        return len(self.tiles) + len(self.chips) + (self.plates is not None) + (self.first is not None)


# How chance chooses a tile, per style: `weighted` as the real bag does; `colour` uniform over the
# colours the bag holds (rare colours come out as often as common ones); `same` repeats the last
# colour drawn while the bag holds it (monochrome Factories, runs on one colour); `scarce` the colour
# the bag holds fewest of (colours run out one by one: a bag of one colour, monochrome redraws).
TILE_STYLES = ("weighted", "colour", "same", "scarce")


class SearchChance:
    """Chance chosen by the search: a private generator and a tile style, every outcome recorded.
    A fork starts from its parent's generator state, taken once while neither draws (a look-ahead
    forks the same position for each of its trial moves) and made a generator only when the fork
    first draws (most trial moves draw nothing)."""

    __slots__ = ("_generator", "_state", "record", "style")

    def __init__(self, seed: int = 0, style: str = "weighted", record: ChanceRecord | None = None) -> None:
        self._generator: random.Random | None = random.Random(seed)
        self._state: Any = None             # the generator's state when last forked, while it has not moved
        self.style = style
        self.record = record if record is not None else ChanceRecord()

    @property
    def rng(self) -> random.Random:
        """The generator, about to move (so a state kept for forks no longer holds)."""
        generator = self._generator
        if generator is None:
            generator = self._generator = random.Random(0)     # any seed: replaced at once
            generator.setstate(self._state)
        self._state = None
        return generator

    def reseed(self, seed: int, style: str) -> None:
        """Branching from a snapshot: new choices from here on, the record so far kept."""
        self._generator = random.Random(seed)
        self._state = None
        self.style = style

    def fork(self) -> SearchChance:
        if self._state is None:
            assert self._generator is not None                  # a generator not yet made has a state
            self._state = self._generator.getstate()
        twin = SearchChance.__new__(SearchChance)
        twin._generator = None
        twin._state = self._state
        twin.style = self.style
        twin.record = self.record.copy()
        return twin

    def first_player(self, players: int = 2) -> int:
        self.record.first = self.rng.randrange(players)
        return self.record.first

    def shuffle_plates(self, plates: Sequence[int]) -> list[int]:
        out = sorted(plates)
        self.rng.shuffle(out)
        self.record.plates = out[:]
        return out

    def draw_tile(self, bag: Sequence[int]) -> int:
        style = self.style
        tiles = self.record.tiles
        if style == "same" and tiles and bag[tiles[-1]] > 0 and self.rng.random() < 0.8:
            colour = tiles[-1]
        elif style == "scarce" and self.rng.random() < 0.95:
            colour = min((n, c) for c, n in enumerate(bag) if n > 0)[1]
        elif style != "weighted":
            colour = self.rng.choice([c for c, n in enumerate(bag) if n > 0])
        else:
            colour = pick_weighted(bag, self.rng.randrange(sum(bag)))
        tiles.append(colour)
        return colour

    def draw_chip(self, supply: Sequence[int]) -> int:
        chip = sorted(supply)[self.rng.randrange(len(supply))]
        self.record.chips.append(chip)
        return chip


class RecordExhausted(Exception):
    """A following game asked chance for more than the leading game's record holds so far."""


class FollowingChance:
    """Reads a leading game's record the way `ScriptedChance` reads a scenario's script: each queue
    in order, a scripted colour the bag lacks is a ChanceScriptError; past the end, RecordExhausted."""

    __slots__ = ("chip_at", "record", "tile_at")

    def __init__(self, record: ChanceRecord, tile_at: int = 0, chip_at: int = 0) -> None:
        self.record = record
        self.tile_at = tile_at
        self.chip_at = chip_at

    def follow(self, record: ChanceRecord) -> FollowingChance:
        """The same reading position on another (copied) record."""
        return FollowingChance(record, self.tile_at, self.chip_at)

    def fork(self) -> FollowingChance:
        return FollowingChance(self.record, self.tile_at, self.chip_at)

    def first_player(self, players: int = 2) -> int:
        if self.record.first is None:
            raise RecordExhausted("first player")
        return self.record.first

    def shuffle_plates(self, plates: Sequence[int]) -> list[int]:
        if self.record.plates is None:
            raise RecordExhausted("plate order")
        return [p for p in self.record.plates if p in plates] + sorted(set(plates) - set(self.record.plates))

    def draw_tile(self, bag: Sequence[int]) -> int:
        if self.tile_at >= len(self.record.tiles):
            raise RecordExhausted("tiles")
        colour = self.record.tiles[self.tile_at]
        self.tile_at += 1
        if bag[colour] == 0:
            raise ChanceScriptError(f"scripted tile colour {colour} is not in the bag", colour=colour)
        return colour

    def draw_chip(self, supply: Sequence[int]) -> int:
        if self.chip_at >= len(self.record.chips):
            raise RecordExhausted("chips")
        chip = self.record.chips[self.chip_at]
        self.chip_at += 1
        if chip not in supply:
            raise ChanceScriptError(f"scripted chip {chip} is not in the supply")
        return chip


class LenientChance:
    """Shrinking's chance: reads a record the way the file will (each queue in order) while the
    outcome is possible, else takes the first outcome that is (the first colour the bag holds, the
    smallest chip in the supply), and past its end draws from a seed. What it gave out is recorded
    in `played`, so the candidate then replays with `ScriptedChance(strict=True)` exactly."""

    __slots__ = ("chip_at", "played", "record", "rng", "tile_at")

    def __init__(self, record: ChanceRecord, seed: int = 0) -> None:
        self.record = record
        self.tile_at = 0
        self.chip_at = 0
        self.rng = random.Random(seed)
        self.played = ChanceRecord()

    def fork(self) -> LenientChance:
        twin = LenientChance(self.record)
        twin.tile_at, twin.chip_at = self.tile_at, self.chip_at
        twin.rng.setstate(self.rng.getstate())
        twin.played = self.played.copy()
        return twin

    def first_player(self, players: int = 2) -> int:
        first = self.record.first if self.record.first is not None else self.rng.randrange(players)
        self.played.first = first
        return first

    def shuffle_plates(self, plates: Sequence[int]) -> list[int]:
        if self.record.plates is None:
            out = sorted(plates)
            self.rng.shuffle(out)
        else:
            out = [p for p in self.record.plates if p in plates] + sorted(set(plates) - set(self.record.plates))
        self.played.plates = out[:]
        return out

    def draw_tile(self, bag: Sequence[int]) -> int:
        if self.tile_at < len(self.record.tiles):
            colour = self.record.tiles[self.tile_at]
            self.tile_at += 1
            if bag[colour] == 0:
                colour = next(c for c, n in enumerate(bag) if n > 0)
        else:
            colour = pick_weighted(bag, self.rng.randrange(sum(bag)))
        self.played.tiles.append(colour)
        return colour

    def draw_chip(self, supply: Sequence[int]) -> int:
        if self.chip_at < len(self.record.chips):
            chip = self.record.chips[self.chip_at]
            self.chip_at += 1
            if chip not in supply:
                chip = sorted(supply)[0]
        else:
            chip = sorted(supply)[self.rng.randrange(len(supply))]
        self.played.chips.append(chip)
        return chip
