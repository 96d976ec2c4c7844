"""Legal-action generation, kept apart from the legality predicate (model.azul.legality); the tests
check that the two agree on every state of random games."""

from __future__ import annotations

from functools import reduce
from operator import or_
from typing import cast

from model.azul.actions import CENTRE_SOURCE, FLOOR, TAKES, Action, take, wall
from model.azul.colours import EMPTY, NUM_COLOURS, ROWS
from model.azul.ruleset import Ruleset
from model.azul.state import NOBODY, OFFER, TILING, AzulState, Board
from model.azul.walls import allowed_columns
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
    # The colours each source offers (a bit set), then where each colour offered may go.
    cached = list(map(_COLOURS_IN.get, map(tuple, state.factories)))
    cached.append(_COLOURS_IN.get(tuple(state.centre)))
    if None in cached:
        offered = [_colours_in(tiles) for tiles in state.factories]
        offered.append(_colours_in(state.centre))
    else:
        offered = cast(list[int], cached)       # every source's colours were in the cache
    sets = _destination_sets(board, reduce(or_, offered), rules)
    if rules.voluntary_split:
        return _with_splits(state, board, offered, sets)
    out: list[Action] = []
    for by_set, colours in zip(_SOURCES[len(state.factories)], offered, strict=True):
        if colours:
            for colour in _BITS[colours]:
                out.extend(by_set[colour][sets[colour]])
    return out


def _colours_in(tiles: list[int]) -> int:
    """The colours a source holds, as a bit set (bit c: colour c)."""
    key = tuple(tiles)
    bits = _COLOURS_IN.get(key)
    if bits is None:
        bits = sum(1 << colour for colour, n in enumerate(tiles) if n)
        if len(_COLOURS_IN) >= _COLOURS_IN_BOUND:
            _COLOURS_IN.clear()
        _COLOURS_IN[key] = bits
    return bits


def _with_splits(state: AzulState, board: Board, offered: list[int], sets: list[int]) -> list[Action]:
    """azul.lines.voluntary-split=voluntary-split: every take, and every smaller count on a line."""
    out: list[Action] = []
    for source, colours in enumerate(offered):
        src = CENTRE_SOURCE if source == len(state.factories) else source
        tiles = state.centre if src == CENTRE_SOURCE else state.factories[source]
        for colour in _BITS[colours]:
            n = tiles[colour]
            for dest in _BITS[sets[colour]]:
                out.append(take(src, colour, dest))
                if dest != FLOOR:
                    room = dest + 1 - board.line_count[dest]
                    out.extend(take(src, colour, dest, k) for k in range(1, min(n, room)))
    return out


def _destination_sets(board: Board, present: int, rules: Ruleset) -> list[int]:
    """For each colour of the bit set `present`: where it may go now, as a bit set (bit d: pattern
    line d, bit FLOOR: the floor line, always open). Worked out line by line for all those colours
    at once; each rule is cited once per (colour, line) it decides, as when asked colour by colour."""
    sets = [_FLOOR_ONLY] * NUM_COLOURS
    counts, held = board.line_count, board.line_colour
    on_rows = _wall_rows(board.wall)        # per wall row: the colours already on it
    for line in range(ROWS):
        n = counts[line]
        colours = (1 << held[line] if n else ALL_COLOURS) & present
        if not colours:
            continue
        if n == line + 1:
            if rules.full_line_allowed:
                cite_alternative("azul.lines.full-line-choice", "allowed")
            else:
                cite_alternative("azul.lines.full-line-choice", "refused")
                continue
        else:
            on_wall = colours & on_rows[line]
            if on_wall:
                for _ in _BITS[on_wall]:
                    cite("azul.lines.wall-has-colour")
                colours &= ~on_wall
            if rules.gray:
                for colour in _BITS[colours]:
                    if not allowed_columns(board.wall, line, colour, True):
                        if rules.refuse_unplaceable:
                            cite_alternative("azul.gray.unplaceable-line", "refused")
                            colours &= ~(1 << colour)
                            continue
                        cite_alternative("azul.gray.unplaceable-line", "allowed")
        bit = 1 << line
        for colour in _BITS[colours]:
            sets[colour] |= bit
    if rules.floor_only_if_no_line:
        for colour in _BITS[present]:
            if sets[colour] != _FLOOR_ONLY:         # a line can take it: the floor line is closed
                cite_alternative("azul.lines.floor-choice", "only-if-no-line")
                sets[colour] &= ~_FLOOR_ONLY
    return sets


def _wall_rows(wall: list[int]) -> tuple[int, ...]:
    """The colours already on each wall row, as bit sets (pure arithmetic, kept per wall seen)."""
    cells = tuple(wall)
    rows = _WALL_ROWS.get(cells)
    if rows is None:
        rows = tuple(sum({1 << colour for colour in cells[r * ROWS:(r + 1) * ROWS] if colour != EMPTY})
                     for r in range(ROWS))
        if len(_WALL_ROWS) >= _WALL_ROWS_BOUND:
            _WALL_ROWS.clear()
        _WALL_ROWS[cells] = rows
    return rows


ALL_COLOURS = (1 << NUM_COLOURS) - 1
_FLOOR_ONLY = 1 << FLOOR
# _BITS[bits]: the set bits of a bit set below 64, lowest first.
_BITS: tuple[tuple[int, ...], ...] = tuple(tuple(i for i in range(FLOOR + 1) if bits >> i & 1)
                                           for bits in range(1 << (FLOOR + 1)))
_COLOURS_IN: dict[tuple[int, ...], int] = {}       # tiles per colour -> colours held (pure arithmetic)
_COLOURS_IN_BOUND = 1 << 16
_WALL_ROWS: dict[tuple[int, ...], tuple[int, ...]] = {}    # a wall's 25 cells -> its rows' colours
_WALL_ROWS_BOUND = 1 << 16

# _BY_SET[source][colour][bits]: the takes of that colour from that source to the destinations in
# the bit set, in destination order (made once, from the interned TAKES).
_BY_SET: tuple[tuple[tuple[tuple[Action, ...], ...], ...], ...] = tuple(
    tuple(tuple(tuple(row[d] for d in range(FLOOR + 1) if bits >> d & 1) for bits in range(1 << (FLOOR + 1)))
          for row in by_colour)
    for by_colour in TAKES)
# _SOURCES[factories]: the _BY_SET rows of factories 1..n, then the centre's.
_SOURCES: dict[int, tuple[tuple[tuple[tuple[Action, ...], ...], ...], ...]] = {
    n: (*_BY_SET[:n], _BY_SET[CENTRE_SOURCE]) for n in range(CENTRE_SOURCE + 1)}
