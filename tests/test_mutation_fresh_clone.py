"""Mutation analysis on a fresh clone (issue 22): no tracking record is needed to select a clause's
tests (the store's selection travels with the clone, else the tests that declare the clause), the
clocks of such a selection come from its unmutated run, each mutant runs its stored killer first, and
a clause whose tests fail before any mutant is planted is not measured (no kill counts)."""

from __future__ import annotations

from pathlib import Path

import attrs
import pytest

from harness.mutation import analysis
from harness.mutation.analysis import plan, run
from harness.mutation.runner import MutantResult, sandbox
from harness.mutation.selection import (
    CLOCK_FACTOR,
    CLOCK_OVERHEAD,
    LATE_SECONDS,
    Stage,
    declared_tests,
    killer_first,
    measured_stages,
)
from spec import default_catalogue

ROOT = Path(__file__).resolve().parents[1]
CLAUSE = "duel.score.broken-penalty"
A = "tests/test_model_tiling.py::test_broken_penalties_and_starting_player_tile[triangular-totals0]"
B = "fixtures/duel/rulebook/broken-two-tiles-cost-three.toml::rulebook.broken-two-tiles-cost-three"


@pytest.mark.clause(CLAUSE)
def test_without_tracking_the_store_selection_is_used_else_the_declaring_tests(tmp_path: Path) -> None:
    absent = tmp_path / "absent.json"
    stored = {"clauses": {CLAUSE: {"tests": [A, "tests/test_gone.py::test_gone", B], "fallback": False}}}
    p = plan(ROOT, default_catalogue(), absent, stored)[CLAUSE]
    assert (p.source, p.tests, p.fallback, p.timed) == ("store", (A, B), False, False)   # the gone test left out
    bare = plan(ROOT, default_catalogue(), absent, {"clauses": {}})[CLAUSE]
    assert bare.source == "declared" and not bare.fallback
    assert bare.tests == declared_tests(ROOT, CLAUSE)
    assert "fixtures/duel/rulebook/broken-two-tiles-cost-three.toml::rulebook.broken-two-tiles-cost-three" in bare.tests
    assert "tests/test_model_tiling.py::test_broken_penalties_and_starting_player_tile" in bare.tests


def test_the_declaring_tests_are_read_from_markers_and_scenarios(tmp_path: Path) -> None:
    (tmp_path / "tests").mkdir()
    (tmp_path / "fixtures").mkdir()
    (tmp_path / "tests" / "test_x.py").write_text(
        "import pytest\n"
        "@pytest.mark.clause('duel.a@2', 'duel.b')\ndef test_one(): pass\n"
        "@pytest.mark.clause('duel.b')\ndef test_other(): pass\n"
        "class TestGroup:\n    @pytest.mark.clause('duel.a')\n    def test_inner(self): pass\n"
        "    def test_plain(self): pass\n")
    (tmp_path / "tests" / "test_module.py").write_text(
        "import pytest\npytestmark = pytest.mark.clause('duel.a')\ndef test_m(): pass\n")
    (tmp_path / "fixtures" / "s.toml").write_text('id = "rulebook.s"\nclauses = ["duel.a@1"]\n')
    (tmp_path / "fixtures" / "t.toml").write_text('id = "rulebook.t"\nclauses = ["duel.b"]\n')
    assert declared_tests(tmp_path, "duel.a") == (
        "tests/test_module.py::test_m", "tests/test_x.py::test_one", "tests/test_x.py::TestGroup::test_inner",
        "fixtures/s.toml::rulebook.s")


def test_an_untimed_selection_gets_stages_and_clocks_from_its_unmutated_run() -> None:
    durations = {"t.py::a": 0.2, "t.py::b": 4.0, "f/s.toml::s": 0.1, "dir/u.py::x": 0.3, "dir/u.py::y": 0.4}
    quick, late = measured_stages(("t.py::b", "t.py::a", "f/s.toml::s", "dir", "t.py::never"), durations)
    assert quick == Stage(("t.py::a", "f/s.toml::s", "dir"), round(CLOCK_FACTOR * (0.2 + 0.1 + 0.7) + CLOCK_OVERHEAD, 1))
    assert late.tests == ("t.py::b", "t.py::never")                 # unmeasured counts as late
    assert late.timeout == round(CLOCK_FACTOR * (4.0 + LATE_SECONDS) + CLOCK_OVERHEAD, 1)


