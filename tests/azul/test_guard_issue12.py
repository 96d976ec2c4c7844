"""Guarding tests that bring the last classic clauses to guarded (issue 12): the empty round's marker,
placement scoring's runs (bounded by the wall's size), wall-tiling's rule-derived bound (a planted bug
that would loop stops at once with RuleLoopError naming its clause, instead of running into a clock), and the code that
`# rule:` markers give to azul.component.bag, azul.setup.scores, azul.end.shared-win and
azul.wall.incomplete-stay. Hand-built positions; assertions on positions, scores, outcomes, refusals
and the clause record.
"""

from __future__ import annotations

import pytest

from model.azul import new_game, tiling
from model.azul.colours import EMPTY, MARKER, NUM_COLOURS, ROWS, TILES_PER_COLOUR, printed_colour, printed_column
from model.azul.outcome import decide
from model.azul.scoring import _run, placement_points
from model.azul.state import CENTRE, NOBODY, AzulState, Board
from model.errors import RuleLoopError
from tests.azul.guard import record
from tests.azul.helpers import BLACK, BLUE, RED, YELLOW, bare, end_offer, play, printed, set_line, settle

# --- azul.prep.partial-fill: the empty round starts like any round, with the marker in the centre ------------

@pytest.mark.clause("azul.prep.partial-fill", "azul.offer.marker-to-centre", "azul.floor.marker-kept")
@pytest.mark.parametrize("alt", ["stall", "end-game"])
def test_an_empty_round_takes_the_marker_back_to_the_centre(alt: str) -> None:
    """P1 takes the last tile from the centre (and the marker); bag and lid are empty, so the next round
    has nothing to offer: it is still prepared, and preparing a round puts the marker in the centre."""
    g = bare(players=3, interpretations={"azul.prep.empty-round": alt})
    s = g.state
    s.bag, s.lid = [0] * NUM_COLOURS, [0] * NUM_COLOURS
    s.centre[RED] = 1
    play(g, "take C red line 5")
    assert s.round == 2 and not s.tiles_on_offer()
    assert s.starter == 0, "P1 took the marker, so P1 starts the (empty) round"
    assert s.marker == CENTRE
    assert all(MARKER not in b.floor for b in s.boards)
    assert g.is_over == (alt == "end-game") and g.is_stalled == (alt == "stall")


# --- azul.score.immediate: a run lies in one row or column --------------------------------------------------

def _wall(cells: list[tuple[int, int]]) -> list[int]:
    wall = [EMPTY] * (ROWS * ROWS)
    for r, c in cells:
        wall[r * ROWS + c] = printed_colour(r, c)
    return wall


@pytest.mark.clause("azul.score.immediate", "azul.score.row-run", "azul.score.column-run")
@pytest.mark.parametrize(("row", "col"), [(0, 0), (0, 4), (4, 0), (4, 4), (2, 2)])
@pytest.mark.parametrize("count_both", [False, True])
def test_a_full_row_or_column_scores_five_from_either_end(row: int, col: int, count_both: bool) -> None:
    """The whole row (5) and the whole column (5) through the new tile: runs of the longest length the
    wall allows, counted from each end (the tile placed last at a corner or in the middle)."""
    across = _wall([(row, c) for c in range(ROWS)])
    assert placement_points(across, row, col, count_both) == (ROWS + 1 if count_both else ROWS)
    down = _wall([(r, col) for r in range(ROWS)])
    assert placement_points(down, row, col, count_both) == (ROWS + 1 if count_both else ROWS)
    both = _wall([(row, c) for c in range(ROWS)] + [(r, col) for r in range(ROWS)])
    assert placement_points(both, row, col, count_both) == 2 * ROWS


@pytest.mark.clause("azul.score.immediate")
def test_a_run_stops_at_its_row_or_column_end_and_at_a_gap() -> None:
    """On a full wall a run is its whole row or column (ROWS tiles), never more, and a gap ends it:
    the count walks at most ROWS - 1 cells each way (model/azul/scoring.py _reach), so even a count
    that does not move cannot run on."""
    full = _wall([(r, c) for r in range(ROWS) for c in range(ROWS)])
    assert _run(full, 12, 1, 10, 14) == ROWS and _run(full, 12, ROWS, 2, 22) == ROWS
    gapped = _wall([(2, c) for c in range(ROWS) if c != 3])
    assert _run(gapped, 12, 1, 10, 14) == 3 and _run(gapped, 14, 1, 10, 14) == 1


