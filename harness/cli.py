"""The `azul-rules` command line."""

from __future__ import annotations

import signal
import sys
from importlib import import_module
from pathlib import Path
from typing import Any

import click
from rich.console import Console

from harness.errors import UserError
from harness.game_option import game_option, require
from harness.output_path import OutputPath
from harness.scenarios import ScenarioError
from model.errors import RulesetError
from properties.registry import UnknownGame
from spec import SpecError, default_catalogue

# Commands defined in modules of their own, imported only when that command runs (or the command list
# is shown): `mutate` alone would import pytest and the mutation operators into every command.
LAZY_COMMANDS: dict[str, str] = {
    "spec": "harness.spec_commands:spec_group",
    "simulate": "harness.property_commands:simulate_command",
    "interpretations": "harness.property_commands:interpretations_command",
    "mutate": "harness.mutation_commands:mutate_command",
    "suspects": "harness.suspect_commands:suspects_command",
    "diff": "harness.diff:diff_command",
    "search": "harness.search_commands:search_command",
    "check": "harness.check_commands:check_command",
    "perft": "harness.perft_commands:perft_command",
}


def _load(ref: str) -> click.Command:
    module, _, attribute = ref.partition(":")
    command: click.Command = getattr(import_module(module), attribute)
    return command


class LazyGroup(click.Group):
    """A click group whose LAZY_COMMANDS, and the commands only some games have (e.g. classic Azul's
    `differential`, from their registry entries), are imported on first use."""

    def _game_commands(self) -> None:
        from properties.registry import game_names, get_game

        for name in game_names():
            for ref in get_game(name).commands:
                command = _load(ref)
                if command.name not in self.commands:
                    self.add_command(command)

    def list_commands(self, ctx: click.Context) -> list[str]:
        self._game_commands()
        return sorted({*super().list_commands(ctx), *LAZY_COMMANDS})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in self.commands and cmd_name in LAZY_COMMANDS:
            self.add_command(_load(LAZY_COMMANDS[cmd_name]), cmd_name)
        if cmd_name not in self.commands:
            self._game_commands()
        return super().get_command(ctx, cmd_name)


@click.group(cls=LazyGroup)
@click.version_option(package_name="azul-rules")
def cli() -> None:
    """Rules verification and specification test harness for board-game rulebooks (Azul Duel,
    classic Azul; `--game NAME` on the commands that take it)."""


@cli.command("verify")
@click.option("--profile", type=click.Choice(["ci", "dev", "deep"]), default="ci", show_default=True)
@click.option("--out", type=OutputPath(folder=True), default=Path("report"), show_default=True)
@click.option("--jobs", type=click.IntRange(1), default=None, help="Worker processes (default: all cores).")
@click.option("--measure-on-red", is_flag=True,
              help="Run mutation, the campaign and the matrix even when the tests or scenarios failed (their "
                   "results then measure noise; tests/mutants.json is still not written).")
@click.option("--lint", "code_lint", is_flag=True,
              help="First run the code's lint and type check (ruff and mypy, as `make lint`; `make verify` "
                   "passes it); findings fail the run, the other stages still run.")
def verify_command(profile: str, out: Path, jobs: int | None, measure_on_red: bool, code_lint: bool) -> None:
    """Verify the rules and write the coverage report (the main job)."""
    from harness.verify import verify

    raise SystemExit(verify(profile, out, jobs, measure_on_red=measure_on_red, code_lint=code_lint))


@cli.command("lint")
@click.option("--game", "games", multiple=True, metavar="NAME",
              help="Only this game's clauses (repeatable; default: every registered game).")
