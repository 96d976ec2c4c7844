"""`azul-rules scenario PATH...` and `azul-rules show PATH [--steps]`."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import click
from rich.console import Console
from rich.markup import escape

from harness.duel.scenarios.loader import Scenario
from harness.duel.scenarios.position import build_game
from harness.duel.scenarios.readings import ReadingError, parse_readings
from harness.duel.scenarios.stops import PhaseEnded
from harness.errors import UserError
from harness.game_option import game_given, game_option, require
from harness.output_path import OutputPath
from harness.scenarios import ScenarioError, load_scenario, run_scenario, scenario_api, scenario_files
from harness.scenarios.problems import chance_problem
from harness.scenarios.steps import Step
from model.chance import ChanceScriptError
from model.duel import Game, IllegalAction, parse_action
from model.duel.colours import COLOURS
from model.duel.render import render_text
from properties.registry import game_of_clause


@click.command("scenario")
@game_option
@click.argument("paths", nargs=-1, required=True, type=click.Path(exists=True, path_type=Path))
@click.option("--json", "as_json", is_flag=True, help="Print results as JSON.")
@click.option("--interpretation", "readings", multiple=True, metavar="ID=ALT",
              help="Run every scenario under this alternative instead of the file's (repeatable).")
def scenario_command(game: str, paths: tuple[Path, ...], as_json: bool, readings: tuple[str, ...]) -> None:
    """Run scenario files or folders; exit non-zero on any failure."""
    require(game, "scenarios", command="scenario")
    console = Console()
    flips = _flips(readings, game)
    results: list[Any] = []                   # each game's ScenarioResult
    errors: list[str] = []
    unloadable = 0
    files = list(scenario_files(list(paths)))
    if not files:
        raise UserError("no scenario files (*.toml) found under " + ", ".join(map(str, paths)))
    for path in files:
        try:
            results.append(run_scenario(_with_readings(load_scenario(path), flips, game)))
        except ScenarioError as exc:
            errors.extend(str(p) for p in exc.problems)      # one line per problem
            unloadable += 1
    if as_json:
        click.echo(json.dumps({"results": [r.to_json() for r in results], "errors": errors,
                               "interpretations": flips}, indent=2))
    else:
        if flips:
            console.print("under " + ", ".join(f"{k}={v}" for k, v in flips.items()) + " (command line)",
                          highlight=False, markup=False)
        for r in results:
            mark = "[green]PASS[/green]" if r.passed else "[red]FAIL[/red]"
            console.print(f"{mark} {r.id}  [dim]{r.file}[/dim]", highlight=False, soft_wrap=True)
            for d in r.diffs:
                console.print(f"     {d}", highlight=False, markup=False, soft_wrap=True)
        for e in errors:
            console.print(f"[red]ERROR[/red] {escape(e)}", highlight=False, soft_wrap=True)
        failed = sum(not r.passed for r in results)
        console.print(f"{len(results) - failed} passed, {failed + unloadable} failed")
    if errors or any(not r.passed for r in results):
        raise SystemExit(1)


def _flips(readings: tuple[str, ...], game: str = "duel") -> dict[str, str]:
    """--interpretation ID=ALT, checked by the game's own scenario support (--game). A reading of
    another game is one line naming the --game it belongs to."""
    for text in readings:
        owner = game_of_clause(text.partition("=")[0].strip())
        if owner is not None and owner.name != game:
            raise UserError(f"--interpretation: {text.partition('=')[0].strip()!r} is a reading of "
                            f"{owner.title}; add --game {owner.name}")
    api = scenario_api(game)
    if hasattr(api, "parse_readings"):
        try:
            return api.parse_readings(readings)
        except api.ReadingError as exc:
            raise UserError(f"--interpretation: {exc}") from None
    try:
        return parse_readings(readings)
    except ReadingError as exc:
        raise UserError(f"--interpretation: {exc}") from None


def _with_readings(scenario: Any, flips: dict[str, str], game: str) -> Any:
    """The scenario (of any game: harness.scenarios.load_scenario) under the command line's readings,
    which are --game's: a file of another game with readings to apply is an error naming the file."""
    own = getattr(scenario, "game", "duel")
    given = game_given()
    if given is not None and own != given:           # --game said one game, the file is another's
        raise ScenarioError(scenario.file, "game", f"the file is a scenario of {own}, but the command line says --game {given}")
    if not flips:
        return scenario
    if own != game:
        raise ScenarioError(scenario.file, "game", f"a {own} scenario; --interpretation is for --game {game}")
    return scenario_api(own).with_readings(scenario, flips)


