"""Clause-level mutation analysis: plan (extents, mutants, tests, hash per clause), run the stale
clauses, and judge each clause from the stored results.

A clause is **guarded** when every mutant of its extents that is not a reviewed equivalent was
killed by one of its tests. Invariant clauses have no model site: they are guarded when a passing
test breaks the model on purpose and shows the invariant catching it (tests/test_invariants_catch.py for
Duel, tests/azul/test_azul_invariants_catch.py for classic Azul).
"""

from __future__ import annotations

import subprocess
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

import attrs

from harness.mutation import profile
from harness.mutation.clauses import id_resolver
from harness.mutation.extents import Extent, extents
from harness.mutation.mutants import Mutant, Unmutated, mutants_of
from harness.mutation.runner import LocalPool, MutantResult, local_pool, run_all
from harness.mutation.selection import (
    Stage,
    TestRecord,
    declared_index,
    killer_first,
    load_tracking,
    measured_stages,
    missing_tests,
    stages,
    tests_for,
    whole_suite,
)
from harness.mutation.store import Equivalent, clause_hash, diff_key, load_equivalents, load_results
from properties.cluster import Workers
from spec import Catalogue

MODEL_FOLDERS = ("model",)          # where rule sites are looked for: a game's own folder, model/<game>/


def model_folders(root: Path, catalogue: Catalogue) -> tuple[str, ...]:
    """The folders holding the game's rule sites: model/<game>/ (the whole of model/ for a catalogue
    whose game has no folder of its own)."""
    own = f"model/{catalogue.game}" if catalogue.game else ""
    return (own,) if own and (root / own).is_dir() else MODEL_FOLDERS
CATCH_TESTS = ("tests/test_invariants_catch.py", "tests/azul/test_azul_invariants_catch.py")   # Duel, classic
NO_TRACKING_CLOCK = 600.0           # seconds for the unmutated run of tests with no measured duration
WHOLE_SUITE = ("tests", "fixtures")


class LazyMutants(Sequence[Mutant]):
    """A clause's mutants, found on first use: finding them parses the clause's modules (most of a
    plan's time), which a verify run that re-runs no clause never needs. Equal to the tuple of them."""

    def __init__(self, root: Path, extents: tuple[Extent, ...]) -> None:
        self._root, self._extents = root, extents
        self._found: tuple[Mutant, ...] | None = None

    def _all(self) -> tuple[Mutant, ...]:
        if self._found is None:
            self._found = tuple(mutants_of(self._root, self._extents))
        return self._found

    def __getitem__(self, index: Any) -> Any:
        return self._all()[index]

    def __len__(self) -> int:
        return len(self._all())

    def __iter__(self) -> Iterator[Mutant]:
        return iter(self._all())

    def __eq__(self, other: object) -> bool:
        return self._all() == (tuple(other) if isinstance(other, Sequence) else other)

    def __hash__(self) -> int:
        return hash(self._all())

    def __repr__(self) -> str:
        return repr(self._all()) if self._found is not None else f"LazyMutants({len(self._extents)} extents)"


@attrs.frozen
class ClausePlan:
    clause: str
    extents: tuple[Extent, ...]
    mutants: Sequence[Mutant]          # a LazyMutants from `plan`
    tests: tuple[str, ...]
    fallback: bool                     # nothing names tests for this clause: the whole suite runs
    hash: str
    timeout: float                     # the clock of all stages together
    stages: tuple[Stage, ...] = ()     # the tests in running order (harness.mutation.selection); () = one
    # Where the tests come from: "tracking" (the suite's record, .azul-rules/tests.json), "store" (the
    # selection tests/mutants.json recorded for the clause: it travels with the clone), "declared"
    # (tests and scenarios that name the clause, read from their files) or "whole suite".
    source: str = "tracking"
    # The stages' clocks come from measured durations (the tracking record). False: the clause's
    # unmutated run measures them first (harness.mutation.selection.measured_stages).
    timed: bool = True


@attrs.frozen
class ClauseVerdict:
    clause: str
    status: str          # guarded | unguarded | stale | not-run | no-sites | no-mutants | not-measured (mutate: its tests fail)
    killed: int
    total: int           # non-equivalent mutants
    equivalent: int
    survivors: tuple[dict[str, Any], ...]
    tests: tuple[str, ...]

    @property
    def guarded(self) -> bool:
        return self.status == "guarded"


