"""What a classic listing records while recording, with each board's destinations kept between
listings (model.azul.generation._record_listing): a full pattern line records its full-line-choice
alternative and nothing else, every other line asks the gray wall's placement rules for each colour
offered, and under azul.lines.floor-choice=only-if-no-line a colour a line can take records that
alternative. Coverage counts these hits, so a kept decision that records the wrong thing would
misreport how often a rule fires."""

from __future__ import annotations

from typing import Any

import pytest

from model.azul import generation
from model.azul.game import Game
from model.clauses import recording
from tests.azul.helpers import BLUE, bare, set_line, settle

FULL_LINE = 2                                       # 1-based: holds 2 blue tiles, full


def _gray_listing(g: Game, monkeypatch: pytest.MonkeyPatch) -> tuple[list[int], Any]:
    """The pattern lines (1-based) whose placement the listing asked the gray wall about, and the hits."""
    asked: list[int] = []
    real = generation.allowed_columns

    def counting(wall: Any, row: int, colour: int, gray: bool) -> Any:
        asked.append(row + 1)
        return real(wall, row, colour, gray)

    monkeypatch.setattr(generation, "allowed_columns", counting)
    g.forget_offer()
    with recording() as rec:
        g.legal_actions()
        hits = (dict(rec.clauses), dict(rec.alternatives))
    return asked, hits


def _offer_blue(g: Game) -> None:
    g.state.factories[0][BLUE] = 2
    settle(g)


@pytest.mark.clause("azul.lines.capacity")
def test_a_full_line_records_its_alternative_and_the_other_lines_ask_the_wall(monkeypatch: pytest.MonkeyPatch) -> None:
    g = bare(wall="gray")
    set_line(g.state.boards[0], FULL_LINE, BLUE, FULL_LINE)
    _offer_blue(g)
    asked, (_, alternatives) = _gray_listing(g, monkeypatch)
    assert FULL_LINE not in asked, "a full line is decided by the full-line choice, not by the wall"
    assert sorted(set(asked)) == [1, 3, 4, 5], f"every other line asks the wall for blue: {asked}"
    assert alternatives.get(("azul.lines.full-line-choice", "refused")) == 1


@pytest.mark.clause("azul.lines.capacity", "azul.lines.wall-has-colour")
def test_a_line_emptied_after_a_listing_is_no_longer_full(monkeypatch: pytest.MonkeyPatch) -> None:
    g = bare(wall="gray")
    board = g.state.boards[0]
    set_line(board, FULL_LINE, BLUE, FULL_LINE)
    _offer_blue(g)
    _gray_listing(g, monkeypatch)                  # the kept decision: line 2 full
    set_line(board, FULL_LINE, BLUE, 0)            # tiled: the line is empty again
    settle(g)
    asked, (_, alternatives) = _gray_listing(g, monkeypatch)
    assert FULL_LINE in asked, "an emptied line asks the wall again"
    assert ("azul.lines.full-line-choice", "refused") not in alternatives


@pytest.mark.clause("azul.lines.to-floor")
def test_only_if_no_line_is_recorded_for_a_colour_a_line_can_take() -> None:
    g = bare(interpretations={"azul.lines.floor-choice": "only-if-no-line"})
    _offer_blue(g)
    g.forget_offer()
    with recording() as rec:
        g.legal_actions()
        got = rec.alternatives.get(("azul.lines.floor-choice", "only-if-no-line"))
    assert got == 1, "blue, which every empty line can take, closes the floor line once"
    for line in range(1, 6):                       # now no line can take blue
        set_line(g.state.boards[0], line, BLUE + 1, 1)
    settle(g)
    g.forget_offer()
    with recording() as rec:
        g.legal_actions()
        assert ("azul.lines.floor-choice", "only-if-no-line") not in rec.alternatives
