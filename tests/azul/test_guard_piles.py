"""Guarding tests for the classic survivors of the game-aware wrong-pile mutants and the gray-wall
generator (issue 12): tiles that leave play go to the box lid, never into the bag, and the legal-move
generator asks the gray wall (not the printed one) whether a line's colour still has a space.
"""

from __future__ import annotations

import pytest

from model.azul import parse_action, tiling
from model.azul.colours import ROWS
from model.events import Event
from tests.azul.helpers import BLACK, BLUE, RED, TURQUOISE, YELLOW, bare, play, set_line, settle


@pytest.mark.clause("azul.offer.actions", "azul.floor.overflow-lid")
def test_a_takes_overflow_past_a_full_floor_goes_to_the_lid_not_the_bag() -> None:
    g = bare()
    s = g.state
    b = s.boards[0]
    b.floor = [BLUE] * 6
    s.factories[0][RED] = 4
    s.factories[1][BLACK] = 1
    settle(g)
    bag, lid = s.bag[:], s.lid[:]
    play(g, "take F1 red line 1")                   # 1 on the line, 1 on the last floor space, 2 to the lid
    assert b.line_count[0] == 1 and b.floor == [BLUE] * 6 + [RED]
    assert s.lid[RED] == lid[RED] + 2 and s.bag == bag


@pytest.mark.clause("azul.wall.complete-only", "azul.wall.no-space", "azul.floor.overflow-lid")
def test_a_gray_line_without_a_space_overflows_a_full_floor_into_the_lid_not_the_bag() -> None:
    g = bare(wall="gray")
    s = g.state
    b = s.boards[0]
    b.wall[3] = RED                                   # column 4 holds red
    b.wall[ROWS:ROWS + 5] = [BLUE, YELLOW, BLACK, -1, TURQUOISE]   # row 2: only c4 free
    set_line(b, 2, RED, 2)
    b.floor = [BLUE] * 6
    settle(g)
    bag, lid = s.bag[:], s.lid[:]
    events: list[Event] = []
    tiling.begin(s)
    assert tiling.advance(s, g.rules, events)
    assert b.floor == [BLUE] * 6 + [RED] and b.line_count[1] == 0
    assert s.lid[RED] == lid[RED] + 1 and s.bag == bag


@pytest.mark.clause("azul.lines.wall-has-colour", "azul.offer.actions")
@pytest.mark.parametrize("alt", ["allowed", "refused"])
def test_the_generator_asks_the_gray_wall_whether_a_colour_has_a_space(alt: str) -> None:
    """Gray row 2 has only c4 free and column 4 holds red: red has no space there, though c4 is red's
    printed space on the coloured side."""
    g = bare(wall="gray", interpretations={"azul.gray.unplaceable-line": alt})
    s = g.state
    b = s.boards[0]
    b.wall[3] = RED
    b.wall[ROWS:ROWS + 5] = [BLUE, YELLOW, BLACK, -1, TURQUOISE]
    s.factories[0][RED] = 2
    settle(g)
    offered = {str(a) for a in g.legal_actions()}
    refused = g.why_illegal(parse_action("take F1 red line 2"))
    assert ("take F1 red line 2" in offered) == (refused is None) == (alt == "allowed")


@pytest.mark.clause("azul.component.bag", "azul.prep.bag-from-lid", "azul.prep.refill")
@pytest.mark.parametrize("short", [0, 1, 3, 5])
def test_a_bag_that_runs_out_mid_fill_is_refilled_from_the_lid(short: int) -> None:
    """The bag holds `short` tiles when the next round is filled: those are drawn, then the lid's tiles
    go into the bag and the rest of the displays come from it; every display gets 4, none is lost."""
    g = bare(first=1)
    s = g.state
    settle(g)
    s.factories[0][BLACK] = 1
    s.bag[BLACK] -= 1
    for c in range(5):
        s.lid[c], s.bag[c] = s.bag[c], 0
    for c in range(short):
        s.lid[c] -= 1
        s.bag[c] += 1
    play(g, "take F1 black line 5")
    assert s.round == 2 and all(sum(f) == 4 for f in s.factories)
    assert sum(s.bag) + sum(s.lid) == 100 - 1 - 4 * len(s.factories)
    assert sum(s.lid) == 0
