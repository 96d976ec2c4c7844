"""Cost-aware mutant runs (harness.mutation.selection, runner, worker): the tests bearing on a clause
run cheapest first and stop at the first failure, slow tests run in a late stage only when the quick
ones all passed, each stage is cut at a clock derived from its tests' measured duration, and the
worker runs them under the mutation Hypothesis profile."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from harness.mutation import profile, selection
from harness.mutation.analysis import plan
from harness.mutation.runner import run_all
from harness.mutation.selection import CLOCK_FACTOR, CLOCK_OVERHEAD, LATE_SECONDS, Stage, clock, stages
from harness.mutation.store import clause_hash
from harness.mutation.worker import MAX_SLOWDOWN, slowdown
from spec import default_catalogue

ROOT = Path(__file__).resolve().parents[1]
CLAUSE = "duel.score.horizontal"
PROBES = "tests/test_mutation_probes.py::"


def _record(nodeid: str, duration: float, cost: int) -> selection.TestRecord:
    return selection.TestRecord(nodeid, duration, frozenset({CLAUSE}), frozenset({CLAUSE}), True, cost)


def test_slow_tests_run_in_a_late_stage_and_each_stage_runs_cheapest_first_by_rule_hits() -> None:
    # A property test with few rule hits still waits for the quick stage; within a stage the order is
    # by rule hits, not seconds (a small step-bounded test before a fast unbounded one: see stages()).
    chosen = [_record("t::campaign", 16.0, 10), _record("t::bounded", 0.5, 1), _record("t::a", 0.002, 900),
              _record("t::property", LATE_SECONDS, 5)]
    quick, late = stages(chosen)
    assert quick.tests == ("t::bounded", "t::a")
    assert late.tests == ("t::property", "t::campaign")
    assert stages([_record("t::a", 0.1, 1)]) == (Stage(("t::a",), clock([_record("t::a", 0.1, 1)])),)


def test_a_stage_is_cut_at_k_times_its_measured_duration_not_a_fixed_long_clock() -> None:
    quick = [_record(f"t::q{k}", 0.003, 1) for k in range(15)]
    assert clock(quick) == pytest.approx(CLOCK_FACTOR * 0.045 + CLOCK_OVERHEAD, abs=0.1)
    assert clock(quick) < 30                        # the old floor for every clause
    assert clock([_record("t::campaign", 16.0, 1)]) == pytest.approx(CLOCK_FACTOR * 16 + CLOCK_OVERHEAD)


def test_a_stage_clock_stretches_with_the_machine_load_within_a_bound() -> None:
    assert slowdown(load=0.3, cores=2) == 1.0
    assert slowdown(load=11.0, cores=2) == pytest.approx(5.5)
    assert slowdown(load=500.0, cores=2) == MAX_SLOWDOWN


def _tracking(path: Path, durations: dict[str, float]) -> Path:
    tests = {nodeid: {"outcome": "passed", "duration": d, "declared": [CLAUSE], "fired": {CLAUSE: 1}}
             for nodeid, d in durations.items()}
    path.write_text(json.dumps({"tests": tests}))
    return path


def test_the_plan_runs_in_stages_and_its_hash_does_not_move_with_measured_durations(tmp_path: Path) -> None:
    # Tests that exist (a tracked test that is gone is not selected: tests/test_tracking_stale.py).
    a, b = "tests/test_model_setup.py::test_setup_lays_out_the_table", \
        "tests/test_model_setup.py::test_turns_alternate_from_the_starting_player"
    catalogue = default_catalogue()
    one = plan(ROOT, catalogue, _tracking(tmp_path / "one.json", {a: 0.01, b: 2.0}))[CLAUSE]
    two = plan(ROOT, catalogue, _tracking(tmp_path / "two.json", {a: 3.0, b: 0.02}))[CLAUSE]
    assert [st.tests for st in one.stages] == [(a,), (b,)]          # the slow one in the late stage
    assert [st.tests for st in two.stages] == [(b,), (a,)]
    assert one.timeout == pytest.approx(sum(st.timeout for st in one.stages))
    assert one.hash == two.hash                     # same tests, same verdicts: not stale
    # ... but the Hypothesis profile mutants run under is part of what the verdict depends on.
    assert one.hash != clause_hash(ROOT, one.extents, one.tests)
    assert one.hash == clause_hash(ROOT, one.extents, one.tests, (profile.key(),))


@pytest.mark.process
def test_a_worker_stops_at_the_first_failure_skips_the_late_stage_and_cuts_a_stage_at_its_clock(
        monkeypatch: pytest.MonkeyPatch, untracked_duel_plans: dict) -> None:
    monkeypatch.setenv("AZUL_MUTATION_PROBES", "1")
    monkeypatch.setenv("AZUL_MUTATE_SLOWDOWN", "3")                            # clocks x3, whatever the load
    mutant = untracked_duel_plans[CLAUSE].mutants[0]
    fails, passes, sleeps = PROBES + "test_probe_fails", PROBES + "test_probe_passes", PROBES + "test_probe_sleeps"
    setup = PROBES + "test_probe_runs_under_the_mutation_profile_in_a_prepared_worker"
    work = [
        (mutant, (Stage((fails, sleeps), 40.0),), 40.0),                      # -x: the sleeper never runs
        (mutant, (Stage((fails,), 40.0), Stage((sleeps,), 40.0)), 80.0),      # the late stage never runs
        (mutant, (Stage((passes,), 40.0), Stage((sleeps,), 1.0)), 41.0),      # cut at the late stage's clock
        (mutant, (Stage((setup,), 40.0),), 40.0),
    ]
    killed_in_one, killed_in_quick, cut, prepared = run_all(ROOT, work, 1, lambda _r: None)
    assert killed_in_one is not None and killed_in_quick is not None and cut is not None and prepared is not None
    assert (killed_in_one.status, killed_in_one.killer) == ("killed", fails)
    assert killed_in_one.seconds < 40
    assert (killed_in_quick.status, killed_in_quick.killer) == ("killed", fails)
    assert killed_in_quick.seconds < 40 and killed_in_quick.tests == 2
    assert (cut.status, cut.killer) == ("timeout", "no verdict within 3 s")         # 1 s, stretched x3
    assert 3 <= cut.seconds < 30
    assert prepared.status == "survived", prepared


def test_a_clock_bound_test_is_never_picked_for_a_clause_it_only_fired(tmp_path: Path) -> None:
    """What a clock-cut test fires moves with the machine's speed; picked for firing, it would move the
    clause's test set and so its stored results' hash from one machine to the next (a clean-clone CI
    re-ran duel.end.winner for a 2-second shrink test). Declaring the clause still selects it."""
    tests = {"t::fired": {"outcome": "passed", "duration": 0.1, "declared": [], "fired": {CLAUSE: 1}},
             "t::clocked": {"outcome": "passed", "duration": 2.0, "declared": [], "fired": {CLAUSE: 1},
                            "clock_bound": True},
             "t::clocked-declared": {"outcome": "passed", "duration": 2.0, "declared": [CLAUSE],
                                     "fired": {CLAUSE: 1}, "clock_bound": True}}
    record = tmp_path / "tests.json"
    record.write_text(json.dumps({"tests": tests}))
    chosen = selection.tests_for(CLAUSE, selection.load_tracking(record, {}))
    assert sorted(r.nodeid for r in chosen) == ["t::clocked-declared", "t::fired"]


def test_the_plugin_records_a_clock_bound_test(tmp_path: Path) -> None:
    import subprocess

    from tests.cli_helpers import PYTEST_OUTSIDE

    (tmp_path / "test_c.py").write_text("import pytest\n\n@pytest.mark.clock_bound\ndef test_cut():\n    pass\n\n"
                                        "def test_plain():\n    pass\n")
    record = tmp_path / "tests.json"
    done = subprocess.run([*PYTEST_OUTSIDE, "--strict-markers", f"--clause-json={record}", str(tmp_path)],
                          cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    tests = json.loads(record.read_text())["tests"]
    assert tests["test_c.py::test_cut"].get("clock_bound") is True
    assert "clock_bound" not in tests["test_c.py::test_plain"]
