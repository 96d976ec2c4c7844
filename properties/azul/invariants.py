"""Invariants of classic Azul, each citing the clause ids it guards.

Each check takes a Game (model.azul) and returns its violations (empty = holds). `physical`
invariants hold for any position a scenario may describe; the others for every state reachable by
legal play. `check_all(game)` runs them all.
"""

from __future__ import annotations

from collections.abc import Callable

import attrs

from model.azul.colours import COLOURS, EMPTY, MARKER, NUM_COLOURS, ROWS, TILES_PER_COLOUR, printed_colour
from model.azul.dead_game import walls_can_change
from model.azul.game import Game
from model.azul.state import CENTRE, FLOOR_SPACES, NOBODY, OFFER, OVER, TILING, AzulState, Board


@attrs.frozen
class Invariant:
    name: str
    clauses: tuple[str, ...]
    check: Callable[[Game], list[str]]
    physical: bool = True

    def __call__(self, game: Game) -> list[str]:
        return self.check(game)


BOARD_PARTS = frozenset({"lines", "floor", "wall"})      # the parts of a board that hold tiles


def add_board_tiles(counts: list[int], b: Board, sign: int = 1, parts: frozenset[str] = BOARD_PARTS) -> None:
    """Add (sign -1: subtract) the tiles of each colour on board `b`'s `parts` to `counts`."""
    if "lines" in parts:
        for line in range(ROWS):
            if b.line_count[line] and 0 <= b.line_colour[line] < NUM_COLOURS:
                counts[b.line_colour[line]] += sign * b.line_count[line]
    if "floor" in parts:
        for t in b.floor:
            if t != MARKER:
                counts[t] += sign
    if "wall" in parts:
        for t in b.wall:
            if t != EMPTY:
                counts[t] += sign


def tiles_by_colour(game: Game) -> list[int]:
    """Tiles of each colour across bag, lid, factories, centre, pattern lines, floors and walls."""
    s = game.state
    counts = [s.bag[c] + s.lid[c] + s.centre[c] + sum(f[c] for f in s.factories) for c in range(NUM_COLOURS)]
    for b in s.boards:
        add_board_tiles(counts, b)
    return counts


def tile_conservation(game: Game) -> list[str]:
    s = game.state
    out = [f"{COLOURS[c]}: {n} tiles in play, not {TILES_PER_COLOUR}"
           for c, n in enumerate(tiles_by_colour(game)) if n != TILES_PER_COLOUR]
    places = [("bag", s.bag), ("lid", s.lid), ("centre", s.centre)] + [
        (f"F{i + 1}", f) for i, f in enumerate(s.factories)]
    out += [f"{name} holds {n} {COLOURS[c]} tiles" for name, counts in places for c, n in enumerate(counts) if n < 0]
    return out


# Each board invariant is checked board by board: the full check runs every board, the incremental
# one (`incremental`, below) only the boards a step changed.

def _floor_capacity(game: Game, i: int, b: Board) -> list[str]:
    return [f"P{i + 1}'s floor holds {len(b.floor)} (> {FLOOR_SPACES})"] if len(b.floor) > FLOOR_SPACES else []


def _score_floor(game: Game, i: int, b: Board) -> list[str]:
    return [f"P{i + 1} scores {b.score}"] if b.score < 0 else []


def _pattern_lines(game: Game, i: int, b: Board) -> list[str]:
    out = []
    gray = game.rules.gray
    for line in range(ROWS):
        n, colour = b.line_count[line], b.line_colour[line]
        if not 0 <= n <= line + 1:
            out.append(f"P{i + 1} line {line + 1} holds {n} tiles")
        if (n == 0) != (colour == EMPTY):
            out.append(f"P{i + 1} line {line + 1}: {n} tiles, colour {colour}")
        if n and colour in b.wall[line * ROWS:(line + 1) * ROWS]:
            out.append(f"P{i + 1} line {line + 1} holds {COLOURS[colour]}, which its wall row holds"
                       + (" (gray)" if gray else ""))
    return out


