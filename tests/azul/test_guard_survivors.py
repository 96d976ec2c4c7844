"""Guarding tests for the survivors of the first whole classic mutation run (issue 12,
`azul-rules mutate --game azul --jobs 1`, 2026-11-30): each test names the rule whose planted bug no test
noticed, on a hand-built position, with assertions on the position, the events or the clause record.
"""

from __future__ import annotations

import pytest

from model.azul import IllegalAction
from model.azul.actions import Action, Kind
from model.azul.colours import EMPTY, MARKER, ROWS
from tests.azul.guard import record
from tests.azul.helpers import BLACK, BLUE, RED, TURQUOISE, YELLOW, bare, end_offer, play, printed, set_line, settle


@pytest.mark.clause("azul.component.wall-pattern", "azul.wall.complete-only")
def test_the_printed_space_checked_is_in_the_lines_own_row() -> None:
    g = bare(first=1)
    b = g.state.boards[0]
    printed(b, [(4, 4)])                                  # r5 c5 filled; row 1's yellow space is r1 c2
    set_line(b, 1, YELLOW, 1)
    settle(g)
    end_offer(g)
    assert b.wall[1] == YELLOW and b.floor == [] and b.line_count[0] == 0


@pytest.mark.clause("azul.gray.free-placement", "azul.wall.top-to-bottom", "azul.wall.simultaneous")
def test_the_second_players_first_line_is_tiled_after_the_first_players_choice() -> None:
    g = bare(wall="gray", first=1)
    s = g.state
    b = s.boards[0]
    b.wall[ROWS:ROWS + 3] = [RED, YELLOW, BLACK]          # P1's row 2: c4 and c5 free
    set_line(b, 1, RED, 1)                                # P1's row 1: a choice too (any column but c1)
    set_line(b, 2, BLUE, 2)
    c = s.boards[1]
    c.wall[0:4] = [RED, YELLOW, BLACK, TURQUOISE]
    set_line(c, 1, BLUE, 1)                               # P2's row 1: only c5, no choice
    s.factories[0][BLACK] = 1
    settle(g)
    play(g, "take F1 black line 5")
    assert s.tiling == (0, 0)
    assert g.why_illegal(Action(Kind.TAKE, (0, BLACK, 4))) == ("azul.gray.free-placement",
                                                              "a wall space for row 1 must be chosen first")
    play(g, "wall r1 c3")
    assert s.tiling == (0, 1)
    assert g.why_illegal(Action(Kind.TAKE, (0, BLACK, 4))) == ("azul.gray.free-placement",
                                                              "a wall space for row 2 must be chosen first")
    play(g, "wall r2 c5")
    assert c.wall[4] == BLUE and c.line_count[0] == 0, "P2's line 1 is tiled after P1's rows"
    assert g.is_over


@pytest.mark.clause("azul.lines.to-floor")
def test_a_split_of_zero_tiles_is_refused() -> None:
    g = bare(interpretations={"azul.lines.voluntary-split": "voluntary-split"})
    s = g.state
    s.factories[0][RED] = 3
    settle(g)
    a = Action(Kind.TAKE, (0, RED, 3, 0))
    before = s.copy()
    with pytest.raises(IllegalAction) as exc:
        g.apply(a)
    assert exc.value.clause == "azul.lines.to-floor" and s == before


@pytest.mark.clause("azul.lines.capacity", "azul.lines.same-colour")
@pytest.mark.parametrize(("held", "same"), [(0, 0), (1, 1)])
def test_a_take_records_same_colour_only_onto_a_started_line(held: int, same: int) -> None:
    g = bare()
    s = g.state
    set_line(s.boards[0], 4, RED, held)
    s.factories[0][RED] = 2
    s.factories[1][BLUE] = 1
    settle(g)
    with record() as fired:
        play(g, "take F1 red line 4")
    assert s.boards[0].line_count[3] == held + 2
    assert fired.clauses["azul.lines.same-colour"] == same
    assert fired.clauses["azul.lines.capacity"] == 1
    assert not [a for a in fired.alternatives if a[0] == "azul.lines.full-line-choice"]


@pytest.mark.clause("azul.score.immediate", "azul.score.row-run", "azul.score.column-run", "azul.wall.move-rightmost")
@pytest.mark.parametrize(("cells", "row_run", "column_run"), [([], 0, 0), ([(2, 1)], 1, 0), ([(1, 2)], 0, 1),
                                                              ([(2, 3), (3, 2)], 1, 1)])
def test_a_placement_records_the_runs_it_counts(cells: list[tuple[int, int]], row_run: int, column_run: int) -> None:
    g = bare(first=1)
    b = g.state.boards[0]
    printed(b, cells)
    set_line(b, 3, (2 - 2) % 5, 3)                        # blue: its row 3 space is r3 c3
    settle(g)
    with record() as fired:
        end_offer(g)
    assert b.wall[2 * ROWS + 2] == BLUE
    assert (b.line_colour[2], b.line_count[2]) == (EMPTY, 0)
    assert fired.clauses["azul.score.row-run"] == row_run
    assert fired.clauses["azul.score.column-run"] == column_run


@pytest.mark.clause("azul.floor.penalties", "azul.floor.marker-kept")
@pytest.mark.parametrize(("alt", "floor", "penalty"), [
    ("space-value", [RED, RED], 2), ("one-point", [MARKER, RED, RED], 1 + 2 + 1),
    ("one-point-at-pick", [MARKER, RED, RED], 1 + 2), ("space-value", [MARKER, RED, RED], 1 + 1 + 2)])
