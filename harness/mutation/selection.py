"""Which tests bear on a clause, and in what order they run against its mutants.

The set: every passing test that declares the clause (`@pytest.mark.clause`, a scenario's
`clauses`), plus the cheapest few of those that merely fired it (the recorder's per-test tracking),
never a test marked `clock_bound` (its work is cut by a clock, so what it fires, and so the set,
would move with the machine's speed).
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

import ast
import tomllib
from collections.abc import Iterable, Mapping, Sequence
from functools import lru_cache
from pathlib import Path

import attrs

from harness.declared import NOT_SELECTED, declared_index
from harness.tracking_record import read_tests
from spec.python_ast import parse as parse_python


@attrs.frozen
class TestRecord:
    nodeid: str
    duration: float
    fired: frozenset[str]
    declared: frozenset[str]
    passed: bool
    cost: int = 0                    # clause hits the test fired: a deterministic measure of its size
    clock_bound: bool = False        # its work is cut by a clock: what it fires moves with the machine

    @property
    def file(self) -> str:
        return self.nodeid.split("::", 1)[0]


def load_tracking(path: Path, resolve: Mapping[str, str], root: Path | None = None) -> list[TestRecord]:
    """The suite's per-test record (written by the pytest plugin's --clause-json). With `root`, a test
    that no longer exists under it (renamed, removed: see `missing_tests`) is left out: selected, it
    would end its mutants' runs with pytest's 'not found' (exit 4), counted as errors."""
    data = read_tests(path)
    gone = set(missing_tests(root, data)) if root is not None else set()
    out = []
    for nodeid, entry in sorted(data.items()):
        if nodeid in gone:
            continue
        fired = frozenset(resolve.get(c, c) for c in entry.get("fired", {}))
        declared = frozenset(resolve.get(c.partition("@")[0], c.partition("@")[0]) for c in entry.get("declared", []))
        out.append(TestRecord(nodeid, float(entry.get("duration", 1.0)), fired, declared,
                              entry.get("outcome") == "passed", sum(int(v) for v in entry.get("fired", {}).values()),
                              bool(entry.get("clock_bound", False))))
    return out



# --- does a tracked test still exist? (read from the files, nothing is collected or run) ---------

def missing_tests(root: Path, nodeids: Iterable[str]) -> list[str]:
    """The node ids whose test is gone: its file is missing, a test module no longer binds its name
    (function or class, also by assignment or import), a class without base classes no longer has
    its method, or a scenario file now has another id. When unsure (a star import, a file that does
    not parse), a test counts as present: pytest then says what it finds."""
    return [nodeid for nodeid in nodeids if not _present(root, nodeid)]


def _present(root: Path, nodeid: str) -> bool:
    file, _, rest = nodeid.partition("::")
    path = root / file
    if not path.is_file():
        return False
    names = rest.split("[", 1)[0].split("::") if rest else []    # parametrised: the function's name
    if not names:
        return True
    if path.suffix == ".toml":
        return names[0] == _scenario_id(path)
    if path.suffix != ".py":
        return True
    module = _module_names(path)
    if module is None:
        return True
    bound, classes = module
    if names[0] not in bound:
        return False
    methods = classes.get(names[0])
    return methods is None or len(names) < 2 or names[1] in methods


@lru_cache(maxsize=512)
def _scenario_id(path: Path) -> str | None:
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        return None
    sid = data.get("id")
    return sid if isinstance(sid, str) and sid else path.stem     # as the pytest plugin names it


@lru_cache(maxsize=512)
def _module_names(path: Path) -> tuple[frozenset[str], dict[str, frozenset[str]]] | None:
    """The names a test module binds at top level, and the methods of its classes that have no base
    class (one with bases may inherit its tests, so it is not checked); None when unsure."""
    try:
        tree = parse_python(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, SyntaxError, ValueError):
        return None
    bound: set[str] = set()
    classes: dict[str, frozenset[str]] = {}
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            bound.add(node.name)
        elif isinstance(node, ast.ClassDef):
            bound.add(node.name)
            if not node.bases:
                classes[node.name] = frozenset(n.name for n in node.body
                                               if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)))
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            if any(a.name == "*" for a in node.names):
                return None
            bound.update((a.asname or a.name).split(".")[0] for a in node.names)
        else:                                    # assignments, definitions inside if/try/with blocks
            for n in ast.walk(node):
                if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store):
                    bound.add(n.id)
                elif isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                    bound.add(n.name)
    return frozenset(bound), classes


def stale_tracking_note(root: Path, tracking: Path, limit: int = 3) -> str | None:
    """One line naming the tracked tests that no longer exist (they are not selected), or None."""
    gone = missing_tests(root, sorted(read_tests(tracking)))
    if not gone:
        return None
    shown = ", ".join(gone[:limit]) + (f" and {len(gone) - limit} more" if len(gone) > limit else "")
    return (f"{len(gone)} test(s) in {tracking} no longer exist and are not selected (renamed or removed): "
            f"{shown}; a pytest run of their files refreshes the record")



# How many tests that fired a clause without declaring it join the clause's declared tests.
FIRING_TESTS = 8


def tests_for(clause: str, records: list[TestRecord]) -> list[TestRecord]:
    """The tests bearing on `clause`, cheapest first; [] when none."""
    usable = [r for r in records if r.passed and r.file not in NOT_SELECTED]
    declared = [r for r in usable if clause in r.declared]
    firing = sorted((r for r in usable if clause in r.fired and clause not in r.declared and not r.clock_bound),
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


def measured_stages(tests: Sequence[str], durations: Mapping[str, float]) -> tuple[Stage, ...]:
    """`tests` (in their order) split into the quick and the late stage by the `durations` their
    unmutated run measured, each stage with its clock. A test id that names a file or folder takes the
    durations of the tests under it; one that measured nothing counts as late."""
    def seconds(test: str) -> float | None:
        if test in durations:
            return durations[test]
        under = [d for nodeid, d in durations.items() if nodeid.startswith((test + "::", test.rstrip("/") + "/"))]
        return sum(under) if under else None

    measured = {t: seconds(t) for t in tests}
    quick = [t for t in tests if (s := measured[t]) is not None and s < LATE_SECONDS]
    late = [t for t in tests if t not in quick]
    return tuple(Stage(tuple(group), round(CLOCK_FACTOR * sum(measured[t] or LATE_SECONDS for t in group)
                                           + CLOCK_OVERHEAD, 1))
                 for group in (quick, late) if group)


def killer_first(runs: Sequence[Stage], killer: str | None) -> tuple[Stage, ...]:
    """`runs` with `killer` (the test that killed this mutant last time) moved to the front of its
    stage: a mutant stops at its first failing test (`-x`), so the likely one runs first."""
    if killer is None:
        return tuple(runs)
    return tuple(Stage((killer, *(t for t in st.tests if t != killer)), st.timeout) if killer in st.tests else st
                 for st in runs)


# --- which tests declare a clause (read from their files, nothing is collected or run) ----------

def declared_tests(root: Path, clause: str) -> tuple[str, ...]:
    """The tests (`@pytest.mark.clause`, a module's `pytestmark`) and scenarios (`clauses = [...]`)
    that name `clause` (any revision), as node ids; for a clause no tracking record or store knows."""
    return declared_index(root).get(clause, ())


