"""Guarding tests for classic Azul's placement scoring (issue 12).

Each test pins down behaviour that a planted rule bug (`azul-rules mutate --game azul`) got wrong or
could get wrong: hand-built positions played through the public API, assertions on the score events,
the walls and the clause record. The reference counts below walk the wall by (row, column), a different
route from the model's flat-index runs, so a run that leaks across a row's edge or stops one space short
disagrees with it.
"""

from __future__ import annotations

import random

import pytest

from model.azul.colours import EMPTY, ROWS, printed_colour
from model.events import Event
from tests.azul.guard import record
from tests.azul.helpers import bare, end_offer, set_line, settle

SINGLE_AXIS = "azul.score.single-axis"


def reference_points(filled: set[tuple[int, int]], row: int, col: int, count_both: bool) -> int:
    """The guide's count for a tile just placed at (row, col) beside the `filled` spaces."""
    def run(dr: int, dc: int) -> int:
        n = 1
        for sign in (-1, 1):
            r, c = row + sign * dr, col + sign * dc
            while 0 <= r < ROWS and 0 <= c < ROWS and (r, c) in filled:
                n += 1
                r, c = r + sign * dr, c + sign * dc
        return n
    across, down = run(0, 1), run(1, 0)
    if across == 1 and down == 1:
        return 1
    if across == 1 or down == 1:
        return across + down if count_both else max(across, down)
    return across + down


def place_and_score(filled: set[tuple[int, int]], row: int, col: int, alt: str) -> tuple[int, list[Event]]:
    """P1's complete pattern line `row` moves its tile to (row, col) of a coloured wall holding
    `filled`; P2 ends the offer on its own board. Returns P1's placement points and the events."""
    g = bare(interpretations={SINGLE_AXIS: alt}, first=1)
    b = g.state.boards[0]
    for r, c in filled:
        b.wall[r * ROWS + c] = printed_colour(r, c)
    set_line(b, row + 1, printed_colour(row, col), row + 1)
    settle(g)
    events = end_offer(g)
    assert b.wall[row * ROWS + col] == printed_colour(row, col)
    scores = [e for e in events if e.kind == "score" and e.player == 0]
    assert len(scores) == 1, scores
    assert scores[0].clause == "azul.score.immediate"
    return scores[0].points, events


def _walls(seed: int, n: int) -> list[tuple[frozenset[tuple[int, int]], int, int]]:
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        row, col = rng.randrange(ROWS), rng.randrange(ROWS)
        density = rng.choice((0.3, 0.5, 0.8))
        filled = frozenset((r, c) for r in range(ROWS) for c in range(ROWS)
                           if (r, c) != (row, col) and rng.random() < density)
        if any(all((r, c) in filled for c in range(ROWS)) for r in range(ROWS)):
            continue        # a full row would end the game: bonuses are not what is checked here
        out.append((filled, row, col))
    return out


CASES = _walls(12, 120)


@pytest.mark.clause("azul.score.immediate", "azul.score.row-run", "azul.score.column-run", "azul.score.isolated")
@pytest.mark.parametrize("alt", ["skip-single", "count-both"])
def test_placement_points_match_a_count_by_rows_and_columns(alt: str) -> None:
    for filled, row, col in CASES:
        got, _ = place_and_score(set(filled), row, col, alt)
        assert got == reference_points(set(filled), row, col, alt == "count-both"), (sorted(filled), row, col)


EDGES = [
    # (filled, row, col): runs that reach a wall edge, and neighbours across a row's edge that must not count
    ({(0, 0), (0, 1), (0, 2), (0, 3)}, 0, 4),
    ({(0, 1), (0, 2), (0, 3), (0, 4)}, 0, 0),
    ({(1, 0)}, 0, 4),                       # the next row's first space is not beside the last space
    ({(0, 4)}, 1, 0),                       # nor the previous row's last space beside the first
    ({(3, 4)}, 4, 0),
    ({(4, 0)}, 3, 4),
    ({(0, 2), (1, 2), (2, 2), (3, 2)}, 4, 2),
    ({(1, 2), (2, 2), (3, 2), (4, 2)}, 0, 2),
    ({(4, 3)}, 0, 4),                       # the column does not wrap either
    ({(0, 1)}, 4, 0),
    ({(2, 1), (2, 3), (1, 2), (3, 2)}, 2, 2),
    ({(4, 3), (3, 4)}, 4, 4),
]


@pytest.mark.clause("azul.score.immediate", "azul.score.row-run", "azul.score.column-run", "azul.score.isolated")
@pytest.mark.parametrize(("filled", "row", "col"), EDGES)
@pytest.mark.parametrize("alt", ["skip-single", "count-both"])
def test_runs_stop_at_the_wall_edges(filled: set[tuple[int, int]], row: int, col: int, alt: str) -> None:
    got, _ = place_and_score(filled, row, col, alt)
    assert got == reference_points(filled, row, col, alt == "count-both")


@pytest.mark.clause("azul.score.isolated", "azul.score.row-run", "azul.score.column-run")
def test_the_record_names_which_kind_of_count_decided() -> None:
    cases = [
        (set(), 2, 2, {"azul.score.isolated"}, set()),
        ({(2, 1)}, 2, 2, {"azul.score.row-run"}, {(SINGLE_AXIS, "skip-single")}),
        ({(1, 2)}, 2, 2, {"azul.score.column-run"}, {(SINGLE_AXIS, "skip-single")}),
        ({(2, 3), (3, 2)}, 2, 2, {"azul.score.row-run", "azul.score.column-run"}, set()),
    ]
    kinds = {"azul.score.isolated", "azul.score.row-run", "azul.score.column-run"}
    for filled, row, col, expected, alternatives in cases:
        with record() as fired:
            place_and_score(filled, row, col, "skip-single")
        assert {c for c in fired.clauses if c in kinds} == expected, (filled, row, col)
        assert fired.clauses["azul.score.immediate"] == 1
        assert {a for a in fired.alternatives if a[0] == SINGLE_AXIS} == alternatives, (filled, row, col)


def test_reference_agrees_with_the_guides_examples() -> None:
    """The reference itself: the worked counts of tests/azul/test_azul_scoring.py."""
    assert reference_points(set(), 0, 0, False) == 1
    assert reference_points({(0, 1), (0, 2)}, 0, 0, False) == 3
    assert reference_points({(0, 1), (0, 2)}, 0, 0, True) == 4
    assert reference_points({(0, 1), (1, 0), (2, 0)}, 0, 0, False) == 5
    assert EMPTY not in (printed_colour(r, c) for r in range(ROWS) for c in range(ROWS))
