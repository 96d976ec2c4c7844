"""Guarding tests for classic Azul's event log (issue 12): the whole list of events an action gives, in
order, as the CLI and the scenario files show them (player, kind, points, detail and the clause that
names it). Each expected line was worked out by hand from the position and the rules cited.
"""

from __future__ import annotations

import pytest

from model.azul import parse_action
from model.azul.colours import MARKER, ROWS
from tests.azul.helpers import BLACK, BLUE, RED, TURQUOISE, YELLOW, bare, play, printed, set_line


def log(g, *actions: str) -> list[str]:  # type: ignore[no-untyped-def]
    return [str(e) for e in play(g, *actions)]


@pytest.mark.clause("azul.offer.end", "azul.floor.penalties", "azul.prep.bag-from-lid", "azul.prep.partial-fill",
                    "azul.offer.marker-to-centre", "azul.score.immediate", "azul.floor.marker-kept")
def test_a_round_end_with_a_short_bag_and_an_empty_lid() -> None:
    g = bare(first=1)
    s = g.state
    b = s.boards[0]
    set_line(b, 2, RED, 2)                       # complete: red to r2 c4, 1 red to the lid
    set_line(b, 4, BLUE, 1)                      # stays
    b.floor = [YELLOW, MARKER]                   # 1 + 1; the yellow to the lid
    s.marker = 0
    b.score = 1
    s.bag, s.lid = [0, 0, 0, 0, 2], [0] * 5
    s.factories[0][BLACK] = 1
    assert log(g, "take F1 black line 5") == [
        "P2 take: 1 black (take F1 black line 5) [azul.offer.actions]",
        "phase: factory offer of round 1 ends [azul.offer.end]",
        "P1 score +1: red to r2 c4 [azul.score.immediate]",
        "P1 penalty -2: 2 on the floor [azul.floor.penalties]",
        "bag-from-lid: 2 tiles back in the bag [azul.prep.bag-from-lid]",     # the red and the yellow
        "partial-fill: bag and lid empty: factories from F2 on partly filled [azul.prep.partial-fill]",
        "P1 phase: round 2: factory offer [azul.offer.marker-to-centre]",
    ]
    assert [sum(f) for f in s.factories] == [4, 0, 0, 0, 0] and s.bag == [0] * 5 and s.lid == [0] * 5
    assert b.score == 0 and s.starter == 0


@pytest.mark.clause("azul.end.bonus-row", "azul.end.bonus-column", "azul.end.bonus-colour", "azul.end.trigger",
                    "azul.wall.move-rightmost")
def test_the_last_round_logs_its_placements_then_the_bonuses() -> None:
    g = bare(first=1, players=3)
    s = g.state
    b = s.boards[0]
    printed(b, [(0, c) for c in range(1, ROWS)] + [(r, 0) for r in range(1, ROWS)])
    set_line(b, 1, BLUE, 1)                      # r1 c1 completes row 1 and column 1: 5 + 5 points
    c = s.boards[2]
    printed(c, [(r, (r + RED) % ROWS) for r in range(1, ROWS)])
    set_line(c, 1, RED, 1)                       # r1 c3 completes red; the other reds are diagonal: 1 point
    s.factories[0][BLACK] = 1
    s.bag = [20] * 5
    assert log(g, "take F1 black line 5") == [
        "P2 take: 1 black (take F1 black line 5) [azul.offer.actions]",
        "phase: factory offer of round 1 ends [azul.offer.end]",
        "P1 score +10: blue to r1 c1 [azul.score.immediate]",
        "P3 score +1: red to r1 c3 [azul.score.immediate]",
        "P1 bonus +2: 1 x 2 [azul.end.bonus-row]",
        "P1 bonus +7: 1 x 7 [azul.end.bonus-column]",
        "P3 bonus +10: 1 x 10 [azul.end.bonus-colour]",
        "phase: game over after round 1 [azul.end.trigger]",
    ]
    assert [x.score for x in s.boards] == [19, 0, 11]


@pytest.mark.clause("azul.wall.no-space", "azul.lines.to-floor")
def test_a_gray_line_without_a_space_is_logged_then_scored_on_the_floor() -> None:
    g = bare(wall="gray", first=1)
    s = g.state
    b = s.boards[0]
    b.wall[2 * ROWS:2 * ROWS + 4] = [BLUE, YELLOW, BLACK, TURQUOISE]
    b.wall[4] = RED                              # row 3's only space, c5, is in red's column
    set_line(b, 3, RED, 3)
    b.score = 10
    s.factories[0][BLACK] = 1
    s.bag = [20] * 5
    events = log(g, "take F1 black line 5")
    assert events[2:4] == [
        "P1 no-space: line 3 (red) has no wall space: to the floor [azul.wall.no-space]",
        "P1 penalty -4: 3 on the floor [azul.floor.penalties]",
    ]
    assert b.score == 6 and b.line_count[2] == 0


