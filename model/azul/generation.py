"""Legal-action generation, kept apart from the legality predicate (model.azul.legality); the tests
check that the two agree on every state of random games."""

from __future__ import annotations

from model.azul.actions import CENTRE_SOURCE, FLOOR, Action, take, wall
from model.azul.colours import NUM_COLOURS, ROWS
from model.azul.ruleset import Ruleset
from model.azul.state import NOBODY, OFFER, TILING, AzulState, Board
from model.azul.walls import allowed_columns, row_has_colour
from model.clauses import cite, cite_alternative


def legal_actions(state: AzulState, rules: Ruleset) -> list[Action]:
    """Every legal action, sorted; empty when the game is over or stalled."""
    if state.phase == TILING:
        who, row = state.tiling
        board = state.boards[who]
        return [wall(row, c) for c in allowed_columns(board.wall, row, board.line_colour[row], rules.gray)]
    if state.phase != OFFER or state.to_move == NOBODY:
        return []
    cite("azul.offer.actions")
    board = state.boards[state.to_move]
    dests: list[list[int] | None] = [None] * NUM_COLOURS
    out: list[Action] = []
    split = rules.voluntary_split
    for source, tiles in enumerate(state.factories + [state.centre]):
        src = CENTRE_SOURCE if source == len(state.factories) else source
        for colour in range(NUM_COLOURS):
            n = tiles[colour]
            if n:
                d = dests[colour]
                if d is None:
                    d = dests[colour] = _destinations(board, colour, rules)
                if not split:
                    out.extend(take(src, colour, dest) for dest in d)
                    continue
                for dest in d:
                    out.append(take(src, colour, dest))
                    if dest != FLOOR:
                        room = dest + 1 - board.line_count[dest]
                        out.extend(take(src, colour, dest, k) for k in range(1, min(n, room)))
    return out


def _destinations(board: Board, colour: int, rules: Ruleset) -> list[int]:
    """Pattern lines that may take `colour` now, then the floor (always open)."""
    out = []
    for line in range(ROWS):
        n = board.line_count[line]
        if n and board.line_colour[line] != colour:
            continue
        if n == line + 1:
            if rules.full_line_allowed:
                cite_alternative("azul.lines.full-line-choice", "allowed")
                out.append(line)
            else:
                cite_alternative("azul.lines.full-line-choice", "refused")
            continue
        if row_has_colour(board.wall, line, colour):
            cite("azul.lines.wall-has-colour")
            continue
        if rules.gray and not allowed_columns(board.wall, line, colour, True):
            if rules.refuse_unplaceable:
                cite_alternative("azul.gray.unplaceable-line", "refused")
                continue
            cite_alternative("azul.gray.unplaceable-line", "allowed")
        out.append(line)
    out.append(FLOOR)
    return out
