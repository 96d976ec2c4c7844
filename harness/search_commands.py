"""`azul-rules search`: ask the rules whether something can happen, and get the game in which it
does (a scenario file under fixtures/<game>/witnesses/) or what was explored without finding it."""

from __future__ import annotations

import statistics
import sys
from pathlib import Path
from typing import Any

import click

from harness.errors import UserError
from harness.game_option import check_players, game_option
from properties.registry import get_game


def _describe(label: str, explored: Any, found: int) -> str:
    e = explored
    return (f"{label}: {e.nodes:,} nodes, {e.positions:,} distinct positions, deepest round {e.deepest_round}, "
            f"{e.cpu_seconds:.1f} CPU s, {found} witness(es){' (interrupted)' if e.interrupted else ''}")


@click.command("search")
@game_option
@click.option("--players", type=int, default=None, help="Player count (default: the game's first).")
@click.option("--decide", "decide", multiple=True, metavar="ID=ALT",
              help="A game in which this alternative changes what happens (repeatable).")
@click.option("--clause", "clauses", multiple=True, metavar="ID", help="A game that fires this clause (repeatable).")
@click.option("--where", "wheres", multiple=True, metavar="EXPR|NAME",
              help="A game after one of whose steps the condition holds: a named predicate or a Python "
                   "expression over the view (properties/search/view.py). Repeatable.")
@click.option("--all", "everything", is_flag=True,
              help="One witness per non-default alternative and per clause with a model site.")
@click.option("--seed", type=int, default=0, show_default=True)
@click.option("--cpu-seconds", type=float, default=60.0, show_default=True, help="CPU-time budget of the search.")
@click.option("--nodes", type=int, default=10**9, help="Node (action) budget of the search.")
@click.option("--jobs", type=int, default=1, show_default=True, help="Worker processes (same witnesses).")
@click.option("--out", type=click.Path(path_type=Path), default=None,
              help="Where witnesses go (default: fixtures/<game>/witnesses/).")
@click.option("--list-predicates", is_flag=True, help="List the game's named --where conditions and exit.")
@click.option("--exhaustive", is_flag=True,
              help="Bounded exhaustive checking instead: every continuation to --depth, invariants at every "
                   "node (the same as `azul-rules perft`; its other options are perft's).")
@click.option("--depth", type=click.IntRange(0), default=3, show_default=True, help="With --exhaustive: steps (K).")
@click.option("--chance", is_flag=True, help="With --exhaustive: branch on every chance outcome too.")
@click.option("--json", "json_path", default=None, help="With --exhaustive: as perft's --json.")
@click.pass_context
def search_command(ctx: click.Context, game: str, players: int | None, decide: tuple[str, ...],
                   clauses: tuple[str, ...], wheres: tuple[str, ...], everything: bool, seed: int,
                   cpu_seconds: float, nodes: int, jobs: int, out: Path | None, list_predicates: bool,
                   exhaustive: bool, depth: int, chance: bool, json_path: str | None) -> None:
    """Search both players' and chance's choices for a game in which something happens."""
    if exhaustive:
        from harness.perft_commands import perft_command

        if decide or clauses or wheres or everything:
            raise UserError("--exhaustive checks invariants to --depth: drop --decide/--clause/--where/--all")
        given = {"max_nodes": nodes} if ctx.get_parameter_source("nodes") is not click.core.ParameterSource.DEFAULT else {}
        json_arg = perft_command.params[[p.name for p in perft_command.params].index("json_path")]
        ctx.invoke(perft_command, game=game, players=players, depth=depth, chance=chance, seed=seed,
                   json_path=json_arg.type_cast_value(ctx, json_path) if json_path else None, **given)
        return
    if json_path is not None or chance or ctx.get_parameter_source("depth") is not click.core.ParameterSource.DEFAULT:
        raise UserError("--depth, --chance and --json go with --exhaustive")
    from properties.search.run import (
        all_goals,
        clause_goal,
        decide_goal,
        hooks_of,
        search,
        where_goal,
    )
    from properties.search.view import VIEW_NAMES

    entry = get_game(game)
    hooks = hooks_of(entry)
    if list_predicates:
        for name, p in sorted(hooks.predicates.items()):
            click.echo(f"{name}{':N' if p.argument else ''}  {p.doc}")
        click.echo("expression names: " + ", ".join(VIEW_NAMES + tuple(hooks.view(_start(entry, players)))))
        return
    players = check_players(game, players) if players is not None else None
    if players == entry.players[0]:
        players = None
    if cpu_seconds <= 0 or nodes <= 0 or jobs < 1:
        raise UserError("--cpu-seconds and --nodes must be positive, --jobs at least 1")
    from properties.search.goals import Goal

    goals: list[Goal] = [decide_goal(game, d, hooks) for d in decide]
    goals += [clause_goal(entry, c, hooks) for c in clauses]
    if wheres:
        sample = _start(entry, players)
        goals += [where_goal(w, hooks, sample) for w in wheres]
    if everything:
        goals += [g for g in all_goals(entry, hooks) if g not in goals]
    if not goals:
        raise UserError("nothing to search for: give --decide, --clause, --where or --all")
    folder = out or Path("fixtures") / entry.fixtures_dir / "witnesses"

    def say(text: str) -> None:
        click.echo(text, err=True)

    say(f"searching {len(goals)} goal(s) in {entry.title}"
        f"{f' ({players} players)' if players else ''}: seed {seed}, {cpu_seconds:g} CPU s, jobs {jobs}")
    result = search(game, goals, players=players, seed=seed, cpu_seconds=cpu_seconds, nodes=nodes, jobs=jobs,
                    progress=lambda label, e, n: say("  " + _describe(label, e, n)))
    for key, path, w in write_witnesses(result, entry, folder, seed):
        if w is None:
            click.echo(f"found   {key}: the same witness")
        else:
            click.echo(f"found   {key}: {path} "
                       f"({len(w.shrunk.actions)} actions, {w.shrunk.after[1]} draws, {w.cpu_seconds:.2f} CPU s)")
    for g, why in result.unreachable:
        click.echo(f"shown unreachable: {g.key}: {why}")
    for g in result.missing:
        click.echo(f"not found within budget: {g.key}")
    total = sum(e.nodes for _, e in result.explored)
    positions = sum(e.positions for _, e in result.explored)
    deepest = max((e.deepest_round for _, e in result.explored), default=0)
    times = [w.cpu_seconds for w in result.witnesses]
    spread = f"; CPU s per witness: median {statistics.median(times):.2f}, max {max(times):.2f}" if times else ""
    shown = f", {len(result.unreachable)} shown unreachable" if result.unreachable else ""
    answered = len(goals) - len(result.missing) - len(result.unreachable)
    click.echo(f"{len(result.witnesses)} witness file(s) for {answered} of {len(goals)} goal(s){shown}; "
               f"explored {total:,} nodes, {positions:,} distinct positions, deepest round {deepest}, "
               f"{result.cpu_seconds:.1f} CPU s{spread}{'; interrupted (kept what was found)' if result.interrupted else ''}")
    if result.missing and not result.witnesses:
        sys.exit(1)


