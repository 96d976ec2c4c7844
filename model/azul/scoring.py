"""Scoring as tiles are placed (runs in the row and the column) and the floor line's penalties."""

from __future__ import annotations

from model.azul.colours import EMPTY, MARKER, ROWS
from model.clauses import cite, cite_alternative

FLOOR_PENALTIES: tuple[int, ...] = (1, 1, 2, 2, 2, 3, 3)    # azul.floor.penalties, per space from the left


def _run(wall: list[int], cell: int, step: int, lo: int, hi: int) -> int:
    """Tiles connected to `cell` along one axis (cell included); lo/hi bound the axis."""
    return 1 + _reach(wall, cell, -step, lo, hi) + _reach(wall, cell, step, lo, hi)


def _reach(wall: list[int], cell: int, step: int, lo: int, hi: int) -> int:
    """Tiles next to `cell` in one direction, up to the first gap or the axis end: a row or column
    holds ROWS tiles, so at most ROWS - 1 are looked at (the wall bounds the loop)."""
    n = 0
    i = cell + step
    for _ in range(ROWS - 1):
        if not lo <= i <= hi or wall[i] == EMPTY:
            break
        n += 1
        i += step
    return n


def placement_points(wall: list[int], row: int, col: int, count_both: bool) -> int:
    """Points for the tile just placed at (row, col) (it is already on `wall`)."""
    cite("azul.score.immediate")
    cell = row * ROWS + col
    across = _run(wall, cell, 1, row * ROWS, row * ROWS + ROWS - 1)
    down = _run(wall, cell, ROWS, col, col + ROWS * (ROWS - 1))
    if across == 1 and down == 1:
        cite("azul.score.isolated")
        return 1
    if across > 1:
        cite("azul.score.row-run")
    if down > 1:
        cite("azul.score.column-run")
    if across == 1 or down == 1:              # neighbours along one axis only: the point decides
        if count_both:
            cite_alternative("azul.score.single-axis", "count-both")
            return across + down
        cite_alternative("azul.score.single-axis", "skip-single")
        return across if down == 1 else down
    return across + down


def floor_penalty(floor: list[int], marker_cost: str) -> int:
    """What a floor line costs at floor scoring, as a positive number: each covered space its printed
    value; the marker's own cost is the azul.floor.marker-cost point."""
    cite("azul.floor.penalties")
    if MARKER not in floor:
        return sum(FLOOR_PENALTIES[:len(floor)])
    cite_alternative("azul.floor.marker-cost", marker_cost)
    if marker_cost == "space-value":
        return sum(FLOOR_PENALTIES[:len(floor)])
    tiles = sum(FLOOR_PENALTIES[i] for i, t in enumerate(floor) if t != MARKER)
    return tiles + 1 if marker_cost == "one-point" else tiles
