"""The mutation runner's hot swap: a mutant inside a function body reaches every reference to the
function without importing the project again, and anything else is refused (fresh import)."""

from __future__ import annotations

import importlib
import sys
from pathlib import Path

import pytest

from harness.mutation.hotswap import ImportCalls, changed_lines, enclosing_function, hot_swap

SOURCE = '''\
TABLE = (1, 2, 3)


def score(n):
    return TABLE[n] + 1


class Board:
    @property
    def size(self):
        return 5

    def rows(self):
        return [r for r in range(self.size)]


def baked():
    return 7


BAKED = baked()
'''


@pytest.fixture
def module(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):  # type: ignore[no-untyped-def]
    (tmp_path / "swapme.py").write_text(SOURCE)
    monkeypatch.syspath_prepend(str(tmp_path))
    sys.modules.pop("swapme", None)
    calls = ImportCalls((str(tmp_path),))
    with calls:
        mod = importlib.import_module("swapme")
    yield mod, calls, str(tmp_path / "swapme.py")
    sys.modules.pop("swapme", None)


def test_changed_lines_and_enclosing_function() -> None:
    mutated = SOURCE.replace("return TABLE[n] + 1", "return TABLE[n] - 1")
    assert changed_lines(SOURCE, mutated) == {5}
    assert enclosing_function(SOURCE, {5}) == "score"
    assert enclosing_function(SOURCE, {11}) == "Board.size"
    assert enclosing_function(SOURCE, {10}) is None         # the signature
    assert enclosing_function(SOURCE, {9}) is None          # a decorator line
    assert enclosing_function(SOURCE, {1}) is None          # module-level code
    assert enclosing_function(SOURCE, {5, 14}) is None      # two functions


def test_a_body_mutant_reaches_every_reference(module) -> None:  # type: ignore[no-untyped-def]
    mod, calls, path = module
    alias = mod.score                                        # `from swapme import score` elsewhere
    board = mod.Board()
    mutated = SOURCE.replace("return TABLE[n] + 1", "return TABLE[n] - 1").replace("return 5", "return 4")
    assert hot_swap("swapme", path, SOURCE, SOURCE.replace("return TABLE[n] + 1", "return TABLE[n] - 1"),
                    calls) == "score"
    assert alias(0) == 0 and mod.score(2) == 2
    assert hot_swap("swapme", path, SOURCE, SOURCE.replace("return 5", "return 4"), calls) == "Board.size"
    assert board.size == 4 and board.rows() == [0, 1, 2, 3]
    assert mutated  # both swaps applied one at a time, as the runner does


def test_what_cannot_be_swapped_is_refused(module) -> None:  # type: ignore[no-untyped-def]
    mod, calls, path = module
    # ran during import: its result is baked into BAKED, only a fresh import shows the mutant
    assert hot_swap("swapme", path, SOURCE, SOURCE.replace("return 7", "return 8"), calls) is None
    assert mod.baked() == 7
    # module-level table
    assert hot_swap("swapme", path, SOURCE, SOURCE.replace("(1, 2, 3)", "(1, 2, 4)"), calls) is None
    # a module never imported
    assert hot_swap("nowhere", path, SOURCE, SOURCE.replace("+ 1", "- 1"), calls) is None
    assert mod.score(0) == 2


def test_an_equivalent_whose_mutant_is_gone_is_orphaned(tmp_path: Path) -> None:
    from harness.mutation.analysis import ClausePlan, orphaned_equivalents
    from harness.mutation.store import diff_key

    diff = "--- a/m.py\n+++ b/m.py\n@@ -1 +1 @@\n-x = a > b\n+x = a >= b"
    live = diff_key("duel.score.floor", diff)
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "equivalent-mutants.toml").write_text(
        f'[[equivalent]]\nclause = "duel.score.floor"\nkey = "{live}"\nreason = "r"\n\n'
        '[[equivalent]]\nclause = "duel.score.floor"\nkey = "0000000000000000"\nreason = "r"\n\n'
        '[[equivalent]]\nclause = "duel.gone"\nkey = "1111111111111111"\nreason = "r"\n')
    plans = {"duel.score.floor": ClausePlan("duel.score.floor", (), (), (), False, "h1", 30.0)}
    stored = {"clauses": {"duel.score.floor": {"hash": "h1", "mutants": [{"diff": diff, "status": "survived"}]}}}
    assert sorted((e.clause, e.key) for e in orphaned_equivalents(tmp_path, plans, stored)) == \
        [("duel.gone", "1111111111111111"), ("duel.score.floor", "0000000000000000")]
    stored["clauses"]["duel.score.floor"]["hash"] = "old"          # stale results: nothing to judge against yet
    assert [e.clause for e in orphaned_equivalents(tmp_path, plans, stored)] == ["duel.gone"]


def test_a_test_stopped_by_a_clock_is_no_kill() -> None:
    from types import SimpleNamespace

    from harness.mutation.worker import FirstFailure

    for text, out_of_time in [("properties.watchdog.TimeBudgetExceeded: 120 s", True),
                              ("Failed: Timeout >120.0s", True),
                              ("properties.watchdog.Livelock: 3012 steps", False),
                              ("AssertionError: 3 != 4", False)]:
        plugin = FirstFailure()
        plugin.pytest_runtest_logreport(SimpleNamespace(failed=True, nodeid="t::x", longreprtext=text))
        assert plugin.nodeid == "t::x" and plugin.out_of_time is out_of_time, text


def test_a_rule_comment_gives_an_uncited_statement_to_its_clause() -> None:
    from harness.mutation.extents import clause_lines

    source = ("def tile(line):\n"
              "    if line == 0:\n"
              "        cite('duel.tiling.move-rightmost')\n"
              "    # rule: duel.tiling.top-to-bottom\n"
              "    while line < 6:\n"
              "        line += 1\n"
              "    # end: duel.tiling.top-to-bottom\n"
              "    return line\n")
    owner = clause_lines(source, {"duel.tiling.move-rightmost": "duel.tiling.move-rightmost", "duel.tiling.top-to-bottom": "duel.tiling.top-to-bottom"})
    assert owner[5] == owner[6] == {"duel.tiling.top-to-bottom"} and owner[3] == {"duel.tiling.move-rightmost"} and 8 not in owner
