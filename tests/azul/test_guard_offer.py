"""Guarding tests for classic Azul's factory offer, floor line and wall-tiling (issue 12).

Hand-built positions played through the public API; each test asserts the position after the
action (factories, centre, lines, floor, lid, wall, marker), the events, and, where a rule site only
records that the rule fired, the clause record (`record`): which rules fired is what the coverage
report and `azul-rules explain` show, so a citation in the wrong place is a wrong report.
"""

from __future__ import annotations

import pytest

from model.azul.colours import EMPTY, MARKER, ROWS, printed_colour
from model.azul.state import CENTRE
from tests.azul.guard import record
from tests.azul.helpers import BLACK, BLUE, RED, TURQUOISE, YELLOW, bare, end_offer, play, set_line, settle

# --- taking tiles ---------------------------------------------------------------------------------


@pytest.mark.clause("azul.offer.take-factory", "azul.offer.actions")
def test_a_factory_take_sends_every_other_tile_to_the_centre() -> None:
    g = bare()
    s = g.state
    s.factories[2][:] = [2, 1, 1, 0, 0]
    s.factories[0][BLACK] = 4
    s.centre[RED] = 2
    settle(g)
    events = play(g, "take F3 blue line 4")
    assert s.factories[2] == [0, 0, 0, 0, 0]
    assert s.centre == [0, 1, 3, 0, 0]
    assert s.factories[0] == [0, 0, 0, 4, 0], "other factories are untouched"
    b = s.boards[0]
    assert (b.line_colour[3], b.line_count[3]) == (BLUE, 2) and b.floor == []
    takes = [e for e in events if e.kind == "take"]
    assert len(takes) == 1 and takes[0].player == 0 and takes[0].detail.startswith("2 blue")
    assert s.marker == CENTRE and s.to_move == 1


@pytest.mark.clause("azul.offer.take-centre", "azul.offer.first-from-centre")
def test_a_centre_take_leaves_the_other_colours_and_takes_the_marker_once() -> None:
    g = bare(players=3)
    s = g.state
    s.centre[:] = [2, 0, 3, 0, 1]
    s.factories[0][BLACK] = 4
    settle(g)
    with record() as fired:
        events = play(g, "take C red line 3")
    assert s.centre == [2, 0, 0, 0, 1]
    assert s.marker == 0 and s.boards[0].floor == [MARKER]
    assert s.boards[0].line_count[2] == 3
    assert [e.player for e in events if e.kind == "marker"] == [0]
    assert fired.clauses["azul.offer.first-from-centre"] == 1
    with record() as fired:
        events = play(g, "take C blue line 2")          # P2: the marker is gone
    assert s.marker == 0 and s.boards[1].floor == [] and s.centre == [0, 0, 0, 0, 1]
    assert not [e for e in events if e.kind == "marker"]
    assert fired.clauses["azul.offer.first-from-centre"] == 0
    assert fired.clauses["azul.offer.take-centre"] == 1 and fired.clauses["azul.offer.take-factory"] == 0


@pytest.mark.clause("azul.offer.first-from-centre")
def test_the_marker_displaces_the_last_floor_tile_to_the_lid() -> None:
    g = bare(interpretations={"azul.offer.marker-on-full-floor": "displace-to-lid"})
    s = g.state
    b = s.boards[0]
    b.floor = [BLUE] * 6 + [YELLOW]
    s.centre[RED] = 1
    s.factories[0][BLACK] = 1
    settle(g)
    lid = s.lid[:]
    play(g, "take C red line 1")
    assert b.floor == [BLUE] * 6 + [MARKER]
    assert s.lid[YELLOW] == lid[YELLOW] + 1 and s.lid[BLUE] == lid[BLUE]


@pytest.mark.clause("azul.offer.first-from-centre")
@pytest.mark.parametrize("n", [5, 6])
def test_the_marker_goes_on_a_floor_with_room(n: int) -> None:
    g = bare()
    s = g.state
    b = s.boards[0]
    b.floor = [BLUE] * n
    s.centre[RED] = 1
    s.factories[0][BLACK] = 1
    settle(g)
    with record() as fired:
        play(g, "take C red line 1")
    assert b.floor == [BLUE] * n + [MARKER]
    assert not [a for a in fired.alternatives if a[0] == "azul.offer.marker-on-full-floor"]


