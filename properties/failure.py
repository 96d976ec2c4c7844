"""The one failure type of property runs: which invariant broke, in which game, at which step, and
the command that replays it. Tests, simulate and the Hypothesis machine all raise or print it."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path


class InvariantBroken(AssertionError):
    """An invariant (or a watchdog: `livelock`, or `model-error` for a crash) failed in a game.

    `seed` is the game's seed (None for Hypothesis games, whose chance is scripted in the file),
    `step` the number of actions played when it broke, `scenario` the counterexample file."""

    last: InvariantBroken | None = None       # the latest one made (reported if a test runs out of time)

    def __init__(self, invariant: str, message: str, *, seed: int | None, step: int,
                 scenario: Path | str | None, overrides: Mapping[str, str] | None = None,
                 policy: str = "uniform") -> None:
        self.invariant = invariant
        self.message = message
        self.seed = seed
        self.step = step
        self.scenario = str(scenario) if scenario is not None else None
        self.overrides = dict(overrides or {})
        self.policy = policy
        super().__init__(str(self))
        InvariantBroken.last = self

    @property
    def replay(self) -> str:
        """The command that replays the failure."""
        if self.scenario:
            return f"azul-rules scenario {self.scenario}"
        interps = "".join(f" --interpretation {k}={v}" for k, v in sorted(self.overrides.items()))
        policy = f" --policy {self.policy}" if self.policy != "uniform" else ""
        return f"azul-rules simulate --games 1 --seed {self.seed}{interps}{policy}"

    def __str__(self) -> str:
        game = f"seed {self.seed}" if self.seed is not None else "Hypothesis game (chance scripted in the file)"
        interps = ", ".join(f"{k}={v}" for k, v in sorted(self.overrides.items())) or "defaults"
        return (f"invariant {self.invariant} broken: {self.message}\n"
                f"  game: {game}, step {self.step}, interpretations: {interps}\n"
                f"  replay: {self.replay}")
