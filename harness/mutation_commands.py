"""`azul-rules mutate`: clause-level mutation analysis."""

from __future__ import annotations

import difflib
import json
import os
import time
from pathlib import Path

import attrs
import click
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn

from harness.errors import UserError
from harness.game_option import game_option
from harness.mutation.analysis import changed_clauses, orphaned_equivalents, plan, run, stale, verdicts
from harness.mutation.runner import MutantResult, run_all
from harness.mutation.selection import stale_tracking_note
from harness.mutation.store import RESULTS, diff_key, load_results, save_results
from harness.output_path import OutputPath
from harness.pytest_plugin import DEFAULT_JSON
from properties.cluster import Workers, cluster_option
from spec import default_catalogue

ROOT = Path(__file__).resolve().parents[1]


def _did_you_mean(word: str, known: list[str]) -> str:
    close = difflib.get_close_matches(word, known, n=1)
    return f" (did you mean {close[0]}?)" if close else ""


@click.command("mutate")
@game_option
@click.option("--clause", "clauses", multiple=True, metavar="ID", help="Only these clauses (repeatable).")
@click.option("--changed-since", metavar="REF", default=None,
              help="Only clauses whose code or tests changed since this git revision.")
@click.option("--fresh", is_flag=True, help="Re-run even clauses whose stored results are current.")
@click.option("--jobs", type=click.IntRange(1), default=None, help="Parallel test runs (default: all cores).")
@cluster_option
@click.option("--json", "json_path", type=OutputPath(), default=None,
              help="Write every clause's verdict and mutant outcomes here.")
@click.option("--tracking", type=click.Path(dir_okay=False, path_type=Path), default=DEFAULT_JSON, show_default=True,
              help="The suite's per-test clause record (pytest writes it).")
@click.option("--survivors", is_flag=True,
              help="Re-run only the stored survivors of the chosen clauses against today's tests and print "
                   "each verdict (the store is not changed: a clause's entry is written only by a whole run).")
@click.option("--dry-run", is_flag=True, help="List what would run, run nothing.")
@click.option("--budget", type=click.FloatRange(0, min_open=True), default=None, metavar="SECONDS",
              help="Stop starting mutants after this long; clauses not finished stay stale.")
def mutate_command(game: str, clauses: tuple[str, ...], changed_since: str | None, fresh: bool, jobs: int | None,
                   cluster: str | None,
                   json_path: Path | None, tracking: Path, survivors: bool, dry_run: bool,
                   budget: float | None) -> None:
    """Plant small rule bugs at each clause's code and check that its tests notice (guarded)."""
    console = Console()
    catalogue = default_catalogue(game)
    tracking = tracking if tracking.is_absolute() else ROOT / tracking
    stored = load_results(ROOT)
    plans = plan(ROOT, catalogue, tracking, stored)
    if note := stale_tracking_note(ROOT, tracking):
        console.print(note, markup=False, highlight=False, soft_wrap=True)
    known = sorted(plans)
    for cid in clauses:
        if cid not in plans:
            all_ids = [c.id for c in catalogue.clauses]
            why = "has no model site" if cid in all_ids else "is not a clause"
            raise UserError(f"{cid} {why}{_did_you_mean(cid, known if cid in all_ids else all_ids)}")
    if survivors:
        _rerun_survivors(console, plans, stored, list(clauses) or known, Workers(jobs or os.cpu_count() or 1, cluster))
        return
    if clauses:
        todo = list(clauses)
    elif changed_since:
        todo = sorted(changed_clauses(ROOT, plans, changed_since))
    else:
        todo = known
    if not fresh:
        current = set(todo) - set(stale(plans, stored))
        todo = [c for c in todo if c not in current]
    n = sum(len(plans[c].mutants) for c in todo)
    console.print(f"{len(todo)} clause(s) to run, {n} mutant(s); "
                  f"{len(plans) - len(todo)} clause(s) current in {RESULTS}")
    if dry_run:
        for c in todo:
            p = plans[c]
            console.print(f"  {c}: {len(p.mutants)} mutants, {len(p.tests)} tests"
                          + {"tracking": "", "store": f" (as selected in {RESULTS}; clocks from their unmutated run)",
                             "declared": " (the tests that declare the clause; no tracking record)",
                             "whole suite": " (whole suite: nothing names tests for it)"}.get(p.source, "")
                          + "".join(f"; stage {k}: {len(st.tests)} tests, clock {st.timeout:.0f} s"
                                    for k, st in enumerate(p.stages, 1)), highlight=False)
        return
    started = time.monotonic()
    unmeasured: dict[str, str] = {}

    def not_measured(cid: str, why: str) -> None:
        unmeasured[cid] = why
        console.print(f"[red]not measured[/] {cid}: {why}; no mutant counts, its stored results stay",
                      highlight=False)

    if todo:
        with Progress(TextColumn("mutant"), MofNCompleteColumn(), BarColumn(), TimeElapsedColumn(),
                      TextColumn("ETA"), TimeRemainingColumn(), console=console, transient=False) as progress:
            task = progress.add_task("mutants", total=n)

            done = [0]

            def advance(_: MutantResult) -> None:
                progress.advance(task)
                done[0] += 1
                if not console.is_terminal and (done[0] % 50 == 0 or done[0] == n):
                    elapsed = time.monotonic() - started
                    eta = elapsed / done[0] * (n - done[0])
                    console.print(f"mutant {done[0]} of {n}, {elapsed:.0f} s, ETA {eta:.0f} s", highlight=False)

            new = run(ROOT, plans, todo, Workers(jobs or os.cpu_count() or 1, cluster), advance,
                      started + budget if budget else None, previous=stored, on_unmeasured=not_measured)
        stored = load_results(ROOT)            # again: another run may have saved meanwhile
        if new:                                # a run that measured nothing leaves the store as it is
            stored.setdefault("clauses", {}).update(new)
            stored["clauses"] = {k: v for k, v in sorted(stored["clauses"].items())
                                 if k in plans or not k.startswith(catalogue.id_prefix)}   # other games' stay
            save_results(ROOT, stored)
    judged = verdicts(ROOT, catalogue, plans, stored, tracking)
    for cid in unmeasured:                     # its tests fail unmutated: this run measured nothing
        judged[cid] = attrs.evolve(judged[cid], status="not-measured", killed=0, survivors=())
    _print_summary(console, judged, time.monotonic() - started)
    for eq in orphaned_equivalents(ROOT, plans, stored):
        if not eq.clause.startswith(catalogue.id_prefix):
            continue                           # another game's entry: that game's run judges it
        console.print(f"[yellow]orphaned equivalent[/] {eq.clause} key {eq.key}: no current mutant has this "
                      f"change any more; re-review it in tests/equivalent-mutants.toml", highlight=False)
    if json_path:
        json_path.write_text(json.dumps({cid: {"status": v.status, "killed": v.killed, "total": v.total,
                                               "equivalent": v.equivalent, "survivors": list(v.survivors),
                                               "tests": list(v.tests)} for cid, v in judged.items()},
                                        indent=1, sort_keys=True))
    if any(v.status in ("unguarded", "not-measured") for v in judged.values()):
        raise SystemExit(1)


