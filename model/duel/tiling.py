"""Phase 2 (Dome-tiling & Scoring): plain functions over the table `g` (state, rules, chance)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from model.clauses import cite, cite_alternative
from model.duel import acquisition, flow, preparation
from model.duel.bonus import has_bonus_option
from model.duel.colours import COLOURS, EMPTY, SPECIAL, WILD
from model.duel.dome import band_full, matching_cells
from model.duel.scoring import broken_penalty, special_row_points, tile_points
from model.duel.state import CELL_SLOT, LINES, SLOT_CELLS, Pending, Player
from model.errors import RuleLoopError
from model.events import Event, ev

if TYPE_CHECKING:
    from model.duel.engine import Game

# Dome-tiling visits each player's pattern lines once, top to bottom (duel.tiling.top-to-bottom),
# and under duel.bonus.timing=after-pass once more for the chips: one call of advance_tiling takes
# at most 2 * 2 * LINES steps before it asks for a decision or ends.
TILING_STEPS = 4 * LINES
# ... and tiles each of the 2 players at most once (the starting player, then the other).
TILED_PLAYERS = 2


# --- the decisions of Dome-tiling -----------------------------------------------------------


def bonus(g: Game, who: int, args: tuple[int, ...], events: list[Event]) -> None:
    s = g.state
    p = s.pending
    assert p is not None
    pl = s.players[who]
    cite("duel.bonus.complete-line")
    line = p.data[0]
    if any(len(g.rules.tables.chip(c).colours) == 2 for c in args):
        cite("duel.bonus.two-colour")
    for c in args:
        pl.chips.remove(c)
        pl.used_chips.append(c)
    pl.used_chips.sort()
    missing = line + 1 - pl.line_count[line]
    pairs = 3 * missing - len(args)
    kinds = ([f"{pairs} matching pair(s)"] if pairs else []) + (
        [f"{missing - pairs} any-3"] if missing - pairs else [])
    spent = "+".join(f"C{c:02d}" for c in args) + f" ({', '.join(kinds)})"
    if matching_cells(pl, line, pl.line_colour[line]):
        detail = f"line {line + 1} completed with {spent}"
    else:                              # only under duel.bonus.unmovable-line=spend-anyway
        detail = f"chips {spent} spent on line {line + 1}, which still cannot move: no free matching space"
    events.append(ev("bonus", "duel.bonus.complete-line", who, 0, detail))
    # end: duel.bonus.complete-line
    # rule: duel.tiling.top-to-bottom
    s.pending = None
    order, cursor, _ = s.tiling          # the cursor is past line 6 in the second pass (after-pass)
    s.tiling = (order, cursor, 2)
    advance_tiling(g, events)


def no_bonus(g: Game, who: int, args: tuple[int, ...], events: list[Event]) -> None:
    g.state.pending = None
    advance_tiling(g, events)


def tile(g: Game, who: int, args: tuple[int, ...], events: list[Event]) -> None:
    s = g.state
    p = s.pending
    assert p is not None
    line = p.data[0]
    s.pending = None
    move_line_to_dome(g, who, line, line * 6 + args[0], events)
    advance_tiling(g, events)


# --- the phase ------------------------------------------------------------------------------


def start_tiling(g: Game, events: list[Event]) -> None:
    cite("duel.tiling.simultaneous")
    g.state.tiling = (0, 0, 0)
    g.state.to_move = -2          # no turns in this phase; decisions come as pending
    advance_tiling(g, events)


def advance_tiling(g: Game, events: list[Event]) -> None:
    """Resolve Dome-tiling from the cursor `state.tiling` = (player order, line, stage) until a
    decision is needed (stage 0: Bonus chips; stage 1: placement; stage 2: placement of a line
    just completed with chips) or both players are done."""
    s, rules = g.state, g.rules
    order, cursor, stage = s.tiling
    steps = 0
    players = 0
    while order < 2:
        who = s.starter if order == 0 else 1 - s.starter
        pl = s.players[who]
        counts, colours = pl.line_count, pl.line_colour
        # rule: duel.tiling.top-to-bottom
        players += 1
        if players > TILED_PLAYERS:
            raise RuleLoopError("duel.tiling.top-to-bottom", TILED_PLAYERS,
                                f"Dome-tiling reached P{who + 1} after {TILED_PLAYERS} player(s) were tiled")
        if cursor == 0 and stage == 0:
            cite("duel.tiling.top-to-bottom")
        # rule: duel.tiling.top-to-bottom
        # The cursor runs over lines 0-5; under duel.bonus.timing=after-pass the first pass offers no
        # chips, and a second pass (cursor 6-11 for lines 0-5) offers them for the lines still short.
        end = 12 if rules.chips_after_pass else 6
        while cursor < end:
            steps += 1
            if steps > TILING_STEPS:
                raise RuleLoopError("duel.tiling.top-to-bottom", TILING_STEPS,
                                    f"Dome-tiling took more than {TILING_STEPS} steps (P{who + 1}, line {cursor % 6 + 1})")
            line = cursor % 6
            second = cursor >= 6
            count = counts[line]
            cap = line + 1
            if count == 0 or (second and stage == 0 and count == cap):
                cursor, stage = cursor + 1, 0
                continue
            colour = colours[line]
            if stage == 0:
                stage = 1
                offer = count < cap and pl.chips and has_bonus_option(pl, colour, cap - count, rules.tables) \
                    and chips_may_complete(g, pl, line, colour)
                if offer and rules.chips_after_pass and not second:
                    cite_alternative("duel.bonus.timing", "after-pass")     # offered in the second pass
                    offer = False
                if offer:
                    if not rules.chips_after_pass:
                        cite_alternative("duel.bonus.timing", "as-reached")
                    s.tiling = (order, cursor, 1)
                    s.pending = Pending("bonus", who, (line,))
                    return
                if second:                 # no chips for this line: it was dealt with in the first pass
                    cursor, stage = cursor + 1, 0
                    continue
            chips_but_stuck = stage == 2 and count < cap and not matching_cells(pl, line, colour)
            if (count == cap or stage == 2) and not chips_but_stuck:
                cells = matching_cells(pl, line, colour)
                if len(cells) >= 2:
                    s.tiling = (order, cursor + 1, 0)
                    s.pending = Pending("tile", who, (line,), tuple(cells))
                    return
                if cells:
                    move_line_to_dome(g, who, line, cells[0], events)
                elif band_full(pl, line):
                    unplaceable(g, who, line, events)
                else:
                    cite("duel.tiling.wait")
            elif band_full(pl, line) and not matching_cells(pl, line, colour):
                alt = rules.choices["duel.tiling.unplaceable-scope"]
                cite_alternative("duel.tiling.unplaceable-scope", alt)
                if rules.unplaceable_any_line:
                    unplaceable(g, who, line, events)
                else:
                    cite("duel.tiling.incomplete-stay")
            else:
                cite("duel.tiling.incomplete-stay")
            cursor, stage = cursor + 1, 0
        if s.round == 5:
            leftover_lines(g, who, events)
        penalties(g, who, events)
        order, cursor, stage = order + 1, 0, 0
    s.tiling = (2, 0, 0)
    # rule: duel.prep.skip-last
    flow.change_phase(g, "preparation" if s.round < 5 else "tablet_scoring", events)
    if s.round < 5:
        preparation.prepare(g, events)
    else:
        preparation.score_tablets(g, events)


def leftover_lines(g: Game, who: int, events: list[Event]) -> None:
    """Tiles still on pattern lines after the last Dome-tiling (duel.end.leftover-lines)."""
    pl = g.state.players[who]
    left = [line for line in range(6) if pl.line_count[line]]
    if not left:
        return
    alt = g.rules.choices["duel.end.leftover-lines"]
    cite_alternative("duel.end.leftover-lines", alt)
    if alt == "broken":
        for line in left:
            colour, n = pl.line_colour[line], pl.line_count[line]
            pl.line_colour[line], pl.line_count[line] = EMPTY, 0
            acquisition.break_tiles(g, pl, colour, n, events, who, "duel.end.after-round-5")


def chips_may_complete(g: Game, pl: Player, line: int, colour: int) -> bool:
    """Whether Bonus chips may complete this line: under the default only when the completed line
    can then move to the Dome (a free matching space in its row), so chips are never spent for
    nothing (duel.bonus.unmovable-line)."""
    if matching_cells(pl, line, colour):
        return True
    alt = g.rules.choices["duel.bonus.unmovable-line"]
    cite_alternative("duel.bonus.unmovable-line", alt)
    return alt == "spend-anyway"


def unplaceable(g: Game, who: int, line: int, events: list[Event]) -> None:
    pl = g.state.players[who]
    cite("duel.tiling.unplaceable")
    colour, n = pl.line_colour[line], pl.line_count[line]
    pl.line_colour[line], pl.line_count[line] = EMPTY, 0
    acquisition.break_tiles(g, pl, colour, n, events, who, "duel.tiling.unplaceable")


def move_line_to_dome(g: Game, who: int, line: int, cell: int, events: list[Event]) -> None:
    s = g.state
    pl = s.players[who]
    colour, count = pl.line_colour[line], pl.line_count[line]
    cite("duel.tiling.move-rightmost")
    if pl.dome_space[cell] == WILD:
        cite("duel.tiling.joker-space")
    pl.dome_tile[cell] = colour
    pl.line_colour[line], pl.line_count[line] = EMPTY, 0
    if count > 1:
        cite("duel.tiling.discard-rest")
        s.tower[colour] += count - 1
    points = tile_points(pl.dome_tile, cell)
    pl.score += points
    events.append(ev("score", "duel.tiling.move-rightmost", who, points, f"{COLOURS[colour]} to row {line + 1} column {cell % 6 + 1}"))
    slot = CELL_SLOT[cell]
    plate_cells = SLOT_CELLS[slot]
    special = [c for c in plate_cells if pl.dome_space[c] == SPECIAL]
    if special and pl.dome_tile[special[0]] == EMPTY and all(
            pl.dome_tile[c] != EMPTY for c in plate_cells if c != special[0]):
        cite("duel.plate.special-space")
        cite("duel.score.special-no-adjacency")
        pl.dome_tile[special[0]] = SPECIAL
        s.special_supply -= 1
        # rule: duel.special.which-row
        row = space_row = special[0] // 6
        if row != line:                    # the plate was completed from its other row
            alt = g.rules.choices["duel.special.which-row"]
            cite_alternative("duel.special.which-row", alt)
            if alt == "completing-tile-row":
                row = line
        bonus = special_row_points(g.rules, row)
        pl.score += bonus
        events.append(ev("score", "duel.plate.special-space", who, bonus, f"Special tile in row {space_row + 1}"
                            + (f" (row {row + 1}'s points)" if row != space_row else "")))


def penalties(g: Game, who: int, events: list[Event]) -> None:
    s = g.state
    pl = s.players[who]
    if pl.broken:
        n = len(pl.broken)
        loss = broken_penalty(g.rules, n)
        lose(g, pl, loss, who, events, "duel.score.broken-penalty", f"{n} broken tiles")
        for colour in pl.broken:
            s.tower[colour] += 1
        pl.broken = []
    if pl.start_tile:
        cite("duel.score.start-player-tile")
        lose(g, pl, 2, who, events, "duel.score.start-player-tile", "Starting player tile")


def lose(g: Game, pl: Player, loss: int, who: int, events: list[Event], clause: str, why: str) -> None:
    actual = min(loss, pl.score)
    if actual < loss:
        cite("duel.score.floor")
    pl.score -= actual
    events.append(ev("penalty", clause, who, -actual, why + (f" (floor: {loss} due)" if actual < loss else "")))
