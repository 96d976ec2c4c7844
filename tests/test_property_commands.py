"""simulate and interpretations, end to end: statistics, exit codes, counterexamples that replay."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from harness.scenarios import load_scenario, run_scenario
from properties.matrix import run_matrix
from properties.simulate import play_checked, run_campaign
from tests.cli_helpers import run_cli


def _cli(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    """The command line in this process (tests/cli_helpers.py; issue 13); Ctrl-C below runs its own."""
    return run_cli(*args, cwd=cwd)


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
    assert all(len(g.actions_digest) == 32 for g in a.games)
    assert [g.actions_digest for g in a.games] == [g.actions_digest for g in b.games]


def test_a_campaign_keeps_sums_not_every_games_counters_and_logs() -> None:
    """Memory stays a few scalars per game (issue 13): the counters are summed as games arrive and a
    passing game's action log is replaced by its digest; the totals are those of the games played
    one by one."""
    import hashlib
    from collections import Counter

    from properties.simulate import GAME_COUNTERS, play_checked

    campaign = run_campaign(3, seed=5, jobs=2)
    alone = [play_checked(s) for s in (5, 6, 7)]
    for attr in GAME_COUNTERS:
        assert campaign.totals(attr) == sum((Counter(getattr(g, attr)) for g in alone), Counter()), attr
        assert all(not getattr(g, attr) for g in campaign.games)
    assert campaign.totals("clause_hits") and campaign.totals("draws")
    assert all(g.failure is None and g.actions_log == [] for g in campaign.games)
    assert [g.actions_digest for g in campaign.games] == [
        hashlib.blake2b("\n".join(g.actions_log).encode(), digest_size=16).hexdigest() for g in alone]


@pytest.mark.clause("duel.acquire.end", "duel.acquire.plate.draw")
def test_matrix_finds_the_must_pay_deadlock_and_its_counterexample_replays(tmp_path: Path) -> None:
    started: list[tuple[int, int, str]] = []
    rows = {r.label: r for r in run_matrix(1, seed=0, jobs=1, out=tmp_path, on_row=lambda *a: started.append(a))}
    assert [k for k, _, _ in started] == list(range(1, len(rows) + 1)) and started[0] == (1, len(rows), "defaults")
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


DEADLOCK = ("--interpretation", "duel.acquire.end.passed-tokens=strict",
            "--interpretation", "duel.plate.draw-at-zero=must-pay", "--policy", "uniform")   # every game stalls


def test_simulate_groups_failures_by_invariant_caps_files_and_writes_json(tmp_path: Path) -> None:
    import json

    run = _cli("simulate", "--games", "5", "--jobs", "1", *DEADLOCK, "--out", str(tmp_path / "ce"),
               "--max-counterexamples", "2", "--json", str(tmp_path / "run.json"))
    assert run.returncode == 1, run.stdout[-3000:] + run.stderr
    assert run.stdout.count("FAIL") == 1 and "5/5 broke progress (seeds 0-4)" in run.stdout, run.stdout
    assert "counterexamples written: 2 of 5" in run.stdout
    assert len(list((tmp_path / "ce").glob("*.toml"))) == 2
    data = json.loads((tmp_path / "run.json").read_text())
    assert data["failed"] == 5 and data["failures"][0]["invariant"] == "progress" and data["failures"][0]["games"] == 5
    assert [g["seed"] for g in data["results"]] == [0, 1, 2, 3, 4]
    assert data["results"][0]["failure"]["counterexample"].endswith("seed-0.toml")
    assert data["results"][4]["failure"]["counterexample"] is None          # past the cap: counted, not written
    assert "wins" in data["statistics"] and data["interpretations"]["duel.plate.draw-at-zero"] == "must-pay"


def test_simulate_json_holds_statistics_of_a_passing_run(tmp_path: Path) -> None:
    import json

    run = _cli("simulate", "--games", "2", "--jobs", "1", "--json", str(tmp_path / "run.json"), "--out", str(tmp_path))
    assert run.returncode == 0, run.stdout[-2000:] + run.stderr
    data = json.loads((tmp_path / "run.json").read_text())
    assert data["passed"] == 2 and data["statistics"]["score"]["max"] >= data["statistics"]["score"]["min"]
    assert len(data["results"]) == 2 and all(g["failure"] is None for g in data["results"])


@pytest.mark.parametrize("jobs", [1, 2])
def test_max_failures_stops_the_campaign_at_the_same_game_whatever_the_jobs(jobs: int) -> None:
    overrides = {"duel.acquire.end.passed-tokens": "strict", "duel.plate.draw-at-zero": "must-pay"}
    report = run_campaign(6, 0, overrides, jobs=jobs, max_failures=2)
    assert [g.seed for g in report.games] == [0, 1] and len(report.failures) == 2 and report.skipped == 4


def test_interpretations_fail_on_decides_the_exit_status() -> None:
    from harness.property_commands import failing_rows
    from properties.matrix import MatrixRow

    def row(label: str, broken: dict[str, str]) -> MatrixRow:
        return MatrixRow(label, {}, 1, broken, {k: "m" for k in broken}, 0, 0)
    holds, breaks = row("defaults", {}), row("x=y", {"progress": "p.toml"})
    assert failing_rows([holds, breaks], "default") == []
    assert failing_rows([holds, breaks], "any") == [breaks]
    assert failing_rows([breaks, holds], "default") == [breaks]


def test_interpretations_exit_status_with_fail_on_any(tmp_path: Path) -> None:
    run = _cli("interpretations", "--games", "1", "--jobs", "1", "--out", str(tmp_path), "--fail-on", "any")
    assert run.returncode == 1 and "rows break an invariant (--fail-on any)" in run.stdout, run.stdout[-2000:] + run.stderr


@pytest.mark.clock_bound
def test_shrink_row_keeps_to_its_time_budget(tmp_path: Path) -> None:
    import time

    from properties.matrix import shrink_row

    start = time.monotonic()
    assert shrink_row({}, tmp_path, seconds=2) is None          # the defaults hold: 200 examples would take minutes
    assert time.monotonic() - start < 20


def _flaky_after(monkeypatch: pytest.MonkeyPatch, seconds: float) -> None:
    """A machine whose run ends as Hypothesis ends one whose example our budget cut short mid-replay."""
    import time
    import types

    from hypothesis.errors import FlakyStrategyDefinition

    import properties.machine

    class Cut:
        settings = None

        def runTest(self) -> None:
            time.sleep(seconds)
            raise FlakyStrategyDefinition("Inconsistent data generation!")

    monkeypatch.setattr(properties.machine, "machine_for", lambda *args, **kwargs: types.SimpleNamespace(TestCase=Cut))


def test_shrink_row_calls_a_replay_its_own_budget_cut_short_out_of_time_not_an_error(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A clean-clone CI run (2026-12-01) failed here: the 2 s budget expired inside an example, and
    Hypothesis, replaying it, stopped elsewhere and raised FlakyStrategyDefinition."""
    from properties.matrix import shrink_row

    _flaky_after(monkeypatch, 0.3)
    assert shrink_row({}, tmp_path, seconds=0.1) is None


