"""`azul-rules verify`: [code lint, with --lint] -> spec lint -> scenarios -> tests and properties ->
search -> simulation -> interpretation matrix -> coverage -> report, with a progress display per
stage and a final summary.

Everything the run writes goes into the output folder (`--out`): the report, pytest's log
(`pytest.log`) and the counterexamples found (`counterexamples/`); its scratch files live in a
temporary folder that is removed at the end, also after Ctrl-C (exit status 130, with a summary of
the stages that ran)."""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
import threading
import time
import tomllib
from collections import Counter
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import attrs
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from harness.ahead import Ahead
from harness.ci import junit_args
from harness.coverage import (
    GUARDED,
    NOT_MEASURED,
    ROOT,
    SURVIVOR,
    UNGUARDABLE,
    compute,
    guard_statuses,
    lint,
    load_test_results,
    summary,
    suspects,
)
from harness.report import ReportInputs, build_report
from properties.cluster import Workers, opened, workers_of
from spec import default_catalogue, validate

PROFILES: dict[str, dict[str, int]] = {
    # mutation_mutants: how many mutants of stale clauses are re-run, whole clauses in plan order (the
    # rest stay not measured). A count, not seconds: which clauses are measured, and so the verdict,
    # must not depend on the machine's load (a 300 s budget made CI red on a busy box, issue 22).
    # About 1 CPU s a mutant (`duel.score.broken-penalty`: 38 mutants, 30 CPU s on a fresh clone).
    # A caller may still pass mutation_seconds (a clock) for a run it wants cut short.
    # search_nodes: the node budget of the search stage, per game, for the questions no committed
    # witness answers yet (a count, not seconds, for the same reason; the seed is fixed). ci: 60,000
    # nodes took 7.1 CPU s for Duel's 10 open questions and 6.6 CPU s for classic's 4 (search and
    # shrinking, on main 2026-12-02).
    "ci": {"games": 200, "matrix_games": 20, "shrink": 0, "mutation_mutants": 400, "search_nodes": 60_000},
    "dev": {"games": 1000, "matrix_games": 60, "shrink": 0, "mutation_mutants": 2400, "search_nodes": 600_000},
    "deep": {"games": 10000, "matrix_games": 400, "shrink": 1,    # Hypothesis shrinks each broken row
             "search_nodes": 6_000_000},
}
SEARCH_SEED = 0                 # the search stage's seed: the same witnesses every run

INTERRUPTED = 130               # the shell's status for a run ended by Ctrl-C (128 + SIGINT)
PROGRESS_EVERY = 10.0           # seconds between progress lines when the output is not a terminal


@attrs.define
class Stage:
    name: str
    ok: bool = True
    detail: str = ""
    seconds: float = 0.0
    failures: list[str] = attrs.field(factory=list)      # what failed, by id or path (named at the end)
    ran: bool = True                                     # False: skipped, `detail` says why
    progress: Callable[[str], None] = attrs.field(default=lambda text: None, repr=False, eq=False)


def _settings(game: str | None = None) -> dict[str, Any]:
    """[tool.azul-rules] of pyproject.toml; with a game other than the default, its own table
    [tool.azul-rules.games.GAME] (thresholds per game; a game may start lower and ratchet up)."""
    from properties.registry import DEFAULT_GAME

    data = tomllib.loads((ROOT / "pyproject.toml").read_text()).get("tool", {}).get("azul-rules", {})
    if game is None or game == DEFAULT_GAME:
        return data
    return data.get("games", {}).get(game, {})


def asserted_threshold(game: str | None = None) -> float:
    return float(_settings(game).get("asserted_threshold", 0.0))


def guarded_threshold(game: str | None = None) -> float:
    return float(_settings(game).get("guarded_threshold", 0.0))


def _stage(console: Console, stages: list[Stage], name: str, fn: Callable[[Stage], Any]) -> Any:
    stage = Stage(name)
    start = time.perf_counter()
    try:
        with console.status(f"[bold]{name}[/bold] ...") as status:
            stage.progress = _progress_line(console, name, status)
            result = fn(stage)
    except KeyboardInterrupt:
        stage.ok, stage.detail = False, "interrupted"
        stage.seconds = time.perf_counter() - start
        stages.append(stage)
        raise
    stage.seconds = time.perf_counter() - start
    stages.append(stage)
    mark = "[green]ok[/green]" if stage.ok else "[red]FAILED[/red]"
    console.print(f"{mark} {name}: {escape(stage.detail)} [dim]({stage.seconds:.1f}s)[/dim]", highlight=False,
                  soft_wrap=True)                       # ids and paths in the detail are never split or cut
    return result


