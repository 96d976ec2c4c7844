"""simulate and interpretations, end to end: statistics, exit codes, counterexamples that replay."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from harness.scenarios import load_scenario, run_scenario
from properties.matrix import run_matrix
from properties.simulate import play_checked, run_campaign


def _cli(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "harness.cli", *args], capture_output=True, text=True, cwd=cwd)


def test_simulate_prints_statistics_and_passes(tmp_path: Path) -> None:
    run = _cli("simulate", "--games", "4", "--jobs", "1", "--out", str(tmp_path))
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr       # FAIL lines name seed, step, replay
    assert "4 passed, 0 failed" in run.stdout and "plates drawn blind" in run.stdout


def test_simulate_rejects_an_unknown_alternative_in_one_line() -> None:
    run = _cli("simulate", "--games", "1", "--interpretation", "duel.score.start=six")
    assert run.returncode == 2 and "no alternative 'six'" in run.stderr and "Traceback" not in run.stderr


def test_same_seed_same_campaign() -> None:
    a = run_campaign(3, seed=5)
    b = run_campaign(3, seed=5, jobs=2)
    assert [g.actions_log for g in a.games] == [g.actions_log for g in b.games]


@pytest.mark.clause("duel.acquire.end", "duel.acquire.plate.draw")
def test_matrix_finds_the_must_pay_deadlock_and_its_counterexample_replays(tmp_path: Path) -> None:
    rows = {r.label: r for r in run_matrix(1, seed=0, jobs=1, out=tmp_path)}
    assert rows["defaults"].broken == {}, "\n".join(f"{k}: {rows['defaults'].messages[k]}: replay: azul-rules scenario {v}"
                                                   for k, v in rows["defaults"].broken.items())
    deadlock = rows["duel.acquire.end.passed-tokens=strict + duel.plate.draw-at-zero=must-pay"]
    assert "progress" in deadlock.broken and deadlock.stalled == 1
    result = run_scenario(load_scenario(deadlock.broken["progress"]))
    assert not result.passed and any("invariant progress broken" in d for d in result.diffs)


def test_careful_policy_scores_more_than_uniform() -> None:
    uniform = sum(sum(play_checked(s, record=False, deep_every=0).scores) for s in range(8))
    careful = sum(sum(play_checked(s, record=False, deep_every=0, policy="careful").scores) for s in range(8))
    assert careful > uniform