def test_floor_penalty_by_marker_cost(alt: str, floor: list[int], penalty: int) -> None:
    g = bare(first=1, interpretations={"azul.floor.marker-cost": alt})
    s = g.state
    b = s.boards[0]
    b.floor = list(floor)
    b.score = 20
    if MARKER in floor:
        s.marker = 0
    settle(g)
    with record() as fired:
        end_offer(g)
    assert b.score == 20 - penalty
    decided = [a for a in fired.alternatives if a[0] == "azul.floor.marker-cost"]
    assert decided == ([("azul.floor.marker-cost", alt)] if MARKER in floor else [])


@pytest.mark.clause("azul.end.trigger")
@pytest.mark.parametrize("last", [True, False])
def test_only_the_last_round_records_the_final_floor_reading(last: bool) -> None:
    g = bare(first=1)
    b = g.state.boards[0]
    printed(b, [(0, c) for c in range(ROWS if last else ROWS - 1)])
    b.floor = [RED]
    b.score = 5
    settle(g)
    with record() as fired:
        end_offer(g)
    assert g.is_over is last
    assert [a for a in fired.alternatives if a[0] == "azul.end.final-floor"] == (
        [("azul.end.final-floor", "scored")] if last else [])


@pytest.mark.clause("azul.prep.refill", "azul.prep.partial-fill")
def test_a_refill_that_finds_no_tile_ends_the_game_instead_of_opening_an_empty_round() -> None:
    g = bare(players=3)
    s = g.state
    s.bag, s.lid = [0] * 5, [0] * 5
    s.factories[0][RED] = 1
    play(g, "take F1 red line 5")
    assert g.is_over and g.legal_actions() == [] and s.round == 2


@pytest.mark.clause("azul.wall.simultaneous", "azul.wall.complete-only")
def test_every_round_tiles_from_the_first_player_and_the_first_line() -> None:
    g = bare(first=1)
    s = g.state
    set_line(s.boards[0], 1, RED, 1)
    settle(g)
    end_offer(g)                                          # round 1: P1's red to r1 c3
    assert s.round == 2 and s.boards[0].wall[2] == RED
    for f in s.factories:                                 # round 2: P1 completes line 1 again, with blue
        for colour in range(5):
            s.bag[colour] += f[colour]
            f[colour] = 0
    set_line(s.boards[0], 1, BLUE, 1)
    end_offer(g, line=5)
    assert s.round == 3 and s.boards[0].wall[0] == BLUE and s.boards[0].line_count[0] == 0


@pytest.mark.clause("azul.lines.wall-has-colour", "azul.offer.actions")
@pytest.mark.parametrize("alt", ["refused", "allowed"])
def test_an_unplaceable_gray_line_is_decided_once_under_its_reading(alt: str) -> None:
    g = bare(wall="gray", interpretations={"azul.gray.unplaceable-line": alt})
    s = g.state
    b = s.boards[0]
    b.wall[1 * ROWS + 4] = RED                                      # column 5 holds red
    b.wall[2 * ROWS:2 * ROWS + 4] = [BLUE, YELLOW, BLACK, TURQUOISE]   # row 3: only c5 free
    s.factories[0][RED] = 2
    settle(g)
    with record() as fired:
        legal = [str(a) for a in g.legal_actions()]
    assert ("take F1 red line 3" in legal) is (alt == "allowed")
    assert [a for a in fired.alternatives if a[0] == "azul.gray.unplaceable-line"] == [
        ("azul.gray.unplaceable-line", alt)]
    assert fired.alternatives[("azul.gray.unplaceable-line", alt)] == 1


@pytest.mark.clause("azul.wall.complete-only", "azul.wall.no-space")
def test_a_complete_gray_line_without_a_space_goes_to_its_own_players_floor() -> None:
    g = bare(wall="gray", first=1)
    s = g.state
    b = s.boards[0]
    b.wall[2 * ROWS:2 * ROWS + 4] = [BLUE, YELLOW, BLACK, TURQUOISE]
    b.wall[4] = RED
    set_line(b, 3, RED, 3)
    b.score = 10
    settle(g)
    events = end_offer(g)
    assert [(e.kind, e.player) for e in events if e.kind in ("no-space", "penalty")] == [("no-space", 0),
                                                                                       ("penalty", 0)]
    assert b.line_count[2] == 0 and b.score == 10 - 4 and s.boards[1].score == 0


@pytest.mark.clause("azul.lines.wall-has-colour")
def test_every_unplaceable_colour_of_a_gray_row_is_refused() -> None:
    g = bare(wall="gray", interpretations={"azul.gray.unplaceable-line": "refused"})
    s = g.state
    b = s.boards[0]
    b.wall[3:5] = [RED, TURQUOISE]                        # r1 c4, c5
    b.wall[ROWS + 3:ROWS + 5] = [TURQUOISE, RED]          # r2 c4, c5
    b.wall[2 * ROWS:2 * ROWS + 3] = [BLUE, YELLOW, BLACK]  # row 3: c4 and c5 free, both columns hold both
    s.factories[0][RED] = 2
    s.factories[0][TURQUOISE] = 2
    settle(g)
    legal = [str(a) for a in g.legal_actions()]
    assert "take F1 red line 3" not in legal and "take F1 turquoise line 3" not in legal
    assert "take F1 red line 4" in legal and "take F1 turquoise line 4" in legal