def plan(root: Path, catalogue: Catalogue, tracking: Path, stored: Mapping[str, Any] | None = None) -> dict[str, ClausePlan]:
    """Each clause's extents, mutants and tests. The tests come from the tracking record; for a clause
    it does not know (a fresh clone has none) from the selection the store (`stored`, by default
    tests/mutants.json) recorded, so a clone needs no whole-suite run first; else from the tests and
    scenarios that declare the clause; the whole suite only when nothing names it."""
    resolve = id_resolver(catalogue)
    ext = extents(root, model_folders(root, catalogue), resolve)
    records = load_tracking(tracking, resolve, root)      # tests that still exist
    entries = (load_results(root) if stored is None else stored).get("clauses", {})
    declared: dict[str, tuple[str, ...]] | None = None
    out: dict[str, ClausePlan] = {}
    for clause in catalogue.clauses:
        exts = tuple(ext.get(clause.id, ()))
        if not exts:
            continue
        chosen: Sequence[TestRecord] = tests_for(clause.id, records)
        timed, source = True, "tracking"
        if chosen:
            ids = tuple(r.nodeid for r in chosen)
            runs = stages(chosen)
        else:
            ids, source = _stored_tests(root, entries.get(clause.id, {})), "store"
            if not ids:
                declared = declared_index(root) if declared is None else declared    # read once, when needed
                ids, source = declared.get(clause.id, ()), "declared"
            if not ids:
                ids, source = _whole_suite(records), "whole suite"
            suite = whole_suite(records) if source == "whole suite" else []
            timed = bool(suite)
            runs = stages(suite) if suite else (Stage(ids, NO_TRACKING_CLOCK),)
        out[clause.id] = ClausePlan(clause.id, exts, LazyMutants(root, exts), ids, source == "whole suite",
                                    clause_hash(root, exts, ids, (profile.key(),)),
                                    timeout=sum(st.timeout for st in runs), stages=runs, source=source, timed=timed)
    return out


def _stored_tests(root: Path, entry: Mapping[str, Any]) -> tuple[str, ...]:
    """The tests the store selected for a clause (not a whole-suite fallback), those that no longer
    exist left out."""
    recorded = [] if entry.get("fallback") else [str(t) for t in entry.get("tests", ())]
    gone = set(missing_tests(root, recorded))
    return tuple(t for t in recorded if t not in gone)


def _whole_suite(records: Sequence[TestRecord]) -> tuple[str, ...]:
    suite = whole_suite(list(records))
    return tuple(r.nodeid for r in suite) if suite else WHOLE_SUITE


def changed_clauses(root: Path, plans: Mapping[str, ClausePlan], ref: str) -> set[str]:
    """Clauses whose extents or tests touch a file that differs from git revision `ref`."""
    try:
        out = subprocess.run(["git", "diff", "--name-only", ref, "--"], cwd=root, capture_output=True,
                             text=True, check=True).stdout
        untracked = subprocess.run(["git", "ls-files", "--others", "--exclude-standard"], cwd=root,
                                   capture_output=True, text=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError) as exc:
        raise ValueError(f"cannot compare with git revision {ref!r}: {getattr(exc, 'stderr', exc)}".strip()) from None
    files = set(out.split()) | set(untracked.split())
    return {cid for cid, p in plans.items()
            if any(e.file in files for e in p.extents) or any(t.split("::", 1)[0] in files for t in p.tests)}


def stale(plans: Mapping[str, ClausePlan], stored: Mapping[str, Any]) -> list[str]:
    """Clauses with no stored result, or whose stored hash no longer matches."""
    entries = stored.get("clauses", {})
    return [cid for cid, p in plans.items() if entries.get(cid, {}).get("hash") != p.hash]


def run(root: Path, plans: Mapping[str, ClausePlan], clauses: Iterable[str], jobs: int | Workers,
        on_result: Callable[[MutantResult], None], deadline: float | None = None,
        previous: Mapping[str, Any] | None = None,
        on_unmeasured: Callable[[str, str], None] | None = None) -> dict[str, dict[str, Any]]:
    """Run the mutants of `clauses`; new store entries by clause. Each clause's tests run unmutated
    first: a clause whose tests fail (or do not finish) so is not measured (`on_unmeasured(clause,
    why)`, no entry: a kill by a test that fails anyway means nothing). Each mutant runs the test that
    killed it in `previous` (by default the store) first. With a `deadline`, clauses whose mutants did
    not all run in time get no entry (they stay stale, never half-trusted)."""
    clauses = list(clauses)
    chosen = [plans[c] for c in clauses if plans[c].mutants]
    entries = (load_results(root) if previous is None else previous).get("clauses", {})
    with local_pool(root) as pool:
        return _run(root, plans, clauses, chosen, entries, jobs, on_result, deadline, on_unmeasured, pool)


