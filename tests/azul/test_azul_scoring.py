"""The guide's worked rules for wall-tiling and scoring, on hand-built positions (classic Azul)."""

from __future__ import annotations

import pytest

from model.azul.colours import MARKER, ROWS
from tests.azul.helpers import BLACK, BLUE, RED, YELLOW, bare, end_offer, play, printed, set_line, settle

SINGLE_AXIS = "azul.score.single-axis"


def tile_line_one(neighbours: list[tuple[int, int]], alt: str = "skip-single") -> int:
    """Points for a blue tile moved from a complete line 1 to r1 c1 beside `neighbours`."""
    g = bare(interpretations={SINGLE_AXIS: alt})
    b = g.state.boards[0]
    printed(b, neighbours)
    set_line(b, 1, BLUE, 1)
    settle(g)
    before = b.score
    end_offer(g)
    assert b.wall[0] == BLUE and b.line_count[0] == 0
    return b.score - before


@pytest.mark.clause("azul.score.isolated")
@pytest.mark.parametrize("alt", ["skip-single", "count-both"])
def test_isolated_tile_scores_one(alt: str) -> None:
    assert tile_line_one([], alt) == 1


@pytest.mark.clause("azul.score.row-run", "azul.score.column-run")
def test_row_run_only() -> None:
    assert tile_line_one([(0, 1), (0, 2)]) == 3
    assert tile_line_one([(0, 1), (0, 2), (0, 4)]) == 3          # the gap ends the run
    assert tile_line_one([(0, 1), (0, 2)], "count-both") == 4    # the lone column counts 1


@pytest.mark.clause("azul.score.column-run")
def test_column_run_only() -> None:
    assert tile_line_one([(1, 0), (2, 0)]) == 3
    assert tile_line_one([(1, 0), (2, 0)], "count-both") == 4


@pytest.mark.clause("azul.score.row-run", "azul.score.column-run")
@pytest.mark.parametrize("alt", ["skip-single", "count-both"])
def test_row_and_column_both_count_the_new_tile(alt: str) -> None:
    assert tile_line_one([(0, 1), (1, 0), (2, 0)], alt) == 2 + 3


@pytest.mark.clause(
    "azul.wall.move-rightmost", "azul.wall.discard-rest", "azul.wall.incomplete-stay",
    "azul.wall.top-to-bottom"
)
def test_complete_lines_move_one_tile_rest_to_lid_incomplete_stay() -> None:
    g = bare()
    b = g.state.boards[0]
    set_line(b, 3, RED, 3)
    set_line(b, 4, YELLOW, 2)
    settle(g)
    lid = g.state.lid[RED]
    end_offer(g)
    assert b.wall[2 * ROWS + 4] == RED                       # red's printed space in row 3
    assert g.state.lid[RED] == lid + 2
    assert (b.line_colour[3], b.line_count[3]) == (YELLOW, 2)   # stays for the next round
    assert b.score == 1


@pytest.mark.clause("azul.floor.penalties", "azul.floor.discard")
@pytest.mark.parametrize(("n", "total"), [(1, 1), (2, 2), (3, 4), (4, 6), (5, 8), (6, 11), (7, 14)])
def test_floor_penalties(n: int, total: int) -> None:
    g = bare()
    b = g.state.boards[0]
    b.score = 20
    b.floor = [RED] * n
    settle(g)
    lid = g.state.lid[RED]
    end_offer(g)
    assert b.score == 20 - total
    assert b.floor == [] and g.state.lid[RED] == lid + n


@pytest.mark.clause("azul.floor.overflow-lid", "azul.lines.to-floor", "azul.floor.capacity")
def test_excess_to_floor_and_full_floor_to_lid() -> None:
    g = bare()
    s = g.state
    b = s.boards[0]
    b.floor = [BLUE] * 5
    set_line(b, 2, RED, 1)
    s.factories[0][RED] = 4
    s.factories[1][BLACK] = 1
    settle(g)
    lid = s.lid[RED]
    play(g, "take F1 red line 2")                  # 1 fits, 3 excess: 2 to the floor, 1 to the lid
    assert b.line_count[1] == 2
    assert b.floor == [BLUE] * 5 + [RED] * 2
    assert s.lid[RED] == lid + 1


