"""Dome scoring: adjacency runs, Special tile row points, penalties, and the Scoring tablets."""

from __future__ import annotations

from collections.abc import Sequence

from model.clauses import cite, cite_alternative
from model.duel.colours import EMPTY, SPECIAL, WILD
from model.duel.ruleset import Ruleset
from model.duel.state import SLOT_CELLS


def _linked(tiles: Sequence[int], r: int, c: int, dr: int, dc: int) -> int:
    """How many tiles lie unbroken next to (r, c), walking in direction (dr, dc)."""
    n = 0
    for _ in range(5):                   # a 6x6 Dome has at most 5 cells beside any cell in a line
        r, c = r + dr, c + dc
        if not (0 <= r < 6 and 0 <= c < 6 and tiles[r * 6 + c] != EMPTY):
            break
        n += 1
    return n


def adjacency_points(tiles: Sequence[int], cell: int) -> tuple[int, int]:
    """(horizontal run, vertical run) through `cell`, each counting the cell itself."""
    r, c = divmod(cell, 6)
    h = 1 + _linked(tiles, r, c, 0, -1) + _linked(tiles, r, c, 0, 1)
    v = 1 + _linked(tiles, r, c, -1, 0) + _linked(tiles, r, c, 1, 0)
    return h, v


def tile_points(tiles: Sequence[int], cell: int) -> int:
    """Points for a regular tile just placed on `cell` (already in `tiles`)."""
    h, v = adjacency_points(tiles, cell)
    if h == 1 and v == 1:
        cite("duel.score.isolated")
        return 1
    points = 0
    if h > 1:
        cite("duel.score.horizontal")
        points += h
    if v > 1:
        cite("duel.score.vertical")
        points += v
    return points


def special_row_points(rules: Ruleset, row: int) -> int:
    """Points printed at the right of Dome row `row` (0-based) for a Special tile."""
    alt = rules.choices["duel.special.row-points"]
    cite_alternative("duel.special.row-points", alt)
    if alt == "row-number":
        return row + 1
    return 2 * (row // 2 + 1)


def broken_penalty(rules: Ruleset, n: int) -> int:
    cite("duel.score.broken-penalty")
    if n in (1, 4):
        cite_alternative("duel.broken.penalties", rules.choices["duel.broken.penalties"])
    return rules.broken_totals[min(n, 4)]


# --- Scoring tablets --------------------------------------------------------------------------

DIAGONALS = (tuple(i * 7 for i in range(6)), tuple(i * 6 + 5 - i for i in range(6)))
OUTER = tuple(c for c in range(36) if c // 6 in (0, 5) or c % 6 in (0, 5))
# duel.tablet.outer-scope=outer-plates: every cell of the 8 plate slots around the central one.
OUTER_PLATES = tuple(sorted(c for slot in range(9) if slot != 4 for c in SLOT_CELLS[slot]))
OUTER_PLATES_ONLY = tuple(c for c in OUTER_PLATES if c not in OUTER)
UPPER_CORNERS, LOWER_CORNERS = (0, 2), (6, 8)


def _full(tiles: Sequence[int], cells: Sequence[int]) -> bool:
    return all(tiles[c] != EMPTY for c in cells)


def tablet_points(side: str, rules: Ruleset, spaces: Sequence[int], tiles: Sequence[int]) -> int:
    """Points one player scores for one tablet side (negative for empty Special spaces)."""
    if side == "rows-complete":
        cite("duel.tablet.rows-complete")
        return 3 * sum(_full(tiles, range(r * 6, r * 6 + 6)) for r in range(6))
    if side == "columns-complete":
        cite("duel.tablet.columns-complete")
        return 7 * sum(_full(tiles, range(c, 36, 6)) for c in range(6))
    if side == "diagonals":
        cite("duel.tablet.diagonals")
        return 10 * sum(_full(tiles, d) for d in DIAGONALS)
    if side == "wild-spaces":
        cite("duel.tablet.wild-spaces")
        wild = [c for c in range(36) if spaces[c] == WILD]
        return 2 * len(wild) if _full(tiles, wild) else 0
    if side == "colourful-rows":
        cite("duel.tablet.colourful-rows")
        alt = rules.choices["duel.tablet.colourful-rows.special"]
        full_only = rules.choices["duel.tablet.colourful-rows.full"] == "full-row"
        total = 0
        for r in range(6):
            row = [tiles[r * 6 + c] for c in range(6) if tiles[r * 6 + c] != EMPTY]
            with_special = len(set(row)) >= 5
            without_special = len(set(row) - {SPECIAL}) >= 5
            qualifies = with_special if alt == "counts-as-colour" else without_special
            if with_special != without_special and (len(row) == 6 or not full_only):
                cite_alternative("duel.tablet.colourful-rows.special", alt)   # the readings score this row differently
            if qualifies:
                if len(row) < 6:
                    cite_alternative("duel.tablet.colourful-rows.full", rules.choices["duel.tablet.colourful-rows.full"])
                    if full_only:
                        continue
                total += 4
        return total
    if side == "outer-spaces":
        cite("duel.tablet.outer-spaces")
        alt = rules.choices["duel.tablet.outer-scope"]
        if any(tiles[c] != EMPTY for c in OUTER_PLATES_ONLY):    # only then do the readings differ
            cite_alternative("duel.tablet.outer-scope", alt)
        cells = OUTER if alt == "edge-cells" else OUTER_PLATES
        return sum(tiles[c] != EMPTY for c in cells)
    if side == "corner-plates":
        cite("duel.tablet.corner-plates")
        alt = rules.choices["duel.tablet.corner-values"]
        upper, lower = (3, 8) if alt == "upper-3-lower-8" else (8, 3)
        n_upper = sum(1 for s in UPPER_CORNERS if spaces[SLOT_CELLS[s][0]] != EMPTY and _full(tiles, SLOT_CELLS[s]))
        n_lower = sum(1 for s in LOWER_CORNERS if spaces[SLOT_CELLS[s][0]] != EMPTY and _full(tiles, SLOT_CELLS[s]))
        if n_upper != n_lower:                      # only then do the two readings give different points
            cite_alternative("duel.tablet.corner-values", alt)
        return upper * n_upper + lower * n_lower
    if side == "empty-special-spaces":
        cite("duel.tablet.empty-special-spaces")
        return -3 * sum(1 for c in range(36) if spaces[c] == SPECIAL and tiles[c] == EMPTY)
    raise ValueError(f"unknown tablet side {side!r}")
