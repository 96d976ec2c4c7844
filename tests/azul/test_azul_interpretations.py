"""Every alternative of every classic interpretation point runs and makes a difference; the gray
wall's placement rules (hand-built positions)."""

from __future__ import annotations

import pytest

from model.azul import IMPLEMENTED, IllegalAction, parse_action
from model.azul.colours import MARKER, ROWS
from tests.azul.helpers import BLACK, BLUE, RED, TURQUOISE, YELLOW, bare, end_offer, play, set_line, settle


def refusal(g, text: str) -> str:  # type: ignore[no-untyped-def]
    """The clause named when `text` is applied; the state must not change."""
    before = g.state.copy()
    with pytest.raises(IllegalAction) as exc:
        g.apply(parse_action(text))
    assert g.state == before
    assert exc.value.clause in str(exc.value)
    return exc.value.clause


@pytest.mark.clause("azul.offer.first-from-centre", "azul.component.starting-marker")
@pytest.mark.parametrize("alt", IMPLEMENTED["azul.offer.marker-on-full-floor"])
def test_marker_on_a_full_floor(alt: str) -> None:
    g = bare(interpretations={"azul.offer.marker-on-full-floor": alt})
    s = g.state
    b = s.boards[0]
    b.floor = [BLUE] * 7
    b.score = 20
    s.centre[RED] = 1
    s.factories[0][BLACK] = 1
    settle(g)
    lid = s.lid[BLUE]
    play(g, "take C red line 1")
    assert s.marker == 0
    if alt == "displace-to-lid":
        assert b.floor == [BLUE] * 6 + [MARKER] and s.lid[BLUE] == lid + 1
    else:                                           # kept off the floor, or beside it
        assert b.floor == [BLUE] * 7 and s.lid[BLUE] == lid
    play(g, "take F1 black line 5")                 # P2; the round ends
    assert s.starter == 0 and s.to_move == 0 and s.marker == -1
    # +1 for the red tile; 7 covered spaces cost 14; the marker beside the floor 1 more
    assert b.score == 20 + 1 - 14 - (alt == "beside-floor-one-point")


@pytest.mark.clause("azul.prep.refill")
@pytest.mark.parametrize(("alt", "starter"), [("same-starter", 1), ("next-clockwise", 2)])
def test_marker_untaken(alt: str, starter: int) -> None:
    g = bare(players=3, first=1, interpretations={"azul.offer.marker-untaken": alt})
    s = g.state
    s.factories[0][BLUE] = 4                        # one monochrome factory: nothing reaches the centre
    settle(g)
    play(g, "take F1 blue line 4")
    assert s.round == 2 and s.marker == -1
    assert s.starter == starter and s.to_move == starter


@pytest.mark.clause("azul.prep.partial-fill")
@pytest.mark.parametrize("alt", IMPLEMENTED["azul.prep.empty-round"])
def test_empty_round(alt: str) -> None:
    g = bare(players=3, interpretations={"azul.prep.empty-round": alt})
    s = g.state
    s.bag = [0] * 5
    s.lid = [0] * 5
    s.factories[0][RED] = 1
    play(g, "take F1 red line 5")
    assert s.round == 2 and not s.tiles_on_offer()
    assert g.legal_actions() == []
    if alt == "end-game":
        assert g.is_over and not g.is_stalled and g.outcome() is not None
        assert refusal(g, "take F1 red line 1") == "azul.end.trigger"
    else:
        assert g.is_stalled and not g.is_over and g.outcome() is None and g.current_player == -1
        assert refusal(g, "take F1 red line 1") == "azul.prep.partial-fill"


def gray_blocked_row() -> dict[int, int]:
    """Gray wall: row 2 has only c5 free and column 5 already holds red (row 1)."""
    return {4: RED, 5: BLUE, 6: YELLOW, 7: BLACK, 8: TURQUOISE}


