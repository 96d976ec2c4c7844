"""Hypothesis state machine: Hypothesis chooses among the legal actions *and* drives chance, every
check runs after every step, and a failure is written as a replayable scenario file (and whatever
replay the game adds: classic Azul's Python program).

One machine for every game: `machine_for(overrides, game="azul")` plays the registered game (its
start, invariants, step bound, candidate actions from its registry entry; what only the game knows,
such as what to draw at setup or a per-round bound, from its `machine_hooks`,
properties/machine_hooks.py). The checks, for every game:
  - the entry's state invariants after every step, its step invariants after every action;
  - the drawn action is legal by the predicate (`why_illegal`) too (generator/predicate agreement);
  - a drawn candidate the generator does not offer is refused naming one of the game's clauses and
    leaves the state unchanged;
  - a game neither over nor stalled offers an action (`no-legal-action`);
  - the step and time watchdog (livelock, a rule loop past its bound, a crash);
  - the game's own `step_checks` (classic: the per-round step bound; sorted legal actions)."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any, ClassVar

from hypothesis import event, reject
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule

from model.errors import IllegalAction, RuleLoopError
from model.protocol import Game
from properties.chance import HypothesisChance, RecordingChance
from properties.counterexample import DEFAULT_DIR, scenario_text, write_counterexample
from properties.failure import InvariantBroken
from properties.machine_hooks import DEFAULT_HOOKS, FailedStep, MachineHooks, MachineRecord, MachineSetup, Problem
from properties.registry import DEFAULT_GAME, GameEntry, get_game
from properties.simulate import invariant_clauses
from properties.watchdog import Alarm, GameWatchdog, Livelock, StepCounter, TimeBudgetExceeded

MACHINE_GAME_SECONDS = 20.0
LEGALITY_CHECKS = ("generator-predicate", "legal-actions-order", "refusal-clause", "refusal-changed-state")

__all__ = ["GameMachine", "InvariantBroken", "MachineHooks", "hooks_of", "machine_for"]


def hooks_of(entry: GameEntry) -> MachineHooks:
    """The game's machine hooks (the shared defaults when its entry names none)."""
    return entry.load("machine_hooks") if entry.has("machine_hooks") else DEFAULT_HOOKS


