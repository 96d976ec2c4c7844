"""Guarding tests for classic Azul's round end, preparation, game end and winner (issue 12).

Hand-built positions played through the public API; assertions on the position, the events, the
outcome and the clause record.
"""

from __future__ import annotations

import pytest

from model.azul import IllegalAction, parse_action
from model.azul.colours import ROWS
from model.azul.state import CENTRE, NOBODY
from tests.azul.guard import record
from tests.azul.helpers import BLUE, RED, bare, end_offer, printed, settle


@pytest.mark.clause("azul.end.trigger")
@pytest.mark.parametrize("row", range(ROWS))
def test_any_complete_row_ends_the_game(row: int) -> None:
    g = bare(first=1)
    b = g.state.boards[0]
    printed(b, [(row, c) for c in range(ROWS)])
    settle(g)
    with record() as fired:
        events = end_offer(g, line=5 if row != 4 else 4)
    assert g.is_over and g.state.to_move == NOBODY and g.current_player == NOBODY
    assert events[-1].kind == "phase" and events[-1].clause == "azul.end.trigger"
    assert fired.clauses["azul.end.trigger"] == 1 and fired.clauses["azul.prep.continue"] == 0
    with pytest.raises(IllegalAction) as exc:
        g.apply(parse_action("take F1 red line 1"))
    assert exc.value.clause == "azul.end.trigger"


@pytest.mark.clause("azul.end.trigger", "azul.prep.continue")
def test_four_spaces_of_every_row_do_not_end_the_game() -> None:
    g = bare(first=1)
    b = g.state.boards[0]
    printed(b, [(r, c) for r in range(ROWS) for c in range(ROWS) if c != r])
    settle(g)
    with record() as fired:
        end_offer(g)
    assert not g.is_over and g.state.round == 2
    assert fired.clauses["azul.end.trigger"] == 0 and fired.clauses["azul.prep.continue"] == 1


@pytest.mark.clause("azul.end.bonus-row", "azul.end.bonus-column", "azul.end.bonus-colour")
def test_bonuses_count_every_complete_row_column_and_colour() -> None:
    g = bare(first=1)
    b = g.state.boards[0]
    cells = {(r, c) for r in (0, 3) for c in range(ROWS)} | {(r, c) for c in (1, 4) for r in range(ROWS)}
    cells |= {(r, (r + RED) % ROWS) for r in range(ROWS)} | {(r, (r + BLUE) % ROWS) for r in range(ROWS)}
    printed(b, cells)
    b.score = 30
    settle(g)
    events = end_offer(g)
    bonuses = {e.clause: e.points for e in events if e.kind == "bonus" and e.player == 0}
    assert bonuses == {"azul.end.bonus-row": 2 * 2, "azul.end.bonus-column": 2 * 7, "azul.end.bonus-colour": 2 * 10}
    assert b.score == 30 + 4 + 14 + 20
    assert not [e for e in events if e.kind == "bonus" and e.player == 1]
    assert g.outcome().winner == 0 and g.outcome().clause == "azul.end.winner"


@pytest.mark.clause("azul.end.tie-break", "azul.end.shared-win", "azul.end.winner")
def test_the_tie_break_counts_complete_rows_among_the_leaders_only() -> None:
    g = bare(players=3, first=2)
    s = g.state
    rows = (1, 2, 3)
    scores = (40, 38, 10)          # after +2 per row: 42, 42, 16; P3 has most rows but is not tied
    for b, n, score in zip(s.boards, rows, scores, strict=True):
        printed(b, [(r, c) for r in range(n) for c in range(ROWS)])
        b.score = score
    settle(g)
    end_offer(g)
    o = g.outcome()
    assert [b.score for b in s.boards] == [42, 42, 16]
    assert o.winners == (1,) and o.winner == 1 and o.clause == "azul.end.tie-break"


@pytest.mark.clause("azul.prep.continue", "azul.prep.refill", "azul.offer.marker-to-centre", "azul.floor.marker-kept")
@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_next_round_refills_every_factory_and_the_marker_holder_starts(players: int) -> None:
    g = bare(players=players, first=0)
    s = g.state
    s.centre[RED] = 1
    s.factories[0][BLUE] = 1
    settle(g)
    bag = sum(s.bag)
    g.apply(parse_action("take F1 blue floor"))
    g.apply(parse_action("take C red floor"))          # P2 takes the marker, the offer ends
    assert s.round == 2 and s.marker == CENTRE
    assert s.starter == 1 and s.to_move == 1 and g.current_player == 1
    assert all(sum(f) == 4 for f in s.factories) and sum(s.bag) == bag - 4 * len(s.factories)
    assert s.centre == [0] * 5 and all(b.floor == [] for b in s.boards)