def _progress_line(console: Console, name: str, status: Any) -> Callable[[str], None]:
    """In a terminal: the spinner's text follows the stage; in a log (CI): a line every few seconds."""
    if console.is_terminal:
        return lambda text: status.update(f"[bold]{name}[/bold] ... {text}")
    last = [time.monotonic()]

    def line(text: str) -> None:
        if time.monotonic() - last[0] >= PROGRESS_EVERY:
            last[0] = time.monotonic()
            console.print(f"  {name}: {text}", highlight=False, markup=False, soft_wrap=True)
    return line


def _skip(console: Console, stages: list[Stage], name: str, why: str) -> None:
    """A stage that does not run (its result would only measure noise): named, with the reason."""
    stages.append(Stage(name, ok=True, detail=f"not run: {why}", ran=False))
    console.print(f"[yellow]--[/yellow] {name}: not run: {escape(why)}", highlight=False, soft_wrap=True)


SCENARIO_SECONDS = 60           # one scenario file takes milliseconds; past this the model hangs
RED_STAGES = ("scenarios", "tests and properties")    # when one fails, the measuring stages do not run
MEASURING = ("mutation analysis", "simulation campaign", "interpretation matrix")


def red_reason(stages: list[Stage]) -> str | None:
    """Why the measuring stages (mutation, campaign statistics, matrix) would measure noise: the tests
    or the scenarios failed (mutants 'killed' by a test that already fails, games stopping at the
    first oracle failure). None when both passed."""
    failed = [st.name for st in stages if st.name in RED_STAGES and not st.ok]
    if not failed:
        return None
    return "tests failed" if "tests and properties" in failed else "scenarios failed"


def verify(profile: str = "ci", out: Path = Path("report"), jobs: int | None = None,
           console: Console | None = None, measure_on_red: bool = False, code_lint: bool = False) -> int:
    """Run every stage; 0 when all passed, 1 when any failed, 130 when interrupted (Ctrl-C). When the
    tests or scenarios fail, mutation, the campaign and the matrix are reported "not run: tests
    failed" (`measure_on_red` runs them anyway); tests/mutants.json is never written then.
    `code_lint`: first, the stage "code lint" (ruff and mypy, `make lint`); its findings fail the
    run but stop no other stage."""
    console = console or Console()
    stages: list[Stage] = []
    started = time.time()
    work = Path(tempfile.mkdtemp(prefix="azul-verify-"))
    try:
        return _verify(profile, Path(out), jobs, console, stages, work, measure_on_red, code_lint)
    except KeyboardInterrupt:
        _tidy_interrupted_report(Path(out), started)
        console.print()
        console.print("[red]interrupted[/red] (Ctrl-C): the stages so far", highlight=False)
        _finish(console, stages)
        return INTERRUPTED
    finally:
        shutil.rmtree(work, ignore_errors=True)


