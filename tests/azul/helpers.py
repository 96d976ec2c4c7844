"""Hand-built classic Azul positions for the tests."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from model.azul import Game, new_game, parse_action
from model.azul.colours import COLOURS, EMPTY, NUM_COLOURS, ROWS, TILES_PER_COLOUR, printed_colour
from model.azul.state import Board
from model.chance import ScriptedChance
from model.events import Event
from properties.azul.invariants import tiles_by_colour

BLUE, YELLOW, RED, BLACK, TURQUOISE = range(5)


def bare(players: int = 2, wall: str = "coloured", interpretations: Mapping[str, str] | None = None,
         first: int = 0) -> Game:
    """A new game with player `first` to move and every factory tile back in the bag."""
    g = new_game(players, wall=wall, interpretations=interpretations, chance=ScriptedChance(first=first, seed=1))
    s = g.state
    s.starter = s.to_move = first                   # whatever azul.setup.starter-choice says
    for f in s.factories:
        for c in range(NUM_COLOURS):
            s.bag[c] += f[c]
            f[c] = 0
    return g


def settle(g: Game) -> None:
    """Make the bag hold whatever the rest of the table lacks, so 100 tiles are in play."""
    s = g.state
    s.bag = [0] * NUM_COLOURS
    counts = tiles_by_colour(g)
    s.bag = [TILES_PER_COLOUR - n for n in counts]
    assert min(s.bag) >= 0, f"the position holds more than 20 tiles of a colour: {counts}"


def printed(board: Board, cells: Iterable[tuple[int, int]]) -> None:
    """Put the printed colour on each (row, col) of a wall (0-based)."""
    for r, c in cells:
        board.wall[r * ROWS + c] = printed_colour(r, c)


def set_line(board: Board, line: int, colour: int, n: int) -> None:
    """Pattern line `line` (1-based) holds n tiles of colour."""
    board.line_colour[line - 1] = colour if n else EMPTY
    board.line_count[line - 1] = n


def play(g: Game, *texts: str) -> list[Event]:
    events: list[Event] = []
    for t in texts:
        events += g.apply(parse_action(t))
    return events


def end_offer(g: Game, colour: int = BLACK, line: int = 5) -> list[Event]:
    """End the factory offer: the only tile left is one `colour` tile on F1, which the player to
    move puts on pattern line `line` (it must not complete it)."""
    s = g.state
    for f in s.factories:
        for c in range(NUM_COLOURS):
            s.bag[c] += f[c]
            f[c] = 0
    for c in range(NUM_COLOURS):
        s.bag[c] += s.centre[c]
        s.centre[c] = 0
    s.factories[0][colour] = 1
    s.bag[colour] -= 1
    return play(g, f"take F1 {COLOURS[colour]} line {line}")