@pytest.mark.clause("azul.prep.partial-fill")
@pytest.mark.parametrize(("alt", "last"), [
    ("stall", ["stall: round 2 has no tiles to offer [azul.prep.partial-fill]"]),
    ("end-game", ["empty-round: round 2 has no tiles: the game ends [azul.prep.partial-fill]",
                  "phase: game over after round 2 [azul.end.trigger]"]),
])
def test_an_empty_round_is_logged(alt: str, last: list[str]) -> None:
    g = bare(players=3, interpretations={"azul.prep.empty-round": alt})
    s = g.state
    s.bag, s.lid = [0] * 5, [0] * 5
    s.factories[0][RED] = 1
    events = log(g, "take F1 red line 5")
    assert events == ["P1 take: 1 red (take F1 red line 5) [azul.offer.actions]",
                      "phase: factory offer of round 1 ends [azul.offer.end]",
                      "partial-fill: bag and lid empty: factories from F1 on partly filled [azul.prep.partial-fill]",
                      *last]


@pytest.mark.clause("azul.end.trigger")
@pytest.mark.parametrize(("alt", "last"), [
    ("stall", ["stall: after round 1 no tile can ever reach a wall: stalled [azul.end.trigger]"]),
    ("end-game", ["dead-game: after round 1 no tile can ever reach a wall: the game ends [azul.end.trigger]",
                  "phase: game over after round 1 [azul.end.trigger]"]),
])
def test_a_dead_game_is_logged(alt: str, last: list[str]) -> None:
    """Only black tiles remain free and every wall row already holds black."""
    g = bare(interpretations={"azul.end.dead-game": alt})
    s = g.state
    for board in s.boards:
        printed(board, [(r, (r + BLACK) % ROWS) for r in range(ROWS)])
    s.bag, s.lid = [0, 0, 0, 5, 0], [0] * 5
    s.factories[0][BLACK] = 1
    s.boards[0].score = 3
    events = log(g, "take F1 black floor")
    assert events[:2] == ["P1 take: 1 black (take F1 black floor) [azul.offer.actions]",
                          "phase: factory offer of round 1 ends [azul.offer.end]"]
    bonuses = ["P1 bonus +10: 1 x 10 [azul.end.bonus-colour]", "P2 bonus +10: 1 x 10 [azul.end.bonus-colour]"]
    assert events[2:] == ["P1 penalty -1: 1 on the floor [azul.floor.penalties]",
                          *(last if alt == "stall" else [last[0], *bonuses, last[1]])]
    assert s.lid == [0, 0, 0, 1, 0] and s.bag == [0, 0, 0, 5, 0]
    why = ("no tile can ever reach a wall again: nobody can act (stalled)" if alt == "stall"
           else "the game is over")
    assert g.why_illegal(parse_action("take F1 black floor")) == ("azul.end.trigger", why)


@pytest.mark.clause("azul.wall.complete-only", "azul.gray.free-placement")
def test_two_allowed_spaces_are_a_choice_one_is_not() -> None:
    g = bare(wall="gray", first=1)
    s = g.state
    b = s.boards[0]
    b.wall[ROWS:ROWS + 3] = [RED, YELLOW, BLACK]          # row 2: c4 and c5 free
    set_line(b, 2, BLUE, 2)
    c = s.boards[1]
    c.wall[0:4] = [RED, YELLOW, BLACK, TURQUOISE]         # P2's row 1: only c5 free
    s.factories[0][BLUE] = 1
    s.bag = [20] * 5
    events = log(g, "take F1 blue line 1")                # P2 completes its line 1 with this
    assert s.phase == "tiling" and s.tiling == (0, 1) and g.current_player == 0
    assert [str(a) for a in g.legal_actions()] == ["wall r2 c4", "wall r2 c5"]
    assert not [x for x in events if " score " in x]
    events = log(g, "wall r2 c5")
    assert [x for x in events if "score" in x] == ["P1 score +1: blue to r2 c5 [azul.score.immediate]",
                                                   "P2 score +5: blue to r1 c5 [azul.score.immediate]"]
