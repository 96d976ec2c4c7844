"""`azul-rules verify`: spec lint -> scenarios -> tests and properties -> simulation -> interpretation
matrix -> coverage -> report, with a progress display per stage and a final summary."""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
import tomllib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import attrs
from rich.console import Console
from rich.table import Table

from harness.coverage import ROOT, compute, lint, load_test_results, summary
from harness.report import ReportInputs, build_report
from spec import default_catalogue, validate

PROFILES: dict[str, dict[str, int]] = {
    "ci": {"games": 200, "matrix_games": 20, "shrink": 0},
    "dev": {"games": 1000, "matrix_games": 60, "shrink": 0},
    "deep": {"games": 10000, "matrix_games": 400, "shrink": 1},   # Hypothesis shrinks each broken row
}


@attrs.define
class Stage:
    name: str
    ok: bool = True
    detail: str = ""
    seconds: float = 0.0


def asserted_threshold() -> float:
    data = tomllib.loads((ROOT / "pyproject.toml").read_text())
    return float(data.get("tool", {}).get("azul-rules", {}).get("asserted_threshold", 0.0))


def guarded_threshold() -> float:
    data = tomllib.loads((ROOT / "pyproject.toml").read_text())
    return float(data.get("tool", {}).get("azul-rules", {}).get("guarded_threshold", 0.0))


def _stage(console: Console, stages: list[Stage], name: str, fn: Callable[[Stage], Any]) -> Any:
    stage = Stage(name)
    start = time.perf_counter()
    with console.status(f"[bold]{name}[/bold] ..."):
        result = fn(stage)
    stage.seconds = time.perf_counter() - start
    stages.append(stage)
    mark = "[green]ok[/green]" if stage.ok else "[red]FAILED[/red]"
    console.print(f"{mark} {name}: {stage.detail} [dim]({stage.seconds:.1f}s)[/dim]", highlight=False)
    return result


SCENARIO_SECONDS = 60           # one scenario file takes milliseconds; past this the model hangs