def lint_command(games: tuple[str, ...]) -> None:
    """Clause links: spec ids cited nowhere, ids that spec/ lacks, tests pinned to old revisions."""
    from harness.coverage import lint, load_test_results
    from harness.pytest_plugin import DEFAULT_JSON
    from properties.registry import UnknownGame, game_names, get_game

    try:
        chosen = [get_game(g).name for g in games] or list(game_names())
    except UnknownGame as exc:
        raise UserError(str(exc)) from None
    results = load_test_results(DEFAULT_JSON)
    problems = [p for g in chosen for p in lint(default_catalogue(g), results)]
    for p in problems:
        click.echo(f"error {p}")
    click.echo(f"{len(problems)} problem(s)")
    raise SystemExit(1 if problems else 0)


@cli.command("explain")
@click.argument("clause_id")
@click.option("--game", default=None, metavar="NAME",
              help="The clause's game (default: the game whose id prefix the clause carries).")
def explain_command(clause_id: str, game: str | None) -> None:
    """Everything about one clause: text, sources, interpretations, code sites, tests, hit counts."""
    from harness.explain import explain
    from properties.registry import DEFAULT_GAME, UnknownGame, game_of_clause, get_game

    try:
        entry = get_game(game) if game else (game_of_clause(clause_id) or get_game(DEFAULT_GAME))
    except UnknownGame as exc:
        raise UserError(str(exc)) from None
    explain(clause_id, Console(), game=entry.name)


@cli.command("graph")
@game_option
@click.option("--format", "fmt", type=click.Choice(["svg", "png", "dot"]), default="svg", show_default=True)
@click.option("--out", type=OutputPath(), default=None,
              help="Output file (default: the checkout's docs/phases.FORMAT for duel, docs/phases-GAME.FORMAT "
                   "for another game, wherever you run it from).")
def graph_command(game: str, fmt: str, out: str | None) -> None:
    """Render the phase machine (the engine's own networkx graph) with graphviz."""
    from harness.coverage import ROOT
    from harness.diagram import has_dot, render_phases
    from properties.registry import DEFAULT_GAME

    require(game, "phase_graph", command="graph")
    name = "phases" if game == DEFAULT_GAME else f"phases-{game}"
    target = render_phases(Path(out) if out else ROOT / "docs" / f"{name}.{fmt}", fmt, game=game)
    if fmt != "dot" and not has_dot():
        click.echo("graphviz 'dot' not found (apt-get install graphviz); wrote DOT instead", err=True)
    click.echo(f"wrote {target}")


@cli.command("bench")
@game_option
@click.option("--players", type=click.IntRange(1), default=None, help="Player count (default: the game's first).")
@click.option("--games", type=click.IntRange(1), default=200, show_default=True)
@click.option("--seed", type=int, default=0, show_default=True)
@click.option("--repeat", type=click.IntRange(1), default=5, show_default=True,
              help="Times each measurement is taken (off and on in turn); medians and min-max are shown.")
@click.option("--checked-games", type=click.IntRange(0), default=None,
              help="Games of checked play per policy, as `simulate --jobs 1` plays them (default: --games; 0: none).")
