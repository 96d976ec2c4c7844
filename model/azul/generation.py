"""Legal-action generation, kept apart from the legality predicate (model.azul.legality); the tests
check that the two agree on every state of random games."""

from __future__ import annotations

import copy
from functools import reduce
from operator import or_

from model.azul.actions import CENTRE_SOURCE, FLOOR, TAKES, Action, take, wall
from model.azul.colours import EMPTY, NUM_COLOURS, ROWS
from model.azul.ruleset import Ruleset
from model.azul.state import NOBODY, OFFER, TILING, AzulState, Board
from model.azul.walls import allowed_columns, free_columns
from model.clauses import RECORDER, cite, cite_alternative


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
    # The colours each source offers (a bit set), then where each colour offered may go: the board's
    # destinations, kept up to date by `destinations` (re-decided only where a line or the wall changed).
    offered: list[int] = list(map(_COLOURS_IN.get, map(tuple, state.factories)))     # type: ignore[arg-type]
    if None in offered:                         # a factory's contents not seen yet
        offered = [_colours_in(tiles) for tiles in state.factories]
    c = state.centre                            # (the centre's contents vary too much to keep)
    offered.append((c[0] and 1) | (c[1] and 2) | (c[2] and 4) | (c[3] and 8) | (c[4] and 16))
    known = destinations(board, rules)
    if RECORDER.enabled:
        _record_listing(known, reduce(or_, offered), rules)
    sets = known.sets
    if rules.voluntary_split:
        return _with_splits(state, board, offered, sets)
    out: list[Action] = []
    for by_set, colours in zip(_SOURCES[len(state.factories)], offered, strict=True):
        if colours:
            for colour in _BITS[colours]:
                out.extend(by_set[colour][sets[colour]])
    return out


class Destinations:
    """Where each colour may go on one board, and what decided it, per pattern line: `allowed[line]`
    (the colours the line takes), `full` (the line is full), `on_wall[line]` (colours its wall row
    holds: azul.lines.wall-has-colour), `unplaceable[line]` (gray wall: colours no free space of the
    row can take, refused or allowed by azul.gray.unplaceable-line); per colour `lines[colour]` the
    pattern lines that take it and `sets[colour]` its destination bit set (bit d: pattern line d, bit
    FLOOR: the floor line). Decided from the lines and wall held in `counts`, `colours` and `wall`
    (copies; `on_rows` the colours on each wall row) under `rules`, for the board `owner`."""

    __slots__ = ("owner", "rules", "wall", "on_rows", "counts", "colours", "allowed", "full", "on_wall",
                 "unplaceable", "lines", "sets")

    def __init__(self, owner: Board, rules: Ruleset) -> None:
        self.owner, self.rules = owner, rules
        self.wall = owner.wall[:]
        self.on_rows = _wall_rows(self.wall)    # per wall row: the colours already on it
        self.counts = owner.line_count[:]
        self.colours = owner.line_colour[:]
        self.allowed = [0] * ROWS
        self.full = [False] * ROWS
        self.on_wall = [0] * ROWS
        self.unplaceable = [0] * ROWS
        self.lines = [0] * NUM_COLOURS
        self.sets = [_FLOOR_ONLY] * NUM_COLOURS

    def for_board(self, board: Board) -> Destinations:
        """This decision, owned by `board` (a board's copy shares it until either changes)."""
        twin = copy.copy(self)
        twin.owner = board
        twin.wall, twin.counts, twin.colours = self.wall[:], self.counts[:], self.colours[:]
        twin.allowed, twin.full = self.allowed[:], self.full[:]
        twin.on_wall, twin.unplaceable = self.on_wall[:], self.unplaceable[:]
        twin.lines, twin.sets = self.lines[:], self.sets[:]
        return twin