# --- azul.wall.top-to-bottom: the tiling cursor passes each board once ----------------------------------------

@pytest.mark.clause("azul.wall.top-to-bottom")
def test_wall_tiling_stops_naming_its_clause_when_the_cursor_comes_back(monkeypatch: pytest.MonkeyPatch) -> None:
    """A board that appears while wall-tiling runs (a broken model) would be one pass more than the
    players who started it: tiling stops with RuleLoopError naming azul.wall.top-to-bottom."""
    g = bare(first=1)
    s = g.state
    set_line(s.boards[0], 1, RED, 1)
    settle(g)
    original = tiling.move_line

    def grows(*args, **kwargs):  # type: ignore[no-untyped-def]
        original(*args, **kwargs)
        s.boards.append(Board())

    monkeypatch.setattr(tiling, "move_line", grows)
    with pytest.raises(RuleLoopError) as exc:
        end_offer(g)
    assert exc.value.clause == "azul.wall.top-to-bottom" and exc.value.bound == 3


@pytest.mark.clause("azul.wall.top-to-bottom", "azul.wall.complete-only")
@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_board_is_tiled_once_in_seat_order(players: int) -> None:
    g = bare(players=players, first=players - 1)
    s = g.state
    for who, board in enumerate(s.boards):
        set_line(board, 1, (BLUE + who) % NUM_COLOURS, 1)
    settle(g)
    events = end_offer(g)
    scored = [(e.player, e.detail) for e in events if e.kind == "score"]
    assert [who for who, _ in scored] == list(range(players))
    assert all(b.line_count[0] == 0 and sum(x != EMPTY for x in b.wall) == 1 for b in s.boards)


# --- azul.wall.incomplete-stay ----------------------------------------------------------------------------------

@pytest.mark.clause("azul.wall.incomplete-stay", "azul.wall.complete-only")
def test_only_complete_lines_move_every_other_line_keeps_its_tiles() -> None:
    """Line 1 complete; lines 3 and 4 hold one and two tiles fewer than their row number (2 and 2 of 3
    and 4), line 5 four of five: only line 1 moves, the others keep colour and count and score nothing."""
    g = bare(first=1)
    s = g.state
    b = s.boards[0]
    set_line(b, 1, RED, 1)
    set_line(b, 3, YELLOW, 2)
    set_line(b, 4, BLUE, 2)
    set_line(b, 5, BLACK, 4)
    settle(g)
    lid = s.lid[:]
    with record() as fired:
        end_offer(g, line=4)                         # P2 puts one black tile on its own line 4
    assert b.wall[printed_column(0, RED)] == RED
    assert sum(x != EMPTY for x in b.wall) == 1 and b.score == 1
    assert b.line_colour == [EMPTY, EMPTY, YELLOW, BLUE, BLACK]
    assert b.line_count == [0, 0, 2, 2, 4]
    assert s.lid == lid
    assert fired.clauses["azul.wall.incomplete-stay"] == 4     # P1's lines 3, 4, 5 and P2's line 4


# --- azul.setup.scores ------------------------------------------------------------------------------------------

@pytest.mark.clause("azul.setup.scores")
@pytest.mark.parametrize("players", [2, 3, 4])
def test_everyone_starts_on_zero(players: int) -> None:
    g = new_game(players, seed=players)
    assert [b.score for b in g.state.boards] == [0] * players
    assert Board().score == 0


# --- azul.component.bag: the displays are filled from the bag ---------------------------------------------------

@pytest.mark.clause("azul.component.bag", "azul.setup.fill-factories", "azul.prep.refill")
@pytest.mark.parametrize("players", [2, 3, 4])
def test_each_tile_on_a_display_came_out_of_the_bag(players: int) -> None:
    g = new_game(players, seed=7)
    s = g.state
    assert all(sum(f) == 4 for f in s.factories)
    for c in range(NUM_COLOURS):
        assert s.bag[c] + sum(f[c] for f in s.factories) == TILES_PER_COLOUR
    # a refill: the bag gives exactly the tiles the displays get
    h = bare(players=players, first=1)
    t = h.state
    settle(h)
    bag = t.bag[:]
    end_offer(h)
    assert t.round == 2 and all(sum(f) == 4 for f in t.factories)
    for c in range(NUM_COLOURS):
        assert bag[c] - t.bag[c] == sum(f[c] for f in t.factories) + (c == BLACK)


