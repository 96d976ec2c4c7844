"""The compact tile notation of scenario files.

Tiles are letters: B blue, Y yellow, R red, K black, T turquoise, S Special tile; '.' is an empty
Dome space. Plates are P01-P18 and chips C01-C20 (components.toml order); players P1/P2.
"""

from __future__ import annotations

from model.duel.colours import COLOURS, EMPTY, SPECIAL

LETTERS = {"B": 0, "Y": 1, "R": 2, "K": 3, "T": 4}
LETTER_OF = {v: k for k, v in LETTERS.items()}
LETTER_OF[SPECIAL] = "S"


class NotationError(ValueError):
    pass


def parse_tiles(text: str) -> list[int]:
    """'RRB' -> [red, red, blue] (regular colours only)."""
    out = []
    for ch in text.replace(" ", ""):
        if ch not in LETTERS:
            raise NotationError(f"{ch!r} is not a tile letter (B Y R K T)")
        out.append(LETTERS[ch])
    return out


def format_tiles(tiles: list[int]) -> str:
    return "".join(LETTER_OF[t] for t in tiles)


def format_counts(counts: list[int]) -> str:
    return "".join(LETTER_OF[c] * n for c, n in enumerate(counts))


def parse_dome_row(text: str) -> list[int]:
    if len(text) != 6:
        raise NotationError(f"a Dome row has 6 spaces, got {len(text)} in {text!r}")
    out = []
    for ch in text:
        if ch == ".":
            out.append(EMPTY)
        elif ch == "S":
            out.append(SPECIAL)
        elif ch in LETTERS:
            out.append(LETTERS[ch])
        else:
            raise NotationError(f"{ch!r} is not a Dome tile (B Y R K T S or .)")
    return out


def format_dome_row(tiles: list[int]) -> str:
    return "".join("." if t == EMPTY else LETTER_OF[t] for t in tiles)


def parse_label(text: str, prefix: str, high: int) -> int:
    if not (isinstance(text, str) and text.startswith(prefix) and text[1:].isdigit() and 1 <= int(text[1:]) <= high):
        raise NotationError(f"expected {prefix}01-{prefix}{high:02d}, got {text!r}")
    return int(text[1:])


def parse_player(text: object) -> int:
    if text not in ("P1", "P2"):
        raise NotationError(f"expected P1 or P2, got {text!r}")
    return 0 if text == "P1" else 1


def parse_colour_counts(table: object) -> list[int]:
    if not isinstance(table, dict):
        raise NotationError("expected a table of colour = count")
    counts = [0] * 5
    for key, n in table.items():
        if key not in COLOURS:
            raise NotationError(f"unknown colour {key!r} (colours: {', '.join(COLOURS)})")
        if not isinstance(n, int) or isinstance(n, bool) or n < 0:
            raise NotationError(f"{key}: expected a count >= 0")
        counts[COLOURS.index(key)] = n
    return counts
