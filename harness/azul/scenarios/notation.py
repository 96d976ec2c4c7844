"""Classic Azul's tiles in scenario files: one letter a tile (B blue, Y yellow, R red, K black,
T turquoise; M the starting player marker on a floor line; `.` an empty wall space), or a table of
colour names and counts for the bag and the box lid."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from harness.scenarios.schema import suggest
from model.azul.colours import COLOURS, EMPTY, MARKER, NUM_COLOURS

LETTERS = "BYRKT"               # by colour index: blue, yellow, red, black, turquoise
MARKER_LETTER = "M"
LETTER_WORDS = ", ".join(f"{letter} {name}" for letter, name in zip(LETTERS, COLOURS, strict=True))


class NotationError(ValueError):
    """A tile string or colour table that cannot be read (the message is one line)."""


def parse_tiles(text: Any, *, marker: bool = False, empty: bool = False) -> list[int]:
    """Colours of a tile string (MARKER for M when `marker`, EMPTY for `.` when `empty`)."""
    if not isinstance(text, str):
        raise NotationError("expected a string of tile letters (" + LETTER_WORDS + ")")
    out = []
    for ch in text:
        if ch in LETTERS:
            out.append(LETTERS.index(ch))
        elif marker and ch == MARKER_LETTER:
            out.append(MARKER)
        elif empty and ch == ".":
            out.append(EMPTY)
        else:
            extra = (", M the marker" if marker else "") + (", . empty" if empty else "")
            hint = suggest(ch.upper(), LETTERS) if ch.upper() in LETTERS else ""
            raise NotationError(f"{ch!r} is not a tile letter{hint} ({LETTER_WORDS}{extra})")
    return out


def parse_counts(value: Any) -> list[int]:
    """Tiles per colour from `{ red = 5, blue = 2 }` or a tile string "RRRRRBB"."""
    if isinstance(value, str):
        counts = [0] * NUM_COLOURS
        for c in parse_tiles(value):
            counts[c] += 1
        return counts
    if not isinstance(value, dict):
        raise NotationError("expected colour counts: a table like { red = 5 } or a tile string")
    counts = [0] * NUM_COLOURS
    for name, n in value.items():
        if name not in COLOURS:
            raise NotationError(f"unknown colour {name!r}{suggest(name, COLOURS)} (colours: {', '.join(COLOURS)})")
        if not isinstance(n, int) or isinstance(n, bool) or n < 0:
            raise NotationError(f"{name}: expected a count (an integer >= 0)")
        counts[COLOURS.index(name)] = n
    return counts


def format_tiles(colours: Iterable[int]) -> str:
    return "".join(MARKER_LETTER if c == MARKER else "." if c == EMPTY else LETTERS[c] for c in colours)


def format_counts(counts: Iterable[int]) -> str:
    """Counts as a sorted tile string ("RRB" for 2 red, 1 blue -> "BRR")."""
    return "".join(LETTERS[c] * n for c, n in enumerate(counts))


def sort_tiles(text: str) -> str:
    """A tile string in colour order (for comparing multisets of tiles)."""
    order = LETTERS + MARKER_LETTER
    return "".join(sorted(text, key=lambda ch: order.index(ch) if ch in order else len(order)))


def seat(text: Any, players: int) -> int:
    """"P1".."P4" -> 0-based seat."""
    if isinstance(text, str) and len(text) == 2 and text[0] == "P" and text[1].isdigit() \
            and 1 <= int(text[1]) <= players:
        return int(text[1]) - 1
    raise NotationError(f"expected a player P1-P{players}, got {text!r}")
