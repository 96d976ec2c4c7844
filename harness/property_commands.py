"""`azul-rules simulate` and `azul-rules interpretations`."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import click
from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from harness.errors import UserError
from harness.game_option import check_players, game_option, parse_overrides
from harness.output_path import OutputPath
from properties.cluster import Workers, cluster_option
from properties.matrix import SHRINK_SECONDS
from properties.registry import get_game
from properties.watchdog import DEFAULT_GAME_SECONDS, DEFAULT_MEMORY_LIMIT, MEMORY_ENV


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
@game_option
@click.option("--players", type=click.IntRange(1), default=None, help="Player count (default: the game's first).")
@click.option("--games", type=click.IntRange(1), default=200, show_default=True)
@click.option("--seed", type=int, default=0, show_default=True)
@click.option("--jobs", type=click.IntRange(1), default=None, help="Worker processes (default: all cores).")
@cluster_option
@click.option("--interpretation", "interps", multiple=True, metavar="ID=ALT", help="Override an interpretation point.")
@click.option("--policy", default=None, metavar="NAME",
              help="How moves are chosen: uniform (any legal action, every game) or one the game registers "
                   "(Duel: greedy, its default, completes lines and avoids Broken tiles; careful: uniform, but "
                   "tiles go where fewest break).")
@click.option("--out", type=OutputPath(folder=True), default=Path("counterexamples"),
              show_default=True, help="Where failing games are written as scenarios.")
@click.option("--json", "json_path", type=OutputPath(), default=None,
              help="Also write the statistics and every game's result as JSON.")
@click.option("--max-failures", type=click.IntRange(1), default=None,
              help="Stop once this many games have failed (games not started are reported as skipped).")
@click.option("--max-counterexamples", type=click.IntRange(0), default=3, show_default=True,
              help="Counterexample files written per broken invariant (every failure is still counted).")
@click.option("--game-seconds", type=click.FloatRange(min=0, min_open=True), default=DEFAULT_GAME_SECONDS,
              show_default=True, help="Time budget of one game; past it the game fails as a livelock.")
@click.option("--budget", "budget_seconds", type=click.FloatRange(min=0, min_open=True), default=None,
              help="Time budget of the whole run (seconds); games not started by then count as failed.")
@click.option("--memory-limit", default=None, metavar="SIZE",
              help=f"Memory cap of this run and its workers (default ${MEMORY_ENV} or {DEFAULT_MEMORY_LIMIT}; 0 = off).")
def simulate_command(game: str, players: int | None, games: int, seed: int, jobs: int | None,
                     cluster: str | None, interps: tuple[str, ...], policy: str | None, out: Path, json_path: Path | None,
                     max_failures: int | None, max_counterexamples: int, game_seconds: float,
                     budget_seconds: float | None, memory_limit: str | None) -> None:
    """Random legal games checked at every step, with statistics for designers."""
    from harness.simulate_output import campaign_json, campaign_statistics, failure_groups
    from properties.simulate import policies, run_campaign

    entry = get_game(game)
    players = check_players(game, players)
    known = policies(game)
    policy = policy or entry.default_policy
    if policy not in known:
        from spec.suggest import did_you_mean
        raise UserError(f"game {game!r} has no policy {policy!r}{did_you_mean(policy, known)} "
                        f"(policies: {', '.join(known)})")
    overrides = parse_overrides(game, interps, players)
    _limit_memory(memory_limit)
    console = Console()
    with _progress(console) as progress:
        task = progress.add_task("simulating", total=games)
        report = run_campaign(games, seed, overrides, jobs=Workers(jobs or default_jobs(), cluster),
                              progress=lambda n: progress.advance(task, n), policy=policy,
                              game_seconds=game_seconds, budget_seconds=budget_seconds,
                              max_failures=max_failures, game=game, players=players)
    gs = report.games
    if not gs:
        console.print(f"[red]FAIL[/red] the time budget of {budget_seconds:g} s ran out before any game ended")
        raise SystemExit(1)
    stats = campaign_statistics(report)
    table = Table(title=f"{entry.title}: {len(gs)} games, seed {seed}, policy {policy}"
                  + (f", {players} players" if len(entry.players) > 1 else "") + (f", {overrides}" if overrides else ""))
    table.add_column("statistic", overflow="fold")
    table.add_column("value", justify="right", overflow="fold")
    if "score" in stats:
        sc = stats["score"]
        table.add_row("score min / median / mean / max",
                      f"{sc['min']} / {sc['median']:g} / {sc['mean']:.1f} / {sc['max']}")
        table.add_row("score distribution (per player)",
                      "  ".join(f"{k}: {n}" for k, n in stats["score_distribution"].items()))
    for seat, n in stats["wins"].items():
        table.add_row(f"wins {seat}", str(n))
    table.add_row("draws", str(stats["draws"]))
    table.add_row("stalled (nobody can act)", str(stats["stalled"]))
    table.add_row("ties (equal points)", str(stats["ties"]))
    for name, n in stats["branches"].items():
        table.add_row(name, str(n))
    if entry.draws_label:
        table.add_row(entry.draws_label, ", ".join(f"{k}: {v}" for k, v in stats["draw_turns"].items()) or "none")
    for label, n in stats["decided_by"].items():
        table.add_row(label, str(n))
    table.add_row("actions per game (mean)", f"{stats['actions_mean']:.0f}")
    console.print(table)
    groups = failure_groups(report, overrides, out, policy, max_counterexamples)
    for group in groups:
        first, *rest = group.lines(len(gs))
        console.print("[red]FAIL[/red] " + escape(first), highlight=False, soft_wrap=True)
        for line in rest:
            console.print(line, highlight=False, markup=False, soft_wrap=True)
    unplayed = report.unplayed
    if unplayed:
        console.print(f"[red]FAIL[/red] the time budget of {budget_seconds:g} s ran out: {unplayed} game(s) "
                      f"not played (seeds {seed + games - unplayed}..{seed + games - 1} or a subset)")
    failures = report.failures
    skipped = f", {report.skipped} skipped (stopped after {max_failures} failures)" if report.skipped else ""
    console.print(f"{len(gs) - len(failures)} passed, {len(failures) + unplayed} failed{skipped}")
    if json_path:
        json_path.parent.mkdir(parents=True, exist_ok=True)
        json_path.write_text(json.dumps(campaign_json(report, groups, games=games, seed=seed), indent=1, sort_keys=True))
    if failures or unplayed:
        raise SystemExit(1)


@click.command("interpretations")
@game_option
@click.option("--players", type=click.IntRange(1), default=None, help="Player count (default: the game's first).")
@click.option("--games", type=click.IntRange(1), default=40, show_default=True, help="Games per row.")
@click.option("--seed", type=int, default=0, show_default=True)
@click.option("--jobs", type=click.IntRange(1), default=None, help="Worker processes (default: all cores).")
@cluster_option
@click.option("--out", type=OutputPath(folder=True), default=Path("counterexamples"),
              show_default=True)
@click.option("--json", "json_path", type=OutputPath(), default=None,
              help="Also write the matrix as JSON.")
@click.option("--shrink", is_flag=True,
              help="For each row that breaks an invariant, let Hypothesis find and shrink a short "
                   "counterexample (within --shrink-seconds per row).")
@click.option("--shrink-seconds", type=click.FloatRange(min=0, min_open=True), default=SHRINK_SECONDS,
              show_default=True, help="Time budget of one row's search and shrink; past it the smallest "
                                      "counterexample found so far is kept.")
@click.option("--fail-on", type=click.Choice(["default", "any"]), default="default", show_default=True,
              help="Exit status 1 when the defaults row breaks an invariant (default), or when any row does (any).")
@click.option("--game-seconds", type=click.FloatRange(min=0, min_open=True), default=DEFAULT_GAME_SECONDS,
              show_default=True, help="Time budget of one game; past it the game fails as a livelock.")
@click.option("--memory-limit", default=None, metavar="SIZE",
              help=f"Memory cap (default ${MEMORY_ENV} or {DEFAULT_MEMORY_LIMIT}; 0 = off).")
@click.option("--row", "only", multiple=True, metavar="LABEL",
              help="Play only this row (repeatable; a label as ID=ALT, without its setup note), "
                   "after the defaults row.")
def interpretations_command(game: str, players: int | None, games: int, seed: int, jobs: int | None,
                            cluster: str | None, out: Path,
                            json_path: Path | None, shrink: bool, shrink_seconds: float, fail_on: str,
                            game_seconds: float, memory_limit: str | None, only: tuple[str, ...] = ()) -> None:
    """Run every invariant under every alternative; print the matrix with counterexamples."""
    from properties.matrix import chosen_rows, columns, run_matrix

    players = check_players(game, players) if players is not None else None   # None: a row's own count, else the game's first
    _limit_memory(memory_limit)
    console = Console()
    chosen = ("defaults", *(label for label in only if label != "defaults")) if only else None
    rows = chosen_rows(game, chosen)
    COLUMNS = columns(game)
    with _progress(console) as progress:
        task = progress.add_task("interpretations", total=games * len(rows))
        result = run_matrix(games, seed, Workers(jobs or default_jobs(), cluster), out, lambda n: progress.advance(task, n),
                            game_seconds=game_seconds,
                            on_row=lambda k, n, label: progress.update(task, description=f"row {k} of {n}: {label}"),
                            game=game, players=players, only=chosen)
    table = Table(title=f"{get_game(game).title}: {len(COLUMNS)} invariants under every interpretation "
                        f"({games} games per row)")
    table.add_column("alternative (others at their defaults)", overflow="fold")
    table.add_column("decided", justify="right")
    table.add_column("stalled", justify="right")
    table.add_column("invariants broken", overflow="fold")
    for row in result:
        broken = ", ".join(f"[red]{name}[/red]" for name in COLUMNS if name in row.broken) or "[green]none[/green]"
        table.add_row(escape(row.label), str(row.decided) if row.overrides else "-", str(row.stalled), broken)
    console.print(table)
    console.print("decided = how often the alternative changed what happened in play (0: never mattered)")
    for row in result:
        for name, path in row.broken.items():
            console.print(f"{row.label}: {name}: {row.messages[name]}\n    replay: azul-rules scenario {path}",
                          highlight=False, markup=False, soft_wrap=True)
    if shrink:
        _shrink_broken_rows([r for r in result if r.broken], out, shrink_seconds, console, game)
    if json_path:
        json_path.parent.mkdir(parents=True, exist_ok=True)
        json_path.write_text(json.dumps([r.to_json() for r in result], indent=2, sort_keys=True))
    failing = failing_rows(result, fail_on)
    if failing:
        what = "the defaults break" if fail_on == "default" else f"{len(failing)} of {len(result)} rows break"
        console.print(f"[red]FAIL[/red] {what} an invariant (--fail-on {fail_on}): "
                      + escape("; ".join(f"{r.label}: {', '.join(r.broken)}" for r in failing)),
                      highlight=False, soft_wrap=True)
        raise SystemExit(1)


def failing_rows(rows: list[Any], fail_on: str) -> list[Any]:
    """The rows that make `interpretations` fail: the defaults row (first) when it breaks an
    invariant (`default`), or every row that does (`any`)."""
    return [r for r in rows if r.broken] if fail_on == "any" else [r for r in rows[:1] if r.broken]


def _shrink_broken_rows(rows: list[Any], out: Path, seconds: float, console: Console, game: str) -> None:
    """Hypothesis searches and shrinks a counterexample per broken row, each within `seconds`."""
    import time

    from properties.matrix import shrink_row

    for k, row in enumerate(rows, 1):
        console.print(f"shrinking row {k} of {len(rows)}: {row.label} (budget {seconds:g} s)",
                      highlight=False, markup=False, soft_wrap=True)
        started = time.monotonic()
        with console.status(f"shrinking row {k} of {len(rows)} ..."):
            shrunk = shrink_row(row.overrides, out, seconds=seconds, game=game)
        took = f"{time.monotonic() - started:.1f} s of its {seconds:g} s budget"    # measured, with the budget
        if shrunk is None:
            console.print(f"    no failure found in {took} (the counterexample above stands)",
                          highlight=False, markup=False)
        else:
            how = "shrunk" if shrunk.complete else "budget spent; the smallest found so far"
            console.print(f"    {how} in {took} ({shrunk.invariant}): azul-rules scenario {shrunk.scenario}",
                          highlight=False, markup=False, soft_wrap=True)