@pytest.mark.clause("azul.lines.wall-has-colour", "azul.wall.no-space")
@pytest.mark.parametrize("alt", IMPLEMENTED["azul.gray.unplaceable-line"])
def test_gray_unplaceable_line(alt: str) -> None:
    g = bare(wall="gray", interpretations={"azul.gray.unplaceable-line": alt})
    s = g.state
    b = s.boards[0]
    for cell, colour in gray_blocked_row().items():
        b.wall[cell] = colour
    s.factories[0][RED] = 2
    s.factories[1][BLACK] = 1
    settle(g)
    if alt == "refused":
        assert refusal(g, "take F1 red line 2") == "azul.lines.wall-has-colour"
        assert parse_action("take F1 red line 2") not in g.legal_actions()
        return
    b.score = 10
    play(g, "take F1 red line 2", "take F2 black line 5")
    assert b.wall[9] == -1                           # no space: the whole line went to the floor
    assert b.score == 10 - 2                         # 2 floor tiles


@pytest.mark.clause(
    "azul.gray.free-placement", "azul.gray.column-unique", "azul.gray.row-unique", "azul.wall.top-to-bottom"
)
def test_gray_wall_asks_where_and_keeps_columns_unique() -> None:
    g = bare(wall="gray")
    s = g.state
    b = s.boards[0]
    set_line(b, 1, BLUE, 1)
    set_line(b, 2, BLUE, 2)
    s.factories[0][RED] = 1
    settle(g)
    play(g, "take F1 red line 5")                    # the offer ends; P1's row 1 is asked
    assert g.current_player == 0 and s.phase == "tiling"
    assert [str(a) for a in g.legal_actions()] == [f"wall r1 c{c}" for c in range(1, 6)]
    assert refusal(g, "wall r2 c1") == "azul.wall.top-to-bottom"
    assert refusal(g, "take F1 red line 1") == "azul.gray.free-placement"
    play(g, "wall r1 c3")
    assert b.wall[2] == BLUE and b.score == 1
    assert [str(a) for a in g.legal_actions()] == ["wall r2 c1", "wall r2 c2", "wall r2 c4", "wall r2 c5"]
    assert refusal(g, "wall r2 c3") == "azul.gray.column-unique"
    play(g, "wall r2 c2")                           # next to r1 c3? no: diagonal, isolated
    assert b.wall[ROWS + 1] == BLUE and b.score == 2
    assert s.round == 2 and s.phase == "offer"


@pytest.mark.clause("azul.gray.free-placement")
def test_gray_wall_with_one_space_places_without_asking() -> None:
    g = bare(wall="gray")
    s = g.state
    b = s.boards[0]
    b.wall[0:4] = [RED, YELLOW, BLACK, TURQUOISE]
    set_line(b, 1, BLUE, 1)
    s.factories[0][RED] = 1
    settle(g)
    play(g, "take F1 red line 5")
    assert b.wall[4] == BLUE and b.score == 5 + 2       # the row is complete: game over, +2
    assert g.is_over


@pytest.mark.clause("azul.gray.row-unique", "azul.lines.wall-has-colour", "azul.wall.no-space")
def test_gray_row_already_holding_the_colour_is_refused() -> None:
    g = bare(wall="gray")
    s = g.state
    s.boards[0].wall[3] = RED
    s.factories[0][RED] = 2
    settle(g)
    assert refusal(g, "take F1 red line 1") == "azul.lines.wall-has-colour"
    assert g.why_illegal(parse_action("take F1 red line 2")) is None
    # The row rule where the wall itself is asked, on positions that play cannot reach (the take above is
    # refused): a complete red line 1 finds no space in a row holding red and goes whole to the floor ...
    h = bare(wall="gray", first=1)
    b = h.state.boards[0]
    b.wall[3] = RED
    set_line(b, 1, RED, 1)
    settle(h)
    events = end_offer(h)
    assert [(e.kind, e.player) for e in events if e.clause == "azul.wall.no-space"] == [("no-space", 0)]
    assert b.wall[:ROWS] == [-1, -1, -1, RED, -1] and b.line_count[0] == 0
    # ... and a space chosen in a row that holds the colour is refused naming the row rule.
    k = bare(wall="gray")
    t = k.state
    set_line(t.boards[0], 1, RED, 1)
    t.boards[0].wall[3] = RED
    settle(k)
    t.phase, t.tiling = "tiling", (0, 0)
    assert refusal(k, "wall r1 c1") == "azul.gray.row-unique"


