"""Hypothesis state machine for classic Azul: the shared machine (properties/machine.py) with
classic's hooks (properties/azul/hooks.py: MACHINE_HOOKS). Hypothesis draws the player count, the
wall side, one alternative of every interpretation point, every bag draw and every action (among
the sorted `legal_actions()`); after every step the legality predicate must have agreed, a drawn
refused action must leave the state unchanged, the round must stay within its step bound and every
invariant must hold. A failure raises `MachineFailure` carrying a replayable program
(properties.azul.program), also printed in the message, and the shared counterexample file.

    machine = machine_for()                       # everything drawn
    machine_for(players=4, wall="gray", overrides={"azul.end.dead-game": "stall"})
    machine.TestCase.settings = settings(max_examples=20, stateful_step_count=60, deadline=None)
    machine.TestCase().runTest()
"""

from __future__ import annotations

from pathlib import Path

from hypothesis import Phase, settings

from model.azul.start import WALL_SIDE
from properties.azul.program import MachineFailure
from properties.machine import GameMachine
from properties.machine import machine_for as shared_machine_for

__all__ = ["AzulMachine", "MachineFailure", "machine_for"]


class AzulMachine(GameMachine):
    """The shared machine playing classic Azul (class attributes fix what would otherwise be drawn)."""

    game_name = "azul"
    players = None
    overrides = None


def machine_for(players: int | None = None, wall: str | None = None, overrides: dict[str, str] | None = None,
                directory: Path | None = None) -> type[AzulMachine]:
    """An AzulMachine subclass with the given parts fixed (None: drawn by Hypothesis)."""
    shared = shared_machine_for(overrides, directory, game="azul", players=players,
                                fixed={WALL_SIDE: wall} if wall else None)
    attrs = {k: v for k, v in vars(shared).items() if k in ("overrides", "players", "fixed", "counterexample_dir")}
    return type(shared.__name__, (AzulMachine,), attrs)


# Without the explain phase: it re-runs the whole game many times and took minutes on a shrunk failure.
AzulMachine.TestCase.settings = settings(deadline=None, stateful_step_count=100,
                                         phases=[Phase.explicit, Phase.reuse, Phase.generate, Phase.shrink])
