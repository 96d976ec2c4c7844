"""Hypothesis state machine for classic Azul: Hypothesis draws the player count, the wall side, one
alternative of every interpretation point, every bag draw and every action (among the sorted
`legal_actions()`); after every step the legality predicate must have agreed, a drawn refused
action must leave the state unchanged, the round must stay within its step bound and every
invariant must hold. A failure raises `MachineFailure` carrying a replayable program
(properties.azul.program), also printed in the message.

    machine = machine_for()                       # everything drawn
    machine_for(players=4, wall="gray", overrides={"azul.end.dead-game": "stall"})
    machine.TestCase.settings = settings(max_examples=20, stateful_step_count=60, deadline=None)
    machine.TestCase().runTest()
"""

from __future__ import annotations

from typing import Any, ClassVar

from hypothesis import Phase, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from model.azul import IMPLEMENTED, WALL_SIDES, Game, IllegalAction, new_game
from model.azul.universe import candidate_actions
from properties.azul.bounds import per_round_bound
from properties.chance import HypothesisChance, RecordingChance
from properties.azul.invariants import check_all
from properties.azul.program import Program

__all__ = ["AzulMachine", "MachineFailure", "machine_for"]


class MachineFailure(AssertionError):
    """A broken property, with the program that replays the game up to it."""

    def __init__(self, kind: str, message: str, program: Program) -> None:
        self.kind = kind
        self.program = program
        super().__init__(f"{kind}: {message}\n(after {len(program.actions)} actions)\n"
                         f"replay with this program:\n{program.text()}")


class AzulMachine(RuleBasedStateMachine):
    """Random legal play of classic Azul. Class attributes fix what would otherwise be drawn."""

    players: ClassVar[int | None] = None
    wall: ClassVar[str | None] = None
    overrides: ClassVar[dict[str, str] | None] = None

    def __init__(self) -> None:
        super().__init__()
        self.game: Game | None = None
        self.chance: HypothesisChance | None = None
        self.recorder: RecordingChance | None = None
        self.config: tuple[int, str, dict[str, str]] = (2, "coloured", {})
        self.actions: list[str] = []
        self.round_steps = 0

    @initialize(data=st.data())
    def setup(self, data: Any) -> None:
        players = self.players or data.draw(st.sampled_from((2, 3, 4)), label="players")
        wall = self.wall or data.draw(st.sampled_from(WALL_SIDES), label="wall")
        if self.overrides is not None:
            overrides = dict(self.overrides)
        else:
            drawn = {point: data.draw(st.sampled_from(alts), label=point) for point, alts in IMPLEMENTED.items()}
            overrides = {point: alt for point, alt in drawn.items() if alt != IMPLEMENTED[point][0]}
        self.config = (players, wall, overrides)
        self.chance = HypothesisChance(data)
        self.recorder = RecordingChance(self.chance)
        try:
            self.game = new_game(players, wall=wall, interpretations=overrides, chance=self.recorder)
        except Exception as exc:
            self._fail("model-error", f"setup raised {type(exc).__name__}: {exc}")

    def program(self) -> Program:
        players, wall, overrides = self.config
        rec = self.recorder
        return Program(players, wall, overrides, tuple(rec.tiles) if rec else (), rec.first if rec else None,
                       tuple(self.actions))

    def _fail(self, kind: str, message: str) -> None:
        raise MachineFailure(kind, message, self.program())

    def _playable(self) -> bool:
        g = self.game
        return g is not None and not g.is_over and not g.is_stalled

    @precondition(lambda self: self._playable())
    @rule(data=st.data())
    def play(self, data: Any) -> None:
        g = self.game
        assert g is not None and self.chance is not None
        self.chance.data = data
        legal = g.legal_actions()
        if not legal:
            self._fail("no-legal-action", f"nobody can act, yet the game is neither over nor stalled "
                                          f"(round {g.state.round}, phase {g.state.phase})")
        if legal != sorted(legal):
            self._fail("legal-actions-order", "legal_actions() is not sorted")
        self._refused_leaves_state(data, g, set(legal))
        action = data.draw(st.sampled_from(legal), label="action")
        problem = g.why_illegal(action)
        if problem is not None:
            self._fail("generator-predicate", f"{action} is generated but refused: {problem}")
        round_before = g.state.round
        self.actions.append(str(action))
        try:
            g.apply(action)
        except Exception as exc:
            self._fail("model-error", f"{action} raised {type(exc).__name__}: {exc}")
        self.round_steps = 1 if g.state.round != round_before else self.round_steps + 1
        bound = per_round_bound(g.players)
        if self.round_steps > bound:
            self._fail("round-bound", f"round {g.state.round} has taken {self.round_steps} actions (> {bound})")

    def _refused_leaves_state(self, data: Any, g: Game, legal: set[Any]) -> None:
        universe = candidate_actions()
        candidate = universe[data.draw(st.integers(0, len(universe) - 1), label="refused candidate")]
        if candidate in legal:
            return
        before = g.state.copy()
        try:
            g.apply(candidate)
        except IllegalAction as exc:
            if g.state != before:
                self._fail("refusal-changed-state", f"{candidate} was refused ({exc.clause}) but changed the state")
            if not exc.clause.startswith("azul."):
                self._fail("refusal-clause", f"{candidate} was refused naming {exc.clause!r}")
            return
        except Exception as exc:
            self._fail("model-error", f"refusing {candidate} raised {type(exc).__name__}: {exc}")
        self._fail("generator-predicate", f"{candidate} is not generated but was applied")

    @precondition(lambda self: self.game is not None and not self._playable())
    @rule()
    def finished(self) -> None:
        """Over or stalled: nothing left to play."""

    @invariant()
    def invariants_hold(self) -> None:
        if self.game is not None:
            problems = check_all(self.game)
            if problems:
                self._fail(problems[0].split(" ", 1)[0], "; ".join(problems))


def machine_for(players: int | None = None, wall: str | None = None,
                overrides: dict[str, str] | None = None) -> type[AzulMachine]:
    """An AzulMachine subclass with the given parts fixed (None: drawn by Hypothesis)."""
    name = f"AzulMachine_{players or 'any'}_{wall or 'any'}_" + "_".join(
        f"{k}={v}" for k, v in sorted((overrides or {}).items())).replace(".", "_").replace("-", "_")
    return type(name, (AzulMachine,), {"players": players, "wall": wall, "overrides": overrides})


# Without the explain phase: it re-runs the whole game many times and took minutes on a shrunk failure.
AzulMachine.TestCase.settings = settings(deadline=None, stateful_step_count=100,
                                         phases=[Phase.explicit, Phase.reuse, Phase.generate, Phase.shrink])
