"""Dome queries the rules share: which spaces of a row can take a colour, and whether a pattern
line's band of three plates is complete."""

from __future__ import annotations

from model.duel.colours import EMPTY, WILD
from model.duel.state import Player


def band_full(pl: Player, line: int) -> bool:
    """Are the 3 plates of the band of pattern line `line` (0-based) all placed?"""
    # rule: duel.tiling.wait
    base = (line // 2) * 3
    return bool(pl.plates[base] and pl.plates[base + 1] and pl.plates[base + 2])


def matching_cells(pl: Player, line: int, colour: int) -> list[int]:
    """Empty cells of Dome row `line` on placed plates that accept `colour`."""
    row = line * 6
    out = []
    for c in range(row, row + 6):
        space = pl.dome_space[c]
        if pl.dome_tile[c] == EMPTY and (space == colour or space == WILD):
            out.append(c)
    return out
