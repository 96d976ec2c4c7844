"""Classic Azul's tiles and walls: the five colours (the same names and order as Duel's), the printed
(coloured) wall layout, and the tokens that can lie on a floor line."""

from __future__ import annotations

COLOURS: tuple[str, ...] = ("blue", "yellow", "red", "black", "turquoise")
NUM_COLOURS = len(COLOURS)
EMPTY = -1
_COLOUR_INDEX: dict[str, int] = {name: i for i, name in enumerate(COLOURS)}


def colour_index(name: str) -> int:
    try:
        return _COLOUR_INDEX[name]
    except KeyError:
        from spec.suggest import did_you_mean

        raise ValueError(f"unknown colour {name!r}{did_you_mean(name, COLOURS)} (colours: {', '.join(COLOURS)})") from None

__all__ = ["COLOURS", "EMPTY", "MARKER", "NUM_COLOURS", "ROWS", "TILES_PER_COLOUR", "colour_index",
           "printed_colour", "printed_column"]

ROWS = 5                    # pattern lines and wall rows/columns
TILES_PER_COLOUR = 20       # azul.component.tiles: 5 colours x 20
MARKER = 5                  # the starting player marker when it lies on a floor line


def printed_colour(row: int, col: int) -> int:
    """The colour printed on the coloured wall at (row, col), 0-based: (col - row) mod 5."""
    return (col - row) % 5


def printed_column(row: int, colour: int) -> int:
    """The column of `colour` in `row` of the coloured wall."""
    return (row + colour) % 5
