"""Phase 2, wall-tiling: each player's complete pattern lines, top to bottom, move their rightmost
tile to the wall (scored at once) and the rest to the box lid. On the gray side a placement with
more than one allowed space waits for a `wall rR cC` action; with none, the whole line goes to the
floor."""

from __future__ import annotations

from model.azul.colours import COLOURS, EMPTY, ROWS
from model.azul.floor import to_floor
from model.azul.phases import change_phase
from model.azul.ruleset import Ruleset
from model.azul.scoring import placement_points
from model.azul.state import TILING, AzulState, Board
from model.azul.walls import allowed_columns
from model.clauses import cite
from model.errors import RuleLoopError
from model.events import Event, ev


def begin(state: AzulState) -> None:
    cite("azul.wall.simultaneous")        # players do not affect each other: done in seat order
    change_phase(state, TILING)
    state.tiling = (0, 0)


def advance(state: AzulState, rules: Ruleset, events: list[Event]) -> bool:
    """Tile from the cursor on (at most players x 5 lines); False when a gray-wall choice is open,
    True when every board is done."""
    who, row = state.tiling
    players = len(state.boards)
    boards_left = players - who                 # the cursor passes each board once, top to bottom
    while who < players:
        if boards_left <= 0:
            raise RuleLoopError("azul.wall.top-to-bottom", state.players,
                                f"wall-tiling came back to a board after passing all {state.players}")
        boards_left -= 1
        board = state.boards[who]
        while row < ROWS:
            # rule: azul.wall.incomplete-stay
            if board.line_count[row] == row + 1:
                cite("azul.wall.complete-only")
                cols = allowed_columns(board.wall, row, board.line_colour[row], rules.gray)
                if len(cols) > 1:
                    state.tiling = (who, row)
                    return False
                if cols:
                    move_line(board, who, row, cols[0], state.lid, rules, events)
                else:
                    line_to_floor(board, who, row, state.lid, events)
            elif board.line_count[row]:
                cite("azul.wall.incomplete-stay")
            # end: azul.wall.incomplete-stay
            row += 1
        cite("azul.wall.top-to-bottom")
        who += 1
        row = 0
    state.tiling = (who, 0)
    return True


def place_chosen(state: AzulState, rules: Ruleset, row: int, col: int, events: list[Event]) -> None:
    """The gray-wall choice: the open line's tile goes to column `col`; tiling continues below it."""
    who, _ = state.tiling
    move_line(state.boards[who], who, row, col, state.lid, rules, events)
    state.tiling = (who, row + 1)


def move_line(board: Board, who: int, row: int, col: int, lid: list[int], rules: Ruleset,
              events: list[Event]) -> None:
    cite("azul.wall.move-rightmost")
    colour = board.line_colour[row]
    board.wall[row * ROWS + col] = colour
    points = placement_points(board.wall, row, col, rules.count_both)
    board.score += points
    events.append(ev("score", "azul.score.immediate", who, points, f"{COLOURS[colour]} to r{row + 1} c{col + 1}"))
    if row:
        cite("azul.wall.discard-rest")
        lid[colour] += row
    board.line_colour[row] = EMPTY
    board.line_count[row] = 0


def line_to_floor(board: Board, who: int, row: int, lid: list[int], events: list[Event]) -> None:
    cite("azul.wall.no-space")
    colour = board.line_colour[row]
    to_floor(board, colour, row + 1, lid)
    events.append(ev("no-space", "azul.wall.no-space", who, 0, f"line {row + 1} ({COLOURS[colour]}) has no wall space: to the floor"))
    board.line_colour[row] = EMPTY
    board.line_count[row] = 0
