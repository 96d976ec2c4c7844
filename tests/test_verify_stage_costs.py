"""What verify's stages after the tests avoid doing (issue 13): work whose result nobody reads."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import harness.mutation.analysis as analysis
from harness.coverage import ROOT
from spec import default_catalogue


def test_judging_stored_results_finds_no_mutant(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """The mutation stage with nothing stale plans and judges every clause without parsing the
    modules for their mutants; a clause's mutants, when asked for, are the same as before."""
    found: list[str] = []
    real = analysis.mutants_of

    def counting(root: Path, extents: Any) -> Any:
        found.append(extents[0].file)
        return real(root, extents)
    monkeypatch.setattr(analysis, "mutants_of", counting)
    catalogue = default_catalogue("azul")
    tracking = tmp_path / "absent.json"
    plans = analysis.plan(ROOT, catalogue, tracking)
    stored = {"clauses": {cid: {"hash": p.hash, "tests": list(p.tests), "fallback": p.fallback, "mutants": []}
                          for cid, p in plans.items()}}
    assert analysis.stale(plans, stored) == []
    judged = analysis.verdicts(ROOT, catalogue, plans, stored, tracking)
    assert {v.status for cid, v in judged.items() if cid in plans} == {"no-mutants"}
    assert found == [], f"mutants found for nothing: {found[:3]}"
    one = max(plans.values(), key=lambda p: len(p.extents))
    assert one.mutants == tuple(real(ROOT, one.extents)) and len(one.mutants) > 0
    assert len(found) == 1                  # once per plan, then kept
    assert list(one.mutants) == list(one.mutants) and len(found) == 1


def test_verify_plays_every_game_on_one_pool(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """The simulation campaign, the matrix's rows and every other game's campaigns (one per player
    count) and matrix share one pool of worker processes: it is started once per verify run."""
    import concurrent.futures

    from rich.console import Console

    import harness.cluster as cluster
    import harness.pytest_run as pytest_run
    import harness.scenarios as scenarios
    import harness.verify as verify

    pools: list[int] = []

    class CountedPool(concurrent.futures.ProcessPoolExecutor):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            pools.append(1)
            super().__init__(*args, **kwargs)
    monkeypatch.setattr(cluster, "ProcessPoolExecutor", CountedPool)
    monkeypatch.setitem(verify.PROFILES, "ci", {"games": 4, "matrix_games": 2, "shrink": 0, "mutation_seconds": 1})
    monkeypatch.setattr(scenarios, "scenario_files", lambda folders: iter(()))    # not this test's stages:
    monkeypatch.setattr(verify, "_mutation", lambda st, *args: {})               # scenarios, mutants, report

    def no_tests(args: Any, **kwargs: Any) -> Any:
        return pytest_run.PytestRun(returncode=0, closing="none run")
    monkeypatch.setattr(pytest_run, "run_pytest", no_tests)
    monkeypatch.setattr(verify, "build_report", lambda inputs, out: None)
    monkeypatch.setattr(verify, "_publish", lambda out, log, found: None)
    verify.verify("ci", tmp_path / "report", jobs=2, console=Console(file=open("/dev/null", "w")))
    assert len(pools) == 1, f"{len(pools)} pools started for the games of one verify run"
