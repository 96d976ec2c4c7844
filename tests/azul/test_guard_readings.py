"""Guarding tests for the survivors of the classic mutation run on the readings added on 2026-12-01
(azul.prep.fill-order, azul.end.bonus-order, azul.lines.floor-choice): the clause record must name the
reading in force exactly where the reading decides something, and a refusal must point at a line the
player could have used instead.
"""

from __future__ import annotations

import pytest

from model.azul import IMPLEMENTED, IllegalAction, parse_action
from tests.azul.guard import Record, record
from tests.azul.helpers import BLUE, RED, bare, end_offer, set_line, settle


def readings(fired: Record, interp: str) -> list[tuple[str, str]]:
    return [a for a in fired.alternatives if a[0] == interp]


@pytest.mark.clause("azul.prep.partial-fill")
@pytest.mark.parametrize("alt", IMPLEMENTED["azul.prep.fill-order"])
def test_a_short_refill_records_the_fill_order_in_force_and_an_empty_one_records_none(alt: str) -> None:
    g = bare(interpretations={"azul.prep.fill-order": alt})
    s = g.state
    s.bag, s.lid = [6, 0, 0, 0, 0], [0] * 5          # 5 tiles for 5 displays: the order spreads them
    with record() as fired:
        end_offer(g, colour=BLUE)
    assert sum(map(sum, s.factories)) == 5 and s.round == 2
    assert readings(fired, "azul.prep.fill-order") == [("azul.prep.fill-order", alt)]
    g = bare(players=3, interpretations={"azul.prep.fill-order": alt})
    s = g.state
    s.bag, s.lid = [1, 0, 0, 0, 0], [0] * 5          # the offer's last tile was the last one: nothing to deal
    with record() as fired:
        end_offer(g, colour=BLUE)
    assert not s.tiles_on_offer() and s.round == 2
    assert readings(fired, "azul.prep.fill-order") == []


@pytest.mark.clause("azul.prep.partial-fill")
@pytest.mark.parametrize("dealt, decides", [(1, False), (2, True)])
def test_a_short_refill_records_the_fill_order_only_when_more_than_one_tile_is_dealt(dealt: int,
                                                                                  decides: bool) -> None:
    """One tile goes on display 1 whichever the order (the two readings give the same displays), so
    the order decided nothing; with two, display by display puts both on display 1, dealing in turn
    one on each of the first two."""
    displays = []
    for alt in IMPLEMENTED["azul.prep.fill-order"]:
        g = bare(interpretations={"azul.prep.fill-order": alt})
        s = g.state
        s.bag, s.lid = [dealt + 1, 0, 0, 0, 0], [0] * 5     # the offer's last tile takes one: `dealt` left
        with record() as fired:
            end_offer(g, colour=BLUE)
        assert sum(map(sum, s.factories)) == dealt and s.round == 2
        assert readings(fired, "azul.prep.fill-order") == ([("azul.prep.fill-order", alt)] if decides else [])
        displays.append([list(f) for f in s.factories])
    assert (displays[0] != displays[1]) == decides


@pytest.mark.clause("azul.end.trigger")
@pytest.mark.parametrize("alt", IMPLEMENTED["azul.end.bonus-order"])
@pytest.mark.parametrize("score", [5, 30])
def test_the_last_round_records_the_bonus_order_only_when_the_floor_swallows_part_of_a_penalty(
        alt: str, score: int) -> None:
    g = bare(interpretations={"azul.end.bonus-order": alt})
    b = g.state.boards[0]
    b.wall[0:5] = [0, 1, 2, 3, 4]                   # row 1 complete: the game ends after this round (+2)
    b.floor = [RED] * 7                             # -14: more than 5 points, less than 30
    b.score = score
    settle(g)
    with record() as fired:
        end_offer(g)
    assert g.is_over
    decides = score < 14
    assert readings(fired, "azul.end.bonus-order") == ([("azul.end.bonus-order", alt)] if decides else [])


@pytest.mark.clause("azul.lines.to-floor")
def test_a_refused_floor_take_names_the_first_line_that_could_take_the_colour() -> None:
    g = bare(interpretations={"azul.lines.floor-choice": "only-if-no-line"})
    s = g.state
    b = s.boards[0]
    set_line(b, 1, BLUE, 1)                         # line 1 holds blue; lines 2-5 can take red
    s.factories[0][RED] = 3
    settle(g)
    with pytest.raises(IllegalAction) as exc:
        g.apply(parse_action("take F1 red floor"))
    assert exc.value.clause == "azul.lines.to-floor"
    assert "line 2 can take red" in str(exc.value)
    assert g.why_illegal(parse_action("take F1 red line 1")) is not None
    assert g.why_illegal(parse_action("take F1 red line 2")) is None
