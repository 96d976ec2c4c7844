"""Which tests bear on a clause, and in what order they run against its mutants.

The set: every passing test that declares the clause (`@pytest.mark.clause`, a scenario's
`clauses`), plus the cheapest few of those that merely fired it (the recorder's per-test tracking).
"Cheapest" for choosing the set is measured by how many rule sites the test fired, a deterministic
stand-in for its running time, so the set (and the stored results' hash) does not move with the
machine's load, and adding a long campaign test does not make every clause's results stale.

The order (`stages`): two stages split by the duration the tracking record measured, each cheapest
first by rule hits. The quick tests run first; the slow ones (property tests, campaigns: `LATE_SECONDS` or more) run
only when every quick test passed, under the mutation Hypothesis profile. Each stage is cut at a
clock of `CLOCK_FACTOR` times its tests' measured duration plus `CLOCK_OVERHEAD`, which the worker
stretches by the machine's load (harness.mutation.worker.slowdown; a stage cut by its clock is a
timeout, never a kill). When no tracking exists for a clause, the whole suite runs."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import attrs


@attrs.frozen
class TestRecord:
    nodeid: str
    duration: float
    fired: frozenset[str]
    declared: frozenset[str]
    passed: bool
    cost: int = 0                    # clause hits the test fired: a deterministic measure of its size

    @property
    def file(self) -> str:
        return self.nodeid.split("::", 1)[0]


def load_tracking(path: Path, resolve: Mapping[str, str]) -> list[TestRecord]:
    """The suite's per-test record (written by the pytest plugin's --clause-json)."""
    if not path.exists():
        return []
    data: dict[str, Any] = json.loads(path.read_text())["tests"]
    out = []
    for nodeid, entry in sorted(data.items()):
        fired = frozenset(resolve.get(c, c) for c in entry.get("fired", {}))
        declared = frozenset(resolve.get(c.partition("@")[0], c.partition("@")[0]) for c in entry.get("declared", []))
        out.append(TestRecord(nodeid, float(entry.get("duration", 1.0)), fired, declared,
                              entry.get("outcome") == "passed", sum(int(v) for v in entry.get("fired", {}).values())))
    return out


# The mutation analysis's own tests plant mutants themselves: never run them against a mutant.
NOT_SELECTED = ("tests/test_mutation.py",)


# How many tests that fired a clause without declaring it join the clause's declared tests.
FIRING_TESTS = 8


def tests_for(clause: str, records: list[TestRecord]) -> list[TestRecord]:
    """The tests bearing on `clause`, cheapest first; [] when none."""
    usable = [r for r in records if r.passed and r.file not in NOT_SELECTED]
    declared = [r for r in usable if clause in r.declared]
    firing = sorted((r for r in usable if clause in r.fired and clause not in r.declared),
                    key=lambda r: (r.cost, r.nodeid))[:FIRING_TESTS]
    return sorted(declared + firing, key=lambda r: (r.cost, r.nodeid))


def whole_suite(records: list[TestRecord]) -> list[TestRecord]:
    return sorted((r for r in records if r.passed and r.file not in NOT_SELECTED), key=lambda r: (r.cost, r.nodeid))


# A test measured at this many seconds or more runs in the late stage: only when every quicker
# test passed (a mutant the quick tests kill never pays for it), under the mutation profile.
LATE_SECONDS = 1.0
# A stage's clock: this many times its tests' measured duration, plus a fixed allowance for
# forking, collection and a loaded machine.
CLOCK_FACTOR = 3.0
CLOCK_OVERHEAD = 10.0
@attrs.frozen
class Stage:
    """Tests run together with `-x` against one mutant, cut at `timeout` seconds."""

    tests: tuple[str, ...]
    timeout: float


def clock(records: Sequence[TestRecord]) -> float:
    """The seconds a stage of these tests gets before its mutant is called a timeout."""
    return round(CLOCK_FACTOR * sum(r.duration for r in records) + CLOCK_OVERHEAD, 1)


def stages(chosen: Sequence[TestRecord]) -> tuple[Stage, ...]:
    """The chosen tests split by measured duration into the quick stage and the late stage (either
    may be absent), each cheapest first by rule hits. Not fastest first by seconds: a mutant that
    loops forever is killed only by a test with a step bound (a `Livelock`), and a faster test without
    one placed before it hangs until the clock (measured: 5 kills of duel.tiling.top-to-bottom became
    timeouts), while rule hits put the small bounded tests first, as before."""
    ordered = sorted(chosen, key=lambda r: (r.cost, r.nodeid))
    quick = [r for r in ordered if r.duration < LATE_SECONDS]
    late = [r for r in ordered if r.duration >= LATE_SECONDS]
    return tuple(Stage(tuple(r.nodeid for r in group), clock(group)) for group in (quick, late) if group)