def _verify(profile: str, out: Path, jobs: int | None, console: Console, stages: list[Stage], work: Path,
            measure_on_red: bool = False, code_lint: bool = False) -> int:
    settings = PROFILES[profile]
    jobs = jobs or max(1, os.cpu_count() or 1)
    found = work / "counterexamples"            # copied into the report at the end

    from properties.registry import DEFAULT_GAME, game_names

    if code_lint:
        _stage(console, stages, CODE_LINT, _code_lint)

    def spec_lint(st: Stage) -> None:
        problems = [p for g in game_names() for p in validate(game=g)[1]]
        st.ok = not problems
        st.detail = "no problems" if st.ok else "; ".join(map(str, problems[:3]))
        st.failures = [str(p) for p in problems]
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
        failed: list[str] = []
        for n, path in enumerate(files):
            st.progress(f"{n}/{len(files)} files, {len(failed)} failed")
            try:
                with alarm(SCENARIO_SECONDS):
                    if not run_scenario(load_scenario(path)).passed:
                        failed.append(_shown(path))
            except ScenarioError as exc:
                failed.append(str(exc))
            except TimeBudgetExceeded:
                failed.append(f"{path.name}: no end within {SCENARIO_SECONDS} s (a model loop hangs)")
        st.ok = not failed and bool(files)
        st.failures = failed
        from harness.scenarios.files import files_by_game
        games = ", ".join(f"{g} {n}" for g, n in files_by_game(files).items())   # every game's fixtures
        st.detail = f"{len(files) - len(failed)}/{len(files)} passed ({games})" + (f"; failed: {', '.join(failed[:3])}" if failed else "")
        return len(files)
    scenario_count = _stage(console, stages, "scenarios", scenarios)

    tests_json = work / "tests.json"
    log = work / "pytest.log"

    def tests(st: Stage) -> None:
        from harness.pytest_run import PytestRun, parallel_args, run_pytest

        def on_line(line: str, run: PytestRun, failed: str | None) -> None:
            if failed:
                console.print(f"  [red]FAILED[/red] {failed}", highlight=False, soft_wrap=True)
            st.progress(run.progress_text())
        env = {**os.environ, "HYPOTHESIS_PROFILE": profile}
        try:
            run = run_pytest(["-p", "no:cacheprovider", *parallel_args(jobs), f"--clause-json={tests_json}", *junit_args(),
                              f"--basetemp={work / 'pytest'}"], cwd=ROOT, env=env,      # tests' tmp_path: ours
                             log=log, on_line=on_line, python=sys.executable)
        except KeyboardInterrupt as exc:
            so_far: PytestRun | None = getattr(exc, "pytest_run", None)
            if so_far is not None:
                st.failures = list(so_far.failed)
                console.print()
                console.print(f"tests before the interrupt: {so_far.progress_text()}", highlight=False)
            raise
        st.ok = run.returncode == 0
        st.failures = list(run.failed)
        closing = run.closing or f"pytest exited with status {run.returncode} (no summary line)"
        console.print(closing, highlight=False, markup=False, soft_wrap=True)   # CI logs: the counts alone
        st.detail = closing + ("" if st.ok else f" (log: {out}/pytest.log)")
    warm = _warm_up()                   # while pytest's processes work, this one would only wait
    _stage(console, stages, "tests and properties", tests)
    warm.join(WARM_UP_SECONDS)
    if warm.is_alive():                 # the game workers must not fork while it holds an import lock
        console.print(f"the warm-up is still running after {WARM_UP_SECONDS:.0f} s: waiting for it "
                      "before the game workers start", highlight=False, markup=False)
        warm.join()
    test_results = load_test_results(tests_json)
    red = red_reason(stages)
    skip = red if red and not measure_on_red else None
    searched: dict[str, dict[str, Any]] = {}
    for game in game_names():          # committed witnesses ran in the scenarios stage (fixtures/<game>/witnesses/)
        def searching(st: Stage, game: str = game) -> None:
            searched[game] = search_stage(game, ROOT, settings["search_nodes"], SEARCH_SEED, work / "witnesses",
                                          jobs=jobs)
            found, missing = searched[game]["found"], searched[game]["missing"]
            st.detail = (f"{len(found)} found, {len(missing)} not found within budget, of the questions no "
                         f"committed witness answers; {searched[game]['explored']}")
            st.failures = []            # not found is an answer, never a failure
        name = "search" if game == DEFAULT_GAME else f"{game}: search"
        if settings.get("search_nodes", 0) <= 0:    # a profile without a budget has no search stage
            continue
        if skip:
            _skip(console, stages, name, skip)
        else:
            _stage(console, stages, name, searching)

    def mutation(st: Stage) -> dict[str, dict[str, Any]]:
        return _mutation(st, catalogue, tests_json, settings, profile, jobs, guarded_threshold(), save=not red)
    if skip:
        _skip(console, stages, "mutation analysis", f"{skip} (the clauses' status is the stored one)")
        guard = guard_statuses(catalogue, ROOT)
    else:
        guard = _stage(console, stages, "mutation analysis", mutation)

    from properties.watchdog import limit_memory
    with opened(workers_of(1 if skip else jobs), initializer=limit_memory) as workers:   # one pool for all games
        campaign, matrix_rows, others = _play_stages(settings, workers, console, stages, found, test_results,
                                                     tests_json, profile, jobs, skip, not red)
    # Counterexamples are written into the scratch folder and copied into the report at the end: every
    # path shown from here on (terminal, banner, coverage.md, the matrix) names the report's copy.
    matrix_rows = _into_report(matrix_rows, found, out)
    others = [{**g, "matrix": _into_report(g.get("matrix"), found, out)} if isinstance(g, dict) else g for g in others]
    for x in stages:
        x.failures, x.detail = _into_report((x.failures, x.detail), found, out)

    def coverage(st: Stage) -> Any:
        rows = compute(catalogue, test_results, campaign.totals("clause_hits"), guard)
        problems = lint(catalogue, test_results)
        s = summary(rows)["total"]
        threshold = asserted_threshold()
        st.ok = not problems and s["asserted_share"] >= threshold
        st.failures = [str(p) for p in problems]
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
                                  {f"{i}={a}": n for (i, a), n in sorted(alt_hits.items())},
                                  stages=[{"name": x.name, "ok": x.ok, "detail": x.detail, "failures": list(x.failures),
                                           "ran": x.ran} for x in stages],
                                  thresholds={"asserted": asserted_threshold(), "guarded": guarded_threshold()},
                                  policy_scores={campaign.policy: [sc for g in campaign.games if g.failure is None
                                                                   for sc in g.scores]},
                                  substep_visits=campaign.totals("substep_hits"), fixtures=ROOT / "fixtures",
                                  suspects=[sp.to_json() for sp in suspects(catalogue, test_results)],
                                  other_games=others, searched=searched),
                     out)
        _publish(out, log, found)
        st.detail = f"{out}/index.html, coverage.md, coverage.json, pytest.log"
    _stage(console, stages, "report", report)
    return _finish(console, stages)