def destinations(board: Board, rules: Ruleset) -> Destinations:
    """The board's Destinations, kept on the board and brought up to date before each use: compared
    by value with the lines and wall they were decided from (so an edit made from outside the engine
    is seen too), a changed pattern line is re-decided alone, a changed wall re-decides every line."""
    try:
        known: Destinations | None = board.destinations
    except AttributeError:                      # a board unpickled has none
        known = None
    if known is not None and known.counts == board.line_count and known.colours == board.line_colour \
            and known.wall == board.wall and known.rules is rules:
        return known
    if known is None or known.rules is not rules or known.wall != board.wall:
        known = Destinations(board, rules)
        for line in range(ROWS):
            _decide(known, line)
    else:
        if known.owner is not board:
            known = known.for_board(board)
        counts, held, was, was_held = board.line_count, board.line_colour, known.counts, known.colours
        for line in range(ROWS):
            if was[line] != counts[line] or was_held[line] != held[line]:
                was[line], was_held[line] = counts[line], held[line]
                _decide(known, line)
    board.destinations = known
    return known


def _decide(known: Destinations, line: int) -> None:
    """Decide the colours pattern line `line` takes (azul.lines.same-colour, capacity, wall-has-colour,
    full-line-choice, azul.gray.unplaceable-line) from `known`'s lines and wall; then the destinations
    of each colour whose answer changed."""
    rules = known.rules
    n = known.counts[line]
    # rule: azul.lines.same-colour
    candidates = 1 << known.colours[line] if n else ALL_COLOURS
    # rule: azul.lines.full-line-choice
    if n == line + 1:
        left = candidates if rules.full_line_allowed else 0
        known.full[line] = True                 # a full line's on_wall / unplaceable are never read
    else:
        # rule: azul.lines.wall-has-colour
        hits = candidates & known.on_rows[line]
        left = candidates & ~hits
        stuck = 0
        # rule: azul.gray.unplaceable-line
        if rules.gray:
            for colour in _BITS[left]:
                if not free_columns(known.wall, line, colour, True):
                    stuck |= 1 << colour
            if rules.refuse_unplaceable:
                left &= ~stuck
        known.full[line] = False
        known.on_wall[line] = hits
        known.unplaceable[line] = stuck
    # rule: azul.offer.actions
    moved = known.allowed[line] ^ left
    known.allowed[line] = left
    bit = 1 << line
    lines, sets = known.lines, known.sets
    for colour in _BITS[moved]:
        lines[colour] ^= bit
        # rule: azul.lines.floor-choice
        if rules.floor_only_if_no_line:
            sets[colour] = lines[colour] or _FLOOR_ONLY
        else:
            sets[colour] = lines[colour] | _FLOOR_ONLY


def _record_listing(known: Destinations, present: int, rules: Ruleset) -> None:
    """While recording: a hit for each clause this listing relied on, as if each (colour offered,
    line) were decided now: the full-line alternative once per line a full line's colour is offered
    for, azul.lines.wall-has-colour per colour its wall row refuses, on the gray wall the placement
    rules (model.azul.walls.allowed_columns) and the unplaceable-line alternative per colour asked,
    the floor-choice alternative per colour a line can take."""
    for line in range(ROWS):
        colours = (1 << known.colours[line] if known.counts[line] else ALL_COLOURS) & present
        if not colours:
            continue
        if known.full[line]:
            cite_alternative("azul.lines.full-line-choice", "allowed" if rules.full_line_allowed else "refused")
            continue
        refused = colours & known.on_wall[line]
        for _ in _BITS[refused]:
            cite("azul.lines.wall-has-colour")
        if rules.gray:
            for colour in _BITS[colours & ~refused]:
                allowed_columns(known.wall, line, colour, True)      # its placement rules, as asked
                if known.unplaceable[line] >> colour & 1:
                    cite_alternative("azul.gray.unplaceable-line",
                                     "refused" if rules.refuse_unplaceable else "allowed")
    if rules.floor_only_if_no_line:
        for colour in _BITS[present]:
            if not known.sets[colour] >> FLOOR:       # a line can take it: the floor line is closed
                cite_alternative("azul.lines.floor-choice", "only-if-no-line")


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