@click.command("show")
@game_option
@click.argument("path", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--steps", is_flag=True, help="Also show the position after each step.")
@click.option("--export", "export_after", type=click.IntRange(0), default=None, metavar="N",
              help="Instead, print the position after N steps as a new scenario's given section.")
@click.option("--interpretation", "readings", multiple=True, metavar="ID=ALT",
              help="Use this alternative instead of the file's (repeatable).")
@click.option("--svg", "svg_out", type=OutputPath(folder=None), default=None, metavar="OUT",
              help="Draw the position as SVG to OUT (with --steps, OUT is a folder: one picture per step).")
@click.option("--png", "png_out", type=OutputPath(folder=None), default=None, metavar="OUT",
              help="Draw the position as PNG to OUT (needs chromium; with --steps, OUT is a folder).")
def show_command(game: str, path: Path, steps: bool, export_after: int | None, readings: tuple[str, ...],
                 svg_out: Path | None, png_out: Path | None) -> None:
    """Render a scenario's position as text (or export it as a scenario, or draw it as SVG/PNG)."""
    require(game, "scenarios", "renderers", command="show")
    scenario = _with_readings(load_scenario(path), _flips(readings, game), game)
    own = getattr(scenario, "game", "duel")
    if own != "duel":                     # another game's file: its own `show`, text only
        api = scenario_api(own)
        if svg_out is not None or png_out is not None or not hasattr(api, "show"):
            raise UserError(f"{path}: showing {own} scenarios as pictures is not supported yet")
        try:
            api.show(scenario, steps, export_after, click.echo)
        except api.ShowError as exc:
            raise UserError(str(exc)) from None
        return
    if svg_out is not None or png_out is not None:
        _draw(scenario, steps, svg_out, png_out)
        return
    played, _ = build_game(scenario)          # `game` is --game's name
    if export_after is not None:
        _export(scenario, played, export_after)
        return
    click.echo(scenario.id)
    click.echo(scenario.description.strip())
    click.echo("\ngiven" + _stopped(played))
    click.echo(render_text(played))
    if not steps:
        return
    for step in scenario.steps:
        if getattr(played, "stopped", None) is not None:
            break
        if step.error:
            click.echo(f"\n{step.field}: {step.action}  (expected refusal: {step.error})")
            continue
        _apply_step(played, scenario, step)
        click.echo(f"\nafter {step.field}: {step.action}" + _stopped(played))
        click.echo(render_text(played))


def _apply_step(game: Game, scenario: Scenario, step: Step) -> None:
    """One `when` step of a scenario shown to a user: an illegal step is one readable error line; a
    step that ends at the scenario's `stop` is no error."""
    try:
        game.apply(parse_action(step.action))
    except IllegalAction as exc:
        raise UserError(f"{scenario.file}: {step.field}: {exc}") from None
    except ChanceScriptError as exc:
        raise UserError(f"{scenario.file}: {step.field}: chance.tiles: {chance_problem(exc, COLOURS)}") from None
    except PhaseEnded:
        pass


def _draw(scenario: Scenario, steps: bool, svg_out: Path | None, png_out: Path | None) -> None:
    """Board pictures: one file, or with --steps one file per step in a folder."""
    import tempfile

    from harness.browser import BrowserMissing, screenshot
    from harness.duel.pictures import PictureError, scenario_pictures

    with tempfile.TemporaryDirectory(prefix="azul-show-") as tmp:
        try:
            pictures = scenario_pictures(scenario, Path(tmp), steps)
        except PictureError as exc:
            raise UserError(str(exc)) from None
        for out, suffix in ((svg_out, ".svg"), (png_out, ".png")):
            if out is None:
                continue
            if steps:
                out.mkdir(parents=True, exist_ok=True)
            else:
                out.parent.mkdir(parents=True, exist_ok=True)
            for pic in pictures:
                src = Path(tmp) / pic.file
                target = out / Path(pic.file).with_suffix(suffix).name if steps else out
                try:
                    if suffix == ".svg":
                        target.write_text(src.read_text())
                    else:
                        screenshot(src, target, 900, 470)
                except BrowserMissing as exc:
                    raise UserError(f"--png: {exc}; use --svg") from None
                click.echo(f"{target}  ({pic.label})")


def _stopped(game: Game) -> str:
    stopped = getattr(game, "stopped", None)
    return f"  (stopped at {stopped.stop})" if stopped is not None else ""


def _export(scenario: Scenario, game: Game, after: int) -> None:
    from harness.duel.scenarios.writer import ExportError, position_toml

    steps = [st for st in scenario.steps if not st.error]
    if after > len(steps):
        raise UserError(f"{scenario.file} has only {len(steps)} steps")
    for n, step in enumerate(steps[:after], 1):
        stopped = getattr(game, "stopped", None)        # a StoppingGame's (harness.duel.scenarios.stops)
        if stopped is not None:
            raise UserError(f"{scenario.file}: the scenario stops at {stopped.stop} after {n - 1} steps")
        _apply_step(game, scenario, step)
    try:
        click.echo(position_toml(game, scenario_id=f"{scenario.id}.after-{after}",
                                 description=f"The position of {scenario.id} after {after} steps.",
                                 clauses=scenario.clauses), nl=False)
    except ExportError as exc:
        raise UserError(str(exc)) from None
