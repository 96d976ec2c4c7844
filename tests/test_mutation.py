"""Clause-level mutation analysis: extents, operators, store, sandbox, and guarded verdicts."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cosmic_ray.mutating import mutate_code

from harness.mutation.analysis import ClausePlan, run, verdicts
from harness.mutation.extents import clause_lines
from harness.mutation.operators import OWN_OPERATORS, operator
from harness.mutation.runner import sandbox
from harness.mutation.store import clause_hash, diff_key, load_equivalents
from spec import default_catalogue

ROOT = Path(__file__).resolve().parents[1]

SOURCE = '''\
def score(tiles, who):
    total = 0
    if len(tiles) > 1:
        cite("a.rule")
        total += len(tiles)
        total *= 2
    cite("b.rule")
    total -= 1
    # end: b.rule
    total += 100
    table = ("c.one", "c.two", "c.three", "c.four")
    return total
'''
RESOLVE = {k: k for k in ("a.rule", "b.rule", "c.one", "c.two", "c.three", "c.four")}


def test_a_citation_governs_its_block_and_the_condition_that_opens_it() -> None:
    owner = clause_lines(SOURCE, RESOLVE)
    assert owner[3] == {"a.rule"}                     # the `if` deciding whether the rule applies
    assert owner[5] == owner[6] == {"a.rule"}
    assert owner[8] == {"b.rule"}
    assert 10 not in owner                            # after the explicit end marker
    assert 11 not in owner                            # a table naming four clauses is no rule site
    assert 2 not in owner and 12 not in owner         # before any citation


def test_our_operators_plant_the_bug_they_describe() -> None:
    for name, cls in OWN_OPERATORS.items():
        for example in cls.examples():
            assert mutate_code(example.pre_mutation_code, operator(name), example.occurrence) == \
                example.post_mutation_code, name


def test_every_clause_with_a_model_site_has_mutants(untracked_duel_plans: dict[str, ClausePlan]) -> None:
    plans = untracked_duel_plans
    assert plans
    without = sorted(cid for cid, p in plans.items() if not p.mutants)
    assert len(without) <= len(plans) // 10, without


def test_the_hash_changes_with_the_clause_code_and_its_tests(tmp_path: Path) -> None:
    (tmp_path / "model").mkdir()
    (tmp_path / "tests").mkdir()
    (tmp_path / "model" / "m.py").write_text(SOURCE)
    (tmp_path / "tests" / "test_m.py").write_text("def test_x(): pass\n")
    from harness.mutation.extents import extents
    exts = extents(tmp_path, ["model"], RESOLVE)["a.rule"]
    before = clause_hash(tmp_path, exts, ["tests/test_m.py::test_x"])
    (tmp_path / "tests" / "test_m.py").write_text("def test_x(): assert True\n")
    after_test = clause_hash(tmp_path, exts, ["tests/test_m.py::test_x"])
    (tmp_path / "model" / "m.py").write_text(SOURCE.replace("total *= 2", "total *= 3"))
    after_code = clause_hash(tmp_path, exts, ["tests/test_m.py::test_x"])
    assert len({before, after_test, after_code}) == 3
    # code outside the clause's extents does not make it stale
    (tmp_path / "model" / "m.py").write_text(SOURCE.replace("SOURCE", "x").replace("total += 100", "total += 7")
                                             .replace("total *= 2", "total *= 3"))
    assert clause_hash(tmp_path, exts, ["tests/test_m.py::test_x"]) == after_code


def test_an_equivalent_needs_a_reason(tmp_path: Path) -> None:
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "equivalent-mutants.toml").write_text('[[equivalent]]\nclause = "a"\nkey = "k"\n')
    with pytest.raises(ValueError, match="reason"):
        load_equivalents(tmp_path)


def test_the_sandbox_leaves_nothing_behind_even_when_interrupted() -> None:
    with pytest.raises(KeyboardInterrupt):
        with sandbox(ROOT) as copy:
            assert (copy / "model").is_dir() and not (copy / ".git").exists()
            seen = copy
            raise KeyboardInterrupt
    assert not seen.parent.exists()


def _one_clause_plan(plans: dict[str, ClausePlan], clause: str,
                     tests: tuple[str, ...]) -> tuple[dict[str, ClausePlan], ClausePlan]:
    p = plans[clause]
    narrowed = ClausePlan(p.clause, p.extents, p.mutants, tests, False, clause_hash(ROOT, p.extents, tests), 120.0)
    return {clause: narrowed}, narrowed


@pytest.mark.process
@pytest.mark.clause("duel.score.horizontal")
def test_deleting_the_rule_tests_leaves_the_clause_unguarded(
        tmp_path: Path, untracked_duel_plans: dict[str, ClausePlan]) -> None:
    """With the tests that check horizontal runs, every mutant of the clause dies; with only a test
    that never scores a run, the clause is reported unguarded, each survivor with its diff."""
    clause = "duel.score.horizontal"
    catalogue = default_catalogue()
    strong = ("fixtures/duel/rulebook/scoring-example-special-tile.toml",)
    weak = ("tests/test_model_setup.py",)
    # One private copy per run: each copy costs a worker's start (a whole project import, ~5 CPU s)
    # and the verdicts do not depend on it. The local pool's parallel path (two copies) is checked by
    # tests/test_cluster.py's mutant test, whose sandboxes start without the project import (issue 13).
    for tests, expected in ((strong, "guarded"), (weak, "unguarded")):
        plans, p = _one_clause_plan(untracked_duel_plans, clause, tests)
        assert p.mutants
        stored = {"clauses": run(ROOT, plans, [clause], 1, lambda r: None)}
        verdict = verdicts(ROOT, catalogue, plans, stored, tmp_path / "none.json")[clause]
        assert verdict.status == expected, (tests, verdict)
        if expected == "unguarded":
            assert verdict.survivors and all(s["diff"].startswith("--- a/model/") for s in verdict.survivors)
            assert diff_key(clause, verdict.survivors[0]["diff"]) == verdict.survivors[0]["key"]
    json.dumps(stored)   # the store stays plain JSON


def test_a_budget_spent_before_the_run_starts_no_private_copy(monkeypatch: pytest.MonkeyPatch,
                                                              untracked_duel_plans: dict[str, ClausePlan]) -> None:
    """`mutate --budget` spent during planning: every mutant comes back not run, and no copy of the
    project is made nor a worker started for them (about 1 CPU s; issue 13)."""
    import time

    from harness.mutation import runner

    def no_copy(root: Path) -> None:
        raise AssertionError("a private copy was made for a run with no time left")

    monkeypatch.setattr(runner, "sandbox", no_copy)
    mutants = untracked_duel_plans["duel.score.horizontal"].mutants[:2]
    work = [(m, ("tests/test_model_setup.py",), 60.0) for m in mutants]
    assert runner.run_all(ROOT, work, 1, lambda r: None, deadline=time.monotonic() - 1) == [None, None]
