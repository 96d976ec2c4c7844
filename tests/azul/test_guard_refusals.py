"""Guarding tests for classic Azul's refusals (issue 12): every refusal the legality predicate can give,
with its clause and its exact reason (the one line a player or the CLI sees), on hand-built positions;
the position never changes. Actions the notation cannot write (a colour, source, line or column out of
range) are built with `take`/`wall` and must be refused by the clause that bounds them, not crash.
"""

from __future__ import annotations

import pytest

from model.azul import Game, IllegalAction, parse_action
from model.azul.actions import FLOOR, Action, take, wall
from model.azul.colours import ROWS, printed_column
from tests.azul.helpers import BLACK, BLUE, RED, TURQUOISE, YELLOW, bare, end_offer, play, printed, set_line, settle


def refused(g: Game, action: Action | str) -> tuple[str, str]:
    a = parse_action(action) if isinstance(action, str) else action
    before = g.state.copy()
    with pytest.raises(IllegalAction) as exc:
        g.apply(a)
    assert g.state == before
    assert g.why_illegal(a) == (exc.value.clause, exc.value.reason)
    return exc.value.clause, exc.value.reason


def offer_position(**rules: str) -> Game:
    g = bare(interpretations=rules or None)
    s = g.state
    b = s.boards[0]
    s.factories[0][RED] = 2
    s.factories[0][BLUE] = 1
    s.factories[1][BLACK] = 1
    s.centre[YELLOW] = 2
    set_line(b, 2, BLUE, 1)
    set_line(b, 1, RED, 1)
    b.wall[2 * ROWS + printed_column(2, BLACK)] = BLACK
    settle(g)
    return g


@pytest.mark.clause("azul.component.tiles", "azul.offer.take-centre", "azul.setup.factory-count",
                    "azul.offer.take-factory", "azul.lines.to-floor", "azul.lines.capacity",
                    "azul.lines.same-colour", "azul.lines.wall-has-colour", "azul.wall.move-rightmost")
def test_offer_refusals_name_clause_and_reason() -> None:
    g = offer_position()
    expected: list[tuple[Action | str, tuple[str, str]]] = [
        (take(0, 5, 0), ("azul.component.tiles", "there is no tile colour 5")),
        (take(0, -1, 0), ("azul.component.tiles", "there is no tile colour -1")),
        ("take C red line 3", ("azul.offer.take-centre", "the centre holds no red tile")),
        ("take F6 red line 3", ("azul.setup.factory-count", "F6 is not in play: 2 players use 5 factories")),
        (take(-1, RED, 2), ("azul.setup.factory-count", "F0 is not in play: 2 players use 5 factories")),
        ("take F2 red line 3", ("azul.offer.take-factory", "F2 holds no red tile")),
        ("take F5 yellow floor", ("azul.offer.take-factory", "F5 holds no yellow tile")),
        (take(0, RED, FLOOR, 1), ("azul.lines.to-floor", "only a pattern line can be split")),
        (take(0, RED, 6), ("azul.lines.capacity", "pattern lines are 1-5")),
        (take(0, RED, -1), ("azul.lines.capacity", "pattern lines are 1-5")),
        ("take F1 red line 2", ("azul.lines.same-colour", "line 2 holds blue")),
        ("take F1 red line 4 x1", ("azul.lines.to-floor", "every taken tile that fits goes on the line "
                                                         "(azul.lines.voluntary-split=all-or-floor)")),
        ("take F1 red line 1", ("azul.lines.capacity", "line 1 is full: take to the floor instead "
                                                       "(azul.lines.full-line-choice=refused)")),
        ("take F2 black line 3", ("azul.lines.wall-has-colour", "wall row 3 already holds black")),
        ("wall r1 c1", ("azul.wall.move-rightmost", "on the coloured wall every tile's space is printed: "
                                                    "there is no choice")),
    ]
    for action, why in expected:
        assert refused(g, action) == why, action
    for ok in ("take F1 red line 3", "take F1 blue line 2", "take C yellow line 5", "take F2 black line 4",
               "take F1 red floor"):
        assert g.why_illegal(parse_action(ok)) is None, ok


@pytest.mark.clause("azul.lines.to-floor")
@pytest.mark.parametrize(("text", "why"), [
    ("take F1 red line 4 x2", "x2 must be 1 to 1 (below the 2 that fit)"),
    ("take C yellow line 4 x2", "x2 must be 1 to 1 (below the 2 that fit)"),
    ("take F1 red line 3 x1", "x1 must be 1 to 0 (below the 1 that fit)"),      # line 3 holds 2 red of 3
])
def test_a_split_must_leave_the_line_short(text: str, why: str) -> None:
    g = offer_position(**{"azul.lines.voluntary-split": "voluntary-split"})
    b = g.state.boards[0]
    set_line(b, 3, RED, 2)
    assert refused(g, text) == ("azul.lines.to-floor", why)
    assert g.why_illegal(parse_action("take F1 red line 5 x1")) is None


