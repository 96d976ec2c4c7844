"""`azul-rules scenario PATH...` and `azul-rules show PATH [--steps]`."""

from __future__ import annotations

import json
from pathlib import Path

import click
from rich.console import Console
from rich.markup import escape

from harness.errors import UserError
from harness.scenarios import ScenarioError, load_scenario, run_scenario, scenario_files
from harness.scenarios.position import build_game
from model import IllegalAction, parse_action
from model.render import render_text


@click.command("scenario")
@click.argument("paths", nargs=-1, required=True, type=click.Path(exists=True, path_type=Path))
@click.option("--json", "as_json", is_flag=True, help="Print results as JSON.")
def scenario_command(paths: tuple[Path, ...], as_json: bool) -> None:
    """Run scenario files or folders; exit non-zero on any failure."""
    console = Console()
    results, errors = [], []
    files = list(scenario_files(list(paths)))
    if not files:
        raise UserError("no scenario files (*.toml) found under " + ", ".join(map(str, paths)))
    for path in files:
        try:
            results.append(run_scenario(load_scenario(path)))
        except ScenarioError as exc:
            errors.append(str(exc))
    if as_json:
        click.echo(json.dumps({"results": [r.to_json() for r in results], "errors": errors}, indent=2))
    else:
        for r in results:
            mark = "[green]PASS[/green]" if r.passed else "[red]FAIL[/red]"
            console.print(f"{mark} {r.id}  [dim]{r.file}[/dim]", highlight=False)
            for d in r.diffs:
                console.print(f"     {d}", highlight=False, markup=False)
        for e in errors:
            console.print(f"[red]ERROR[/red] {escape(e)}", highlight=False)
        failed = sum(not r.passed for r in results)
        console.print(f"{len(results) - failed} passed, {failed + len(errors)} failed")
    if errors or any(not r.passed for r in results):
        raise SystemExit(1)


@click.command("show")
@click.argument("path", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--steps", is_flag=True, help="Also show the position after each step.")
def show_command(path: Path, steps: bool) -> None:
    """Render a scenario's position as text."""
    scenario = load_scenario(path)
    game, _ = build_game(scenario)
    click.echo(f"{scenario.id}: given")
    click.echo(render_text(game))
    if not steps:
        return
    for step in scenario.steps:
        if step.error:
            click.echo(f"\n{step.field}: {step.action}  (expected refusal: {step.error})")
            continue
        try:
            game.apply(parse_action(step.action))
        except IllegalAction as exc:
            raise UserError(f"{scenario.file}: {step.field}: {exc}") from None
        click.echo(f"\nafter {step.field}: {step.action}")
        click.echo(render_text(game))