def search_stage(game: str, root: Path, nodes: int, seed: int, out: Path, jobs: int = 1) -> dict[str, Any]:
    """Search (`nodes` in all, `seed`) for the questions of `azul-rules search --all` that no
    committed witness under root/fixtures answers yet, at the game's first player count, its
    explorations spread over `jobs` processes (the same answer for any count: the search shares its
    budget out before a pass starts). Found witnesses are written into `out`/<game>/ (the report's,
    never fixtures/): `found` (goal key -> files), `missing` (goal keys), `explored` (what was looked
    at), `nodes`."""
    from harness.found_by_search import unanswered
    from harness.search_commands import write_witnesses
    from properties.registry import get_game
    from properties.search.run import search

    goals = unanswered(game, root)
    if not goals:
        return {"found": {}, "missing": [], "nodes": 0,
                "explored": "nothing to search: a committed witness answers every question"}
    result = search(game, goals, seed=seed, cpu_seconds=float("inf"), nodes=nodes, jobs=jobs)
    if result.interrupted:              # the search keeps what it found on Ctrl-C; verify stops
        raise KeyboardInterrupt
    found: dict[str, list[str]] = {}
    for key, path, _ in write_witnesses(result, get_game(game), out / game, seed) if result.witnesses else []:
        twin = path.with_name(path.name[:-len(".toml")] + ".default.toml")
        found[key] = [str(path)] + ([str(twin)] if twin.is_file() else [])
    spent = sum(e.nodes for _, e in result.explored)
    positions = sum(e.positions for _, e in result.explored)
    deepest = max((e.deepest_round for _, e in result.explored), default=0)
    explored = (f"{spent:,} nodes (budget {nodes:,}, seed {seed}), {positions:,} distinct positions, deepest round "
                f"{deepest}, {result.cpu_seconds:.1f} CPU s, for {len(goals)} question(s)")
    return {"found": found, "missing": [g.key for g in result.missing], "nodes": spent, "explored": explored}


