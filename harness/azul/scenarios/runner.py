"""Run a classic Azul scenario: build the position, play the steps (a step with `error` must be
refused under that clause and leave the state unchanged; with `stop`, up to the stop), compare every
expectation and, with `invariants = "all"`, check the invariants on the given position, after every
step and at the end (at a stop, those that apply there: stops.NOT_AT_A_STOP)."""

from __future__ import annotations

from harness.azul.scenarios.expectations import check_then
from harness.azul.scenarios.loader import Scenario
from harness.azul.scenarios.position import build_game
from harness.azul.scenarios.stops import NOT_AT_A_STOP, StoppingGame
from harness.scenarios.problems import chance_problem
from harness.scenarios.readings import run_every_reading
from harness.scenarios.result import ScenarioResult
from harness.scenarios.steps import once_per_invariant
from model.azul import IllegalAction, parse_action
from model.azul.colours import COLOURS
from model.azul.game import Game
from model.chance import ChanceScriptError
from properties.azul.hooks import state_invariants, step_invariants


def _stopped(game: Game) -> bool:
    return getattr(game, "stopped", None) is not None


def _invariant_diffs(game: Game, field: str, *, physical_only: bool = False) -> list[str]:
    return [f"{field}: invariant {name} broken: {msg} [{clause}]"
            for name, clause, msg in state_invariants(game, physical_only=physical_only)
            if not (_stopped(game) and name in NOT_AT_A_STOP)]


def _stop_diffs(scenario: Scenario, game: Game, unplayed: int) -> list[str]:
    if scenario.stop is None:
        return []
    if not _stopped(game):
        s = game.state
        return [f"stop: expected the run to stop at {scenario.stop}, but it ended in {s.phase} of round {s.round}"]
    if unplayed:
        return [f"stop: the run stopped at {scenario.stop} with {unplayed} step(s) of 'when' left unplayed"]
    return []


def run_scenario(scenario: Scenario) -> ScenarioResult:
    """The file's own reading, then each of its `readings` (their diffs say which reading)."""
    return run_every_reading(scenario, _run_one, Scenario.under)


def _run_one(scenario: Scenario) -> ScenarioResult:
    game, events = build_game(scenario)
    if scenario.stop is not None:
        game = StoppingGame(game, scenario.stop)
    diffs: list[str] = []
    watch = scenario.then.get("invariants") == "all"
    note = once_per_invariant(diffs)

    if watch:
        note(_invariant_diffs(game, "given", physical_only=True))
    ran = 0
    aborted = False
    for step in scenario.steps:
        if _stopped(game):
            break
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
                      for name, clause, msg in step_invariants(before, game, step_events, ran + 1, action, 1)
                      if not (_stopped(game) and name in NOT_AT_A_STOP)])
        ran += 1
        if step.then:
            diffs.extend(check_then(game, events, step.then, f"{step.field}.then"))
    if not aborted:
        diffs.extend(_stop_diffs(scenario, game, len(scenario.steps) - ran))
        if watch:
            note(_invariant_diffs(game, "then"))
        diffs.extend(check_then(game, events, scenario.then, "then"))
    return ScenarioResult(scenario.id, scenario.file, not diffs, tuple(diffs), ran, scenario.clauses)
