"""A step's view (properties/search/view.py `View`) works its costly names out only when a condition
reads them: Duel's `tablets_now` (what the tablets would score for the Domes as they stand) was most
of a Duel search step's cost while only the tie steer reads it. Reading it gives what working it out
gives, once per step; the names are listed without working anything out."""

from __future__ import annotations

import random

import pytest

from model.duel.game import start
from model.errors import UserError
from properties.duel import predicates
from properties.registry import get_game
from properties.search.run import decide_goal, hooks_of, search, where_goal
from properties.search.view import View, evaluate, step_view

_REAL = predicates._tablets_now


def _counting(monkeypatch: pytest.MonkeyPatch) -> dict[str, int]:
    calls = {"n": 0}

    def counting(game: object) -> tuple[int, ...]:
        calls["n"] += 1
        return _REAL(game)  # type: ignore[arg-type]

    monkeypatch.setattr(predicates, "_tablets_now", counting)
    return calls


def _late_game() -> object:
    game = start(seed=5)
    rng = random.Random(5)
    while game.state.round < 4:
        game.apply(rng.choice(game.legal_actions()))
    return game


def test_the_tablets_are_worked_out_only_when_read(monkeypatch: pytest.MonkeyPatch) -> None:
    calls = _counting(monkeypatch)
    game = _late_game()
    hooks = hooks_of(get_game("duel"))
    view = step_view(game, [], "", -1, 7, (0, 0), hooks.view(game))     # type: ignore[arg-type]
    assert "tablets_now" in view and "tablets_now" in list(view) and len(view) == len(list(view))
    others = where_goal("tokens_left[0] == 2 and bag >= 0", hooks, game)
    others.holds(view)
    for name, p in hooks.predicates.items():
        if name != "tie-without-start-tile":                  # the one that reads the tablets
            p.holds(view)
            if p.distance is not None:
                p.distance(view)
    assert calls["n"] == 0, f"the tablets were worked out {calls['n']} time(s) with nobody reading them"
    first = view["tablets_now"]
    assert calls["n"] == 1 and view["tablets_now"] is first and calls["n"] == 1, "worked out once a step, then kept"
    assert first == _REAL(game)                                 # type: ignore[arg-type]
    assert evaluate(where_goal("tablets_now[0] >= 0", hooks, game).code, "t", view) and calls["n"] == 1


def test_a_search_whose_goals_never_read_the_tablets_never_works_them_out(monkeypatch: pytest.MonkeyPatch) -> None:
    """A steered `--decide` whose distance reads no tablets looks ahead at every step and never
    works them out; a condition that reads them does (the count is live)."""
    calls = _counting(monkeypatch)
    hooks = hooks_of(get_game("duel"))
    search("duel", [decide_goal("duel", "duel.refill.monochrome-unavoidable=leave-empty", hooks)],
           cpu_seconds=600, nodes=400)
    assert calls["n"] == 0, f"the tablets were worked out {calls['n']} time(s) for a goal that never reads them"
    search("duel", [where_goal("tablets_now[0] > 999", hooks, start(seed=0))], cpu_seconds=600, nodes=400)
    assert calls["n"] > 0, "a condition on the tablets reads them"


def test_an_expression_reads_the_names_its_comprehensions_use() -> None:
    """Only the names an expression mentions are read from the view, those inside a comprehension
    (its own code object) included."""
    view = View({"tokens_left": (2, 1), "step": 1, "round": 3}, {"costly": lambda: 1 / 0})
    hooks = hooks_of(get_game("duel"))
    game = start(seed=0)
    assert evaluate(where_goal("any(t == step for t in tokens_left)", hooks, game).code, "e", view)
    assert evaluate(where_goal("[t for t in tokens_left if t < round] == [2, 1]", hooks, game).code, "e", view)
    with pytest.raises(ZeroDivisionError):
        view["costly"]


def test_the_names_are_listed_without_working_anything_out() -> None:
    """A bad name's one line lists the view's names, the costly ones too (nothing worked out)."""
    hooks = hooks_of(get_game("duel"))
    with pytest.raises(UserError, match="tablets_now"):
        where_goal("tablets_nwo[0] > 1", hooks, start(seed=0))
    view = View({"a": 1}, {"b": lambda: 1 / 0, "a": lambda: 2})
    assert sorted(view) == ["a", "b"] and len(view) == 2 and dict(View({"c": 3}).joined({"d": 4})) == {"d": 4, "c": 3}
    assert view["a"] == 2, "a later name hides a value of the same name"


def test_the_glass_copies_an_attribute_once_and_stays_read_only() -> None:
    """A view's `state` (ReadOnly) copies an attribute when first read and keeps it: a distance
    reading a Dome cell by cell (model/duel/dome.py matching_cells) no longer copies the whole Dome
    at each cell. It stays glass: nothing assignable, `_` names hidden, lists as tuples; the next
    step's view sees the position as it is then."""
    from properties.search.view import ReadOnly

    class Table:
        def __init__(self) -> None:
            self.reads = 0
            self._cells = [0, 1, 2]

        @property
        def cells(self) -> list[int]:
            self.reads += 1
            return self._cells

    table = Table()
    glass = ReadOnly(table)
    assert [glass.cells[c] for c in range(3)] == [0, 1, 2] and glass.cells == (0, 1, 2)
    assert table.reads == 1, f"the cells were copied {table.reads} times for one view"
    with pytest.raises(AttributeError):
        glass.cells = (5,)
    with pytest.raises(AttributeError):
        glass._cells                                            # noqa: B018 -- hidden
    table._cells.append(3)
    assert ReadOnly(table).cells == (0, 1, 2, 3)
