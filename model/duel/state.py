"""The game state as compact mutable attrs classes (ints and lists: cheap to copy and compare).

Dome cells are indexed row * 6 + column (rows 1-6 of the rulebook are 0-5 here). A plate slot s
(0-8, row by row) covers rows 2*(s//3)..+1 and columns 2*(s%3)..+1.
"""

from __future__ import annotations

import attrs

from model.duel.colours import EMPTY, NUM_COLOURS

DOME_SIZE = 6
NUM_SMALL = 4
LINES = 6


def slot_cells(slot: int) -> tuple[int, int, int, int]:
    """Cells (top-left, top-right, bottom-left, bottom-right) of plate slot `slot`."""
    r, c = 2 * (slot // 3), 2 * (slot % 3)
    return (r * 6 + c, r * 6 + c + 1, (r + 1) * 6 + c, (r + 1) * 6 + c + 1)


SLOT_CELLS: tuple[tuple[int, int, int, int], ...] = tuple(slot_cells(s) for s in range(9))
CELL_SLOT: tuple[int, ...] = tuple((cell // 6 // 2) * 3 + (cell % 6) // 2 for cell in range(36))


@attrs.define(slots=True, eq=True)
class SmallFactory:
    sun: list[int] = attrs.field(factory=lambda: [0] * NUM_COLOURS)   # tiles per colour
    moon: list[int] = attrs.field(factory=list)                       # stack, bottom -> top
    chip: int = 0                                                     # chip id under the stack, 0 = none
    chip_revealed: bool = False

    def copy(self) -> SmallFactory:
        return SmallFactory(self.sun[:], self.moon[:], self.chip, self.chip_revealed)

    @property
    def has_tiles(self) -> bool:
        return bool(self.moon) or any(self.sun)


@attrs.define(slots=True, eq=True)
class LargeFactory:
    sun: list[int] = attrs.field(factory=lambda: [0] * NUM_COLOURS)
    moon: list[int] = attrs.field(factory=lambda: [0] * NUM_COLOURS)  # separate spaces: all exposed
    start_tile: bool = True                                           # Starting player tile on its space

    def copy(self) -> LargeFactory:
        return LargeFactory(self.sun[:], self.moon[:], self.start_tile)

    @property
    def has_tiles(self) -> bool:
        return any(self.sun) or any(self.moon)


@attrs.define(slots=True, eq=True)
class Player:
    score: int = 0
    line_colour: list[int] = attrs.field(factory=lambda: [EMPTY] * LINES)
    line_count: list[int] = attrs.field(factory=lambda: [0] * LINES)
    broken: list[int] = attrs.field(factory=list)                     # colours, stack order
    dome_space: list[int] = attrs.field(factory=lambda: [EMPTY] * 36)  # space kind, EMPTY = no plate
    dome_tile: list[int] = attrs.field(factory=lambda: [EMPTY] * 36)   # tile colour, SPECIAL, EMPTY
    plates: list[int] = attrs.field(factory=lambda: [0] * 9)          # plate id per slot, 0 = none
    rotations: list[int] = attrs.field(factory=lambda: [0] * 9)
    chips: list[int] = attrs.field(factory=list)                      # face up, unused (sorted ids)
    used_chips: list[int] = attrs.field(factory=list)                 # face down
    chips_this_round: int = 0
    tokens_used: int = 0
    passed: bool = False
    start_tile: bool = False

    def copy(self) -> Player:
        return Player(self.score, self.line_colour[:], self.line_count[:], self.broken[:],
                      self.dome_space[:], self.dome_tile[:], self.plates[:], self.rotations[:],
                      self.chips[:], self.used_chips[:], self.chips_this_round, self.tokens_used,
                      self.passed, self.start_tile)

    @property
    def plate_count(self) -> int:
        return sum(1 for p in self.plates if p)


@attrs.define(slots=True, eq=True)
class Pending:
    """A decision in progress: its kind and its data (what the next action must complete)."""

    kind: str                       # opening | draw | place | return | stack | line | bonus | tile
    player: int
    data: tuple[int, ...] = ()      # kind-specific
    extra: tuple[int, ...] = ()     # kind-specific (e.g. drawn plates, picked tiles)


@attrs.define(slots=True, eq=True)
class GameState:
    """Everything on the table. Pure data: the rules live in model.duel.engine."""

    round: int = 1
    phase: str = "setup"
    to_move: int = 0
    starter: int = 0
    bag: list[int] = attrs.field(factory=lambda: [0] * NUM_COLOURS)
    tower: list[int] = attrs.field(factory=lambda: [0] * NUM_COLOURS)
    large: LargeFactory = attrs.field(factory=LargeFactory)
    small: list[SmallFactory] = attrs.field(factory=lambda: [SmallFactory() for _ in range(NUM_SMALL)])
    display: list[int] = attrs.field(factory=lambda: [0, 0, 0])       # plate ids, 0 = empty space
    pile: list[int] = attrs.field(factory=list)                       # top first
    chip_supply: list[int] = attrs.field(factory=list)                # face-down chip ids (sorted)
    special_supply: int = 9
    players: list[Player] = attrs.field(factory=lambda: [Player(), Player()])
    pending: Pending | None = None
    tiling: tuple[int, int, int] = (0, 0, 0)                          # (player order, line, stage)
    opening_picks: int = 0

    def copy(self) -> GameState:
        p = self.pending
        return GameState(
            self.round, self.phase, self.to_move, self.starter, self.bag[:], self.tower[:],
            self.large.copy(), [f.copy() for f in self.small], self.display[:], self.pile[:],
            self.chip_supply[:], self.special_supply, [pl.copy() for pl in self.players],
            Pending(p.kind, p.player, p.data, p.extra) if p else None, self.tiling,
            self.opening_picks,
        )
