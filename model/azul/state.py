"""The state of a classic Azul game: pure data (attrs slots classes, ints and lists), cheap to copy.

Walls are 25 cells indexed row * 5 + column (0-based), each a colour or EMPTY. A floor line is a
list of colours (and MARKER) from the left. The starting player marker is in the centre
(`marker == CENTRE`) or with a player (`marker == i`): on their floor when MARKER is in it, otherwise
kept in front of them.
"""

from __future__ import annotations

from typing import Any

import attrs

from model.azul.colours import EMPTY, NUM_COLOURS, ROWS

CENTRE = -1          # marker location: the centre of the table
NOBODY = -1          # current player when nobody can act (game over or stalled)
FLOOR_SPACES = 7     # azul.floor.capacity
FACTORY_TILES = 4    # azul.setup.fill-factories

# Phases: "offer" (factory offer), "tiling" (a gray-wall placement is asked), "over".
OFFER = "offer"
TILING = "tiling"
OVER = "over"


class _Derived:
    """Room on a board for what generation derives from it (model.azul.generation.destinations): not
    an attrs field, so outside equality, repr, fingerprints and the board's data."""

    __slots__ = ("destinations",)
    destinations: Any


@attrs.define(slots=True, eq=True)
class Board(_Derived):
    """One player's board: pattern lines, wall, floor line and score."""

    # rule: azul.component.board
    line_colour: list[int] = attrs.field(factory=lambda: [EMPTY] * ROWS)
    line_count: list[int] = attrs.field(factory=lambda: [0] * ROWS)
    wall: list[int] = attrs.field(factory=lambda: [EMPTY] * (ROWS * ROWS))
    floor: list[int] = attrs.field(factory=list)
    # rule: azul.setup.scores
    score: int = 0

    def __attrs_post_init__(self) -> None:
        self.destinations = None

    def copy(self) -> Board:
        twin = Board(self.line_colour[:], self.line_count[:], self.wall[:], self.floor[:], self.score)
        twin.destinations = self.destinations      # checked against the lines and wall before each use
        return twin

    def row_full(self, row: int) -> bool:
        return EMPTY not in self.wall[row * ROWS:(row + 1) * ROWS]


@attrs.define(slots=True, eq=True)
class AzulState:
    """Everything on the table."""

    boards: list[Board]
    factories: list[list[int]]                      # tiles per colour, one list per factory used
    bag: list[int] = attrs.field(factory=lambda: [0] * NUM_COLOURS)
    lid: list[int] = attrs.field(factory=lambda: [0] * NUM_COLOURS)   # the box lid
    centre: list[int] = attrs.field(factory=lambda: [0] * NUM_COLOURS)
    marker: int = CENTRE
    round: int = 1
    phase: str = OFFER
    to_move: int = 0
    starter: int = 0                                 # who started this round
    tiling: tuple[int, int] = (0, 0)                 # (player, row) of the open gray-wall choice

    @property
    def players(self) -> int:
        return len(self.boards)

    def copy(self) -> AzulState:
        return AzulState([b.copy() for b in self.boards], [f[:] for f in self.factories], self.bag[:],
                         self.lid[:], self.centre[:], self.marker, self.round, self.phase, self.to_move,
                         self.starter, self.tiling)

    def tiles_on_offer(self) -> bool:
        return any(self.centre) or any(map(any, self.factories))
