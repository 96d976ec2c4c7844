"""One Hypothesis machine for every game (properties/machine.py, issue 12): each game's planted bug
is caught by the shared driver's checks and reported with the game's own replayable output (Duel: a
counterexample scenario file; classic Azul: that file and a Python program)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, settings

from properties.failure import InvariantBroken
from properties.machine import machine_for
from properties.registry import get_game

FAST = dict(deadline=None, database=None, derandomize=True, phases=[Phase.generate],
            suppress_health_check=list(HealthCheck))


def _refusals_touch_the_bag(monkeypatch: pytest.MonkeyPatch, game: str) -> None:
    """A planted bug: an illegal action puts a tile into the bag before it is refused (the refusal
    names its clause, but the state is no longer what it was)."""
    cls: Any = type(get_game(game).load("new_game")())
    original = cls.apply

    def leaky(self, action):  # type: ignore[no-untyped-def]
        if self.why_illegal(action) is not None:
            self.state.bag[0] += 1
        return original(self, action)
    monkeypatch.setattr(cls, "apply", leaky)


def _run(game: str, directory: Path) -> InvariantBroken:
    machine = machine_for({}, directory, game=game, players=2)
    machine.TestCase.settings = settings(max_examples=10, stateful_step_count=20, **FAST)
    with pytest.raises(InvariantBroken) as caught:
        machine.TestCase().runTest()
    return caught.value


@pytest.mark.clause("duel.acquire.actions")
def test_duel_a_refusal_that_changes_the_state_is_caught_with_a_scenario(tmp_path: Path,
                                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    from harness.scenarios import load_scenario, run_scenario

    _refusals_touch_the_bag(monkeypatch, "duel")
    broken = _run("duel", tmp_path)
    assert broken.invariant == "refusal-changed-state" and broken.seed is None
    assert broken.scenario and Path(broken.scenario).parent == tmp_path
    scenario = load_scenario(Path(broken.scenario))
    assert "refusal-changed-state" in scenario.description and "duel.acquire.actions" in scenario.clauses
    result = run_scenario(scenario)                           # the file replays the game up to the refusal
    assert result.steps_run == broken.step


@pytest.mark.clause("azul.offer.actions")
def test_classic_a_refusal_that_changes_the_state_is_caught_with_a_program(tmp_path: Path,
                                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    from properties.azul.machine import MachineFailure

    _refusals_touch_the_bag(monkeypatch, "azul")
    broken = _run("azul", tmp_path)
    assert isinstance(broken, MachineFailure) and broken.kind == "refusal-changed-state"
    assert "replay with this program:" in str(broken) and broken.scenario and Path(broken.scenario).exists()
    game, problems = broken.program.replay()                  # the program replays the game up to it
    assert problems == [] and len(broken.program.actions) == broken.step
    exec(broken.program.text(), {})                            # and so does its printed text


@pytest.mark.clause("azul.offer.actions")
def test_classic_the_drawn_setup_and_round_bound_come_from_its_hooks(tmp_path: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """Classic's hooks draw the player count and wall side; its step check bounds a round."""
    from properties.azul import hooks

    monkeypatch.setattr(hooks, "per_round_bound", lambda players: 2)    # a planted too-tight bound
    with pytest.raises(InvariantBroken) as caught:
        machine = machine_for(None, tmp_path, game="azul")
        machine.TestCase.settings = settings(max_examples=5, stateful_step_count=10, **FAST)
        machine.TestCase().runTest()
    assert caught.value.invariant == "round-bound"


def test_the_machine_alarm_firing_between_steps_is_reported_at_the_next_step_not_raised_in_hypothesis() -> None:
    """Issue 22 (TestDuelRandomPlay under load: 'TimeBudgetExceeded: no end within 0.78 s'): the
    example's alarm fired while Hypothesis's own engine ran, and escaped as a bare interrupt. Now an
    alarm outside game code is only noted, and the next guarded block reports it like a livelock."""
    import time

    from properties.watchdog import Alarm, TimeBudgetExceeded

    inside = [False]
    timer = Alarm(0.05, only_when=lambda: inside[0])
    timer.arm()
    try:
        deadline = time.monotonic() + 5
        while not timer.missed and time.monotonic() < deadline:     # outside game code: no raise
            time.sleep(0.01)
        assert timer.missed
    finally:
        timer.disarm()
    inside[0] = True
    timer = Alarm(0.05, only_when=lambda: inside[0])
    timer.arm()
    try:
        try:
            deadline = time.monotonic() + 5
            while time.monotonic() < deadline:                      # inside: interrupted
                time.sleep(0.01)
            raised = False
        except TimeBudgetExceeded:
            raised = True
        assert raised
    finally:
        timer.disarm()