def _wall_colours(game: Game, i: int, b: Board) -> list[str]:
    w = b.wall
    if not game.rules.gray:
        return [f"P{i + 1} wall r{cell // ROWS + 1} c{cell % ROWS + 1} holds {COLOURS[t]}, printed "
                f"{COLOURS[printed_colour(cell // ROWS, cell % ROWS)]}"
                for cell, t in enumerate(w) if t != EMPTY and t != printed_colour(cell // ROWS, cell % ROWS)]
    out = []
    for k in range(ROWS):
        row = [t for t in w[k * ROWS:(k + 1) * ROWS] if t != EMPTY]
        col = [t for t in w[k::ROWS] if t != EMPTY]
        if len(set(row)) != len(row):
            out.append(f"P{i + 1} gray wall row {k + 1} repeats a colour: {row}")
        if len(set(col)) != len(col):
            out.append(f"P{i + 1} gray wall column {k + 1} repeats a colour: {col}")
    return out


BoardCheck = Callable[[Game, int, Board], list[str]]


def _every_board(check: BoardCheck) -> Callable[[Game], list[str]]:
    def whole(game: Game) -> list[str]:
        return [m for i, b in enumerate(game.state.boards) for m in check(game, i, b)]
    whole.__name__ = check.__name__.lstrip("_")
    whole.__doc__ = check.__doc__
    return whole


floor_capacity = _every_board(_floor_capacity)
score_floor = _every_board(_score_floor)
pattern_lines = _every_board(_pattern_lines)
wall_colours = _every_board(_wall_colours)


def marker(game: Game) -> list[str]:
    s = game.state
    on_floors = [(i, b.floor.count(MARKER)) for i, b in enumerate(s.boards) if MARKER in b.floor]
    out = []
    if s.marker == CENTRE:
        out += [f"the marker is in the centre and on P{i + 1}'s floor" for i, _ in on_floors]
    elif not 0 <= s.marker < s.players:
        out.append(f"the marker is at {s.marker}: neither the centre nor a player")
    else:
        out += [f"the marker is with P{s.marker + 1} and on P{i + 1}'s floor" for i, _ in on_floors if i != s.marker]
    out += [f"P{i + 1}'s floor holds the marker {n} times" for i, n in on_floors if n > 1]
    return out


def round_end(game: Game) -> list[str]:
    s = game.state
    if s.phase == TILING and s.tiles_on_offer():
        return [f"round {s.round} is being tiled with tiles still on offer"]
    if s.phase == OFFER and s.to_move != NOBODY and not s.tiles_on_offer():
        return [f"round {s.round}'s offer goes on with factories and centre empty"]
    return []


def end_condition(game: Game) -> list[str]:
    s = game.state
    if s.phase != OVER:
        return [f"P{i + 1} has a complete wall row in round {s.round}, phase {s.phase}"
                for i, b in enumerate(s.boards) if s.phase == OFFER and any(b.row_full(r) for r in range(ROWS))]
    if any(b.row_full(r) for b in s.boards for r in range(ROWS)):
        return []
    if s.tiles_on_offer():
        return ["the game is over without a complete wall row while tiles are on offer"]
    if (any(s.bag) or any(s.lid)) and walls_can_change(s, game.rules):
        return ["the game is over without a complete wall row while a wall could still change"]
    return []


def stall(game: Game) -> list[str]:
    """A stalled game is one of the two stalls the alternatives allow, never a live position."""
    s = game.state
    if not game.is_stalled:
        return []
    if s.tiles_on_offer():
        return [f"round {s.round} is stalled with tiles on offer"]
    if any(s.bag) or any(s.lid):
        if not game.rules.stall_on_dead:
            return ["stalled with free tiles, though azul.end.dead-game=end-game"]
        if walls_can_change(s, game.rules):
            return ["stalled with free tiles while a wall could still change"]
    elif not game.rules.stall_on_empty:
        return ["stalled with nothing free, though azul.prep.empty-round=end-game"]
    return []


INVARIANTS: tuple[Invariant, ...] = (
    Invariant("tile-conservation", ("azul.invariant.tile-conservation", "azul.component.tiles"), tile_conservation),
    Invariant("floor-capacity", ("azul.invariant.floor-capacity", "azul.floor.capacity"), floor_capacity),
    Invariant("score-floor", ("azul.score.floor",), score_floor),
    Invariant("pattern-lines", ("azul.lines.capacity", "azul.lines.same-colour", "azul.lines.wall-has-colour"),
              pattern_lines),
    Invariant("wall-colours", ("azul.invariant.wall-colours", "azul.gray.column-unique", "azul.gray.row-unique"),
              wall_colours),
    Invariant("marker", ("azul.invariant.marker", "azul.component.starting-marker"), marker),
    Invariant("round-end", ("azul.invariant.round-end", "azul.offer.end"), round_end, physical=False),
    Invariant("end-condition", ("azul.end.trigger", "azul.prep.partial-fill"), end_condition, physical=False),
    Invariant("stall", ("azul.end.trigger", "azul.prep.partial-fill"), stall, physical=False),
)


def check_all(game: Game, *, physical_only: bool = False) -> list[str]:
    """Every violation, as 'invariant-name [clause]: what is wrong'."""
    return [f"{inv.name} [{inv.clauses[0]}]: {problem}" for inv in INVARIANTS
            if inv.physical or not physical_only for problem in inv(game)]


# --- checked only where a step changed the table (checked play: properties/simulate.py) ----------

# Each board invariant with the parts of a board it reads: checked on a board where one of them changed.
_BOARD_CHECKS: tuple[tuple[str, BoardCheck, frozenset[str]], ...] = (
    ("floor-capacity", _floor_capacity, frozenset({"floor"})),
    ("score-floor", _score_floor, frozenset({"score"})),
    ("pattern-lines", _pattern_lines, frozenset({"lines", "wall"})),
    ("wall-colours", _wall_colours, frozenset({"wall"})),
)
PILES: tuple[str, ...] = ("bag", "lid", "centre")


def _board_changes(a: Board, b: Board) -> frozenset[str]:
    """The parts of a board that differ: lines, wall, floor, score."""
    parts = set()
    if a.line_count != b.line_count or a.line_colour != b.line_colour:
        parts.add("lines")
    if a.wall != b.wall:
        parts.add("wall")
    if a.floor != b.floor:
        parts.add("floor")
    if a.score != b.score:
        parts.add("score")
    return frozenset(parts)


def _tile_delta(before: AzulState, after: AzulState, boards: dict[int, frozenset[str]], factories: list[int],
                piles: list[str]) -> list[int]:
    """Per colour, tiles in the changed places after the step minus before (0s: none appeared or vanished)."""
    delta = [0] * NUM_COLOURS
    for sign, s in ((-1, before), (1, after)):
        for name in piles:
            for c, n in enumerate(getattr(s, name)):
                delta[c] += sign * n
        for f in factories:
            for c, n in enumerate(s.factories[f]):
                delta[c] += sign * n
        for i, parts in boards.items():
            add_board_tiles(delta, s.boards[i], sign, parts)
    return delta


def incremental(before: Game, game: Game) -> list[tuple[str, str]]:
    """(invariant name, message) of the invariants a step can break only where it changed the table,
    checked there: tile conservation over the piles, factories and board parts that changed (the
    change of their total, which is the change of the whole table's; on any change or a negative
    pile the full check names it), each board invariant on the boards where a part it reads changed,
    the marker when it or a floor moved, the round's end, and the end condition on the boards whose
    wall changed. `stall` is left to the full check (run at every phase end and the game's end)."""
    a, s = before.state, game.state
    boards = {i: parts for i, (x, y) in enumerate(zip(a.boards, s.boards, strict=True))
              if x != y and (parts := _board_changes(x, y))}       # a Board is exactly these parts
    factories = [f for f, (x, y) in enumerate(zip(a.factories, s.factories, strict=True)) if x != y]
    piles = [name for name in PILES if getattr(a, name) != getattr(s, name)]
    out: list[tuple[str, str]] = []
    negative = any(n < 0 for name in piles for n in getattr(s, name)) or any(
        n < 0 for f in factories for n in s.factories[f])
    if negative or any(_tile_delta(a, s, boards, factories, piles)):
        out += [("tile-conservation", m) for m in tile_conservation(game)]
    for name, check, reads in _BOARD_CHECKS:
        out += [(name, m) for i, parts in boards.items() if parts & reads for m in check(game, i, s.boards[i])]
    if a.marker != s.marker or any("floor" in parts for parts in boards.values()):
        out += [("marker", m) for m in marker(game)]
    out += [("round-end", m) for m in round_end(game)]
    if s.phase == OFFER:
        out += [("end-condition", f"P{i + 1} has a complete wall row in round {s.round}, phase {s.phase}")
                for i, parts in boards.items() if "wall" in parts and any(s.boards[i].row_full(r) for r in range(ROWS))]
    return out