@pytest.mark.clause(
    "azul.lines.wall-has-colour", "azul.lines.same-colour", "azul.lines.capacity", "azul.offer.take-factory",
    "azul.offer.take-centre", "azul.setup.factory-count", "azul.offer.actions"
)
def test_illegal_takes_name_their_clause() -> None:
    g = bare()
    s = g.state
    b = s.boards[0]
    b.wall[0] = BLUE
    set_line(b, 2, RED, 1)
    set_line(b, 3, BLACK, 3)
    s.factories[0][BLUE] = 2
    s.factories[1][YELLOW] = 2
    s.factories[2][BLACK] = 1
    settle(g)
    assert refusal(g, "take F1 blue line 1") == "azul.lines.wall-has-colour"
    assert refusal(g, "take F2 yellow line 2") == "azul.lines.same-colour"
    assert refusal(g, "take F3 black line 3") == "azul.lines.capacity"
    assert refusal(g, "take F2 yellow line 4 x1") == "azul.lines.to-floor"
    assert refusal(g, "take F1 red line 4") == "azul.offer.take-factory"
    assert refusal(g, "take C blue floor") == "azul.offer.take-centre"
    assert refusal(g, "take F6 blue floor") == "azul.setup.factory-count"
    assert refusal(g, "wall r1 c1") == "azul.wall.move-rightmost"
    assert g.why_illegal(parse_action("take F1 blue line 2")) is not None
    assert g.why_illegal(parse_action("take F1 blue floor")) is None


@pytest.mark.clause("azul.prep.bag-from-lid", "azul.prep.partial-fill", "azul.prep.refill")
def test_refill_from_the_lid_then_partly() -> None:
    g = bare()
    s = g.state
    s.bag = [2, 0, 0, 0, 0]
    s.lid = [0, 0, 30, 0, 0]
    events = end_offer(g, colour=BLUE)
    assert [e.kind for e in events].count("bag-from-lid") == 1
    assert all(sum(f) == 4 for f in s.factories) and sum(s.bag) + sum(s.lid) == 2 + 30 - 1 - 20
    g = bare()
    s = g.state
    s.bag = [6, 0, 0, 0, 0]
    s.lid = [0] * 5
    events = end_offer(g, colour=BLUE)
    assert [e.kind for e in events].count("partial-fill") == 1
    assert [sum(f) for f in s.factories] == [4, 1, 0, 0, 0] and s.round == 2


@pytest.mark.clause("azul.prep.partial-fill", "azul.prep.refill")
@pytest.mark.parametrize(("alt", "sizes"), [("display-by-display", [4, 1, 0, 0, 0]),
                                            ("round-robin", [1, 1, 1, 1, 1])])
def test_fill_order(alt: str, sizes: list[int]) -> None:
    g = bare(interpretations={"azul.prep.fill-order": alt})
    s = g.state
    s.bag = [6, 0, 0, 0, 0]                        # 5 left once the offer's last tile is out
    s.lid = [0] * 5
    end_offer(g, colour=BLUE)
    assert [sum(f) for f in s.factories] == sizes and s.round == 2
    g = bare(interpretations={"azul.prep.fill-order": alt})
    g.state.bag = [30, 0, 0, 0, 0]                 # enough for every display: the order changes nothing
    end_offer(g, colour=BLUE)
    assert [sum(f) for f in g.state.factories] == [4] * 5


@pytest.mark.clause("azul.lines.to-floor")
@pytest.mark.parametrize("alt", IMPLEMENTED["azul.lines.floor-choice"])
def test_floor_choice(alt: str) -> None:
    g = bare(interpretations={"azul.lines.floor-choice": alt})
    s = g.state
    b = s.boards[0]
    for line in range(1, 5):                        # lines 2-5 hold blue: only line 1 can take red
        set_line(b, line, BLUE, 1)
    s.factories[0][RED] = 3
    s.factories[1][BLUE] = 1
    settle(g)
    if alt == "only-if-no-line":
        assert refusal(g, "take F1 red floor") == "azul.lines.to-floor"
        assert parse_action("take F2 blue floor") not in g.legal_actions()      # lines 2-5 take blue
        set_line(b, 0, BLUE, 1)                     # now no line can take red
        assert parse_action("take F1 red floor") in g.legal_actions()
        return
    play(g, "take F1 red floor")
    assert b.floor == [RED] * 3


@pytest.mark.clause("azul.end.trigger", "azul.score.floor")
@pytest.mark.parametrize(("alt", "score"), [("floor-then-bonuses", 2),    # 5 - 14 stops at 0, then +2
                                            ("bonuses-then-floor", 0)])   # 5 + 2, then - 14 stops at 0
