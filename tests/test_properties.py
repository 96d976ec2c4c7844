"""Hypothesis stateful play under the selected profile (HYPOTHESIS_PROFILE, default ci)."""

from __future__ import annotations

import pytest

from properties.machine import DuelMachine
from properties.profiles import load_profile

load_profile()

TestDuelRandomPlay = DuelMachine.TestCase
TestDuelRandomPlay = pytest.mark.clause(
    "duel.invariant.tile-conservation", "duel.invariant.component-conservation",
    "duel.invariant.dome-consistency", "duel.score.floor", "duel.acquire.chip.limit",
    "duel.acquire.plate.tokens-required", "duel.round.structure",
)(TestDuelRandomPlay)


@pytest.mark.clause("duel.acquire.end", "duel.acquire.pass", "duel.acquire.plate.draw")
def test_hypothesis_finds_the_must_pay_strict_deadlock(tmp_path) -> None:
    """Under must-pay draws and the strict end condition the machine must report a stall (and
    write a replayable scenario); shrinking is skipped here to keep the suite fast."""
    from hypothesis import HealthCheck, Phase, settings

    from harness.scenarios import load_scenario, run_scenario
    from properties.machine import InvariantBroken, machine_for

    machine = machine_for({"duel.plate.draw-at-zero": "must-pay", "duel.acquire.end.passed-tokens": "strict",
                           "duel.score.start": "zero"}, tmp_path)
    machine.TestCase.settings = settings(max_examples=60, stateful_step_count=300, deadline=None, database=None,
                                         derandomize=True, phases=[Phase.generate],
                                         suppress_health_check=list(HealthCheck))
    with pytest.raises(InvariantBroken, match="invariant progress broken"):
        machine.TestCase().runTest()
    files = list(tmp_path.glob("*.toml"))
    assert len(files) == 1
    result = run_scenario(load_scenario(files[0]))
    assert not result.passed and "stalled" in " ".join(result.diffs)
