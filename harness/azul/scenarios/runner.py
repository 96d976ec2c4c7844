"""Run a classic Azul scenario: build the position, play the steps (a step with `error` must be
refused under that clause and leave the state unchanged), compare every expectation and, with
`invariants = "all"`, check the invariants on the given position, after every step and at the end."""

from __future__ import annotations

import attrs

from harness.azul.scenarios.expectations import check_then
from harness.azul.scenarios.loader import Scenario
from harness.azul.scenarios.position import build_game
from harness.scenarios.problems import chance_problem
from harness.scenarios.result import ScenarioResult
from harness.scenarios.steps import once_per_invariant
from model.azul import IllegalAction, parse_action
from model.azul.colours import COLOURS
from model.azul.game import Game
from model.chance import ChanceScriptError
from properties.azul.hooks import state_invariants, step_invariants


def _invariant_diffs(game: Game, field: str, *, physical_only: bool = False) -> list[str]:
    return [f"{field}: invariant {name} broken: {msg} [{clause}]"
            for name, clause, msg in state_invariants(game, physical_only=physical_only)]


def run_scenario(scenario: Scenario) -> ScenarioResult:
    """The file's own reading, then each of its `readings` (their diffs say which reading)."""
    result = _run_one(scenario)
    diffs, ran = list(result.diffs), result.steps_run
    for reading in scenario.readings:
        other = _run_one(scenario.under(reading))
        diffs += [f"{reading.field} ({reading.label}): {d}" for d in other.diffs]
        ran += other.steps_run
    return attrs.evolve(result, passed=not diffs, diffs=tuple(diffs), steps_run=ran)


def _run_one(scenario: Scenario) -> ScenarioResult:
    game, events = build_game(scenario)
    diffs: list[str] = []
    watch = scenario.then.get("invariants") == "all"
    note = once_per_invariant(diffs)

    if watch:
        note(_invariant_diffs(game, "given", physical_only=True))
    ran = 0
    aborted = False
    for step in scenario.steps:
        action = parse_action(step.action)
        before = game.snapshot()
        try:
            step_events = game.apply(action)
        except ChanceScriptError as exc:
            diffs.append(f"{step.field}: '{step.action}': chance.tiles: {chance_problem(exc, COLOURS)}")
            aborted = True
            break
        except IllegalAction as exc:
            if step.error is None:
                diffs.append(f"{step.field}: '{step.action}' refused: {exc.reason} [{exc.clause}]; "
                             f"legal: {[str(a) for a in game.legal_actions()]}")
                aborted = True
                break
            if exc.clause != step.error:
                diffs.append(f"{step.field}: '{step.action}' was refused under {exc.clause}, expected {step.error}")
            if game.state != before.state:
                diffs.append(f"{step.field}: a refused action changed the state")
        else:
            if step.error is not None:
                diffs.append(f"{step.field}: '{step.action}' was accepted, expected refusal under {step.error}")
                aborted = True
                break
            events.extend(step_events)
            if watch:
                note(_invariant_diffs(game, step.field))
                note([f"{step.field}: invariant {name} broken: {msg} [{clause}]"
                      for name, clause, msg in step_invariants(before, game, step_events, ran + 1, action, 1)])
        ran += 1
        if step.then:
            diffs.extend(check_then(game, events, step.then, f"{step.field}.then"))
    if not aborted:
        if watch:
            note(_invariant_diffs(game, "then"))
        diffs.extend(check_then(game, events, scenario.then, "then"))
    return ScenarioResult(scenario.id, scenario.file, not diffs, tuple(diffs), ran, scenario.clauses)