def _play_stages(settings: Mapping[str, Any], workers: Workers, console: Console, stages: list[Stage], found: Path,
                 test_results: Mapping[str, Any], tests_json: Path, profile: str,
                 jobs: int, skip: str | None = None,
                 save: bool = True) -> tuple[Any, list[dict[str, Any]], list[dict[str, Any]]]:
    """The stages that play games: the default game's simulation campaign and interpretation matrix,
    then every other game's stages (`_verify_game`), all on the same `workers`: one pool of processes
    started once, not once per campaign, matrix or player count, and given every stage's games at
    once (harness.ahead), so it never idles between stages. The campaign, the matrix's rows and the
    other games' report sections."""
    from properties.matrix import run_matrix
    from properties.registry import DEFAULT_GAME, game_names
    from properties.simulate import CampaignReport, run_campaign

    other_games = [g for g in game_names() if g != DEFAULT_GAME]
    if skip:                            # nothing played: an empty campaign and matrix for the report
        _skip(console, stages, "simulation campaign", skip)
        _skip(console, stages, "interpretation matrix", skip)
        others = [_verify_game(g, settings, jobs, console, stages, found, test_results, tests_json, profile,
                               None, skip=skip, save=save) for g in other_games]
        return CampaignReport([], {}, policy="greedy"), [], others
    ahead = not workers.serial
    if ahead:
        _start_workers(workers)
    games = settings["games"]
    playing = Ahead(lambda progress: run_campaign(games, 0, {}, jobs=workers, policy="greedy", progress=progress),
                    ahead)                                                  # scores: the oracle sees points
    playing_matrix = Ahead(lambda progress: run_matrix(settings["matrix_games"], 0, workers, found, progress), ahead)
    playing_others = {g: _game_plays(g, settings, workers, found, ahead) for g in other_games}

    def simulation(st: Stage) -> Any:
        from properties.simulate import group_failures, write_failure
        campaign = playing.result(lambda done: st.progress(f"{done}/{games} games"))
        failures = campaign.failures
        for g in failures[:MAX_COUNTEREXAMPLES]:
            st.failures.append(str(write_failure(g, {}, found, "greedy")))
        st.ok = not failures
        st.detail = f"{games} games, {len(failures)} broke an invariant"
        if failures:
            st.detail += ": " + "; ".join(f"{len(gs)}/{games} broke {name}" for name, gs in group_failures(failures))
        return campaign
    campaign = _stage(console, stages, "simulation campaign", simulation)

    def matrix(st: Stage) -> list[dict[str, Any]]:
        from properties.matrix import matrix_rows
        total = len(matrix_rows()) * settings["matrix_games"]
        rows = playing_matrix.result(lambda done: st.progress(f"{done}/{total} games"))
        if settings["shrink"]:
            from properties.matrix import shrink_row
            for i, row in enumerate(rows):
                if row.broken:
                    shrunk = shrink_row(row.overrides, found)
                    if shrunk:
                        rows[i] = attrs.evolve(row, broken={**row.broken, shrunk.invariant: shrunk.scenario})
        defaults = rows[0]
        st.ok = not defaults.broken
        st.failures = [f"defaults: {name}: {path}" for name, path in defaults.broken.items()]
        broken_rows = sum(bool(r.broken) for r in rows)
        st.detail = (f"{len(rows)} rows x {settings['matrix_games']} games; defaults "
                     f"{'hold' if st.ok else 'BREAK ' + ', '.join(defaults.broken)}; {broken_rows} rows break an invariant")
        return [r.to_json() for r in rows]
    matrix_rows = _stage(console, stages, "interpretation matrix", matrix)
    others = [_verify_game(g, settings, jobs, console, stages, found, test_results, tests_json, profile,
                           playing_others[g], save=save) for g in other_games]
    return campaign, matrix_rows, others



MAX_COUNTEREXAMPLES = 20        # counterexample files verify writes per stage (all failures are counted)

WARM_UP_SECONDS = 60.0          # the most the stages after the tests wait for the warm-up (it takes seconds)
LITERAL_FOLDERS = ("model", "properties", "harness", "tests")   # what coverage, lint and suspects parse


def warm_up() -> None:
    """Load what the stages after the tests load anyway: the clause-id literals of every folder
    coverage, lint and the suspect pins read (harness.coverage keeps them by text), the report's
    plotting library and its templates. Caches only: every stage's result is the same without it."""
    from harness.coverage import id_literals
    for folder in LITERAL_FOLDERS:
        for path in sorted((ROOT / folder).rglob("*.py")):
            try:
                id_literals(path)
            except (OSError, SyntaxError, ValueError):
                pass                    # the stage that reads it reports it
    import harness.plots  # noqa: F401  (matplotlib: seconds of imports)
    from harness.report import _ENV
    for template in ("report.html.j2", "coverage.md.j2"):
        _ENV.get_template(template)


