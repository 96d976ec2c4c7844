"""The legality predicate, written independently of generation (model.azul.generation): None when
an action is legal now, else (clause id, reason)."""

from __future__ import annotations

from model.azul.actions import CENTRE_SOURCE, FLOOR, Action, Kind, take
from model.azul.colours import COLOURS, EMPTY, NUM_COLOURS, ROWS, printed_column
from model.azul.ruleset import Ruleset
from model.azul.state import NOBODY, OVER, TILING, AzulState

Refusal = tuple[str, str]


def why_illegal(state: AzulState, rules: Ruleset, a: Action) -> Refusal | None:
    if state.phase == OVER:
        return "azul.end.trigger", "the game is over"
    if state.to_move == NOBODY and state.phase != TILING:
        if not state.tiles_on_offer() and (any(state.bag) or any(state.lid)):
            return "azul.end.trigger", "no tile can ever reach a wall again: nobody can act (stalled)"
        return "azul.prep.partial-fill", "no tiles can come out this round: nobody can act (stalled)"
    if a.kind is Kind.WALL:
        if not rules.gray:
            return "azul.wall.move-rightmost", "on the coloured wall every tile's space is printed: there is no choice"
        return _wall_problem(state, a)
    if state.phase == TILING:
        return "azul.gray.free-placement", f"a wall space for row {state.tiling[1] + 1} must be chosen first"
    return _take_problem(state, rules, a)


def _take_problem(state: AzulState, rules: Ruleset, a: Action) -> Refusal | None:
    source, colour, dest = a.args[:3]
    if not 0 <= colour < NUM_COLOURS:
        return "azul.component.tiles", f"there is no tile colour {colour}"
    name = COLOURS[colour]
    if source == CENTRE_SOURCE:
        if state.centre[colour] == 0:
            return "azul.offer.take-centre", f"the centre holds no {name} tile"
    elif not 0 <= source < len(state.factories):
        return "azul.setup.factory-count", (f"F{source + 1} is not in play: {state.players} players "
                                            f"use {len(state.factories)} factories")
    elif state.factories[source][colour] == 0:
        return "azul.offer.take-factory", f"F{source + 1} holds no {name} tile"
    if dest == FLOOR:
        if len(a.args) != 3:
            return "azul.lines.to-floor", "only a pattern line can be split"
        if rules.floor_only_if_no_line:
            open_lines = [d + 1 for d in range(ROWS)
                          if _take_problem(state, rules, take(source, colour, d)) is None]
            if open_lines:
                return "azul.lines.to-floor", (f"line {open_lines[0]} can take {name}: the floor line is only "
                                               "for tiles no line can take (azul.lines.floor-choice=only-if-no-line)")
        return None
    if not 0 <= dest < ROWS:
        return "azul.lines.capacity", "pattern lines are 1-5"
    board = state.boards[state.to_move]
    held = board.line_count[dest]
    if held and board.line_colour[dest] != colour:
        return "azul.lines.same-colour", f"line {dest + 1} holds {COLOURS[board.line_colour[dest]]}"
    if len(a.args) > 3:
        if not rules.voluntary_split:
            return "azul.lines.to-floor", ("every taken tile that fits goes on the line "
                                           "(azul.lines.voluntary-split=all-or-floor)")
        taken = state.centre[colour] if source == CENTRE_SOURCE else state.factories[source][colour]
        fits = min(taken, dest + 1 - held)
        if not 1 <= a.args[3] < fits:
            return "azul.lines.to-floor", f"x{a.args[3]} must be 1 to {fits - 1} (below the {fits} that fit)"
    if held >= dest + 1:
        if rules.full_line_allowed:
            return None
        return "azul.lines.capacity", (f"line {dest + 1} is full: take to the floor instead "
                                       "(azul.lines.full-line-choice=refused)")
    w = board.wall
    base = dest * ROWS
    if rules.gray:
        if any(w[base + c] == colour for c in range(ROWS)):
            return "azul.lines.wall-has-colour", f"wall row {dest + 1} already holds {name}"
        if rules.refuse_unplaceable and not any(
                w[base + c] == EMPTY and all(w[r * ROWS + c] != colour for r in range(ROWS)) for c in range(ROWS)):
            return "azul.lines.wall-has-colour", (f"no space of wall row {dest + 1} can take {name} "
                                                  "(azul.gray.unplaceable-line=refused)")
    elif w[base + printed_column(dest, colour)] != EMPTY:
        return "azul.lines.wall-has-colour", f"wall row {dest + 1} already holds {name}"
    return None


def _wall_problem(state: AzulState, a: Action) -> Refusal | None:
    if state.phase != TILING:
        return "azul.gray.free-placement", "no wall placement is being asked"
    who, row = state.tiling
    r, c = a.args
    if r != row:
        return "azul.wall.top-to-bottom", f"the line being tiled is row {row + 1}"
    if not 0 <= c < ROWS:
        return "azul.gray.free-placement", "wall columns are 1-5"
    board = state.boards[who]
    colour = board.line_colour[row]
    if board.wall[row * ROWS + c] != EMPTY:
        return "azul.gray.free-placement", f"wall space r{row + 1} c{c + 1} is taken"
    if any(board.wall[i * ROWS + c] == colour for i in range(ROWS)):
        return "azul.gray.column-unique", f"column {c + 1} already holds {COLOURS[colour]}"
    if any(board.wall[row * ROWS + j] == colour for j in range(ROWS)):
        return "azul.gray.row-unique", f"row {row + 1} already holds {COLOURS[colour]}"
    return None
