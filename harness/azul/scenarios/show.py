"""`azul-rules show` for classic Azul files: the position as text (model/azul/render.py), after
each step with --steps, or exported as a new scenario after N steps with --export N. Problems are
one line (UserError) naming the file and the step."""

from __future__ import annotations

from collections.abc import Callable

from harness.azul.scenarios.loader import Scenario
from harness.azul.scenarios.position import build_game
from harness.azul.scenarios.writer import ExportError, position_toml
from harness.scenarios.problems import chance_problem
from harness.scenarios.steps import Step
from model.azul import IllegalAction, parse_action
from model.azul.colours import COLOURS
from model.azul.game import Game
from model.azul.render import render
from model.chance import ChanceScriptError


class ShowError(ValueError):
    """What stops showing a scenario (one line)."""


def _apply(game: Game, scenario: Scenario, step: Step) -> None:
    try:
        game.apply(parse_action(step.action))
    except IllegalAction as exc:
        raise ShowError(f"{scenario.file}: {step.field}: {exc}") from None
    except ChanceScriptError as exc:
        raise ShowError(f"{scenario.file}: {step.field}: chance.tiles: {chance_problem(exc, COLOURS)}") from None


def show(scenario: Scenario, steps: bool, export_after: int | None, echo: Callable[[str], None]) -> None:
    game, _ = build_game(scenario)
    if export_after is not None:
        played = [st for st in scenario.steps if not st.error]
        if export_after > len(played):
            raise ShowError(f"{scenario.file} has only {len(played)} steps")
        for step in played[:export_after]:
            _apply(game, scenario, step)
        try:
            echo(position_toml(game, scenario_id=f"{scenario.id}.after-{export_after}",
                               description=f"The position of {scenario.id} after {export_after} steps.",
                               clauses=scenario.clauses).rstrip("\n"))
        except ExportError as exc:
            raise ShowError(f"{scenario.file}: {exc}") from None
        return
    echo(scenario.id)
    echo(scenario.description.strip())
    echo("\ngiven")
    echo(render(game))
    if not steps:
        return
    for step in scenario.steps:
        if step.error:
            echo(f"\n{step.field}: {step.action}  (expected refusal: {step.error})")
            continue
        _apply(game, scenario, step)
        echo(f"\nafter {step.field}: {step.action}")
        echo(render(game))
