"""Guarding tests for classic Azul's action generator (issue 12): what `legal_actions` lists, and which
rules it records as deciding, on hand-built positions. The generator works per colour offered; a colour
no source offers decides nothing and must not be recorded (the coverage report counts these records).
"""

from __future__ import annotations

import pytest

from model.azul.colours import ROWS, printed_column
from tests.azul.guard import record
from tests.azul.helpers import BLACK, BLUE, RED, YELLOW, bare, set_line, settle

FULL = "azul.lines.full-line-choice"


@pytest.mark.clause("azul.offer.actions", "azul.lines.wall-has-colour", "azul.lines.capacity")
@pytest.mark.parametrize("alt", ["refused", "allowed"])
def test_only_offered_colours_are_decided_and_recorded(alt: str) -> None:
    g = bare(interpretations={FULL: alt})
    s = g.state
    b = s.boards[0]
    for row in (0, 1):
        b.wall[row * ROWS + printed_column(row, BLUE)] = BLUE     # rows 1 and 2 hold blue
    b.wall[2 * ROWS + printed_column(2, RED)] = RED               # row 3 holds red
    set_line(b, 4, YELLOW, 4)                                     # line 4 is full of yellow
    s.factories[1][RED] = 2
    s.centre[RED] = 1
    settle(g)
    with record() as fired:
        legal = [str(a) for a in g.legal_actions()]
    lines = ["line 1", "line 2", "line 5", "floor"]               # not line 3 (red on the wall), not line 4 (yellow)
    assert legal == [f"take F2 red {d}" for d in lines] + [f"take C red {d}" for d in lines]
    assert fired.clauses["azul.offer.actions"] == 1
    assert fired.clauses["azul.lines.wall-has-colour"] == 1, "red on row 3, once; blue is not offered"
    assert not [a for a in fired.alternatives if a[0] == FULL], "yellow is not offered: line 4 decides nothing"


@pytest.mark.clause("azul.offer.actions", "azul.lines.capacity")
@pytest.mark.parametrize("alt", ["refused", "allowed"])
def test_a_full_line_is_offered_only_when_allowed(alt: str) -> None:
    g = bare(interpretations={FULL: alt})
    s = g.state
    b = s.boards[0]
    set_line(b, 2, BLACK, 2)
    s.factories[0][BLACK] = 1
    settle(g)
    with record() as fired:
        legal = [str(a) for a in g.legal_actions()]
    full = ["take F1 black line 2"] if alt == "allowed" else []
    assert legal == ["take F1 black line 1", *full, "take F1 black line 3", "take F1 black line 4",
                     "take F1 black line 5", "take F1 black floor"]
    assert fired.alternatives[(FULL, alt)] == 1
