"""Hypothesis stateful play under the selected profile (HYPOTHESIS_PROFILE, default ci)."""

from __future__ import annotations

import pytest

from properties.machine import machine_for
from properties.profiles import load_profile

PROFILE = load_profile()

TestDuelRandomPlay = machine_for({}).TestCase
if PROFILE == "ci":
    # The suite's run (issue 13): 10 derandomized games of up to 300 steps, the examples mutation
    # analysis runs this test with (harness/mutation/profile.py), not ci's 30; dev, deep and fuzz
    # keep their own counts.
    from hypothesis import settings

    TestDuelRandomPlay.settings = settings(settings.get_profile("ci"), max_examples=10)
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


def _leak_a_tile_into_the_bag(monkeypatch: pytest.MonkeyPatch) -> None:
    """A broken rule: every action also puts a tile into the bag (tile conservation breaks at once)."""
    from model.duel.engine import Game

    original = Game.apply

    def leaky(self, action):  # type: ignore[no-untyped-def]
        events = original(self, action)
        self.state.bag[0] += 1
        return events
    monkeypatch.setattr(Game, "apply", leaky)


@pytest.mark.clause("duel.invariant.tile-conservation")
def test_a_broken_rule_fails_naming_invariant_seed_step_and_replay(tmp_path, monkeypatch) -> None:
    from harness.scenarios import load_scenario, run_scenario
    from properties.machine import InvariantBroken
    from properties.simulate import assert_games_hold

    _leak_a_tile_into_the_bag(monkeypatch)
    with pytest.raises(InvariantBroken) as caught:
        assert_games_hold([7], directory=tmp_path)
    broken = caught.value
    assert (broken.invariant, broken.seed, broken.step) == ("tile-conservation", 7, 1)
    text = str(broken)
    assert text.startswith("invariant tile-conservation broken: ")
    assert "game: seed 7, step 1, interpretations: defaults" in text
    assert f"replay: azul-rules scenario {broken.scenario}" in text
    result = run_scenario(load_scenario(broken.scenario))
    assert not result.passed and any("tile-conservation" in d for d in result.diffs)


@pytest.mark.clause("duel.invariant.tile-conservation")
def test_the_hypothesis_machine_fails_naming_invariant_step_and_replay(tmp_path, monkeypatch) -> None:
    from hypothesis import HealthCheck, Phase, settings

    from properties.machine import InvariantBroken, machine_for

    _leak_a_tile_into_the_bag(monkeypatch)
    machine = machine_for({}, tmp_path)
    machine.TestCase.settings = settings(max_examples=5, stateful_step_count=20, deadline=None, database=None,
                                         derandomize=True, phases=[Phase.generate],
                                         suppress_health_check=list(HealthCheck))
    with pytest.raises(InvariantBroken) as caught:
        machine.TestCase().runTest()
    broken = caught.value
    assert broken.invariant == "tile-conservation" and broken.step == 1 and broken.seed is None
    text = str(broken)
    assert "game: Hypothesis game (chance scripted in the file), step 1" in text
    assert f"replay: azul-rules scenario {broken.scenario}" in text and (tmp_path / "hypothesis-tile-conservation-defaults.toml").exists()
