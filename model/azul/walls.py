"""Where a tile may go on a wall: the printed space on the coloured side, any free space of the row
that keeps every colour once per row and column on the gray side."""

from __future__ import annotations

from model.azul.colours import EMPTY, ROWS, printed_column
from model.clauses import cite


def row_has_colour(wall: list[int], row: int, colour: int) -> bool:
    base = row * ROWS
    return colour in wall[base:base + ROWS]


def column_has_colour(wall: list[int], col: int, colour: int) -> bool:
    return colour in wall[col::ROWS]


def free_columns(wall: list[int], row: int, colour: int, gray: bool) -> list[int]:
    """allowed_columns without citing: for questions about the position (azul.end.dead-game)."""
    base = row * ROWS
    if not gray:
        col = printed_column(row, colour)
        return [col] if wall[base + col] == EMPTY else []
    if colour in wall[base:base + ROWS]:
        return []
    return [c for c in range(ROWS) if wall[base + c] == EMPTY and colour not in wall[c::ROWS]]


def allowed_columns(wall: list[int], row: int, colour: int, gray: bool) -> list[int]:
    """The columns of `row` where a `colour` tile may be placed now (empty list: no valid space)."""
    base = row * ROWS
    if not gray:
        cite("azul.component.wall-pattern")
        col = printed_column(row, colour)
        return [col] if wall[base + col] == EMPTY else []
    cite("azul.gray.free-placement")
    cite("azul.gray.row-unique")          # checked at every placement, like the column rule below
    if colour in wall[base:base + ROWS]:
        return []
    cite("azul.gray.column-unique")
    return [c for c in range(ROWS) if wall[base + c] == EMPTY and colour not in wall[c::ROWS]]


def complete_rows(wall: list[int]) -> int:
    return sum(1 for r in range(ROWS) if EMPTY not in wall[r * ROWS:(r + 1) * ROWS])


def complete_columns(wall: list[int]) -> int:
    return sum(1 for c in range(ROWS) if EMPTY not in wall[c::ROWS])


def complete_colours(wall: list[int]) -> int:
    return sum(1 for colour in range(ROWS) if wall.count(colour) == ROWS)
