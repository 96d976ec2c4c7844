"""`azul-rules perft`: bounded exhaustive checking from set-up or a scenario's position
(properties/exhaustive.py): nodes, distinct positions and paths per depth, then the verdict
("holds in all N positions to depth K" or the shortest counterexample trace). `--naive` runs the
same search again copying the whole game with copy.deepcopy at every node, and prints both speeds."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import attrs
import click
from rich.console import Console
from rich.table import Table

from harness.errors import UserError
from harness.game_option import check_players, game_option, parse_overrides, require
from harness.output_path import OutputPath
from properties.exhaustive import Exploration, Level, checks_for, explore


def _start(game: str, players: int | None, seed: int, overrides: dict[str, str], scenario: Path | None,
           explicit_game: bool) -> tuple[str, Any]:
    """The game's name and the position to explore: a scenario's `given` position, or set-up."""
    if scenario is None:
        entry = require(game, "fingerprint", command="perft")
        return game, entry.load("new_game")(seed=seed, overrides=overrides or None, players=players)
    from harness.scenarios import ScenarioError, scenario_api, scenario_game

    if not scenario.is_file():
        raise UserError(f"{scenario}: no such scenario file")
    try:
        name = scenario_game(scenario)
        if explicit_game and name != game:
            raise UserError(f"{scenario}: field game: the scenario is a {name!r} scenario, not {game!r} (drop --game)")
        require(name, "fingerprint", command="perft")
        api = scenario_api(name, str(scenario))
        position, _ = api.build_game(api.load_scenario(scenario))
    except ScenarioError as exc:
        raise UserError(str(exc)) from None
    return name, position


def _levels_table(result: Exploration, title: str) -> Table:
    table = Table(title=title)
    for column in ("depth", "nodes", "distinct positions", "paths (perft)"):
        table.add_column(column, justify="right")
    rows: list[tuple[Level, str]] = [(level, "") for level in result.levels]
    if result.partial is not None:
        rows.append((result.partial, " (stopped)"))
    for level, note in rows:
        table.add_row(f"{level.depth}{note}", f"{level.nodes:,}", f"{level.distinct:,}", f"{level.paths:,}")
    return table


def _compare(position: Any, depth: int, checks: Any, options: dict[str, Any], console: Console) -> dict[str, Any]:
    """The same search (the first `max_nodes` nodes) three ways, in this run: the state copied into
    one game (ours), a whole game.copy() per node, copy.deepcopy(game) per node (naive)."""
    runs = {mode: explore(position, depth, checks, copy_mode=mode, **options) for mode in ("state", "game", "deepcopy")}
    ours, naive = runs["state"], runs["deepcopy"]
    same = all(r.levels == ours.levels and r.partial == ours.partial and r.verdict() == ours.verdict()
               for r in runs.values())
    table = Table(title=f"the same search ({ours.nodes:,} nodes), three ways of keeping positions")
    for column in ("copy per node", "nodes", "CPU s", "nodes per CPU s"):
        table.add_column(column, justify="right")
    for label, mode in (("state.copy() (ours)", "state"), ("game.copy()", "game"), ("copy.deepcopy(game)", "deepcopy")):
        r = runs[mode]
        table.add_row(label, f"{r.nodes:,}", f"{r.cpu_seconds:.2f}", f"{r.nodes_per_cpu_second:,.0f}")
    console.print(table)
    ratio = ours.nodes_per_cpu_second / naive.nodes_per_cpu_second if naive.nodes_per_cpu_second else 0.0
    console.print(f"speed-up over copy.deepcopy: {ratio:.1f}x; same counts and verdict all three ways: "
                  f"{'yes' if same else 'NO'}")
    return {mode: {"nodes": r.nodes, "cpu_seconds": round(r.cpu_seconds, 3),
                   "nodes_per_cpu_second": round(r.nodes_per_cpu_second)} for mode, r in runs.items()} | {
        "speed_up": round(ratio, 2), "same_counts": same}


@click.command("perft")
@game_option
@click.option("--players", type=click.IntRange(1), default=None, help="Player count (default: the game's first).")
@click.option("--depth", type=click.IntRange(0), default=3, show_default=True, help="Steps to explore (K).")
@click.option("--chance", is_flag=True,
              help="Branch on every chance outcome too (each colour the bag holds, each chip, ...).")
@click.option("--from", "scenario", type=click.Path(dir_okay=False, path_type=Path), default=None,
              metavar="SCENARIO_FILE",
              help="Start from this scenario's given position (default: set-up); a hand-built position is held "
                   "to the physical state invariants (as its `given` is).")
@click.option("--seed", type=int, default=0, show_default=True, help="The set-up's seed (without --from).")
@click.option("--interpretation", "interps", multiple=True, metavar="ID=ALT", help="Override an interpretation point.")
@click.option("--steps/--no-steps", default=None,
              help="Check the step invariants too (default: from set-up yes; from a scenario no, since a "
                   "hand-built position's round has no history for the round's bookkeeping checks).")
@click.option("--no-invariants", is_flag=True,
              help="Check nothing (state nor step invariants): the speed of exploration alone.")
@click.option("--max-nodes", type=click.IntRange(1), default=10_000_000, show_default=True)
@click.option("--max-cpu", "max_cpu", type=click.FloatRange(min=0, min_open=True), default=3600.0, show_default=True,
              help="CPU seconds before the search stops (said in the verdict).")
@click.option("--max-positions", type=click.IntRange(1), default=5_000_000, show_default=True,
              help="Distinct positions kept (the memory bound: about 100-150 bytes each).")
@click.option("--max-frontier", type=click.IntRange(1), default=500_000, show_default=True,
              help="Positions of one depth kept as states for the next depth.")
@click.option("--naive", is_flag=True,
              help="Also run the same search (its first --naive-nodes nodes) with copy.deepcopy(game) and with "
                   "game.copy() at every node, and print the three speeds.")
@click.option("--naive-nodes", type=click.IntRange(1), default=50_000, show_default=True,
              help="Nodes of the --naive comparison (both ways walk exactly these first nodes).")
@click.option("--json", "json_path", type=OutputPath(), default=None,
              help="Also write the result as JSON ('-' for stdout only).")
@click.pass_context
def perft_command(ctx: click.Context, game: str, players: int | None, depth: int, chance: bool,
                  scenario: Path | None, seed: int, interps: tuple[str, ...], steps: bool | None, no_invariants: bool, max_nodes: int,
                  max_cpu: float, max_positions: int, max_frontier: int, naive: bool, naive_nodes: int,
                  json_path: Path | None) -> None:
    """Every continuation to --depth, deduplicated by position, invariants checked at every node."""
    explicit_game = ctx.get_parameter_source("game") is not click.core.ParameterSource.DEFAULT
    if scenario is None:
        players = check_players(game, players)
        overrides = parse_overrides(game, interps, players)
    elif interps or players is not None:
        raise UserError("--from takes the readings and players from the scenario file: drop --interpretation/--players")
    else:
        overrides = {}
    name, position = _start(game, players, seed, overrides, scenario, explicit_game)
    from properties.registry import get_game

    entry = get_game(name)
    steps = (scenario is None) if steps is None else steps
    checks = checks_for(entry, steps=steps and not no_invariants, physical_only=scenario is not None)
    if no_invariants:
        checks = attrs.evolve(checks, invariants=None)
    options: dict[str, Any] = {"chance": chance, "max_nodes": max_nodes, "max_cpu_seconds": max_cpu,
                               "max_positions": max_positions, "max_frontier": max_frontier}
    to_stdout = json_path is not None and str(json_path) == "-"
    console = Console(stderr=to_stdout)

    def progress(level: Level) -> None:
        console.print(f"  depth {level.depth}: {level.nodes:,} nodes, {level.distinct:,} new positions", style="dim")

    result = explore(position, depth, checks, progress=progress, **options)
    where = f"from {scenario}" if scenario else f"from set-up (seed {seed})"
    console.print(_levels_table(result, f"{entry.title} perft {where}, depth {depth}{', with chance' if chance else ''}"))
    checked = [what for what, on in (("state invariants" + (" (physical)" if scenario else ""), checks.invariants),
                                     ("step invariants", checks.step_invariants)) if on] or ["nothing but the rules"]
    console.print(result.verdict(), soft_wrap=True, markup=False)
    console.print(f"checked at every node: {', '.join(checked)}", style="dim")
    if result.counterexample is not None:
        for n, step in enumerate(result.counterexample.steps, 1):
            draws = f"   draws {step.draws}" if step.draws else ""
            console.print(f"  {n}. {step.action}{draws}", soft_wrap=True, markup=False)
    console.print(f"{result.nodes:,} nodes in {result.cpu_seconds:.2f} CPU s: {result.nodes_per_cpu_second:,.0f} "
                  f"nodes per CPU second" + ("" if result.paths_exact else
                                            f" ({result.revisits:,} positions recurred deeper: paths are a lower bound)"))
    data = result.to_data()
    data.update(game=name, players=players, start=where, checked=checked)
    if naive:
        data["naive"] = _compare(position, depth, checks, dict(options, max_nodes=min(naive_nodes, max_nodes)), console)
    if json_path is not None:
        text = json.dumps(data, indent=2)
        if to_stdout:
            click.echo(text)
        else:
            json_path.write_text(text + "\n", encoding="utf-8")
    broken = result.counterexample is not None or (naive and not data["naive"]["same_counts"])
    raise SystemExit(1 if broken else 0)
