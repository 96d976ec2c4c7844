"""Classic Azul's side of the registry entry (harness/azul/__init__.py): invariants in the shared
shape (invariant name, clause id, message), the step invariants, matrix rows and views."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from model.azul.actions import Action
from model.azul.colours import NUM_COLOURS
from model.azul.game import Game
from model.azul.phases import TRANSITIONS
from model.azul.ruleset import IMPLEMENTED, WALL_SIDES
from model.azul.start import WALL_SIDE
from model.azul.universe import candidate_actions
from model.events import Event
from model.protocol import Game as AnyGame
from properties.azul.bounds import per_round_bound, wall_change_rounds_bound
from properties.azul.invariants import INVARIANTS, incremental
from properties.azul.program import MachineFailure, Program
from properties.azul.steps import RULE_STEP_INVARIANTS, rule_step_problems
from properties.generator_check import disagreement
from properties.machine_hooks import Draw, FailedStep, MachineHooks, MachineRecord, MachineSetup, Problem
from properties.matrix import RowSetup

Violation = tuple[str, str, str]

STEP_INVARIANTS: dict[str, tuple[str, ...]] = {
    "generator-agrees": ("azul.offer.actions",),
    "phase-edges": ("azul.offer.end", "azul.end.trigger"),
    **RULE_STEP_INVARIANTS,
}
INVARIANT_TABLE: dict[str, tuple[str, ...]] = {**{inv.name: inv.clauses for inv in INVARIANTS}, **STEP_INVARIANTS}

# Matrix rows beyond "each alternative alone": the gray wall (its own point's row plays on it, below).
COMBINATIONS: tuple[dict[str, str], ...] = (
    {WALL_SIDE: "gray"},
)

# Rows whose situation uniform 2-player play (almost) never reaches: how the matrix plays them. Each
# row's `decided` is still counted from the model's citations; a row that never decides in its games
# but has a committed `azul-rules search --decide` witness (fixtures/azul/witnesses/) is shown as
# decided by that witness (harness/found_by_search.py): the full floor at the marker
# (marker-on-full-floor), a short refill (fill-order=round-robin), a round nobody takes from the
# centre (marker-untaken=next-clockwise) and a dead game (dead-game=stall, on the gray wall) are found
# by the search; a round with no tile at all (empty-round=stall, 4 players) by the round-level
# explorer properties/azul/lockup_explorer.py.
ROW_SETUPS: dict[str, RowSetup] = {
    # the point is the gray wall's: on the coloured wall no line is ever unplaceable
    "azul.gray.unplaceable-line=refused": RowSetup(context={WALL_SIDE: "gray"}),
    # the order of the marker and a centre pick's surplus on the floor changes nothing under the default
    # marker cost (every covered space costs its value): the row plays under one-point, where it does
    "azul.offer.marker-floor-order=tiles-first": RowSetup(context={"azul.floor.marker-cost": "one-point"}),
}

LETTERS = "BYRKT"        # blue yellow red black turquoise (model/azul/colours.py order)


def state_invariants(game: Game, *, physical_only: bool = False) -> list[Violation]:
    return [(inv.name, inv.clauses[0], problem) for inv in INVARIANTS
            if inv.physical or not physical_only for problem in inv(game)]


_FIRST_CLAUSE: dict[str, str] = {inv.name: inv.clauses[0] for inv in INVARIANTS}


def incremental_invariants(before: Game, game: Game, events: Sequence[Event]) -> list[Violation]:
    """The state invariants checked only where the step changed the table (properties.azul.invariants
    .incremental); checked play runs the full `state_invariants` every few steps and at each phase end."""
    return [(name, _FIRST_CLAUSE[name], problem) for name, problem in incremental(before, game)]


def step_invariants(before: Game, game: Game, events: list[Event], step: int, action: Action | None,
                    deep_every: int = 10) -> list[Violation]:
    out: list[Violation] = []
    old, new = before.state.phase, game.state.phase
    if old != new and (old, new) not in TRANSITIONS:      # the phase graph's edges (frozen: no graph library)
        out.append(("phase-edges", "azul.offer.end", f"phase change {old} -> {new} is not an edge"))
    if deep_every and step % deep_every == 0 and not game.is_over:
        problem = disagreement(game, candidate_actions(), step // deep_every)
        if problem is not None:
            out.append(("generator-agrees", "azul.offer.actions", problem))
    out += [(name, RULE_STEP_INVARIANTS[name][0], problem)
            for name, problem in rule_step_problems(before, game, events, step, action)]
    return out


def scores(game: Game) -> tuple[int, ...]:
    return tuple(b.score for b in game.state.boards)


def candidates(game: Game) -> Sequence[Action]:
    return candidate_actions()


# Rounds in which no wall changes have no bound from the rules (properties/azul/bounds.py): the
# simulation's cap allows this many of them on top of the rounds that must change a wall.
DEAD_ROUNDS_CAP = 100


def step_bound(game: Game) -> int:
    """The watchdog's bound: at most `per_round_bound` actions a round, over the rounds in which a wall
    gains a tile (bounded by the components) plus DEAD_ROUNDS_CAP rounds in which none does (no
    rule bounds those: a driver cap, properties/azul/bounds.py)."""
    players = game.state.players
    return per_round_bound(players) * (wall_change_rounds_bound(players) + DEAD_ROUNDS_CAP)


def format_tiles(tiles: Sequence[int]) -> str:
    return "".join(LETTERS[t] for t in tiles if 0 <= t < NUM_COLOURS)


# The Hypothesis machine's classic parts (properties/machine.py, properties/machine_hooks.py).

def draw_machine_setup(draw: Draw, players: int | None, overrides: Mapping[str, str] | None,
                       fixed: Mapping[str, str]) -> MachineSetup:
    """Hypothesis draws what the machine leaves open: the player count, the wall side and (when
    `overrides` is None) one alternative of every interpretation point; `fixed` choices stay."""
    from hypothesis import strategies as st  # only the machine draws (simulate's start-up)

    players = players or draw(st.sampled_from((2, 3, 4)), "players")
    chosen = dict(fixed)
    if WALL_SIDE not in chosen and (overrides is None or WALL_SIDE not in overrides):
        chosen[WALL_SIDE] = draw(st.sampled_from(WALL_SIDES), "wall")
    if overrides is not None:
        chosen = {**chosen, **overrides, **fixed}
    else:
        for point, alts in IMPLEMENTED.items():
            if point not in chosen:
                chosen[point] = draw(st.sampled_from(alts), point)
    return MachineSetup(players, {k: v for k, v in chosen.items()
                                  if k == WALL_SIDE or IMPLEMENTED.get(k, (v,))[0] != v})


def machine_step_checks(before: AnyGame, game: AnyGame, memo: dict[str, Any]) -> list[Problem]:
    """A round takes at most `per_round_bound` actions (properties/azul/bounds.py). The shared machine
    types its games by the protocol; classic's hook is only ever handed classic games."""
    assert isinstance(before, Game) and isinstance(game, Game), "classic's step check got another game"
    steps = 1 if game.state.round != before.state.round else memo.get("round_steps", 0) + 1
    memo["round_steps"] = steps
    bound = per_round_bound(game.players)
    return [("round-bound", f"round {game.state.round} has taken {steps} actions (> {bound})")] if steps > bound else []


def machine_failure(record: MachineRecord, failed: FailedStep) -> MachineFailure:
    """The shared counterexample file, and the Python program that replays the game."""
    overrides = dict(record.setup.overrides)
    wall = overrides.pop(WALL_SIDE, "coloured")
    program = Program(record.setup.players or 2, wall, overrides, record.tiles, record.first, record.actions)
    message = f"{failed.message} (phase {failed.phase})"
    return MachineFailure(failed.name, message, program, record.counterexample())


MACHINE_HOOKS = MachineHooks(draw_setup=draw_machine_setup, step_checks=machine_step_checks,
                             failure=machine_failure, sorted_actions=True)
