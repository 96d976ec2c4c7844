"""The floor line: tiles go on from the left; a full floor sends the rest to the box lid."""

from __future__ import annotations

from model.azul.state import FLOOR_SPACES, Board
from model.clauses import cite


def to_floor(board: Board, colour: int, n: int, lid: list[int]) -> None:
    """Put `n` tiles of `colour` on the floor line from the left; what does not fit goes to the lid."""
    if n <= 0:
        return
    cite("azul.lines.to-floor")
    cite("azul.floor.capacity")
    fits = min(n, FLOOR_SPACES - len(board.floor))
    board.floor.extend([colour] * fits)
    if n > fits:
        cite("azul.floor.overflow-lid")
        lid[colour] += n - fits