def test_a_mutant_runs_the_test_that_killed_it_last_time_first_within_its_stage() -> None:
    runs = (Stage(("q1", "q2", "q3"), 10.0), Stage(("l1", "l2"), 20.0))
    assert killer_first(runs, "q3") == (Stage(("q3", "q1", "q2"), 10.0), runs[1])
    assert killer_first(runs, "l2") == (runs[0], Stage(("l2", "l1"), 20.0))
    assert killer_first(runs, None) == runs and killer_first(runs, "gone") == runs


@pytest.mark.process
@pytest.mark.timeout(900)          # two private copies and four test runs: minutes on a loaded 2-core box
@pytest.mark.clause(CLAUSE)
def test_a_clause_whose_tests_fail_unmutated_is_not_measured_and_no_mutant_runs(tmp_path: Path) -> None:
    """The designer's edit (two broken tiles cost 4 instead of 3) makes the clause's own test fail
    without any mutant, so the clause is 'not measured' and gets no store entry, and no mutant runs;
    in the unedited tree the same plan measures the clause."""
    with sandbox(ROOT) as tree:
        p = plan(tree, default_catalogue(), tmp_path / "absent.json", {"clauses": {}})[CLAUSE]
        p = attrs.evolve(p, tests=(A,), stages=(Stage((A,), 120.0),), timeout=120.0, mutants=tuple(p.mutants)[:1])
        ran: list[MutantResult] = []
        unmeasured: dict[str, str] = {}
        control = run(tree, {CLAUSE: p}, [CLAUSE], 1, ran.append, previous={},
                      on_unmeasured=unmeasured.__setitem__)
        assert CLAUSE in control and not unmeasured and len(ran) == 1
        ruleset = tree / "model" / "duel" / "ruleset.py"
        text = ruleset.read_text()
        assert text.count("(0, 1, 3, 6, 10)") == 1
        ruleset.write_text(text.replace("(0, 1, 3, 6, 10)", "(0, 1, 4, 6, 10)"))     # the rule changed
        ran.clear()
        edited = run(tree, {CLAUSE: p}, [CLAUSE], 1, ran.append, previous={},
                     on_unmeasured=unmeasured.__setitem__)
    assert edited == {} and ran == []                               # no mutant ran, none counts as killed
    assert unmeasured[CLAUSE] == f"its tests fail unmutated ({A})"


def test_run_asks_every_clause_for_its_unmutated_run_first(monkeypatch: pytest.MonkeyPatch) -> None:
    """Without running anything: the first batch run_all gets is one unmutated run per clause."""
    batches: list[list] = []

    def fake_run_all(root, work, jobs, on_result, deadline=None, pool=None):      # type: ignore[no-untyped-def]
        batches.append(list(work))
        return [MutantResult(w[0].id, "killed", "t::x", 1, 0.0) for w in work]

    monkeypatch.setattr(analysis, "run_all", fake_run_all)
    p = analysis.ClausePlan(CLAUSE, (), (_FakeMutant(),), ("t::x",), False, "h", 10.0)
    why: dict[str, str] = {}
    assert run(ROOT, {CLAUSE: p}, [CLAUSE], 1, lambda r: None, previous={}, on_unmeasured=why.__setitem__) == {}
    assert [w[0].id for w in batches[0]] == [f"{CLAUSE} unmutated"]
    assert not any(batch for batch in batches[1:])                  # its tests fail: no mutant runs
    assert why == {CLAUSE: "its tests fail unmutated (t::x)"}


@attrs.frozen
class _FakeMutant:
    file: str = "model/duel/tiling.py"
    id: str = "model/duel/tiling.py:1:x#0"