def bench_command(game: str, players: int | None, games: int, seed: int, repeat: int,
                  checked_games: int | None) -> None:
    """Full random legal games per second, clause recording off and on, and checked play (the games
    `simulate` plays, every step checked) per policy: uniform and the game's default (medians of
    --repeat runs)."""
    from rich.table import Table

    from harness.bench import COLUMNS, checked, floor_of, interleaved, peak_rss_mib, row, rows
    from harness.game_option import check_players

    players = check_players(game, players)
    off, on = interleaved(games, seed, game=game, players=players, repeat=repeat)
    checked_games = games if checked_games is None else checked_games
    table = Table(title=f"{games} random legal games of {game} (seed {seed}), one core, {repeat} run(s) each"
                        + (f"; checked: {checked_games} games" if checked_games else ""))
    for col in COLUMNS:
        table.add_column(col, justify="right")
    for ours in rows(off, on):
        table.add_row(*ours)
    floor = floor_of(off, repeat, seed)
    table.add_row(*row("loop floor", floor))
    peer = _peer_bench(game, games, seed, players, repeat)
    if peer is not None:
        table.add_row(*row(f"peer {peer[1]}", peer[0]))
    checked_runs = checked(checked_games, seed, game, players, _bench_policies(game), repeat) if checked_games else {}
    for policy, runs in checked_runs.items():
        table.add_row(*row(f"checked, {policy}", runs))
    Console().print(table)
    click.echo(f"recording cost (median on / median off): {on.seconds / off.seconds:.2f}x wall, "
               f"{on.cpu_seconds / max(off.cpu_seconds, 1e-9):.2f}x CPU")
    click.echo(f"peak RSS of this process: {peak_rss_mib():.0f} MiB")
    shape = floor.runs[0]
    click.echo(f"loop floor: the same loop over a game whose rules do nothing, {shape.actions // shape.games} "
               f"steps of {round(shape.offers / max(1, shape.actions))} offered actions per game; "
               f"the rules take {1 - floor.cpu_seconds / max(off.cpu_seconds, 1e-9):.0%} of our CPU, recording off")
    for policy, runs in checked_runs.items():
        click.echo(f"checked play, {policy} policy (as `simulate --jobs 1` plays it, every step checked, recording on): "
                   f"{1000 * runs.cpu_seconds / checked_games:.1f} ms CPU per game, "
                   f"{runs.cpu_seconds / max(off.cpu_seconds * checked_games / games, 1e-9):.1f}x the bare engine's")
    if peer is not None:
        runs, engine, crashed = peer
        note = f" ({crashed} of its games raised inside the peer)" if crashed else ""
        click.echo(f"per game, recording off vs the peer {engine} (ratio of medians): "
                   f"{runs.seconds / off.seconds:.1f}x wall, "
                   f"{runs.cpu_seconds / max(off.cpu_seconds, 1e-9):.1f}x CPU{note}")


def _bench_policies(game: str) -> tuple[str, ...]:
    """The policies checked play is benched with: uniform, and the game's default policy."""
    from properties.registry import get_game

    default = get_game(game).default_policy
    return ("uniform",) if default == "uniform" else ("uniform", default)


def _peer_bench(game: str, games: int, seed: int, players: int | None, repeat: int) -> Any:
    """The game's peer engine on the same kind of random games (the entry's `peer_bench`), taken
    `repeat` times after ours: (the runs as a bench.Repeated, the peer's name, games it raised in);
    None when the game names no peer or the peer is not installed (said on stderr)."""
    from harness.bench import BenchResult, Repeated
    from properties.registry import get_game

    entry = get_game(game)
    if not entry.has("peer_bench"):
        return None
    try:
        runs = [entry.load("peer_bench")(games, seed, players) for _ in range(max(1, repeat))]
    except UserError as exc:
        click.echo(f"no peer row: {exc}", err=True)
        return None
    results = tuple(BenchResult(r.games, r.actions, r.seconds, r.cpu_seconds) for r in runs)
    return Repeated(results), runs[0].engine, sum(r.crashed for r in runs)


def main() -> None:
    """Entry point: user errors become one readable line and a non-zero exit."""
    # Ctrl-C always stops a run cleanly (exit 130, partial summary, nothing left behind), also when this
    # process was started with SIGINT ignored (a background job of a non-interactive shell): Python then
    # installs no KeyboardInterrupt handler of its own, and an interrupted run would go on.
    signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        cli.main(standalone_mode=False)
    except click.exceptions.Abort as exc:
        click.echo("aborted", err=True)
        sys.exit(130 if isinstance(exc.__context__, KeyboardInterrupt) else 1)   # Ctrl-C: 128 + SIGINT
    except click.ClickException as exc:
        click.echo(f"azul-rules: {exc.format_message()}", err=True)
        sys.exit(exc.exit_code)
    except (UserError, SpecError, ScenarioError, RulesetError, UnknownGame) as exc:
        click.echo(f"azul-rules: {exc}", err=True)
        sys.exit(2)
    except SystemExit:
        raise


if __name__ == "__main__":
    main()