def _warm_up() -> threading.Thread:
    """`warm_up` in a thread while the test stage waits for pytest; a failure there is left to the
    stage that does the same work for real (its error names what broke)."""
    def run() -> None:
        try:
            warm_up()
        except Exception:               # noqa: BLE001  (a cache: the real stage raises it)
            pass
    thread = threading.Thread(target=run, name="verify-warm-up", daemon=True)
    thread.start()
    return thread


def _mutation(st: Stage, catalogue: Any, tests_json: Path, settings: Mapping[str, Any], profile: str, jobs: int,
              threshold: float, save: bool = True) -> dict[str, dict[str, Any]]:
    """One game's mutation analysis: re-run its stale clauses (all under `deep`) within the profile's
    time, judge every clause from the results (harness.coverage.guard_statuses), fail below the
    game's guarded threshold. Without `save` (a red suite) tests/mutants.json is not written: the
    new results judge this run only."""
    from harness.mutation.analysis import plan, run, stale
    from harness.mutation.store import RESULTS, load_results, save_results
    plans = plan(ROOT, catalogue, tests_json)
    stored = load_results(ROOT)
    todo = list(plans) if profile == "deep" else stale(plans, stored)
    todo = within_mutants(todo, plans, settings.get("mutation_mutants"))
    budget = settings.get("mutation_seconds")
    deadline = time.monotonic() + budget if budget else None
    if todo:
        stored.setdefault("clauses", {}).update(run(ROOT, plans, todo, jobs, lambda r: None, deadline))
        stored["clauses"] = {k: v for k, v in sorted(stored["clauses"].items())
                             if k in plans or not k.startswith(catalogue.id_prefix)}   # other games' stay
        if save:
            save_results(ROOT, stored)
    judged = guard_statuses(catalogue, ROOT, stored)
    guarded = sum(v["status"] == GUARDED for v in judged.values())
    guardable = sum(v["status"] not in UNGUARDABLE for v in judged.values())
    share = guarded / guardable if guardable else 0.0
    killed = sum(v["killed"] for v in judged.values() if v["status"] in (GUARDED, SURVIVOR))
    total = sum(v["total"] for v in judged.values() if v["status"] in (GUARDED, SURVIVOR))
    st.ok = share >= threshold
    still_stale = sum(v["status"] == NOT_MEASURED for v in judged.values())
    from properties.registry import DEFAULT_GAME
    game = "" if catalogue.game == DEFAULT_GAME else f" --game {catalogue.game}"
    st.detail = (f"{guarded}/{guardable} clauses guarded ({share:.0%}, threshold {threshold:.0%}; "
                 f"{len(judged) - guardable} with no model site); mutants killed {killed}/{total}; "
                 f"{len(todo)} clause(s) re-run, the rest from {RESULTS}"
                 + (f"; {still_stale} not measured (past the profile's mutants or time: run `azul-rules mutate{game}`)"
                    if still_stale else "")
                 + ("" if save else f"; {RESULTS} not written (the suite is red)"))
    return judged


def within_mutants(todo: list[str], plans: Mapping[str, Any], limit: int | None) -> list[str]:
    """The clauses of `todo`, in order, whose mutants together stay within `limit` (None: all);
    whole clauses only, so the same tree always measures the same clauses."""
    if limit is None:
        return todo
    chosen, count = [], 0
    for cid in todo:
        count += len(plans[cid].mutants)
        if count > limit:
            break
        chosen.append(cid)
    return chosen


def _start_workers(workers: Workers) -> None:
    """Start the pool's processes now, from this thread, before the threads of `Ahead` start: a
    process forked while another thread holds a lock (an import's, halfway through loading a game's
    module) inherits it held, and waits for it forever. A forking pool starts all its processes at
    its first task; they live as long as the pool, so no fork happens after this."""
    if workers.pool is not None:
        workers.pool.submit(int).result()