# --- azul.end.shared-win ----------------------------------------------------------------------------------------

def _ended(scores: list[int], rows: list[int]) -> AzulState:
    players = len(scores)
    s = AzulState(boards=[Board() for _ in range(players)], factories=[[0] * NUM_COLOURS])
    for b, score, n in zip(s.boards, scores, rows, strict=True):
        b.score = score
        printed(b, [(r, c) for r in range(n) for c in range(ROWS)])
    s.to_move = NOBODY
    return s


@pytest.mark.clause("azul.end.shared-win", "azul.end.tie-break", "azul.end.winner")
@pytest.mark.parametrize(("scores", "rows", "winner", "winners"), [
    ([20, 20], [1, 1], None, (0, 1)),
    ([20, 20, 20], [2, 1, 2], None, (0, 2)),
    ([20, 20, 20, 20], [1, 1, 1, 1], None, (0, 1, 2, 3)),
    ([20, 20, 19], [1, 2, 3], 1, (1,)),
    ([20, 20], [2, 0], 0, (0,)),
    ([21, 20], [0, 3], 0, (0,)),
])
def test_leaders_still_tied_on_rows_share_the_win(scores: list[int], rows: list[int], winner: int | None,
                                                   winners: tuple[int, ...]) -> None:
    with record() as fired:
        out = decide(_ended(scores, rows))
    assert out.winner == winner and out.winners == winners
    shared = len(winners) > 1
    assert fired.clauses["azul.end.shared-win"] == int(shared)
    assert out.clause == ("azul.end.shared-win" if shared else
                          "azul.end.tie-break" if scores.count(max(scores)) > 1 else "azul.end.winner")


# --- azul.component.board, azul.component.factories, azul.component.starting-marker ----------------------------

@pytest.mark.clause("azul.component.board", "azul.component.factories", "azul.setup.factory-count")
@pytest.mark.parametrize(("players", "factories"), [(2, 5), (3, 7), (4, 9)])
def test_each_player_gets_an_empty_board_and_the_displays_in_use_are_filled(players: int, factories: int) -> None:
    g = new_game(players, seed=players)
    s = g.state
    assert len(s.boards) == players
    for b in s.boards:
        assert b.line_colour == [EMPTY] * ROWS and b.line_count == [0] * ROWS
        assert b.wall == [EMPTY] * (ROWS * ROWS) and b.floor == []
    assert len(s.factories) == factories
    assert all(len(f) == NUM_COLOURS and sum(f) == 4 and min(f) >= 0 for f in s.factories)
    assert Board() == Board([EMPTY] * ROWS, [0] * ROWS, [EMPTY] * (ROWS * ROWS), [], 0)


@pytest.mark.clause("azul.component.starting-marker", "azul.offer.first-from-centre", "azul.floor.marker-kept")
@pytest.mark.parametrize("cost", ["space-value", "one-point", "one-point-at-pick"])
@pytest.mark.parametrize("first", [0, 1])
def test_the_marker_is_no_tile_and_lies_on_the_floor_of_whoever_takes_it(cost: str, first: int) -> None:
    """One marker, no tile colour: whoever takes first from the centre holds it and lays it on their own
    floor line (paying at once only under azul.floor.marker-cost=one-point-at-pick)."""
    assert MARKER not in range(NUM_COLOURS) and MARKER != EMPTY
    g = bare(players=3, first=first, interpretations={"azul.floor.marker-cost": cost})
    s = g.state
    for b in s.boards:
        b.score = 5
    s.centre[RED] = 2
    s.factories[0][BLUE] = 1
    settle(g)
    events = play(g, "take C red line 2")
    b = s.boards[first]
    assert b.floor == [MARKER] and s.marker == first
    assert b.line_colour[1] == RED and b.line_count[1] == 2
    assert all(o.floor == [] for o in s.boards if o is not b)
    paid = cost == "one-point-at-pick"
    assert [o.score for o in s.boards] == [5 - paid if i == first else 5 for i in range(3)]
    assert [(e.player, e.points) for e in events if e.kind == "penalty"] == ([(first, -1)] if paid else [])
