"""The Hypothesis machine keeps every game it finishes (issue 13): once a game is over, stepping on is
a no-op, so no whole game is played only to be thrown away as an invalid example."""

from __future__ import annotations

from pathlib import Path

from hypothesis import HealthCheck, Phase, settings

from properties.machine import machine_for

EXAMPLES = 4


def test_a_finished_game_is_a_counted_example_not_a_discarded_one(tmp_path: Path) -> None:
    """Hypothesis's swarm testing switches rules off per example: with `play` and a separate rule for
    a finished game, an example without the latter was aborted as invalid when its game ended (34 of
    44 generated examples of tests/test_properties.py, 28 of them whole games). Every example whose
    game ends must be one of the `max_examples` that count."""
    over: list[bool] = []

    class Counted(machine_for({}, tmp_path, players=2)):  # type: ignore[misc, valid-type]
        def teardown(self) -> None:
            over.append(self.game is not None and self.game.is_over)
            super().teardown()

    Counted.TestCase.settings = settings(max_examples=EXAMPLES, stateful_step_count=300, deadline=None,
                                         database=None, derandomize=True, phases=[Phase.generate],
                                         suppress_health_check=list(HealthCheck))
    Counted.TestCase().runTest()
    assert 1 <= sum(over) <= EXAMPLES, f"{sum(over)} finished games for {EXAMPLES} examples ({len(over)} generated)"
