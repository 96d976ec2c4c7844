"""Invariants of Azul Duel, each citing the clause ids it guards.

`physical` invariants hold for every position a scenario may describe; `progress` invariants hold
for every state reachable by legal play. Each check returns a list of violations (empty = holds).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

import attrs

from model.duel.colours import COLOURS, EMPTY, SPECIAL, WILD
from model.duel.engine import Game
from model.duel.state import CELL_SLOT, SLOT_CELLS, GameState, Player
from properties.duel.factories import chip_revealed_when_empty, moon_after_sun, supplies_never_negative


@attrs.frozen
class Invariant:
    name: str
    clauses: tuple[str, ...]
    check: Callable[[Game], list[str]]
    physical: bool = True      # holds for any described position, not only reachable ones

    def __call__(self, game: Game) -> list[str]:
        return self.check(game)


def _tiles_by_colour(game: Game) -> list[int]:
    s = game.state
    counts = [s.bag[c] + s.tower[c] + s.large.sun[c] + s.large.moon[c] for c in range(5)]
    for f in s.small:
        for c in range(5):
            counts[c] += f.sun[c]
        for c in f.moon:
            counts[c] += 1
    for pl in s.players:
        for line in range(6):
            if pl.line_count[line]:
                counts[pl.line_colour[line]] += pl.line_count[line]
        for c in pl.broken:
            counts[c] += 1
        for t in pl.dome_tile:
            if 0 <= t < 5:
                counts[t] += 1
    p = s.pending
    if p is not None and p.kind in ("line", "stack"):       # tiles in the picker's hand
        colour, n = p.data[-2], p.data[-1]
        counts[colour] += n
        if p.kind == "stack":
            for c in p.extra:
                counts[c] += 1
    return counts


def tile_conservation(game: Game) -> list[str]:
    out = []
    counts = _tiles_by_colour(game)
    for c, n in enumerate(counts):
        if n != 13:
            out.append(f"{n} {COLOURS[c]} tiles in play, expected 13")
    s = game.state
    specials = sum(t == SPECIAL for pl in s.players for t in pl.dome_tile)
    if specials + s.special_supply != 9:
        out.append(f"{specials} Special tiles on Domes + {s.special_supply} in supply != 9")
    holders = int(s.large.start_tile) + sum(pl.start_tile for pl in s.players)
    if holders != 1:
        out.append(f"the Starting player tile is in {holders} places")
    if any(n < 0 for n in s.bag + s.tower):
        out.append("negative tile count in bag or Tower")
    return out


def hand_plates(game: Game) -> list[int]:
    """The plates a player holds during a plate decision (drawn, kept and being placed, or to be
    returned under the pile)."""
    p = game.state.pending
    if p is None:
        return []
    if p.kind == "place":
        return [p.data[0], *p.extra]
    if p.kind in ("draw", "return"):
        return list(p.extra)
    return []


def component_conservation(game: Game) -> list[str]:
    s = game.state
    out = []
    chips = list(s.chip_supply) + [f.chip for f in s.small if f.chip]
    for pl in s.players:
        chips += pl.chips + pl.used_chips
    if sorted(chips) != list(range(1, 21)):
        out.append(f"Bonus chips are not each in one place: {sorted(chips)}")
    plates = list(s.pile) + [p for p in s.display if p] + hand_plates(game)
    for pl in s.players:
        plates += [p for p in pl.plates if p]
    if sorted(plates) != list(range(1, 19)):
        out.append(f"plates are not each in one place: {sorted(plates)}")
    for who, pl in enumerate(s.players):
        if not 0 <= pl.tokens_used <= 2:
            out.append(f"P{who + 1} used {pl.tokens_used} tokens")
    return out


def score_floor(game: Game) -> list[str]:
    return [f"P{i + 1} score {pl.score} < 0" for i, pl in enumerate(game.state.players) if pl.score < 0]


def pattern_lines(game: Game) -> list[str]:
    out = []
    for who, pl in enumerate(game.state.players):
        for line in range(6):
            n, colour = pl.line_count[line], pl.line_colour[line]
            if not 0 <= n <= line + 1:
                out.append(f"P{who + 1} line {line + 1} holds {n} tiles")
            if (n == 0) != (colour == EMPTY):
                out.append(f"P{who + 1} line {line + 1}: count {n} but colour {colour}")
        if len(pl.broken) > 4:
            out.append(f"P{who + 1} has {len(pl.broken)} Broken tiles")
    return out


def dome_consistency(game: Game) -> list[str]:
    """Every Dome space shows its plate, each tile lies on a space that takes it, and each Special
    space is filled exactly when the rest of its plate is."""
    return dome_consistency_where(game, ((who, range(9), range(36)) for who in range(len(game.state.players))))




def changed_domes(before: GameState, after: GameState) -> list[tuple[int, list[int], list[int]]]:
    """(player, Dome spaces, cells) where the two states' Domes differ: a changed cell brings its
    whole Dome space (the Special space rule reads all four cells)."""
    out = []
    for who, (old, new) in enumerate(zip(before.players, after.players, strict=True)):
        if (old.dome_tile == new.dome_tile and old.dome_space == new.dome_space and old.plates == new.plates
                and old.rotations == new.rotations):
            continue
        cells = [c for c in range(36) if old.dome_tile[c] != new.dome_tile[c] or old.dome_space[c] != new.dome_space[c]]
        slots = {CELL_SLOT[c] for c in cells}
        slots.update(s for s in range(9) if old.plates[s] != new.plates[s] or old.rotations[s] != new.rotations[s])
        out.append((who, sorted(slots), cells))
    return out


def dome_consistency_where(game: Game, where: Iterable[tuple[int, Iterable[int], Iterable[int]]]) -> list[str]:
    """dome_consistency restricted to `where`: (player, Dome spaces, cells) that a step altered
    (the rest of a Dome cannot have become inconsistent); the same messages as the full check."""
    out: list[str] = []
    tables = game.rules.tables
    for who, slots, cells in where:
        pl = game.state.players[who]
        for slot in slots:
            out += _slot_problems(tables, who, pl, slot)
        for cell in cells:
            tile, space = pl.dome_tile[cell], pl.dome_space[cell]
            if tile == EMPTY:
                continue
            ok = (tile == SPECIAL and space == SPECIAL) or (0 <= tile < 5 and space in (tile, WILD))
            if not ok:
                out.append(f"P{who + 1} tile {tile} on a space of kind {space} (row {cell // 6 + 1}, "
                           f"column {cell % 6 + 1})")
    return out


def _slot_problems(tables: Any, who: int, pl: Player, slot: int) -> list[str]:
    out = []
    cells = SLOT_CELLS[slot]
    pid = pl.plates[slot]
    if pid:
        spaces = tables.plate(pid).rotations[pl.rotations[slot]]
        if tuple(pl.dome_space[c] for c in cells) != spaces:
            out.append(f"P{who + 1} Dome space {slot + 1} does not show P{pid:02d} r{pl.rotations[slot]}")
        special = [c for c in cells if pl.dome_space[c] == SPECIAL]
        if special:
            others_full = all(pl.dome_tile[c] != EMPTY for c in cells if c != special[0])
            if others_full != (pl.dome_tile[special[0]] == SPECIAL):
                out.append(f"P{who + 1} Special space of Dome space {slot + 1} is wrongly "
                           f"{'empty' if others_full else 'filled'}")
    elif any(pl.dome_space[c] != EMPTY or pl.dome_tile[c] != EMPTY for c in cells):
        out.append(f"P{who + 1} has tiles or spaces on empty Dome space {slot + 1}")
    return out


def chips_per_round(game: Game) -> list[str]:
    if game.rules.choices["duel.chips.per-round"] != "hard-cap":
        return []
    return [f"P{i + 1} took {pl.chips_this_round} chips this round" for i, pl in
            enumerate(game.state.players) if pl.chips_this_round > 2]


def plates_per_round(game: Game) -> list[str]:
    """Plates on each Dome: 1 after setup, 1 + 2r once round r's Acquisition is over (9 at the end)."""
    s = game.state
    r = s.round
    if s.phase == "setup":
        lo, hi = 0, 1
    elif s.phase == "acquisition" and r <= 4:
        lo, hi = 1 + 2 * (r - 1), 1 + 2 * r
    else:
        lo = hi = 1 + 2 * min(r, 4)
    return [f"P{i + 1} has {pl.plate_count} plates in round {r} ({s.phase}), expected {lo}-{hi}"
            for i, pl in enumerate(s.players) if not lo <= pl.plate_count <= hi]


