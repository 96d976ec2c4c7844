"""Guarding tests for classic Azul's action rules (issue 12): what may be taken, from where, to which
line, and where a gray-wall tile may go.

The generator (model/azul/generation.py) and the legality predicate (model/azul/legality.py) are two
independent writings of the same rules; a planted bug in one of them makes them disagree on some
position. These tests play short seeded games under the alternatives that change what is legal and
compare the two on every position over the whole action universe; refused actions must name a clause
and leave the position unchanged. Hand-built positions then pin the refusals' clauses.
"""

from __future__ import annotations

import random

import pytest

from model.azul import Game, IllegalAction, new_game, parse_action
from model.azul.colours import ROWS, printed_colour
from model.azul.universe import candidate_actions
from tests.azul.helpers import BLACK, BLUE, RED, YELLOW, bare, set_line, settle

STEPS = 400            # a bound: random games end after about 60-150 actions

CONFIGS: list[tuple[int, str, dict[str, str]]] = [
    (2, "coloured", {}),
    (3, "coloured", {"azul.lines.voluntary-split": "voluntary-split", "azul.lines.full-line-choice": "allowed"}),
    (2, "gray", {}),
    (4, "gray", {"azul.gray.unplaceable-line": "refused", "azul.lines.voluntary-split": "voluntary-split"}),
    (3, "gray", {"azul.lines.full-line-choice": "allowed"}),
]

ACTION_CLAUSES = ("azul.offer.actions", "azul.offer.take-factory", "azul.offer.take-centre",
                  "azul.lines.capacity", "azul.lines.same-colour", "azul.lines.wall-has-colour",
                  "azul.lines.to-floor", "azul.setup.factory-count", "azul.gray.free-placement",
                  "azul.gray.row-unique", "azul.gray.column-unique")


def disagreement(g: Game) -> str | None:
    legal = g.legal_actions()
    if legal != sorted(legal) or len(set(legal)) != len(legal):
        return f"legal_actions() is not sorted and unique: {legal}"
    by_predicate = {a for a in candidate_actions() if g.why_illegal(a) is None}
    if set(legal) != by_predicate:
        return (f"generator only: {sorted(set(legal) - by_predicate)}, "
                f"predicate only: {sorted(by_predicate - set(legal))}")
    return None


@pytest.mark.clause(*ACTION_CLAUSES)
@pytest.mark.parametrize(("players", "wall", "rules"), CONFIGS,
                         ids=[f"{p}p-{w}-{'+'.join(r.values()) or 'defaults'}" for p, w, r in CONFIGS])
def test_generator_and_predicate_agree_and_refusals_change_nothing(players: int, wall: str,
                                                                   rules: dict[str, str]) -> None:
    seed = 7 * players + len(wall)
    g = new_game(players, seed=seed, wall=wall, interpretations=rules)
    rng = random.Random(seed)
    universe = candidate_actions()
    for step in range(STEPS):
        problem = disagreement(g)
        assert problem is None, f"step {step}: {problem}"
        if g.is_over or g.is_stalled:
            return
        legal = g.legal_actions()
        allowed = set(legal)
        refused = [a for a in universe if a not in allowed]
        a = refused[rng.randrange(len(refused))]
        before = g.state.copy()
        with pytest.raises(IllegalAction) as exc:
            g.apply(a)
        assert g.state == before and exc.value.clause.startswith("azul.")
        g.apply(rng.choice(legal))
    raise AssertionError(f"no end after {STEPS} actions")


def refusal(g: Game, text: str) -> str:
    before = g.state.copy()
    with pytest.raises(IllegalAction) as exc:
        g.apply(parse_action(text))
    assert g.state == before
    return exc.value.clause


@pytest.mark.clause("azul.lines.same-colour", "azul.lines.wall-has-colour", "azul.lines.capacity",
                    "azul.offer.take-factory", "azul.offer.take-centre", "azul.setup.factory-count")
def test_refusals_name_their_clause() -> None:
    g = bare()
    s = g.state
    b = s.boards[0]
    s.factories[0][RED] = 2
    s.factories[0][BLUE] = 2
    s.centre[YELLOW] = 1
    set_line(b, 3, BLUE, 1)
    b.wall[1 * ROWS + 3] = printed_colour(1, 3)          # row 2 holds red already (red's printed space)
    assert printed_colour(1, 3) == RED
    settle(g)
    assert refusal(g, "take F1 red line 3") == "azul.lines.same-colour"
    assert refusal(g, "take F1 red line 2") == "azul.lines.wall-has-colour"
    assert refusal(g, "take F1 black line 1") == "azul.offer.take-factory"
    assert refusal(g, "take C red line 1") == "azul.offer.take-centre"
    assert refusal(g, "take F6 red line 1") == "azul.setup.factory-count"
    set_line(b, 1, RED, 1)
    assert refusal(g, "take F1 red line 1") == "azul.lines.capacity"
    for ok in ("take F1 red line 4", "take F1 blue line 3", "take C yellow line 2", "take F1 red floor"):
        assert g.why_illegal(parse_action(ok)) is None, ok
    assert g.why_illegal(parse_action("take F1 black floor"))[0] == "azul.offer.take-factory"
    assert BLACK not in (c for c, k in enumerate(s.factories[0]) if k)