def _rerun_survivors(console: Console, plans: dict, stored: dict, clauses: list[str], jobs: int | Workers) -> None:
    """Run each stored survivor of `clauses` against the clause's tests as selected today."""
    by_id = {(cid, m.id): m for cid in clauses for m in plans[cid].mutants}   # one mutant may serve several clauses
    wanted = [(cid, row["id"]) for cid in clauses
              for row in stored.get("clauses", {}).get(cid, {}).get("mutants", []) if row["status"] == "survived"]
    missing = [key for key in wanted if key not in by_id]
    chosen = [key for key in wanted if key in by_id]
    work = [(by_id[key], plans[key[0]].stages or plans[key[0]].tests, plans[key[0]].timeout) for key in chosen]
    console.print(f"{len(work)} stored survivor(s) of {len(clauses)} clause(s) to re-run"
                  + (f"; {len(missing)} no longer apply (the code moved: run the clause whole)" if missing else ""),
                  highlight=False)
    results = run_all(ROOT, work, jobs, lambda _r: None)
    killed = 0
    for (cid, _), (mutant, _, _), r in zip(chosen, work, results, strict=True):
        assert r is not None
        killed += r.status == "killed"
        colour = "green" if r.status == "killed" else "yellow"
        console.print(f"[{colour}]{r.status}[/] {cid} {mutant.id}"
                      + (f" by {r.killer}" if r.killer else
                         f" ({r.tests} tests ran; equivalent-mutants key {diff_key(cid, mutant.diff(ROOT))})"),
                      highlight=False)
    console.print(f"{killed}/{len(work)} now killed (not stored; `azul-rules mutate --clause ID` stores a clause)",
                  highlight=False)


def _print_summary(console: Console, judged: dict, seconds: float) -> None:
    by: dict[str, int] = {}
    for v in judged.values():
        by[v.status] = by.get(v.status, 0) + 1
    killed = sum(v.killed for v in judged.values() if v.status in ("guarded", "unguarded"))
    total = sum(v.total for v in judged.values() if v.status in ("guarded", "unguarded"))
    console.print(f"{by.get('guarded', 0)}/{len(judged)} clauses guarded; mutants killed {killed}/{total}; "
                  + ", ".join(f"{k} {n}" for k, n in sorted(by.items())) + f"; {seconds:.0f} s", highlight=False)
    for v in judged.values():
        for s in v.survivors:
            console.print(f"[yellow]survivor[/] {v.clause} {s['id']} ({s['status']})", highlight=False)