def write_witnesses(result: Any, entry: Any, folder: Path, seed: int) -> list[tuple[str, Path, Any]]:
    """Write each witness of a search `result` into `folder` (created): (goal key, its file, the
    witness) per goal, the witness None for a goal another witness answers too (same file)."""
    from properties.search.replay import Setup
    from properties.search.run import hooks_of
    from properties.search.witness import witness_files

    game, players = result.game, result.players
    setup = Setup(entry, hooks_of(entry), players)
    folder.mkdir(parents=True, exist_ok=True)
    suffix = f"-{players}p" if players else ""
    out: list[tuple[str, Path, Any]] = []
    for w in sorted(result.witnesses, key=lambda w: w.goal.key):
        found_by = (f"Found by `azul-rules search --game {game}{f' --players {players}' if players else ''} "
                    f"--seed {seed}` ({w.found.nodes:,} nodes; shrunk from {w.shrunk.before[0]} to "
                    f"{w.shrunk.after[0]} actions).")
        files = _write(witness_files(setup, w, found_by=found_by), folder, game, suffix)
        broken = _invariants_broken(files)
        if broken:                    # the readings themselves break an invariant: say so, check the rest
            _write(witness_files(setup, w, found_by=found_by, broken=broken), folder, game, suffix)
        path = folder / f"{w.goal.slug}{suffix}.toml"
        out.append((w.goal.key, path, w))
        out += [(g.key, path, None) for g in w.also]
    return out


def _write(files: Any, folder: Path, game: str, suffix: str) -> list[Path]:
    paths = []
    for f in files:
        name = f.name.replace(".toml", f"{suffix}.toml", 1) if suffix else f.name
        text = f.text.replace(f'id = "witness.{game}.', f'id = "witness.{game}{suffix}.', 1) if suffix else f.text
        (folder / name).write_text(text)
        paths.append(folder / name)
    return paths


def _invariants_broken(paths: list[Path]) -> list[str]:
    """The invariant failures of the written files when they fail by nothing else (the game they
    replay is right; under its readings the rules break an invariant, e.g. a token left unused
    under duel.plate.draw-at-zero=must-pay breaks tokens-each-round)."""
    from harness.scenarios import load_scenario, run_scenario

    lines: list[str] = []
    for path in paths:
        result = run_scenario(load_scenario(path))
        if result.passed:
            continue
        if not all(": invariant " in d and " broken: " in d for d in result.diffs):
            return []
        lines += result.diffs
    return lines


def _start(entry: Any, players: int | None) -> Any:
    from model.chance import SeededChance
    return get_game(entry.name).load("new_game")(seed=0, players=players, chance=SeededChance(0))