def _run(root: Path, plans: Mapping[str, ClausePlan], clauses: list[str], chosen: list[ClausePlan],
         entries: Mapping[str, Any], jobs: int | Workers, on_result: Callable[[MutantResult], None],
         deadline: float | None, on_unmeasured: Callable[[str, str], None] | None,
         pool: LocalPool) -> dict[str, dict[str, Any]]:
    baselines = run_all(root, [(Unmutated(p.clause, p.mutants[0].file), p.stages or p.tests, p.timeout)
                               for p in chosen], jobs, lambda r: None, deadline, pool)
    measured: list[tuple[ClausePlan, tuple[Stage, ...]]] = []
    for p, base in zip(chosen, baselines, strict=True):          # run_all: one result per item
        if base is None:
            continue                                  # out of time before it started: stays stale
        if base.status != "survived":
            if on_unmeasured is not None:
                on_unmeasured(p.clause, _unmeasured_reason(base))
            continue
        runs = p.stages or (Stage(p.tests, p.timeout),)
        measured.append((p, runs if p.timed else measured_stages(p.tests, base.durations)))
    work = []
    for p, runs in measured:
        killers = {r["id"]: r["killer"] for r in entries.get(p.clause, {}).get("mutants", ())
                   if r.get("status") == "killed" and r.get("killer")}
        work += [(m, killer_first(runs, killers.get(m.id)), sum(st.timeout for st in runs)) for m in p.mutants]
    results = iter(run_all(root, work, jobs, on_result, deadline, pool))
    out: dict[str, dict[str, Any]] = {}
    for p, _ in measured:
        rows = []
        complete = True
        for m in p.mutants:
            r = next(results)
            if r is None:
                complete = False
                continue
            rows.append({"id": m.id, "diff": m.diff(root), "status": r.status, "killer": r.killer,
                         "seconds": round(r.seconds, 2)})
        if complete:
            out[p.clause] = {"hash": p.hash, "tests": list(p.tests), "fallback": p.fallback, "mutants": rows}
    for cid in clauses:
        if cid in plans and not plans[cid].mutants:
            out[cid] = {"hash": plans[cid].hash, "tests": list(plans[cid].tests), "fallback": plans[cid].fallback,
                        "mutants": []}
    return out


def _unmeasured_reason(base: MutantResult) -> str:
    if base.status == "killed":
        return f"its tests fail unmutated ({base.killer})"
    if base.status == "timeout":
        return f"its tests did not finish unmutated ({base.killer})"
    return f"its tests could not run unmutated ({base.killer})"


def _catch_tests(clause: str, records: Sequence[TestRecord]) -> tuple[str, ...]:
    return tuple(r.nodeid for r in records if r.passed and r.file in CATCH_TESTS and clause in r.declared)


def verdicts(root: Path, catalogue: Catalogue, plans: Mapping[str, ClausePlan], stored: Mapping[str, Any],
             tracking: Path) -> dict[str, ClauseVerdict]:
    equivalents: dict[tuple[str, str], Equivalent] = load_equivalents(root)
    records = load_tracking(tracking, id_resolver(catalogue))
    entries = stored.get("clauses", {})
    out: dict[str, ClauseVerdict] = {}
    for clause in catalogue.clauses:
        cid = clause.id
        p = plans.get(cid)
        if p is None:
            catchers = _catch_tests(cid, records) if clause.kind == "invariant" else ()
            status = "guarded" if catchers else "no-sites"
            out[cid] = ClauseVerdict(cid, status, len(catchers), len(catchers), 0, (), catchers)
            continue
        entry = entries.get(cid)
        if entry is None:
            out[cid] = ClauseVerdict(cid, "not-run", 0, len(p.mutants), 0, (), p.tests)
            continue
        if entry.get("hash") != p.hash:
            out[cid] = ClauseVerdict(cid, "stale", 0, len(p.mutants), 0, (), p.tests)
            continue
        rows = entry["mutants"]
        equivalent = [r for r in rows if (cid, diff_key(cid, r["diff"])) in equivalents]
        counted = [r for r in rows if r not in equivalent]
        killed = [r for r in counted if r["status"] == "killed"]      # a clock's verdict is no kill
        survivors = tuple(dict(r, key=diff_key(cid, r["diff"])) for r in counted if r not in killed)
        if not rows:
            status = "no-mutants"
        else:
            status = "guarded" if not survivors else "unguarded"
        out[cid] = ClauseVerdict(cid, status, len(killed), len(counted), len(equivalent), survivors,
                                 tuple(entry.get("tests", ())))
    return out


def orphaned_equivalents(root: Path, plans: Mapping[str, ClausePlan], stored: Mapping[str, Any]) -> list[Equivalent]:
    """Reviewed equivalents that match no mutant of their clause's current results: the code they were
    reviewed against changed, so the entry must be re-reviewed (or removed)."""
    entries = stored.get("clauses", {})
    out = []
    for (cid, key), eq in sorted(load_equivalents(root).items()):
        entry = entries.get(cid)
        if cid not in plans:
            out.append(eq)
        elif entry is not None and entry.get("hash") == plans[cid].hash and \
                key not in {diff_key(cid, r["diff"]) for r in entry["mutants"]}:
            out.append(eq)
    return out