@pytest.mark.clause("azul.floor.marker-kept", "azul.score.floor")
@pytest.mark.parametrize(("score", "paid"), [(0, 0), (1, 1), (5, 1)])
def test_the_marker_costs_one_point_at_pick_never_below_zero(score: int, paid: int) -> None:
    g = bare(interpretations={"azul.floor.marker-cost": "one-point-at-pick"})
    s = g.state
    b = s.boards[0]
    b.score = score
    s.centre[RED] = 1
    s.factories[0][BLACK] = 1
    settle(g)
    with record() as fired:
        events = play(g, "take C red line 1")
    assert b.score == score - paid
    penalties = [e for e in events if e.kind == "penalty"]
    assert [(e.player, e.points, e.clause) for e in penalties] == [(0, -paid, "azul.floor.marker-kept")]
    assert fired.clauses["azul.score.floor"] == (1 if paid == 0 else 0)


# --- pattern lines and the floor ---------------------------------------------------------------


@pytest.mark.clause("azul.lines.to-floor", "azul.floor.capacity", "azul.floor.overflow-lid")
@pytest.mark.parametrize(("on_floor", "to_floor", "to_lid"), [(0, 0, 0), (5, 1, 0), (6, 1, 0), (6, 1, 1), (7, 0, 2),
                                                             (3, 3, 0), (4, 3, 0), (5, 2, 1)])
def test_what_does_not_fit_the_line_goes_to_the_floor_then_the_lid(on_floor: int, to_floor: int,
                                                                   to_lid: int) -> None:
    g = bare()
    s = g.state
    b = s.boards[0]
    b.floor = [BLUE] * on_floor
    excess = to_floor + to_lid
    s.factories[0][RED] = 2 + excess                   # line 2 takes 2
    s.factories[1][BLACK] = 1
    settle(g)
    lid = s.lid[RED]
    with record() as fired:
        play(g, "take F1 red line 2")
    assert b.line_count[1] == 2
    assert b.floor == [BLUE] * on_floor + [RED] * to_floor
    assert s.lid[RED] == lid + to_lid
    assert fired.clauses["azul.lines.to-floor"] == (1 if excess else 0)
    assert fired.clauses["azul.floor.capacity"] == (1 if excess else 0)
    assert fired.clauses["azul.floor.overflow-lid"] == (1 if to_lid else 0)


@pytest.mark.clause("azul.lines.to-floor", "azul.lines.one-line")
@pytest.mark.parametrize(("text", "line", "floor"), [("take F1 red line 4 x1", 1, 3), ("take F1 red line 4 x3", 3, 1),
                                                     ("take F1 red line 5 x2", 2, 2), ("take F1 red floor", 0, 4)])
def test_a_voluntary_split_puts_x_on_the_line_and_the_rest_on_the_floor(text: str, line: int, floor: int) -> None:
    g = bare(interpretations={"azul.lines.voluntary-split": "voluntary-split"})
    s = g.state
    b = s.boards[0]
    s.factories[0][RED] = 4
    s.factories[1][BLACK] = 1
    settle(g)
    play(g, text)
    assert sum(b.line_count) == line and b.floor == [RED] * floor
    assert all(c == RED for c, n in zip(b.line_colour, b.line_count, strict=True) if n)


@pytest.mark.clause("azul.lines.same-colour", "azul.lines.capacity")
def test_a_line_fills_up_to_its_size_and_keeps_its_colour() -> None:
    g = bare()
    s = g.state
    b = s.boards[0]
    set_line(b, 4, YELLOW, 2)
    s.factories[0][YELLOW] = 3
    s.factories[1][BLACK] = 1
    settle(g)
    play(g, "take F1 yellow line 4")
    assert (b.line_colour[3], b.line_count[3]) == (YELLOW, 4) and b.floor == [YELLOW]


@pytest.mark.clause("azul.offer.turn-order", "azul.offer.end")
def test_turns_wrap_after_the_last_of_four_players() -> None:
    g = bare(players=4, first=2)
    s = g.state
    for f in range(5):
        s.factories[f][BLUE] = 1
    settle(g)
    order = []
    for f in range(5):
        order.append(g.current_player)
        with record() as fired:
            play(g, f"take F{f + 1} blue floor")
        assert fired.clauses["azul.offer.end"] == (1 if f == 4 else 0)
    assert order == [2, 3, 0, 1, 2]


# --- wall-tiling -----------------------------------------------------------------------------------


@pytest.mark.clause("azul.wall.move-rightmost", "azul.wall.discard-rest", "azul.wall.complete-only",
                    "azul.wall.incomplete-stay", "azul.wall.top-to-bottom")
