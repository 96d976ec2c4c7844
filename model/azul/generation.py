"""Legal-action generation, kept apart from the legality predicate (model.azul.legality); the tests
check that the two agree on every state of random games."""

from __future__ import annotations

from model.azul.actions import CENTRE_SOURCE, FLOOR, TAKES, Action, take, wall
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
    if rules.voluntary_split:
        return _with_splits(state, board, rules)
    # One destination set per colour present (rule: _destinations), then the interned takes for it.
    sets: list[tuple[tuple[Action, ...], ...] | None] = [None] * NUM_COLOURS
    out: list[Action] = []
    for tiles, by_set in zip(state.factories, _BY_SET, strict=False):
        for colour, n in enumerate(tiles):
            if n:
                chosen = sets[colour]
                if chosen is None:
                    chosen = sets[colour] = _chosen(board, colour, rules)
                out += by_set[colour][chosen]
    by_set = _BY_SET[CENTRE_SOURCE]
    for colour, n in enumerate(state.centre):
        if n:
            chosen = sets[colour]
            if chosen is None:
                chosen = sets[colour] = _chosen(board, colour, rules)
            out += by_set[colour][chosen]
    return out


def _chosen(board: Board, colour: int, rules: Ruleset) -> int:
    """The destinations of `colour` as a bit set (bit d: destination d)."""
    bits = 0
    for dest in _destinations(board, colour, rules):
        bits |= 1 << dest
    return bits


def _with_splits(state: AzulState, board: Board, rules: Ruleset) -> list[Action]:
    """azul.lines.voluntary-split=voluntary-split: every take, and every smaller count on a line."""
    dests: list[list[int] | None] = [None] * NUM_COLOURS
    out: list[Action] = []
    for source, tiles in enumerate(state.factories + [state.centre]):
        src = CENTRE_SOURCE if source == len(state.factories) else source
        for colour in range(NUM_COLOURS):
            n = tiles[colour]
            if n:
                d = dests[colour]
                if d is None:
                    d = dests[colour] = _destinations(board, colour, rules)
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


# _BY_SET[source][colour][bits]: the takes of that colour from that source to the destinations in
# the bit set, in destination order (made once, from the interned TAKES).
_BY_SET: tuple[tuple[tuple[tuple[Action, ...], ...], ...], ...] = tuple(
    tuple(tuple(tuple(row[d] for d in range(FLOOR + 1) if bits >> d & 1) for bits in range(1 << (FLOOR + 1)))
          for row in by_colour)
    for by_colour in TAKES)