def test_shrink_row_still_raises_hypothesis_errors_within_its_budget(tmp_path: Path,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    from hypothesis.errors import FlakyStrategyDefinition

    from properties.matrix import shrink_row

    _flaky_after(monkeypatch, 0.0)
    with pytest.raises(FlakyStrategyDefinition):
        shrink_row({}, tmp_path, seconds=30)


def test_shrink_row_keeps_hypothesis_please_report_this_from_the_user(tmp_path: Path, monkeypatch, capsys) -> None:  # type: ignore[no-untyped-def]
    """Hypothesis prints "PLEASE REPORT THIS" when shrinking runs past its own limit (five minutes);
    the limit set to zero makes it print at the first shrink of a planted failure."""
    import hypothesis.internal.conjecture.engine as engine
    from hypothesis import strategies as st
    from hypothesis.reporting import with_reporter
    from hypothesis.stateful import RuleBasedStateMachine, rule

    import properties.machine
    from properties.failure import InvariantBroken
    from properties.matrix import shrink_row

    class Planted(RuleBasedStateMachine):
        @rule(n=st.integers(0, 10_000))
        def take(self, n: int) -> None:
            if n > 10:
                raise InvariantBroken("planted", f"n = {n}", seed=None, step=1, scenario=tmp_path / "planted.toml")

    from hypothesis import settings
    Planted.TestCase.settings = settings(database=None, derandomize=True, max_examples=200)   # no replay of a saved case
    monkeypatch.setattr(engine, "MAX_SHRINKING_SECONDS", 0)
    heard: list[str] = []
    with with_reporter(heard.append):                      # the planted failure does make Hypothesis say it
        try:
            Planted.TestCase().runTest()
        except BaseException:
            pass
    assert any("PLEASE REPORT THIS" in str(m) for m in heard)
    capsys.readouterr()
    monkeypatch.setattr(properties.machine, "machine_for", lambda overrides, directory, **kw: Planted)
    shrunk = shrink_row({}, tmp_path, seconds=30)
    assert shrunk is not None and shrunk.invariant == "planted"
    out = capsys.readouterr()
    assert "PLEASE REPORT" not in out.out + out.err and "Falsifying" not in out.out + out.err


@pytest.mark.process
def test_ctrl_c_stops_a_parallel_simulate_with_130_and_no_worker_tracebacks(tmp_path: Path) -> None:
    import os
    import signal
    import time

    proc = subprocess.Popen([sys.executable, "-m", "harness.cli", "simulate", "--games", "2000", "--jobs", "2",
                             "--out", str(tmp_path)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True)
    time.sleep(8)                                   # start-up, then games running in both workers
    os.killpg(proc.pid, signal.SIGINT)              # as Ctrl-C does: the whole process group
    try:
        out, err = proc.communicate(timeout=60)
    finally:
        proc.kill()
    assert proc.returncode == 130, out[-2000:] + err[-3000:]
    assert "Traceback" not in err and "KeyboardInterrupt" not in err, err[-3000:]


def test_a_greedy_and_a_uniform_failure_of_one_seed_are_two_files(tmp_path: Path) -> None:
    """verify's campaign (greedy) and the matrix's defaults row (uniform) play the same seeds into one
    folder: each keeps its own counterexample, whichever stage writes first (review finding)."""
    from collections import Counter

    from properties.simulate import GameReport, write_failure

    def broken(actions: list[str]) -> GameReport:
        return GameReport(0, 1, len(actions), (5, 5), None, "", False, ("progress", "planted"), 1, Counter(),
                          Counter(), Counter(), Counter(), Counter(), actions)

    greedy = write_failure(broken(["plate 1"]), {}, tmp_path, "greedy")
    uniform = write_failure(broken(["plate 2"]), {}, tmp_path, "uniform")
    assert greedy != uniform and greedy.name == "progress-defaults-greedy-seed-0.toml"
    assert "plate 1" in greedy.read_text() and "plate 2" in uniform.read_text()
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([greedy.name, uniform.name])  # no partial file left


def test_a_classic_counterexample_at_four_players_loads_as_a_scenario(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """A failed 4-player classic game is written with its player count where classic scenarios keep
    it (`[given] players`): a top-level `players = 4` is a key the scenario loader refuses, so the
    counterexample could not be replayed."""
    from harness.azul.scenarios.loader import load_scenario
    from model.azul.game import Game
    from properties.simulate import play_checked, write_failure

    monkeypatch.setattr(Game, "legal_actions", lambda self: [])
    report = play_checked(0, {}, game="azul", players=4, record=False)
    assert report.failure is not None
    path = write_failure(report, {}, tmp_path)
    scenario = load_scenario(path)
    assert scenario.given.get("players") == 4, path.read_text()