def progress(game: Game) -> list[str]:
    if game.is_over:
        return []
    if not game.legal_actions():
        return [f"no legal action in round {game.state.round}, phase {game.state.phase}: stalled"]
    return []


INVARIANTS: tuple[Invariant, ...] = (
    Invariant("tile-conservation", ("duel.invariant.tile-conservation", "duel.component.tiles",
                                    "duel.broken.capacity"), tile_conservation),
    Invariant("component-conservation", ("duel.invariant.component-conservation",
                                         "duel.component.bonus-chips", "duel.component.plates",
                                         "duel.component.tokens"), component_conservation),
    Invariant("score-floor", ("duel.score.floor",), score_floor),
    Invariant("pattern-lines", ("duel.lines.capacity", "duel.lines.same-colour", "duel.broken.capacity"),
              pattern_lines),
    Invariant("dome-consistency", ("duel.invariant.dome-consistency", "duel.tiling.joker-space",
                                   "duel.plate.special-space"), dome_consistency),
    Invariant("chips-per-round", ("duel.acquire.chip.limit",), chips_per_round, physical=False),
    Invariant("plates-per-round", ("duel.acquire.plate.tokens-required",), plates_per_round, physical=False),
    Invariant("progress", ("duel.acquire.pass", "duel.acquire.end"), progress, physical=False),
    Invariant("moon-after-sun", ("duel.invariant.factory-structure", "duel.acquire.sun.small-leftovers",
                                 "duel.acquire.sun.large-leftovers"), moon_after_sun, physical=False),
    Invariant("chip-revealed-when-empty", ("duel.acquire.chip.accessible", "duel.acquire.moon.reveal-chip",
                                           "duel.acquire.sun.reveal-monochrome"), chip_revealed_when_empty,
              physical=False),
    Invariant("supplies-never-negative", ("duel.invariant.supplies",), supplies_never_negative),
)


def violations(game: Game, *, physical_only: bool = False) -> list[tuple[Invariant, str]]:
    out: list[tuple[Invariant, str]] = []
    for inv in INVARIANTS:
        if physical_only and not inv.physical:
            continue
        out.extend((inv, msg) for msg in inv(game))
    return out
