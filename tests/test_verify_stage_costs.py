"""What verify's stages after the tests avoid doing (issue 13): work whose result nobody reads."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

import harness.mutation.analysis as analysis
from harness.coverage import ROOT
from spec import default_catalogue

pytestmark = pytest.mark.process          # verify's process pools and their forks


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
    again = one.mutants
    assert again == tuple(real(ROOT, one.extents)) and len(found) == 1


def _verify_games_only(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, games: int) -> None:
    """Run verify's ci profile with `games` campaign games and nothing else: no scenarios, no tests,
    no mutants, no report (those are not these tests' stages)."""
    from rich.console import Console

    import harness.pytest_run as pytest_run
    import harness.scenarios as scenarios
    import harness.verify as verify

    monkeypatch.setitem(verify.PROFILES, "ci", {"games": games, "matrix_games": 1, "shrink": 0, "mutation_seconds": 1})
    monkeypatch.setattr(scenarios, "scenario_files", lambda folders: iter(()))
    monkeypatch.setattr(verify, "_mutation", lambda st, *args, **kwargs: {})
    monkeypatch.setattr(pytest_run, "run_pytest",
                        lambda args, **kwargs: pytest_run.PytestRun(returncode=0, closing="none run"))
    monkeypatch.setattr(verify, "build_report", lambda inputs, out: None)
    monkeypatch.setattr(verify, "_publish", lambda out, log, found: None)
    # no scenario files make the scenario stage red: the playing stages are asked for all the same
    verify.verify("ci", tmp_path / "report", jobs=2, console=Console(file=open("/dev/null", "w")), measure_on_red=True)


def test_verify_plays_every_game_on_one_pool(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """The simulation campaign, the matrix's rows and every other game's campaigns (one per player
    count) and matrix share one pool of worker processes: it is started once per verify run."""
    import concurrent.futures

    import properties.cluster as cluster

    pools: list[int] = []

    class CountedPool(concurrent.futures.ProcessPoolExecutor):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            pools.append(1)
            super().__init__(*args, **kwargs)
    monkeypatch.setattr(cluster, "ProcessPoolExecutor", CountedPool)
    _verify_games_only(monkeypatch, tmp_path, games=4)
    assert len(pools) == 1, f"{len(pools)} pools started for the games of one verify run"


def test_verify_hands_every_stage_its_games_at_once(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """The pool gets the other game's games while the first campaign still plays (it never idles at a
    stage's end waiting for the next stage to submit), and every stage still shows its own games."""
    import concurrent.futures

    import harness.verify as verify
    import properties.cluster as cluster

    events: list[str] = []

    class WatchedPool(concurrent.futures.ProcessPoolExecutor):
        def submit(self, fn: Any, /, *args: Any, **kwargs: Any) -> Any:
            if args and isinstance(args[0], tuple):                 # _play_batch's item: (seeds, ..., game, ...)
                events.append(f"submit {args[0][5]}")
            return super().submit(fn, *args, **kwargs)
    monkeypatch.setattr(cluster, "ProcessPoolExecutor", WatchedPool)
    real_stage = verify._stage

    def watched_stage(console: Any, stages: list[Any], name: str, fn: Any) -> Any:
        result = real_stage(console, stages, name, fn)
        events.append(f"shown {name}")
        return result
    monkeypatch.setattr(verify, "_stage", watched_stage)
    _verify_games_only(monkeypatch, tmp_path, games=8)
    first_shown = events.index("shown simulation campaign")
    assert "submit azul" in events[:first_shown], "the other game's games were submitted only after the first stage"
    shown = [e for e in events if e.startswith("shown")]
    assert shown.index("shown simulation campaign") < shown.index("shown interpretation matrix") < \
        shown.index("shown azul: simulation campaign") < shown.index("shown azul: interpretation matrix")


@pytest.mark.parametrize("slow_warm_up", [False, True])
def test_verify_forks_its_workers_before_its_threads_start(monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
                                                           slow_warm_up: bool) -> None:
    """The pool's processes fork while no thread of verify's own runs (harness.ahead's, the warm-up,
    even one that outlives its wait): a process forked while another thread holds an import's lock
    would wait for that lock forever."""
    import concurrent.futures
    import threading
    import time

    import harness.verify as verify
    import properties.cluster as cluster

    forks: list[list[str]] = []

    class WatchedPool(concurrent.futures.ProcessPoolExecutor):
        def _spawn_process(self) -> None:
            forks.append([t.name for t in threading.enumerate() if t.name.startswith("verify-")])
            super()._spawn_process()     # type: ignore[misc]
    monkeypatch.setattr(cluster, "ProcessPoolExecutor", WatchedPool)
    if slow_warm_up:                     # a warm-up still going when the test stage's wait for it ends
        monkeypatch.setattr(verify, "WARM_UP_SECONDS", 0.05)
        monkeypatch.setattr(verify, "warm_up", lambda: time.sleep(1.0))
    _verify_games_only(monkeypatch, tmp_path, games=2)
    assert len(forks) == 2 and forks == [[], []], f"threads running at each fork: {forks}"


def _pictures_here(fixtures: Path | None, tmp: Path, extra: list[Path]) -> dict[str, str]:
    (tmp.parent / "drawn-by").write_text(str(os.getpid()))
    return {}


def test_the_report_draws_the_board_pictures_in_a_process_of_their_own(monkeypatch: pytest.MonkeyPatch,
                                                                       tmp_path: Path) -> None:
    """The board pictures (a second of the report stage) are drawn beside the charts, not after them."""
    import harness.report as report
    from spec import default_catalogue

    monkeypatch.setattr(report, "_pictures", _pictures_here)
    inputs = report.ReportInputs(default_catalogue(), [], {}, [], 1, {}, {"games": 0, "failures": 0}, 0, "ci", 0,
                                 fixtures=ROOT / "fixtures")
    out = report.build_report(inputs, tmp_path / "report")
    assert (out / "index.html").exists()
    assert int((tmp_path / "drawn-by").read_text()) != os.getpid()
