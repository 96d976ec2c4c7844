"""`azul-rules verify` on a red suite: the stages that would only measure noise (mutation, the
campaign, the matrix) are reported "not run: tests failed", and tests/mutants.json is never written
from a red suite, also when they are asked for (--measure-on-red)."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console

import harness.mutation.analysis as analysis
import harness.mutation.store as store
import harness.pytest_run as pytest_run
import harness.scenarios as scenarios
import harness.verify as verify
import properties.matrix as matrix
import properties.simulate as simulate
from harness.coverage import ROOT

pytestmark = pytest.mark.output          # the output tier: `make test` leaves it out (pyproject.toml)

PASSING_SCENARIO = ROOT / "fixtures/duel/rulebook/plate-draw-pays-two.toml"
MEASURING = ("mutation analysis", "simulation campaign", "interpretation matrix",
             "azul: simulation campaign", "azul: interpretation matrix", "azul: mutation analysis")


def _red_verify(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, measure_on_red: bool,
                report: bool = False) -> tuple[int, str, Any]:
    """verify with one passing scenario and a failing test stage; the report's inputs captured (and
    the report built from them with `report`)."""
    monkeypatch.setitem(verify.PROFILES, "ci", {"games": 4, "matrix_games": 1, "shrink": 0, "mutation_seconds": 60})
    monkeypatch.setattr(scenarios, "scenario_files", lambda folders: iter([PASSING_SCENARIO]))
    monkeypatch.setattr(pytest_run, "run_pytest", lambda args, **kwargs: pytest_run.PytestRun(
        failed=["tests/test_x.py::test_y"], returncode=1, closing="1 failed, 9 passed"))
    captured: list[Any] = []
    build = verify.build_report
    monkeypatch.setattr(verify, "build_report",
                        lambda inputs, out: (captured.append(inputs), build(inputs, out) if report else None))
    if not report:
        monkeypatch.setattr(verify, "_publish", lambda out, log, found: None)
    buf = io.StringIO()
    status = verify.verify("ci", tmp_path / "report", jobs=1, console=Console(file=buf, width=200),
                           measure_on_red=measure_on_red)
    return status, buf.getvalue(), captured[0]


def test_a_red_suite_measures_nothing_and_keeps_the_store(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    def never(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("a measuring stage ran on a red suite")
    for module, name in ((analysis, "run"), (store, "save_results"), (simulate, "run_campaign"),
                         (matrix, "run_matrix")):
        monkeypatch.setattr(module, name, never)
    status, text, inputs = _red_verify(monkeypatch, tmp_path, measure_on_red=False, report=True)
    assert status == 1
    stages = {s["name"]: s for s in inputs.stages}
    for name in MEASURING:
        assert stages[name]["ran"] is False and stages[name]["detail"].startswith("not run: tests failed"), name
        assert f"{name}: not run: tests failed" in text
    assert stages["tests and properties"]["ran"] and not stages["tests and properties"]["ok"]
    # the clauses' guard status still comes from the stored results, by the one status function
    rows = {r.id: r for r in inputs.clauses}
    assert rows["duel.component.tiles"].guard["status"] == "no-site"
    assert "-guarded" not in rows["duel.component.tiles"].missing
    # the report of a red run is written, with the stages that did not run and why
    import json
    data = json.loads((tmp_path / "report" / "coverage.json").read_text())
    assert {s["name"] for s in data["verdict"]["all_stages"] if s.get("ran") is False} == set(MEASURING)
    assert data["matrix"] == [] and data["verdict"]["tests"] == [] and not data["verdict"]["ok"]


def test_asked_for_on_red_the_stages_run_but_the_store_is_not_written(monkeypatch: pytest.MonkeyPatch,
                                                                      tmp_path: Path) -> None:
    ran: list[list[str]] = []
    saved: list[Any] = []

    def fake_run(root: Path, plans: Any, clauses: Any, jobs: Any, on_result: Any, deadline: Any = None) -> Any:
        ran.append(list(clauses))
        return {}
    monkeypatch.setattr(analysis, "stale", lambda plans, stored: sorted(plans)[:1])
    monkeypatch.setattr(analysis, "run", fake_run)
    monkeypatch.setattr(store, "save_results", lambda root, data: saved.append(data))
    status, text, inputs = _red_verify(monkeypatch, tmp_path, measure_on_red=True)
    assert status == 1
    stages = {s["name"]: s for s in inputs.stages}
    assert all(stages[name]["ran"] for name in MEASURING)
    assert ran, "mutation did not run although asked for"
    assert saved == [], "tests/mutants.json was written from a red suite"
    assert "not written (the suite is red)" in stages["mutation analysis"]["detail"]