def test_each_complete_line_moves_one_tile_and_discards_the_rest() -> None:
    g = bare(first=1)
    s = g.state
    b = s.boards[0]
    set_line(b, 1, RED, 1)
    set_line(b, 2, BLUE, 1)
    set_line(b, 3, YELLOW, 3)
    set_line(b, 5, TURQUOISE, 5)
    settle(g)
    lid = s.lid[:]
    with record() as fired:
        events = end_offer(g)                           # P2 ends the offer on its own line 5
    assert b.wall[0 * ROWS + 2] == RED
    assert b.wall[2 * ROWS + (2 + YELLOW) % 5] == YELLOW
    assert b.wall[4 * ROWS + (4 + TURQUOISE) % 5] == TURQUOISE
    assert (b.line_colour[1], b.line_count[1]) == (BLUE, 1)
    assert [s.lid[c] - lid[c] for c in range(5)] == [0, 2, 0, 0, 4]
    assert b.line_count == [0, 1, 0, 0, 0]
    assert b.line_colour == [EMPTY, BLUE, EMPTY, EMPTY, EMPTY]
    scores = [(e.player, e.detail) for e in events if e.kind == "score"]
    assert scores == [(0, "red to r1 c3"), (0, "yellow to r3 c4"), (0, "turquoise to r5 c4")]
    assert fired.clauses["azul.wall.move-rightmost"] == 3
    assert fired.clauses["azul.wall.discard-rest"] == 2
    assert fired.clauses["azul.wall.complete-only"] == 3
    assert fired.clauses["azul.wall.incomplete-stay"] == 2      # P1's line 2, P2's line 5


@pytest.mark.clause("azul.wall.no-space", "azul.floor.capacity")
def test_a_gray_line_with_no_space_goes_whole_to_the_floor() -> None:
    g = bare(wall="gray", first=1)
    s = g.state
    b = s.boards[0]
    b.wall[3 * ROWS:4 * ROWS] = [BLUE, YELLOW, EMPTY, BLACK, TURQUOISE]
    b.wall[0 * ROWS + 2] = RED                          # column 3 already holds red
    set_line(b, 4, RED, 4)
    b.score = 20
    settle(g)
    events = end_offer(g)
    assert b.wall[3 * ROWS + 2] == EMPTY and b.line_count[3] == 0 and b.line_colour[3] == EMPTY
    assert [e.kind for e in events if e.player == 0] == ["no-space", "penalty"]
    assert b.score == 20 - (1 + 1 + 2 + 2)
    assert s.lid[RED] >= 4


@pytest.mark.clause("azul.gray.free-placement", "azul.wall.top-to-bottom", "azul.wall.simultaneous")
def test_gray_choices_are_asked_row_by_row_then_player_by_player() -> None:
    g = bare(wall="gray", first=1)
    s = g.state
    for who in (0, 1):
        set_line(s.boards[who], 2, BLUE, 2)
        set_line(s.boards[who], 3, RED, 3)
    settle(g)
    end_offer(g, colour=BLACK, line=5)
    asked = []
    for col in (1, 3, 5, 2):
        assert s.phase == "tiling"
        asked.append(s.tiling)
        play(g, f"wall r{s.tiling[1] + 1} c{col}")
    assert asked == [(0, 1), (0, 2), (1, 1), (1, 2)]
    assert s.boards[0].wall[ROWS + 0] == BLUE and s.boards[0].wall[2 * ROWS + 2] == RED
    assert s.boards[1].wall[ROWS + 4] == BLUE and s.boards[1].wall[2 * ROWS + 1] == RED
    assert s.phase == "offer" and s.round == 2


# --- floor scoring -----------------------------------------------------------------------------


@pytest.mark.clause("azul.score.floor", "azul.floor.discard", "azul.floor.marker-kept")
@pytest.mark.parametrize(("score", "after", "clamped"), [(4, 0, False), (3, 0, True), (5, 1, False)])
def test_floor_scoring_lands_on_zero_at_most(score: int, after: int, clamped: bool) -> None:
    g = bare(first=1)
    s = g.state
    b = s.boards[0]
    b.score = score
    b.floor = [RED, MARKER, BLUE]                       # 1 + 1 + 2
    s.marker = 0
    settle(g)
    lid = s.lid[:]
    with record() as fired:
        events = end_offer(g)
    assert b.score == after and b.floor == []
    assert s.lid[RED] == lid[RED] + 1 and s.lid[BLUE] == lid[BLUE] + 1
    assert [e.points for e in events if e.kind == "penalty" and e.player == 0] == [after - score]
    assert fired.clauses["azul.score.floor"] == (1 if clamped else 0)
    assert s.starter == 0 and s.to_move == 0 and s.marker == CENTRE
    assert printed_colour(0, 0) == BLUE
