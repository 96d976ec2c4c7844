"""Hypothesis state machine: Hypothesis chooses among the legal actions *and* drives chance, every
invariant runs after every step, and a failure is written as a replayable scenario file.

One machine for every game: `machine_for(overrides, game="azul")` plays the registered game (its
start, invariants and step bound from its registry entry)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, ClassVar

from hypothesis import event, reject
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from harness.registry import DEFAULT_GAME, get_game
from model.errors import RuleLoopError
from model.protocol import Game
from properties.chance import HypothesisChance, RecordingChance
from properties.counterexample import DEFAULT_DIR, scenario_text, write_counterexample
from properties.failure import InvariantBroken
from properties.simulate import invariant_clauses
from properties.watchdog import Alarm, GameWatchdog, Livelock, StepCounter

MACHINE_GAME_SECONDS = 20.0

__all__ = ["GameMachine", "InvariantBroken", "machine_for"]


class GameMachine(RuleBasedStateMachine):
    """Random legal play of a registered game under `overrides` (a subclass sets them, and `game`)."""

    game_name: ClassVar[str] = DEFAULT_GAME
    players: ClassVar[int | None] = None
    overrides: ClassVar[dict[str, str]] = {}
    counterexample_dir: ClassVar[Path] = DEFAULT_DIR
    game_seconds: ClassVar[float] = MACHINE_GAME_SECONDS     # per example (one game, ~300 steps)

    def __init__(self) -> None:
        super().__init__()
        self.game: Game | None = None
        self.chance: HypothesisChance | None = None
        self.recorder: RecordingChance | None = None
        self.actions: list[str] = []
        self.watchdog: GameWatchdog | None = None
        self.alarm: Alarm | None = None
        self.step = StepCounter()

    @initialize(data=st.data())
    def setup(self, data: Any) -> None:
        self.chance = HypothesisChance(data)
        self.recorder = RecordingChance(self.chance)
        entry = get_game(self.game_name)
        self.state_invariants = entry.load("invariants")
        self.step_invariants = entry.load("step_invariants") if entry.has("step_invariants") else None
        self.watchdog = GameWatchdog(1 << 30, self.game_seconds)
        self.alarm = Alarm(self.watchdog.alarm_seconds())      # one alarm for the whole example
        self.alarm.arm()
        with self._watched(None):
            self.game = entry.load("new_game")(overrides=self.overrides, players=self.players, chance=self.recorder)
        self.watchdog.max_steps = entry.load("step_bound")(self.game)

    def teardown(self) -> None:
        if self.alarm is not None:
            self.alarm.disarm()

    @contextmanager
    def _watched(self, game: Game | None) -> Iterator[None]:
        """Run game code under the step and time watchdog; a livelock, a rule loop past its bound
        or a crash is reported like a broken invariant (with its counterexample)."""
        assert self.watchdog is not None
        try:
            with self.watchdog.guard(game, self.step, arm=False):
                yield
        except InvariantBroken:
            raise
        except Livelock as exc:
            self._fail_on([("livelock", str(exc))], phase=exc.phase)
        except RuleLoopError as exc:
            # Hypothesis drives chance adversarially (its simplest draw is the same tile every time),
            # so it can make a chance-driven loop, such as the one-colour redraw, run past a bound a
            # fair chance reaches with probability ~1e-12: reject the example. Simulation (fair
            # chance) reports such loops as `rule-loop` failures; a loop that always runs past its
            # bound rejects every example here, which Hypothesis reports too.
            event(f"rejected: {exc.clause} loop past its bound under Hypothesis chance")
            reject()
        except Exception as exc:
            if type(exc).__module__.startswith("hypothesis"):   # Hypothesis's own control flow
                raise
            self._fail_on([("model-error", f"{type(exc).__name__}: {exc}")])

    def _playable(self) -> bool:
        if self.game is None or self.game.is_over:
            return False
        with self._watched(self.game):
            return bool(self.game.legal_actions())

    @precondition(lambda self: self._playable())
    @rule(data=st.data())
    def play(self, data: Any) -> None:
        assert self.game is not None and self.chance is not None
        self.chance.data = data
        assert self.watchdog is not None
        action = data.draw(st.sampled_from(list(self.game.legal_actions())), label="action")
        before = self.game.copy()
        self.actions.append(str(action))
        self.step.value = len(self.actions)
        problems: list[tuple[str, str]] = []
        with self._watched(self.game):
            self.watchdog.tick(self.game, len(self.actions) - 1)
            events = self.game.apply(action)
            if self.step_invariants is not None:
                problems = [(name, msg) for name, _, msg in
                            self.step_invariants(before, self.game, events, len(self.actions), action, 10)]
        self._fail_on(problems)

    @precondition(lambda self: self.game is not None and not self._playable())
    @rule()
    def finished(self) -> None:
        """Game over (or stalled, which the progress invariant reports): nothing left to do."""

    @invariant()
    def state_invariants(self) -> None:
        if self.game is not None:
            with self._watched(self.game):
                problems = [(name, msg) for name, _, msg in self.state_invariants(self.game)]
            self._fail_on(problems)

    def _fail_on(self, problems: list[tuple[str, str]], *, phase: str | None = None,
                 clauses: tuple[str, ...] | None = None) -> None:
        if not problems:
            return
        name, msg = problems[0]
        rec = self.recorder
        assert rec is not None
        entry = get_game(self.game_name)
        if clauses is None:
            clauses = (entry.progress_clauses if name in ("livelock", "model-error")
                       else invariant_clauses(name, self.game_name))
        phase = phase or (str(getattr(self.game.state, "phase", "")) if self.game is not None else "setup")
        alt = "-".join(f"{k.split('.')[-1]}-{v}" for k, v in sorted(self.overrides.items())) or "defaults"
        text = scenario_text(
            scenario_id=f"counterexample.{name}.{alt}",
            description=f"Hypothesis found: {name}: {msg}\n(after {len(self.actions)} actions, phase {phase})",
            clauses=clauses, overrides=self.overrides, actions=self.actions, tiles=rec.tiles,
            plates=rec.plates, chips=rec.chips, first=rec.first,
            game=self.game_name if self.game_name != DEFAULT_GAME else None, players=self.players)
        prefix = "" if self.game_name == DEFAULT_GAME else f"{self.game_name}-"
        path = write_counterexample(text, f"hypothesis-{prefix}{name}-{alt}", self.counterexample_dir)
        raise InvariantBroken(name, f"{msg} (phase {phase})", seed=None, step=len(self.actions), scenario=path,
                              overrides=self.overrides)


def machine_for(overrides: dict[str, str], directory: Path | None = None, game: str = DEFAULT_GAME,
                players: int | None = None) -> type[GameMachine]:
    """A GameMachine subclass playing `game` under the given interpretation overrides."""
    get_game(game)                                         # an unknown game fails here, by name
    label = "_".join(f"{k}={v}" for k, v in sorted(overrides.items())) or "defaults"
    name = f"{game.capitalize()}Machine_" + label.replace(".", "_").replace("-", "_").replace("=", "_")
    attrs: dict[str, object] = {"overrides": dict(overrides), "game_name": game, "players": players}
    if directory is not None:
        attrs["counterexample_dir"] = directory
    return type(name, (GameMachine,), attrs)