@pytest.mark.clause("azul.lines.wall-has-colour")
def test_gray_refusals_name_clause_and_reason() -> None:
    g = bare(wall="gray", interpretations={"azul.gray.unplaceable-line": "refused"})
    s = g.state
    b = s.boards[0]
    b.wall[1 * ROWS + 4] = RED                                      # row 2 holds red, column 5 too
    b.wall[2 * ROWS:2 * ROWS + 4] = [BLUE, YELLOW, BLACK, TURQUOISE]   # row 3: only c5 free
    s.factories[0][RED] = 2
    s.factories[0][BLUE] = 2
    settle(g)
    assert refused(g, "take F1 red line 2") == ("azul.lines.wall-has-colour", "wall row 2 already holds red")
    assert refused(g, "take F1 red line 3") == ("azul.lines.wall-has-colour", "no space of wall row 3 can take red "
                                                "(azul.gray.unplaceable-line=refused)")
    assert refused(g, "take F1 blue line 3") == ("azul.lines.wall-has-colour", "wall row 3 already holds blue")
    assert g.why_illegal(parse_action("take F1 red line 4")) is None


def gray_tiling() -> Game:
    """Gray wall: P1's complete line 1 (blue) waits for a column; column 3 holds blue, c2 is taken."""
    g = bare(wall="gray", first=1)
    s = g.state
    b = s.boards[0]
    set_line(b, 1, BLUE, 1)
    b.wall[1] = RED                                                 # r1 c2
    b.wall[3 * ROWS + 2] = BLUE                                     # r4 c3
    settle(g)
    end_offer(g, colour=BLACK, line=5)
    assert s.phase == "tiling" and s.tiling == (0, 0)
    return g


@pytest.mark.clause("azul.gray.free-placement", "azul.gray.column-unique", "azul.wall.top-to-bottom")
def test_wall_refusals_name_clause_and_reason() -> None:
    g = gray_tiling()
    expected: list[tuple[Action | str, tuple[str, str]]] = [
        ("take F1 red line 1", ("azul.gray.free-placement", "a wall space for row 1 must be chosen first")),
        ("wall r2 c1", ("azul.wall.top-to-bottom", "the line being tiled is row 1")),
        (wall(0, 5), ("azul.gray.free-placement", "wall columns are 1-5")),
        (wall(0, -1), ("azul.gray.free-placement", "wall columns are 1-5")),
        ("wall r1 c2", ("azul.gray.free-placement", "wall space r1 c2 is taken")),
        ("wall r1 c3", ("azul.gray.column-unique", "column 3 already holds blue")),
    ]
    for action, why in expected:
        assert refused(g, action) == why, action
    assert [str(a) for a in g.legal_actions()] == ["wall r1 c1", "wall r1 c4", "wall r1 c5"]
    play(g, "wall r1 c5")
    assert g.state.phase == "offer"
    assert refused(g, "wall r1 c1") == ("azul.gray.free-placement", "no wall placement is being asked")


@pytest.mark.clause("azul.gray.column-unique", "azul.gray.row-unique")
def test_only_the_placed_rows_column_and_row_are_checked() -> None:
    """A colour elsewhere on the wall (another row, another column) does not block a space."""
    g = bare(wall="gray", first=1)
    s = g.state
    b = s.boards[0]
    set_line(b, 2, BLUE, 2)
    b.wall[1] = BLUE                                                # r1 c2: row 1, column 2
    b.wall[4 * ROWS + 3] = BLUE                                     # r5 c4
    settle(g)
    end_offer(g, colour=BLACK, line=5)
    assert s.tiling == (0, 1)
    assert [str(a) for a in g.legal_actions()] == ["wall r2 c1", "wall r2 c3", "wall r2 c5"]
    for col in (0, 2, 4):
        assert g.why_illegal(wall(1, col)) is None
    assert refused(g, wall(1, 3)) == ("azul.gray.column-unique", "column 4 already holds blue")
    assert refused(g, wall(1, 1)) == ("azul.gray.column-unique", "column 2 already holds blue")


@pytest.mark.clause("azul.end.trigger", "azul.prep.partial-fill")
def test_nobody_can_act_after_the_end_or_in_a_stall() -> None:
    g = bare()
    printed(g.state.boards[0], [(0, c) for c in range(ROWS)])
    settle(g)
    end_offer(g)
    assert g.is_over
    assert refused(g, "take F1 red line 1") == ("azul.end.trigger", "the game is over")
    g = bare(players=3, interpretations={"azul.prep.empty-round": "stall"})
    s = g.state
    s.bag, s.lid = [0] * 5, [0] * 5
    s.factories[0][RED] = 1
    play(g, "take F1 red line 5")
    assert g.is_stalled
    assert refused(g, "take F1 red line 1") == ("azul.prep.partial-fill",
                                                "no tiles can come out this round: nobody can act (stalled)")
    # nobody can act, yet tiles wait in the bag or in the box lid alone: the game is dead, not empty
    dead = ("azul.end.trigger", "no tile can ever reach a wall again: nobody can act (stalled)")
    s.bag = [1, 0, 0, 0, 0]
    assert refused(g, "take F1 red line 1") == dead
    s.bag, s.lid = [0] * 5, [0, 0, 1, 0, 0]
    assert refused(g, "take F1 red line 1") == dead

