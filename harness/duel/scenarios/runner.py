"""Run a scenario: build the position, play the steps (up to its stop), compare every expectation
(harness.duel.scenarios.expectations) and, with `invariants = "all"`, check the invariants."""

from __future__ import annotations

from harness.duel.scenarios.expectations import check_then
from harness.duel.scenarios.loader import Scenario
from harness.duel.scenarios.position import build_game
from harness.duel.scenarios.stops import PhaseEnded
from harness.scenarios.problems import chance_problem
from harness.scenarios.readings import run_every_reading
from harness.scenarios.result import ScenarioResult
from harness.scenarios.steps import once_per_invariant
from model.chance import ChanceScriptError
from model.duel import Game, IllegalAction, parse_action
from model.duel.actions import Action
from model.duel.colours import COLOURS
from model.duel.state import GameState
from model.events import Event

# Invariants that describe a position between turns, not one where a phase has just ended: at a
# stop nobody is to act (`progress`), and Preparation may already count the next round while the
# phase still reads `preparation` (`plates-per-round`).
NOT_AT_A_STOP = ("progress", "plates-per-round")


def _state_invariant_diffs(game: Game, field: str, *, physical_only: bool = False) -> list[str]:
    """The invariants that apply to one position (see NOT_AT_A_STOP for a stopped game)."""
    from properties.duel.invariants import violations

    stopped = getattr(game, "stopped", None) is not None
    return [f"{field}: invariant {inv.name} broken: {msg} [{inv.clauses[0]}]"
            for inv, msg in violations(game, physical_only=physical_only)
            if not (stopped and inv.name in NOT_AT_A_STOP)]


def _invariant_diffs(before: GameState, game: Game, step_events: list[Event], n: int, field: str,
                     action: Action) -> list[str]:
    """State and step invariants after step `n` (the action is passed when the step checks take it)."""
    import inspect

    from properties.duel.steps import check_step

    out = _state_invariant_diffs(game, field)
    extra = {"action": action} if "action" in inspect.signature(check_step).parameters else {}
    out += [f"{field}: invariant {name} broken: {msg}"
            for name, msg in check_step(before, game, step_events, n, 1, **extra)]
    return out


def _stop_diffs(scenario: Scenario, game: Game, unplayed: int) -> list[str]:
    stopped = getattr(game, "stopped", None)
    if scenario.stop is None:
        return []
    if stopped is None:
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
    diffs: list[str] = []
    ran = 0
    watch = scenario.then.get("invariants") == "all"
    note = once_per_invariant(diffs)

    if watch:
        note(_state_invariant_diffs(game, "given", physical_only=True))
    aborted = False
    for step in scenario.steps:
        if getattr(game, "stopped", None) is not None:
            break
        before = game.state.copy() if watch else None
        action = parse_action(step.action)
        if step.error:
            before = game.state.copy()
            try:
                game.apply(action)
            except IllegalAction as exc:
                if exc.clause != step.error:
                    diffs.append(f"{step.field}: '{step.action}' was refused under {exc.clause}, "
                                 f"expected {step.error}")
                if game.state != before:
                    diffs.append(f"{step.field}: a refused action changed the state")
            except PhaseEnded as stop:
                events.extend(stop.events)
                diffs.append(f"{step.field}: '{step.action}' was accepted, expected refusal under {step.error}")
                aborted = True
                break
            else:
                diffs.append(f"{step.field}: '{step.action}' was accepted, expected refusal under {step.error}")
                aborted = True
                break
        else:
            try:
                step_events = game.apply(action)
            except ChanceScriptError as exc:
                diffs.append(f"{step.field}: '{step.action}': chance.tiles: {chance_problem(exc, COLOURS)}")
                aborted = True
                break
            except IllegalAction as exc:
                diffs.append(f"{step.field}: '{step.action}' refused: {exc.reason} [{exc.clause}]; "
                             f"legal: {[str(a) for a in game.legal_actions()]}")
                aborted = True
                break
            except PhaseEnded as stop:
                step_events = stop.events
            events.extend(step_events)
            if before is not None:                          # copied when watching
                note(_invariant_diffs(before, game, step_events, ran + 1, step.field, action))
        ran += 1
        if step.then:
            diffs.extend(check_then(game, events, step.then, f"{step.field}.then"))
    if not aborted:
        diffs.extend(_stop_diffs(scenario, game, len(scenario.steps) - ran))
        if watch:
            note(_state_invariant_diffs(game, "then"))
        diffs.extend(check_then(game, events, scenario.then, "then"))
    return ScenarioResult(scenario.id, scenario.file, not diffs, tuple(diffs), ran, scenario.clauses)