@pytest.mark.clause("azul.score.floor")
def test_score_never_below_zero() -> None:
    g = bare()
    b = g.state.boards[0]
    b.score = 3
    b.floor = [RED] * 7
    settle(g)
    end_offer(g)
    assert b.score == 0


@pytest.mark.clause("azul.end.bonus-row", "azul.end.bonus-column", "azul.end.bonus-colour", "azul.end.trigger")
def test_end_bonuses() -> None:
    g = bare()
    b = g.state.boards[0]
    cells = {(0, c) for c in range(5)} | {(r, 0) for r in range(5)} | {(r, r) for r in range(5)}
    printed(b, cells)
    b.score = 10
    settle(g)
    events = end_offer(g)
    assert g.is_over
    assert b.score == 10 + 2 + 7 + 10
    assert {e.clause for e in events if e.kind == "bonus" and e.player == 0} == {
        "azul.end.bonus-row", "azul.end.bonus-column", "azul.end.bonus-colour"}
    assert g.state.boards[1].score == 0


@pytest.mark.clause("azul.end.trigger")
def test_game_ends_only_after_the_round_is_tiled() -> None:
    g = bare()
    b = g.state.boards[0]
    printed(b, [(0, c) for c in range(1, 5)])
    set_line(b, 1, BLUE, 1)                         # completes row 1 at the next tiling
    g.state.factories[0][RED] = 2
    g.state.factories[1][BLACK] = 1
    settle(g)
    play(g, "take F1 red line 2")
    assert not g.is_over                            # the round is played out
    play(g, "take F2 black line 3")
    assert g.is_over and b.row_full(0)
    assert g.legal_actions() == []


@pytest.mark.clause("azul.end.winner", "azul.end.tie-break", "azul.end.shared-win")
def test_winner_tie_break_and_shared_win() -> None:
    def finish(scores: list[int], rows: list[int]) -> tuple[tuple[int, ...], str]:
        """Scores before the end bonuses (+2 per complete row); `rows` complete rows each."""
        g = bare(players=len(scores))
        for b, score, n in zip(g.state.boards, scores, rows, strict=True):
            b.score = score
            printed(b, [(r, c) for r in range(n) for c in range(5)])
        g.state.boards[0].wall[0:5] = [0, 1, 2, 3, 4]    # someone has a complete row: the game ends
        settle(g)
        end_offer(g, line=5)
        o = g.outcome()
        assert o is not None and abs(sum(g.returns())) < 1e-9
        return o.winners, o.clause
    assert finish([50, 40], [1, 0]) == ((0,), "azul.end.winner")
    assert finish([42, 40, 10], [1, 2, 0]) == ((1,), "azul.end.tie-break")
    assert finish([40, 40, 40], [1, 1, 0]) == ((0, 1), "azul.end.shared-win")


def test_returns_of_a_shared_win() -> None:
    g = bare(players=4)
    for b in g.state.boards:
        b.score = 30
        printed(b, [(0, c) for c in range(5)])
    settle(g)
    end_offer(g, line=5)
    o = g.outcome()
    assert o is not None and o.winner is None and o.winners == (0, 1, 2, 3)
    assert g.returns() == (0.0, 0.0, 0.0, 0.0)


@pytest.mark.clause("azul.offer.first-from-centre", "azul.floor.marker-kept", "azul.offer.marker-to-centre")
def test_marker_taken_first_from_centre_costs_and_starts_next_round() -> None:
    g = bare(players=3, first=0)
    s = g.state
    s.factories[0][:] = [2, 2, 0, 0, 0]
    s.factories[1][:] = [0, 0, 0, 1, 0]
    settle(g)
    play(g, "take F1 blue line 2")                   # yellow to the centre
    assert s.marker == -1
    play(g, "take C yellow line 3")                  # P2 takes first from the centre
    assert s.marker == 1 and s.boards[1].floor == [MARKER]
    s.boards[1].score = 5
    play(g, "take F2 black line 1")                  # P3; the offer ends
    assert s.round == 2
    assert s.boards[1].score == 5 - 1                # the marker cost 1
    assert s.to_move == 1 and s.starter == 1         # its holder starts round 2
    assert s.marker == -1 and all(MARKER not in b.floor for b in s.boards)
