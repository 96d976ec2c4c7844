"""What a game adds to the shared Hypothesis machine (properties/machine.py): its registry entry's
`machine_hooks` names a `MachineHooks` (properties/<game>/hooks.py). Every field has a default, so
a game without hooks is played with fixed players and interpretations, the shared checks only, and
the shared failure (a counterexample scenario file raised as `InvariantBroken`).

    draw_setup(draw, players, overrides, fixed) -> MachineSetup
        what the example plays: `draw(strategy, label)` draws with Hypothesis; `players` and
        `overrides` are the machine's fixed values (None: the game may draw them), `fixed` are
        interpretation choices no draw may change (classic's wall side, say).
    step_checks(before, game, memo) -> [(check name, message)]
        the game's own checks after each applied action (`memo`: a dict that lives one example,
        for checks that span steps, such as a per-round step bound).
    failure(record, problem) -> an exception to raise, carrying the game's replayable output; the
        shared `counterexample(record, problem)` (written scenario file) is passed in the record.
    sorted_actions: legal_actions() must come sorted (the game promises it).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import attrs

from model.protocol import Game
from properties.failure import InvariantBroken

Problem = tuple[str, str]                    # (check or invariant name, message)
Draw = Callable[[Any, str], Any]             # draw(strategy, label)


@attrs.frozen
class MachineSetup:
    """One example's configuration: passed to the entry's `new_game` as players and overrides."""

    players: int | None
    overrides: dict[str, str]


@attrs.frozen
class FailedStep:
    """A broken check or invariant: its name, what is wrong, where play stood, the clauses it cites."""

    name: str
    message: str
    phase: str
    clauses: tuple[str, ...]


@attrs.frozen
class MachineRecord:
    """What the machine played up to a failure: enough to replay it."""

    game: str
    setup: MachineSetup
    tiles: tuple[int, ...]
    plates: tuple[int, ...] | None
    chips: tuple[int, ...]
    first: int | None
    actions: tuple[str, ...]
    counterexample: Callable[[], InvariantBroken]   # the shared failure (writes the scenario file)


def fixed_setup(draw: Draw, players: int | None, overrides: Mapping[str, str] | None,
                fixed: Mapping[str, str]) -> MachineSetup:
    """No draw: the machine's players and overrides as given (None: the game's defaults)."""
    return MachineSetup(players, {**dict(overrides or {}), **fixed})


def no_step_checks(before: Game, game: Game, memo: dict[str, Any]) -> Sequence[Problem]:
    return ()


def shared_failure(record: MachineRecord, problem: FailedStep) -> BaseException:
    return record.counterexample()


@attrs.frozen
class MachineHooks:
    draw_setup: Callable[[Draw, int | None, Mapping[str, str] | None, Mapping[str, str]], MachineSetup] = fixed_setup
    step_checks: Callable[[Game, Game, dict[str, Any]], Sequence[Problem]] = no_step_checks
    failure: Callable[[MachineRecord, FailedStep], BaseException] = shared_failure
    sorted_actions: bool = False


DEFAULT_HOOKS = MachineHooks()
