"""`azul-rules simulate` and `azul-rules interpretations`."""

from __future__ import annotations

import json
import os
import statistics
from pathlib import Path

import click
from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from harness.errors import UserError
from model.errors import RulesetError
from model.ruleset import Ruleset, parse_override
from properties.watchdog import DEFAULT_GAME_SECONDS, DEFAULT_MEMORY_LIMIT, MEMORY_ENV


def _overrides(items: tuple[str, ...]) -> dict[str, str]:
    out = dict(parse_override(i) for i in items)
    try:
        Ruleset.build(out)
    except RulesetError as exc:
        raise UserError(str(exc)) from None
    return out


def _progress(console: Console) -> Progress:
    return Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                    console=console, transient=True)


def default_jobs() -> int:
    return max(1, os.cpu_count() or 1)


def _limit_memory(setting: str | None) -> None:
    """Cap this process (and the workers it starts) at the configured memory (properties.watchdog)."""
    from properties.watchdog import limit_memory, memory_limit_setting

    try:
        limit_memory(memory_limit_setting(setting))
    except ValueError as exc:
        raise UserError(str(exc)) from None


@click.command("simulate")
@click.option("--games", type=click.IntRange(1), default=200, show_default=True)
@click.option("--seed", type=int, default=0, show_default=True)
@click.option("--jobs", type=click.IntRange(1), default=None, help="Worker processes (default: all cores).")
@click.option("--interpretation", "interps", multiple=True, metavar="ID=ALT", help="Override an interpretation point.")
@click.option("--policy", type=click.Choice(["greedy", "uniform", "careful"]), default="greedy", show_default=True,
              help="greedy: completes lines, avoids Broken tiles (real scores for the scoring oracle); "
                   "uniform: any legal action (widest coverage); careful: uniform, but tiles go where fewest break.")
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), default=Path("counterexamples"),
              show_default=True, help="Where failing games are written as scenarios.")
@click.option("--game-seconds", type=click.FloatRange(min=0, min_open=True), default=DEFAULT_GAME_SECONDS,
              show_default=True, help="Time budget of one game; past it the game fails as a livelock.")
@click.option("--budget", "budget_seconds", type=click.FloatRange(min=0, min_open=True), default=None,
              help="Time budget of the whole run (seconds); games not started by then count as failed.")
@click.option("--memory-limit", default=None, metavar="SIZE",
              help=f"Memory cap of this run and its workers (default ${MEMORY_ENV} or {DEFAULT_MEMORY_LIMIT}; 0 = off).")