def verify(profile: str = "ci", out: Path = Path("report"), jobs: int | None = None,
           console: Console | None = None) -> int:
    console = console or Console()
    settings = PROFILES[profile]
    jobs = jobs or max(1, os.cpu_count() or 1)
    stages: list[Stage] = []

    def spec_lint(st: Stage) -> None:
        _, problems = validate()
        st.ok = not problems
        st.detail = "no problems" if st.ok else "; ".join(map(str, problems[:3]))
    _stage(console, stages, "spec lint", spec_lint)
    if not stages[-1].ok:
        return _finish(console, stages)
    catalogue = default_catalogue()
    from harness.spec_commands import summary_table
    console.print(summary_table(catalogue))

    def scenarios(st: Stage) -> int:
        from harness.scenarios import ScenarioError, load_scenario, run_scenario, scenario_files
        from properties.watchdog import TimeBudgetExceeded, alarm, limit_memory
        limit_memory()                  # watchdogs: a runaway fails with MemoryError (docs/design.md)
        files = list(scenario_files([ROOT / "fixtures"]))
        failed = []
        for path in files:
            try:
                with alarm(SCENARIO_SECONDS):
                    if not run_scenario(load_scenario(path)).passed:
                        failed.append(path.name)
            except ScenarioError as exc:
                failed.append(str(exc))
            except TimeBudgetExceeded:
                failed.append(f"{path.name}: no end within {SCENARIO_SECONDS} s (a model loop hangs)")
        st.ok = not failed and bool(files)
        st.detail = f"{len(files) - len(failed)}/{len(files)} passed" + (f"; failed: {', '.join(failed[:3])}" if failed else "")
        return len(files)
    scenario_count = _stage(console, stages, "scenarios", scenarios)

    tests_json = Path(tempfile.mkdtemp(prefix="azul-verify-")) / "tests.json"

    def tests(st: Stage) -> None:
        log = ROOT / ".azul-rules" / "pytest.log"
        log.parent.mkdir(exist_ok=True)
        env = {**os.environ, "HYPOTHESIS_PROFILE": profile}
        run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                              f"--clause-json={tests_json}"], cwd=ROOT, env=env, capture_output=True, text=True)
        log.write_text(run.stdout + run.stderr)
        last = (run.stdout.strip().splitlines() or ["no output"])[-1]
        st.ok = run.returncode == 0
        st.detail = last.strip("= ") + ("" if st.ok else f" (log: {log.relative_to(ROOT)})")
    _stage(console, stages, "tests and properties", tests)
    test_results = load_test_results(tests_json)

    def mutation(st: Stage) -> dict[str, dict[str, Any]]:
        from harness.mutation.analysis import plan, run, stale, verdicts
        from harness.mutation.store import RESULTS, load_results, save_results
        plans = plan(ROOT, catalogue, tests_json)
        stored = load_results(ROOT)
        todo = list(plans) if profile == "deep" else stale(plans, stored)
        if todo:
            stored.setdefault("clauses", {}).update(run(ROOT, plans, todo, jobs, lambda r: None))
            stored["clauses"] = {k: v for k, v in sorted(stored["clauses"].items()) if k in plans}
            save_results(ROOT, stored)
        judged = verdicts(ROOT, catalogue, plans, stored, tests_json)
        guarded = sum(v.guarded for v in judged.values())
        share = guarded / len(judged) if judged else 0.0
        threshold = guarded_threshold()
        killed = sum(v.killed for v in judged.values() if v.status in ("guarded", "unguarded"))
        total = sum(v.total for v in judged.values() if v.status in ("guarded", "unguarded"))
        st.ok = share >= threshold
        st.detail = (f"{guarded}/{len(judged)} clauses guarded ({share:.0%}, threshold {threshold:.0%}); "
                     f"mutants killed {killed}/{total}; {len(todo)} clause(s) re-run, the rest from {RESULTS}")
        return {cid: {"status": v.status, "killed": v.killed, "total": v.total, "equivalent": v.equivalent,
                      "survivors": list(v.survivors), "tests": list(v.tests)} for cid, v in judged.items()}
    guard = _stage(console, stages, "mutation analysis", mutation)

    def simulation(st: Stage) -> Any:
        from properties.simulate import run_campaign, write_failure
        campaign = run_campaign(settings["games"], 0, {}, jobs=jobs, policy="greedy")   # scores: the oracle sees points
        failures = campaign.failures
        for g in failures:
            write_failure(g, {}, ROOT / "counterexamples")
        st.ok = not failures
        st.detail = f"{settings['games']} games, {len(failures)} broke an invariant"
        return campaign
    campaign = _stage(console, stages, "simulation campaign", simulation)

    def matrix(st: Stage) -> list[dict[str, Any]]:
        from properties.matrix import run_matrix
        rows = run_matrix(settings["matrix_games"], 0, jobs, ROOT / "counterexamples")
        if settings["shrink"]:
            from properties.matrix import shrink_row
            for i, row in enumerate(rows):
                if row.broken:
                    shrunk = shrink_row(row.overrides, ROOT / "counterexamples")
                    if shrunk:
                        name, path = shrunk
                        rows[i] = attrs.evolve(row, broken={**row.broken, name: path})
        defaults = rows[0]
        st.ok = not defaults.broken
        broken_rows = sum(bool(r.broken) for r in rows)
        st.detail = (f"{len(rows)} rows x {settings['matrix_games']} games; defaults "
                     f"{'hold' if st.ok else 'BREAK ' + ', '.join(defaults.broken)}; {broken_rows} rows break an invariant")
        return [r.to_json() for r in rows]
    matrix_rows = _stage(console, stages, "interpretation matrix", matrix)

    def coverage(st: Stage) -> Any:
        rows = compute(catalogue, test_results, campaign.totals("clause_hits"), guard)
        problems = lint(catalogue, test_results)
        s = summary(rows)["total"]
        threshold = asserted_threshold()
        st.ok = not problems and s["asserted_share"] >= threshold
        st.detail = (f"{s['implemented']}/{s['total']} implemented, {s['exercised']} exercised, {s['asserted']} asserted "
                     f"({s['asserted_share']:.0%}, threshold {threshold:.0%})")
        if problems:
            st.detail += f"; lint: {len(problems)} problem(s): " + "; ".join(problems[:3])
        return rows
    clause_rows = _stage(console, stages, "coverage", coverage)

    def report(st: Stage) -> None:
        branches = campaign.totals("branches")
        camp = {"games": len(campaign.games), "failures": len(campaign.failures),
                **{k: v for k, v in sorted(branches.items())}}
        alt_hits = campaign.totals("alt_hits")
        build_report(ReportInputs(catalogue, clause_rows, test_results, matrix_rows, settings["matrix_games"],
                                  campaign.totals("edge_hits"), camp, len(campaign.games), profile, scenario_count,
                                  {f"{i}={a}": n for (i, a), n in sorted(alt_hits.items())}),
                     out)
        st.detail = f"{out}/index.html, coverage.md, coverage.json"
    _stage(console, stages, "report", report)
    return _finish(console, stages)


def _finish(console: Console, stages: list[Stage]) -> int:
    table = Table(title="azul-rules verify")
    for col in ("stage", "result", "seconds"):
        table.add_column(col)
    for st in stages:
        table.add_row(st.name, "[green]ok[/green]" if st.ok else "[red]FAILED[/red]", f"{st.seconds:.1f}")
    console.print(table)
    return 0 if all(st.ok for st in stages) else 1
