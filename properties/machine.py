"""Hypothesis state machine: Hypothesis chooses among the legal actions *and* drives chance, every
invariant runs after every step, and a failure is written as a replayable scenario file."""

from __future__ import annotations

from pathlib import Path
from typing import Any, ClassVar

from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from model import Ruleset, new_game
from model.engine import Game
from properties.chance import HypothesisChance, RecordingChance
from properties.counterexample import DEFAULT_DIR, scenario_text, write_counterexample
from properties.invariants import violations
from properties.steps import check_step, invariant_clauses


class InvariantBroken(AssertionError):
    pass


class DuelMachine(RuleBasedStateMachine):
    """Random legal play of Azul Duel under `overrides` (a subclass may set them)."""

    overrides: ClassVar[dict[str, str]] = {}
    counterexample_dir: ClassVar[Path] = DEFAULT_DIR

    def __init__(self) -> None:
        super().__init__()
        self.game: Game | None = None
        self.chance: HypothesisChance | None = None
        self.recorder: RecordingChance | None = None
        self.actions: list[str] = []

    @initialize(data=st.data())
    def setup(self, data: Any) -> None:
        self.chance = HypothesisChance(data)
        self.recorder = RecordingChance(self.chance)
        self.game = new_game(ruleset=Ruleset.build(self.overrides), chance=self.recorder)

    def _playable(self) -> bool:
        return self.game is not None and not self.game.is_over and bool(self.game.legal_actions())

    @precondition(lambda self: self._playable())
    @rule(data=st.data())
    def play(self, data: Any) -> None:
        assert self.game is not None and self.chance is not None
        self.chance.data = data
        action = data.draw(st.sampled_from(self.game.legal_actions()), label="action")
        before = self.game.state.copy()
        events = self.game.apply(action)
        self.actions.append(str(action))
        self._fail_on(check_step(before, self.game, events, len(self.actions), deep_every=10))

    @precondition(lambda self: self.game is not None and not self._playable())
    @rule()
    def finished(self) -> None:
        """Game over (or stalled, which the progress invariant reports): nothing left to do."""

    @invariant()
    def state_invariants(self) -> None:
        if self.game is not None:
            self._fail_on([(inv.name, msg) for inv, msg in violations(self.game)])

    def _fail_on(self, problems: list[tuple[str, str]]) -> None:
        if not problems:
            return
        name, msg = problems[0]
        rec = self.recorder
        assert rec is not None
        clauses = invariant_clauses(name)
        alt = "-".join(f"{k.split('.')[-1]}-{v}" for k, v in sorted(self.overrides.items())) or "defaults"
        text = scenario_text(
            scenario_id=f"counterexample.{name}.{alt}",
            description=f"Hypothesis found: {name}: {msg}\n(after {len(self.actions)} actions)",
            clauses=clauses, overrides=self.overrides, actions=self.actions, tiles=rec.tiles,
            plates=rec.plates, chips=rec.chips, first=rec.first)
        path = write_counterexample(text, f"hypothesis-{name}-{alt}", self.counterexample_dir)
        raise InvariantBroken(f"invariant {name} broken: {msg}\n"
                              f"replay: azul-rules scenario {path}")


def machine_for(overrides: dict[str, str], directory: Path | None = None) -> type[DuelMachine]:
    """A DuelMachine subclass playing under the given interpretation overrides."""
    name = "DuelMachine_" + "_".join(f"{k}={v}" for k, v in sorted(overrides.items())).replace(".", "_").replace("-", "_")
    attrs: dict[str, object] = {"overrides": dict(overrides)}
    if directory is not None:
        attrs["counterexample_dir"] = directory
    return type(name or "DuelMachine_defaults", (DuelMachine,), attrs)