class GameMachine(RuleBasedStateMachine):
    """Random legal play of a registered game under `overrides` (a subclass sets them, and `game`).
    `players` / `overrides` None: the game's hooks may draw them; `fixed`: choices never drawn."""

    game_name: ClassVar[str] = DEFAULT_GAME
    players: ClassVar[int | None] = None
    overrides: ClassVar[dict[str, str] | None] = {}
    fixed: ClassVar[dict[str, str]] = {}
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
        self.entry = get_game(self.game_name)
        self.hooks = hooks_of(self.entry)
        self.setup_drawn = MachineSetup(self.players, dict(self.overrides or {}))
        self.memo: dict[str, Any] = {}
        self.idle = False                 # the last step found the game over or stalled: a no-op
        self.in_game = False              # game code is running (the alarm may interrupt it)

    @initialize(data=st.data())
    def setup(self, data: Any) -> None:
        entry = self.entry
        self.setup_drawn = self.hooks.draw_setup(lambda s, label: data.draw(s, label=label),
                                                 self.players, self.overrides, self.fixed)
        self.chance = HypothesisChance(data)
        self.recorder = RecordingChance(self.chance)
        self.game_invariants = entry.load("invariants")      # not `state_invariants`: that is the rule below
        self.step_invariants = entry.load("step_invariants") if entry.has("step_invariants") else None
        self.candidates = entry.load("candidates") if entry.has("candidates") else None
        self.watchdog = GameWatchdog(1 << 30, self.game_seconds)
        # one alarm for the whole example, interrupting game code only (never Hypothesis's engine)
        self.alarm = Alarm(self.watchdog.alarm_seconds(), only_when=lambda: self.in_game)
        self.alarm.arm()
        with self._watched(None):
            self.game = entry.load("new_game")(overrides=self.setup_drawn.overrides,
                                               players=self.setup_drawn.players, chance=self.recorder)
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
                if self.alarm is not None and self.alarm.missed:     # it fired between two steps
                    raise TimeBudgetExceeded(self.alarm.seconds)
                self.in_game = True
                try:
                    yield
                finally:
                    self.in_game = False
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
        """Neither over nor stalled (a stall is the game's own `progress` invariant's business, or an
        ending its interpretation allows)."""
        g = self.game
        return g is not None and not g.is_over and not g.is_stalled

    # One rule, always enabled. Hypothesis's swarm testing switches rules off per example: with a
    # second rule for a finished game, an example without it was aborted as invalid the moment its
    # game ended (34 of 44 generated by tests/test_properties.py, most after a whole game). Over or
    # stalled, a step is a no-op (`idle`), and the unchanged final state is not checked again.
    @rule(data=st.data())
    def play(self, data: Any) -> None:
        assert self.game is not None and self.chance is not None and self.watchdog is not None
        self.idle = not self._playable()
        if self.idle:
            return
        g = self.game
        self.chance.data = data
        with self._watched(g):
            legal = list(g.legal_actions())
        if not legal:
            self._fail_on([("no-legal-action", "nobody can act, yet the game is neither over nor stalled")])
        if self.hooks.sorted_actions and legal != sorted(legal):
            self._fail_on([("legal-actions-order", "legal_actions() is not sorted")])
        self._refused_leaves_state(data, g, legal)
        action = data.draw(st.sampled_from(legal), label="action")
        with self._watched(g):
            refusal = g.why_illegal(action)
        if refusal is not None:
            self._fail_on([("generator-predicate", f"{action} is generated but refused: {refusal}")])
        before = g.snapshot()
        self.actions.append(str(action))
        self.step.value = len(self.actions)
        problems: list[Problem] = []
        with self._watched(g):
            self.watchdog.tick(g, len(self.actions) - 1)
            events = g.apply(action)
            if self.step_invariants is not None:
                problems = [(name, msg) for name, _, msg in
                            self.step_invariants(before, g, events, len(self.actions), action, 10)]
            problems += list(self.hooks.step_checks(before, g, self.memo))
        self._fail_on(problems)

    def _refused_leaves_state(self, data: Any, g: Game, legal: list[Any]) -> None:
        """One drawn candidate the generator does not offer: refused, naming a clause of this game,
        and the state as it was."""
        if self.candidates is None:
            return
        universe = list(self.candidates(g))
        candidate = universe[data.draw(st.integers(0, len(universe) - 1), label="refused candidate")]
        if candidate in legal:
            return
        before = g.snapshot()
        refused: IllegalAction | None = None
        with self._watched(g):
            try:
                g.apply(candidate)
            except IllegalAction as exc:
                refused = exc
        if refused is None:
            self._fail_on([("generator-predicate", f"{candidate} is not generated but was applied")])
            return
        if getattr(g, "state", None) != getattr(before, "state", None):
            self._fail_on([("refusal-changed-state", f"{candidate} was refused ({refused.clause}) but changed the state")],
                          clauses=(refused.clause, *self._clauses("refusal-changed-state")))
        if not refused.clause.startswith(self.entry.id_prefix):
            self._fail_on([("refusal-clause", f"{candidate} was refused naming {refused.clause!r}")])

    @invariant()
    def state_invariants(self) -> None:
        if self.game is not None and not self.idle:      # idle: the state the last check passed
            with self._watched(self.game):
                problems = [(name, msg) for name, _, msg in self.game_invariants(self.game)]
            self._fail_on(problems)

    def _fail_on(self, problems: list[Problem], *, phase: str | None = None,
                 clauses: tuple[str, ...] | None = None) -> None:
        if not problems:
            return
        name, msg = problems[0]
        rec = self.recorder
        if clauses is None:
            clauses = self._clauses(name)
        phase = phase or (str(getattr(self.game.state, "phase", "")) if self.game is not None else "setup")
        failed = FailedStep(name, msg, phase, tuple(clauses))
        record = MachineRecord(
            game=self.game_name, setup=self.setup_drawn, tiles=tuple(rec.tiles) if rec else (),
            plates=tuple(rec.plates) if rec and rec.plates is not None else None,
            chips=tuple(rec.chips) if rec else (), first=rec.first if rec else None,
            actions=tuple(self.actions), counterexample=lambda: self._counterexample(failed))
        raise self.hooks.failure(record, failed)

    def _clauses(self, name: str) -> tuple[str, ...]:
        """What a broken check cites: an invariant its table's clauses; the legality checks those of
        the game's `generator-agrees` step invariant; a progress check (or a game's own step check
        outside the table) the entry's progress clauses."""
        table = self.entry.load("invariant_table") if self.entry.has("invariant_table") else {}
        if name in table:
            return invariant_clauses(name, self.game_name)
        if name in LEGALITY_CHECKS and "generator-agrees" in table:
            return tuple(table["generator-agrees"])
        return tuple(self.entry.progress_clauses)

    def _counterexample(self, failed: FailedStep) -> InvariantBroken:
        """The shared failure: a scenario file replaying the game, raised as InvariantBroken."""
        rec = self.recorder
        overrides = self.setup_drawn.overrides
        alt = "-".join(f"{k.split('.')[-1]}-{v}" for k, v in sorted(overrides.items())) or "defaults"
        text = scenario_text(
            scenario_id=f"counterexample.{failed.name}.{alt}",
            description=f"Hypothesis found: {failed.name}: {failed.message}\n"
                        f"(after {len(self.actions)} actions, phase {failed.phase})",
            clauses=failed.clauses, overrides=overrides, actions=self.actions,
            tiles=rec.tiles if rec else (), plates=rec.plates if rec else None, chips=rec.chips if rec else (),
            first=rec.first if rec else None,
            game=self.game_name if self.game_name != DEFAULT_GAME else None,
            players=None if self.setup_drawn.players in (None, self.entry.players[0]) else self.setup_drawn.players)
        prefix = "" if self.game_name == DEFAULT_GAME else f"{self.game_name}-"
        path = write_counterexample(text, f"hypothesis-{prefix}{failed.name}-{alt}", self.counterexample_dir)
        return InvariantBroken(failed.name, f"{failed.message} (phase {failed.phase})", seed=None,
                               step=len(self.actions), scenario=path, overrides=overrides)


def machine_for(overrides: Mapping[str, str] | None, directory: Path | None = None, game: str = DEFAULT_GAME,
                players: int | None = None, fixed: Mapping[str, str] | None = None) -> type[GameMachine]:
    """A GameMachine subclass playing `game` under the given interpretation overrides (None: the
    game's hooks draw them, keeping `fixed`) and player count (None: the game's hooks may draw it)."""
    get_game(game)                                         # an unknown game fails here, by name
    label = "_".join(f"{k}={v}" for k, v in sorted({**dict(overrides or {}), **dict(fixed or {})}.items()))
    label = (label or "defaults") + ("" if overrides is not None else "_drawn") + (f"_{players}p" if players else "")
    name = f"{game.capitalize()}Machine_" + label.replace(".", "_").replace("-", "_").replace("=", "_")
    attrs: dict[str, object] = {"overrides": dict(overrides) if overrides is not None else None,
                                "game_name": game, "players": players, "fixed": dict(fixed or {})}
    if directory is not None:
        attrs["counterexample_dir"] = directory
    return type(name, (GameMachine,), attrs)
