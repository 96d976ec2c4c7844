"""Bonus chip combinations: which chip sets can replace a pattern line's missing tiles
(duel.bonus.complete-line, duel.bonus.two-colour)."""

from __future__ import annotations

from itertools import combinations

from model.duel.colours import COLOURS
from model.duel.components import ComponentTables
from model.duel.state import Player


def bonus_options(pl: Player, colour: int, missing: int, tables: ComponentTables) -> list[tuple[int, ...]]:
    """Every set of chips (sorted id tuples) that replaces `missing` tiles of `colour`: each tile
    needs two chips showing the colour or any three chips (duel.bonus.complete-line)."""
    # rule: duel.bonus.complete-line
    chips = pl.chips
    shows = {c: colour in tables.chips[c - 1].colours for c in chips}.__getitem__
    out: list[tuple[int, ...]] = []
    for size in range(2 * missing, 3 * missing + 1):
        if size > len(chips):
            break
        pairs = 3 * missing - size          # groups of two matching chips
        if pairs == 0:                      # any chips will do
            out.extend(combinations(chips, size))
            continue
        need = 2 * pairs
        out.extend(combo for combo in combinations(chips, size) if sum(map(shows, combo)) >= need)
    return out


def has_bonus_option(pl: Player, colour: int, missing: int, tables: ComponentTables) -> bool:
    """Whether any chip set can replace `missing` tiles: k matching pairs and missing-k triples need
    2k chips showing the colour and 2k + 3(missing - k) chips in all."""
    # rule: duel.bonus.complete-line
    chips = pl.chips
    n = len(chips)
    if n < 2 * missing:
        return False
    matching = sum(colour in tables.chips[c - 1].colours for c in chips)
    return any(2 * k <= matching and n >= 3 * missing - k for k in range(missing + 1))


def bonus_valid(pl: Player, colour: int, missing: int, ids: tuple[int, ...],
                tables: ComponentTables) -> str | None:
    # rule: duel.bonus.complete-line
    def chip_colours(c: int) -> tuple[int, ...]:
        return tables.chips[c - 1].colours
    if len(set(ids)) != len(ids) or any(i not in pl.chips for i in ids):
        return "those chips are not face up in the player's storage"
    size = len(ids)
    if not 2 * missing <= size <= 3 * missing:
        return f"{missing} missing tile(s) take 2 matching or 3 any chips each"
    pairs = 3 * missing - size
    if sum(colour in chip_colours(c) for c in ids) < 2 * pairs:
        return f"not enough chips showing {COLOURS[colour]} to form {pairs} pair(s)"
    return None
