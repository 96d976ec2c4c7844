"""Classic Azul's tiles and walls: the five colours (shared with the Duel model), the printed
(coloured) wall layout, and the tokens that can lie on a floor line."""

from __future__ import annotations

from model.colours import COLOURS, EMPTY, NUM_COLOURS, colour_index

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
