"""Chance, injected: every random event of the game goes through a Chance object.

- `SeededChance(seed)`: a private random.Random; the same seed gives the same game.
- `ScriptedChance(...)`: scenarios say which tiles the bag yields, the pile order, the chips and the
  first player; anything not scripted falls back to a seeded generator (or is an error when strict).
- properties/ has a Hypothesis-driven chance, so failures shrink over chance too.

A game's `copy()` is an independent game: it forks its chance (`fork()`), so playing the copy never
moves the original's draws, and a forked seeded chance draws what the original would have drawn.
`snapshot()` copies only the table, with `NO_DRAWS`: a position to look at (the state before a step),
whose every draw is refused.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Sequence
from typing import Protocol


class Chance(Protocol):
    def first_player(self, players: int = 2) -> int: ...
    def shuffle_plates(self, plates: Sequence[int]) -> list[int]: ...
    def draw_tile(self, bag: Sequence[int]) -> int: ...
    def draw_chip(self, supply: Sequence[int]) -> int: ...
    def fork(self) -> Chance: ...     # an independent chance with the same future draws


def pick_weighted(bag: Sequence[int], r: int) -> int:
    """The colour of the r-th tile (0-based) when the bag's tiles are laid out by colour."""
    for colour, n in enumerate(bag):
        if r < n:
            return colour
        r -= n
    raise ValueError("draw from an empty bag")


class SeededChance:
    def __init__(self, seed: int = 0) -> None:
        self.seed = seed
        self._rng = random.Random(seed)

    def fork(self) -> SeededChance:
        twin = copy.copy(self)                  # keeps a subclass's own draws
        twin._rng = random.Random()
        twin._rng.setstate(self._rng.getstate())
        return twin

    def first_player(self, players: int = 2) -> int:
        return self._rng.randrange(players)

    def shuffle_plates(self, plates: Sequence[int]) -> list[int]:
        out = sorted(plates)
        self._rng.shuffle(out)
        return out

    def draw_tile(self, bag: Sequence[int]) -> int:
        n = sum(bag)
        rng = self._rng
        if n > 0 and type(rng)._randbelow is _RANDBELOW:  # type: ignore[attr-defined]
            size = n.bit_length()          # rng.randrange(n), that is _randbelow(n), inlined
            r = rng.getrandbits(size)
            while r >= n:
                r = rng.getrandbits(size)
        else:
            r = rng.randrange(n)           # (refuses an empty bag)
        return pick_weighted(bag, r)

    def draw_tiles(self, bag: list[int], k: int) -> list[int]:
        """`k` tiles drawn one after the other, each taken out of `bag` (which must hold at least
        `k`): the colours, in order. The same random numbers as `k` calls of `draw_tile` (randrange
        over the tiles left is _randbelow of that count), so the same games; a subclass with its own
        `draw_tile` has it called for each tile."""
        if type(self).draw_tile is not SeededChance.draw_tile:
            return _one_by_one(self, bag, k)
        rng = self._rng
        if type(rng)._randbelow is not _RANDBELOW:  # type: ignore[attr-defined]  # CPython's, undeclared
            return _one_by_one(self, bag, k)
        bits = rng.getrandbits
        total = sum(bag)
        if k > total:
            raise ValueError("draw from an empty bag")
        out = []
        for _ in range(k):
            size = total.bit_length()     # Random._randbelow_with_getrandbits(total), inlined
            r = bits(size)
            while r >= total:
                r = bits(size)
            colour = 0
            while r >= bag[colour]:
                r -= bag[colour]
                colour += 1
            bag[colour] -= 1
            total -= 1
            out.append(colour)
        return out

    def draw_chip(self, supply: Sequence[int]) -> int:
        return sorted(supply)[self._rng.randrange(len(supply))]


_RANDBELOW = random.Random._randbelow      # type: ignore[attr-defined]  # CPython's, undeclared in typeshed


def _one_by_one(chance: Chance, bag: list[int], k: int) -> list[int]:
    out = []
    for _ in range(k):
        colour = chance.draw_tile(bag)
        bag[colour] -= 1
        out.append(colour)
    return out


class ChanceScriptError(ValueError):
    """A scripted chance event is impossible (e.g. a colour the bag does not hold). `colour` is the
    scripted tile colour at fault, if any, for a game's harness to name in its own words."""

    def __init__(self, message: str, colour: int | None = None) -> None:
        super().__init__(message)
        self.colour = colour


class NoDraws:
    """The chance of a snapshot: a position to look at, never to play on (every draw is refused)."""

    def _refuse(self, what: str) -> ChanceScriptError:
        return ChanceScriptError(f"a snapshot cannot draw {what}: play on a copy() of the game")

    def first_player(self, players: int = 2) -> int:
        raise self._refuse("the first player")

    def shuffle_plates(self, plates: Sequence[int]) -> list[int]:
        raise self._refuse("the plate order")

    def draw_tile(self, bag: Sequence[int]) -> int:
        raise self._refuse("a tile")

    def draw_chip(self, supply: Sequence[int]) -> int:
        raise self._refuse("a chip")

    def fork(self) -> NoDraws:
        return self


NO_DRAWS = NoDraws()


class ScriptedChance:
    """Plays back scripted outcomes; falls back to `SeededChance(seed)` (unless strict)."""

    def __init__(self, *, tiles: Sequence[int] = (), plates: Sequence[int] | None = None,
                 chips: Sequence[int] = (), first: int | None = None, seed: int = 0,
                 strict: bool = False) -> None:
        self.tiles = list(tiles)
        self.plates = list(plates) if plates is not None else None
        self.chips = list(chips)
        self.first = first
        self.strict = strict
        self._fallback = SeededChance(seed)

    def fork(self) -> ScriptedChance:
        twin = copy.copy(self)
        twin.tiles, twin.chips = self.tiles[:], self.chips[:]
        twin.plates = None if self.plates is None else self.plates[:]
        twin._fallback = self._fallback.fork()
        return twin

    def _fallback_or_fail(self, what: str) -> SeededChance:
        if self.strict:
            raise ChanceScriptError(f"the script has no more {what}")
        return self._fallback

    def first_player(self, players: int = 2) -> int:
        if self.first is not None:
            if not 0 <= self.first < players:
                raise ChanceScriptError(f"scripted first player {self.first} is not one of {players} players")
            return self.first
        return self._fallback_or_fail("first player").first_player(players)

    def shuffle_plates(self, plates: Sequence[int]) -> list[int]:
        if self.plates is None:
            return self._fallback_or_fail("plate order").shuffle_plates(plates)
        scripted = [p for p in self.plates if p in plates]
        rest = sorted(set(plates) - set(scripted))
        return scripted + self._fallback.shuffle_plates(rest) if rest else scripted

    def draw_tile(self, bag: Sequence[int]) -> int:
        if self.tiles:
            colour = self.tiles.pop(0)
            if not 0 <= colour < len(bag) or bag[colour] == 0:
                raise ChanceScriptError(f"scripted tile colour {colour} is not in the bag", colour=colour)
            return colour
        return self._fallback_or_fail("tiles").draw_tile(bag)

    def draw_chip(self, supply: Sequence[int]) -> int:
        if self.chips:
            chip = self.chips.pop(0)
            if chip not in supply:
                raise ChanceScriptError(f"scripted chip {chip} is not in the supply")
            return chip
        return self._fallback_or_fail("chips").draw_chip(supply)