def _game_plays(game: str, settings: Mapping[str, Any], workers: Workers, found: Path,
                ahead: bool) -> tuple[Ahead[list[Any]], Ahead[list[Any]]]:
    """A game other than the default: its campaigns (one per player count) and its matrix, on
    `workers`, started now when `ahead`."""
    from properties.matrix import run_matrix
    from properties.registry import get_game
    from properties.simulate import run_campaign

    entry = get_game(game)
    games = max(1, settings["games"] // (4 * len(entry.players)))
    campaigns = Ahead(lambda progress: [run_campaign(games, 0, {}, jobs=workers, game=game, players=n, progress=progress)
                                        for n in entry.players], ahead)
    matrix = Ahead(lambda progress: run_matrix(max(1, settings["matrix_games"] // 2), 0, workers, found, progress,
                                               game=game), ahead)
    return campaigns, matrix


def _verify_game(game: str, settings: Mapping[str, Any], jobs: int, console: Console, stages: list[Stage],
                 found: Path, test_results: Mapping[str, Any], tests_json: Path, profile: str,
                 plays: tuple[Ahead[list[Any]], Ahead[list[Any]]] | None, skip: str | None = None,
                 save: bool = True) -> dict[str, Any]:
    """A game other than the default: its simulation campaign (uniform policy, every invariant after
    every step, each player count), its interpretation matrix, its mutation analysis and its coverage
    against its own thresholds; what the report's section for the game shows. `plays`: its campaigns
    and matrix, handed to the shared workers by `_game_plays`; `jobs` runs its mutation analysis."""
    from harness.coverage import compute, lint, summary
    from properties.matrix import columns
    from properties.registry import get_game
    from properties.simulate import group_failures, write_failure

    entry = get_game(game)
    catalogue = default_catalogue(game)
    games = max(1, settings["games"] // (4 * len(entry.players)))

    def simulation(st: Stage) -> list[Any]:
        assert plays is not None
        playing = plays[0]
        campaigns = playing.result()
        failures = [g for c in campaigns for g in c.failures]
        for g in failures[:MAX_COUNTEREXAMPLES]:
            st.failures.append(str(write_failure(g, {}, found)))
        st.ok = not failures
        st.detail = (f"{games} games for each of {', '.join(map(str, entry.players))} players, "
                     f"{len(failures)} broke an invariant")
        if failures:
            st.detail += ": " + "; ".join(f"{len(gs)} broke {name}" for name, gs in group_failures(failures))
        return campaigns
    if skip:
        _skip(console, stages, f"{game}: simulation campaign", skip)
        campaigns: list[Any] = []
    else:
        campaigns = _stage(console, stages, f"{game}: simulation campaign", simulation)

    def matrix(st: Stage) -> list[dict[str, Any]]:
        assert plays is not None
        rows = plays[1].result()
        defaults = rows[0]
        st.ok = not defaults.broken
        st.failures = [f"defaults: {name}: {path}" for name, path in defaults.broken.items()]
        st.detail = (f"{len(rows)} rows; defaults {'hold' if st.ok else 'BREAK ' + ', '.join(defaults.broken)}; "
                     f"{sum(bool(r.broken) for r in rows)} rows break an invariant")
        return [r.to_json() for r in rows]
    if skip:
        _skip(console, stages, f"{game}: interpretation matrix", skip)
        matrix_rows: list[dict[str, Any]] = []
    else:
        matrix_rows = _stage(console, stages, f"{game}: interpretation matrix", matrix)

    hits: Counter[str] = Counter()
    edges: Counter[tuple[str, str]] = Counter()
    for c in campaigns:
        hits.update(c.totals("clause_hits"))
        edges.update(c.totals("edge_hits"))

    def mutation(st: Stage) -> dict[str, dict[str, Any]]:
        return _mutation(st, catalogue, tests_json, settings, profile, jobs, guarded_threshold(game), save=save)
    if skip:
        _skip(console, stages, f"{game}: mutation analysis", f"{skip} (the clauses' status is the stored one)")
        guard = guard_statuses(catalogue, ROOT)
    else:
        guard = _stage(console, stages, f"{game}: mutation analysis", mutation)

    def coverage(st: Stage) -> list[Any]:
        rows = compute(catalogue, test_results, hits, guard)
        problems = lint(catalogue, test_results)
        s = summary(rows)["total"]
        need = asserted_threshold(game)
        st.ok = not problems and s["asserted_share"] >= need
        st.failures = [str(p) for p in problems]
        st.detail = (f"{s['implemented']}/{s['total']} implemented, {s['exercised']} exercised, {s['asserted']} "
                     f"asserted ({s['asserted_share']:.0%}, threshold {need:.0%})")
        return rows
    clause_rows = _stage(console, stages, f"{game}: coverage", coverage)
    return {"name": game, "title": entry.title, "catalogue": catalogue, "clauses": clause_rows,
            "matrix": matrix_rows, "matrix_columns": list(columns(game)), "edge_visits": dict(edges),
            "campaign": {"games": sum(len(c.games) for c in campaigns),
                         "failures": sum(len(c.failures) for c in campaigns),
                         "players": list(entry.players), "policy": "uniform"},
            "thresholds": {"asserted": asserted_threshold(game), "guarded": guarded_threshold(game)}}


CODE_LINT = "code lint"         # ruff and mypy (`make lint`); not a red stage: the games measure the same


def _code_lint(st: Stage) -> None:
    """ruff and mypy over the checkout, as configured in pyproject.toml; every finding is named."""
    from harness.code_lint import code_lint
    results = code_lint(ROOT)
    st.ok = all(r.ok for r in results)
    st.failures = [f for r in results for f in r.findings]
    st.detail = "; ".join(f"{r.tool}: {r.summary}" for r in results)


def _shown(path: Path) -> str:
    """A path as the user can type it: relative to the checkout when inside it."""
    try:
        return str(path.relative_to(ROOT))
    except ValueError:
        return str(path)


def _into_report(value: Any, found: Path, out: Path) -> Any:
    """`value` (strings, Paths, and lists, tuples and dicts of them) with every path into
    the scratch folder `found` pointing at the report's copy, out/counterexamples, instead (the scratch
    folder is deleted when verify ends)."""
    scratch, kept = str(found), _shown(out / "counterexamples")
    if isinstance(value, str):
        return value.replace(scratch, kept)
    if isinstance(value, Path):
        return Path(str(value).replace(scratch, kept))
    if isinstance(value, dict):
        return {k: _into_report(v, found, out) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return type(value)(_into_report(v, found, out) for v in value)
    return value


def _publish(out: Path, log: Path, found: Path) -> None:
    """Put pytest's log and the counterexamples into the report and make it readable by everyone
    (folders 0755, files 0644: a temporary folder is created 0700)."""
    if log.exists():
        shutil.copyfile(log, out / "pytest.log")
    if found.is_dir():
        (out / "counterexamples").mkdir(exist_ok=True)
        for src in found.iterdir():
            if not (out / "counterexamples" / src.name).exists():
                shutil.copyfile(src, out / "counterexamples" / src.name)
    os.chmod(out, 0o755)
    for folder, dirs, files in os.walk(out):
        for d in dirs:
            os.chmod(Path(folder) / d, 0o755)
        for f in files:
            os.chmod(Path(folder) / f, 0o644)


def _tidy_interrupted_report(out: Path, started: float) -> None:
    """After Ctrl-C: no half-built `.{out}-*` folder stays behind; a report moved aside is put back."""
    if not out.parent.is_dir():
        return
    old = out.with_name(f".{out.name}-old")
    if old.is_dir() and not out.exists():
        old.rename(out)
    for leftover in out.parent.glob(f".{out.name}-*"):
        try:
            if leftover.is_dir() and leftover.stat().st_mtime >= started - 1:
                shutil.rmtree(leftover, ignore_errors=True)
        except OSError:
            pass


def _finish(console: Console, stages: list[Stage]) -> int:
    table = Table(title="azul-rules verify")
    table.add_column("stage", overflow="fold")
    table.add_column("result", no_wrap=True)
    table.add_column("seconds", justify="right", no_wrap=True)
    for st in stages:
        result = "[yellow]not run[/yellow]" if not st.ran else "[green]ok[/green]" if st.ok else (
            "[yellow]interrupted[/yellow]" if st.detail == "interrupted" else "[red]FAILED[/red]")
        table.add_row(st.name, result, f"{st.seconds:.1f}")
    console.print(table)
    for st in stages:
        if st.failures and not st.ok:
            console.print(f"[red]{st.name}[/red] failed ({len(st.failures)}):", highlight=False)
            for name in st.failures:
                console.print(f"  {name}", highlight=False, markup=False, soft_wrap=True)   # ids never cut
    return 0 if all(st.ok for st in stages) else 1