def test_bonus_order(alt: str, score: int) -> None:
    g = bare(interpretations={"azul.end.bonus-order": alt})
    b = g.state.boards[0]
    b.wall[0:5] = [0, 1, 2, 3, 4]                   # row 1 complete: the game ends after this round
    b.floor = [RED] * 7
    b.score = 5
    settle(g)
    end_offer(g)
    assert g.is_over and b.score == score


@pytest.mark.clause("azul.end.trigger")
@pytest.mark.parametrize(("alt", "score"), [("scored", 10 - 4 + 2), ("skipped", 10 + 2)])
def test_final_floor(alt: str, score: int) -> None:
    g = bare(interpretations={"azul.end.final-floor": alt})
    b = g.state.boards[0]
    b.wall[0:5] = [0, 1, 2, 3, 4]
    b.floor = [RED] * 3
    b.score = 10
    settle(g)
    end_offer(g)
    assert g.is_over and b.score == score


@pytest.mark.clause("azul.floor.marker-kept", "azul.offer.first-from-centre")
@pytest.mark.parametrize(("alt", "at_pick", "at_floor"), [
    ("space-value", 0, 1 + 1 + 2), ("one-point", 0, 1 + 1 + 1), ("one-point-at-pick", 1, 1 + 1)])
def test_marker_cost(alt: str, at_pick: int, at_floor: int) -> None:
    g = bare(interpretations={"azul.floor.marker-cost": alt})
    s = g.state
    b = s.boards[0]
    b.floor = [BLUE, BLUE]                       # the marker will cover the third space (-2)
    b.score = 10
    s.centre[RED] = 1
    s.factories[0][BLACK] = 1
    settle(g)
    play(g, "take C red line 1")
    assert b.floor == [BLUE, BLUE, MARKER] and b.score == 10 - at_pick
    play(g, "take F1 black line 5")
    assert b.score == 10 - at_pick + 1 - at_floor    # +1: the red tile on line 1 was tiled


@pytest.mark.clause("azul.lines.capacity")
@pytest.mark.parametrize("alt", IMPLEMENTED["azul.lines.full-line-choice"])
def test_full_line_choice(alt: str) -> None:
    g = bare(interpretations={"azul.lines.full-line-choice": alt})
    s = g.state
    b = s.boards[0]
    set_line(b, 2, RED, 2)
    s.factories[0][RED] = 3
    s.factories[1][BLACK] = 1
    settle(g)
    if alt == "refused":
        assert refusal(g, "take F1 red line 2") == "azul.lines.capacity"
        return
    assert parse_action("take F1 red line 2") in g.legal_actions()
    play(g, "take F1 red line 2")
    assert b.line_count[1] == 2 and b.floor == [RED] * 3


@pytest.mark.clause("azul.lines.to-floor", "azul.lines.one-line")
@pytest.mark.parametrize("alt", IMPLEMENTED["azul.lines.voluntary-split"])
def test_voluntary_split(alt: str) -> None:
    g = bare(interpretations={"azul.lines.voluntary-split": alt})
    s = g.state
    b = s.boards[0]
    s.factories[0][RED] = 3
    s.factories[1][BLACK] = 1
    settle(g)
    splits = [str(a) for a in g.legal_actions() if str(a).startswith("take F1 red line 4 ")]
    if alt == "all-or-floor":
        assert splits == []
        assert refusal(g, "take F1 red line 4 x1") == "azul.lines.to-floor"
        return
    assert splits == ["take F1 red line 4 x1", "take F1 red line 4 x2"]   # x3 = all of them: plain 'line 4'
    assert refusal(g, "take F1 red line 4 x3") == "azul.lines.to-floor"
    play(g, "take F1 red line 4 x1")
    assert b.line_count[3] == 1 and b.floor == [RED, RED]


@pytest.mark.clause("azul.setup.first-player")
def test_starter_choice() -> None:
    from model.azul import new_game
    assert {new_game(3, seed=k).current_player for k in range(30)} == {0}
    chosen = {new_game(3, seed=k, interpretations={"azul.setup.starter-choice": "by-chance"}).current_player
              for k in range(30)}
    assert chosen == {0, 1, 2}
