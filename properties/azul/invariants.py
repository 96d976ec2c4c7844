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
from model.azul.state import CENTRE, FLOOR_SPACES, NOBODY, OFFER, OVER, TILING


@attrs.frozen
class Invariant:
    name: str
    clauses: tuple[str, ...]
    check: Callable[[Game], list[str]]
    physical: bool = True

    def __call__(self, game: Game) -> list[str]:
        return self.check(game)


def tiles_by_colour(game: Game) -> list[int]:
    """Tiles of each colour across bag, lid, factories, centre, pattern lines, floors and walls."""
    s = game.state
    counts = [s.bag[c] + s.lid[c] + s.centre[c] + sum(f[c] for f in s.factories) for c in range(NUM_COLOURS)]
    for b in s.boards:
        for line in range(ROWS):
            if b.line_count[line] and 0 <= b.line_colour[line] < NUM_COLOURS:
                counts[b.line_colour[line]] += b.line_count[line]
        for t in b.floor:
            if t != MARKER:
                counts[t] += 1
        for t in b.wall:
            if t != EMPTY:
                counts[t] += 1
    return counts


def tile_conservation(game: Game) -> list[str]:
    s = game.state
    out = [f"{COLOURS[c]}: {n} tiles in play, not {TILES_PER_COLOUR}"
           for c, n in enumerate(tiles_by_colour(game)) if n != TILES_PER_COLOUR]
    places = [("bag", s.bag), ("lid", s.lid), ("centre", s.centre)] + [
        (f"F{i + 1}", f) for i, f in enumerate(s.factories)]
    out += [f"{name} holds {n} {COLOURS[c]} tiles" for name, counts in places for c, n in enumerate(counts) if n < 0]
    return out


def floor_capacity(game: Game) -> list[str]:
    return [f"P{i + 1}'s floor holds {len(b.floor)} (> {FLOOR_SPACES})"
            for i, b in enumerate(game.state.boards) if len(b.floor) > FLOOR_SPACES]


def score_floor(game: Game) -> list[str]:
    return [f"P{i + 1} scores {b.score}" for i, b in enumerate(game.state.boards) if b.score < 0]


def pattern_lines(game: Game) -> list[str]:
    out = []
    gray = game.rules.gray
    for i, b in enumerate(game.state.boards):
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


def wall_colours(game: Game) -> list[str]:
    out = []
    for i, b in enumerate(game.state.boards):
        w = b.wall
        if not game.rules.gray:
            out += [f"P{i + 1} wall r{cell // ROWS + 1} c{cell % ROWS + 1} holds {COLOURS[t]}, printed "
                    f"{COLOURS[printed_colour(cell // ROWS, cell % ROWS)]}"
                    for cell, t in enumerate(w) if t != EMPTY and t != printed_colour(cell // ROWS, cell % ROWS)]
            continue
        for k in range(ROWS):
            row = [t for t in w[k * ROWS:(k + 1) * ROWS] if t != EMPTY]
            col = [t for t in w[k::ROWS] if t != EMPTY]
            if len(set(row)) != len(row):
                out.append(f"P{i + 1} gray wall row {k + 1} repeats a colour: {row}")
            if len(set(col)) != len(col):
                out.append(f"P{i + 1} gray wall column {k + 1} repeats a colour: {col}")
    return out


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