def simulate_command(games: int, seed: int, jobs: int | None, interps: tuple[str, ...], policy: str,
                     out: Path, game_seconds: float, budget_seconds: float | None, memory_limit: str | None) -> None:
    """Random legal games checked at every step, with statistics for designers."""
    from properties.simulate import run_campaign, write_failure

    overrides = _overrides(interps)
    _limit_memory(memory_limit)
    console = Console()
    with _progress(console) as progress:
        task = progress.add_task("simulating", total=games)
        report = run_campaign(games, seed, overrides, jobs=jobs or default_jobs(),
                              progress=lambda n: progress.advance(task, n), policy=policy,
                              game_seconds=game_seconds, budget_seconds=budget_seconds)
    gs = report.games
    if not gs:
        console.print(f"[red]FAIL[/red] the time budget of {budget_seconds:g} s ran out before any game ended")
        raise SystemExit(1)
    finished = [g for g in gs if g.failure is None]
    scores = [s for g in finished for s in g.scores]
    table = Table(title=f"{games} games, seed {seed}, policy {policy}" + (f", {overrides}" if overrides else ""))
    table.add_column("statistic")
    table.add_column("value", justify="right")
    if scores:
        table.add_row("score min / median / mean / max",
                      f"{min(scores)} / {statistics.median(scores):g} / {statistics.mean(scores):.1f} / {max(scores)}")
    if scores:
        top = max(scores)
        width = max(5, -(-(top + 1) // 8 // 5) * 5)          # at most about 8 buckets, multiples of 5
        buckets = [0] * (top // width + 1)
        for sc in scores:
            buckets[sc // width] += 1
        table.add_row("score distribution (per player)",
                      "  ".join(f"{i * width}-{i * width + width - 1}: {n}" for i, n in enumerate(buckets) if n))
    for seat in (0, 1):
        table.add_row(f"wins P{seat + 1}", str(sum(g.winner == seat for g in finished)))
    table.add_row("draws", str(sum(g.winner is None for g in finished)))
    table.add_row("ties (equal points)", str(sum(g.scores[0] == g.scores[1] for g in finished)))
    for name, n in sorted(report.totals("branches").items()):
        table.add_row(name, str(n))
    draws = report.totals("draws")
    table.add_row("plates drawn blind (turns by number drawn)",
                  ", ".join(f"{k}: {v}" for k, v in sorted(draws.items())) or "none")
    untaken = sum(n for (i, _), n in report.totals("alt_hits").items() if i == "duel.prep.untaken-start-tile")
    table.add_row("rounds where nobody took the Starting player tile", str(untaken))
    table.add_row("actions per game (mean)", f"{statistics.mean(g.actions for g in gs):.0f}")
    console.print(table)
    failures = report.failures
    for g in failures:
        problem = g.broken(overrides, out, policy)
        console.print("[red]FAIL[/red] " + escape(str(problem)), highlight=False, soft_wrap=True)
    unplayed = report.unplayed
    if unplayed:
        console.print(f"[red]FAIL[/red] the time budget of {budget_seconds:g} s ran out: {unplayed} game(s) "
                      f"not played (seeds {seed + games - unplayed}..{seed + games - 1} or a subset)")
    console.print(f"{len(gs) - len(failures)} passed, {len(failures) + unplayed} failed")
    if failures or unplayed:
        raise SystemExit(1)


@click.command("interpretations")
@click.option("--games", type=click.IntRange(1), default=40, show_default=True, help="Games per row.")
@click.option("--seed", type=int, default=0, show_default=True)
@click.option("--jobs", type=click.IntRange(1), default=None)
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), default=Path("counterexamples"),
              show_default=True)
@click.option("--json", "json_path", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Also write the matrix as JSON.")
@click.option("--shrink", is_flag=True,
              help="For each row that breaks an invariant, let Hypothesis find and shrink a short "
                   "counterexample (minutes per row).")
@click.option("--game-seconds", type=click.FloatRange(min=0, min_open=True), default=DEFAULT_GAME_SECONDS,
              show_default=True, help="Time budget of one game; past it the game fails as a livelock.")
@click.option("--memory-limit", default=None, metavar="SIZE",
              help=f"Memory cap (default ${MEMORY_ENV} or {DEFAULT_MEMORY_LIMIT}; 0 = off).")
def interpretations_command(games: int, seed: int, jobs: int | None, out: Path, json_path: Path | None,
                            shrink: bool, game_seconds: float, memory_limit: str | None) -> None:
    """Run every invariant under every alternative; print the matrix with counterexamples."""
    from properties.matrix import COLUMNS, matrix_rows, run_matrix

    _limit_memory(memory_limit)
    console = Console()
    rows = matrix_rows()
    with _progress(console) as progress:
        task = progress.add_task("interpretations", total=games * len(rows))
        result = run_matrix(games, seed, jobs or default_jobs(), out, lambda n: progress.advance(task, n),
                            game_seconds=game_seconds)
    table = Table(title=f"{len(COLUMNS)} invariants under every interpretation ({games} games per row)")
    table.add_column("alternative (others at their defaults)", overflow="fold")
    table.add_column("decided", justify="right")
    table.add_column("stalled", justify="right")
    table.add_column("invariants broken", overflow="fold")
    for row in result:
        broken = ", ".join(f"[red]{name}[/red]" for name in COLUMNS if name in row.broken) or "[green]none[/green]"
        table.add_row(row.label, str(row.decided) if row.overrides else "-", str(row.stalled), broken)
    console.print(table)
    console.print("decided = how often the alternative changed what happened in play (0: never mattered)")
    for row in result:
        for name, path in row.broken.items():
            console.print(f"{row.label}: {name}: {row.messages[name]}\n    replay: azul-rules scenario {path}",
                          highlight=False, markup=False)
        if shrink and row.broken:
            from properties.matrix import shrink_row
            with console.status(f"shrinking a counterexample for {row.label} ..."):
                shrunk = shrink_row(row.overrides, out)
            if shrunk:
                console.print(f"    shrunk ({shrunk[0]}): azul-rules scenario {shrunk[1]}", highlight=False, markup=False)
    if json_path:
        json_path.parent.mkdir(parents=True, exist_ok=True)
        json_path.write_text(json.dumps([r.to_json() for r in result], indent=2, sort_keys=True))
