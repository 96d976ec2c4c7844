"""Stopping a scenario where a phase ends (`stop = "end-of-dome-tiling"`), so `then` can look at the
position before the next phase runs by itself.

The stop names come from the phase graph (model/duel/phases.py): `end-of-PHASE` for every phase with an
outgoing edge (`end-of-setup`, `end-of-acquisition`, `end-of-dome-tiling`, `end-of-preparation`,
`end-of-tablet-scoring`), plus `end-of-round`: the end of Preparation in rounds 1-4 and the end of
Dome-tiling in round 5 (which has no Preparation). The game stops at the phase change itself: the
ended phase's work is all done, `phase` still names it, and nothing of the next phase has happened.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from model.duel.engine import Game
from model.duel.phases import phase_graph
from model.events import Event


def _name(phase: str) -> str:
    return "end-of-" + phase.replace("_", "-")


@cache
def stop_names() -> tuple[str, ...]:
    graph = phase_graph()
    names = [_name(p) for p in graph.nodes if graph.out_degree(p)]
    return (*names, "end-of-round")


def ends_at(stop: str, source: str, target: str) -> bool:
    """Whether the phase change source -> target is where `stop` halts the game."""
    if stop == "end-of-round":
        return (source, target) in (("preparation", "acquisition"), ("dome_tiling", "tablet_scoring"))
    return stop == _name(source)


class PhaseEnded(Exception):
    """Raised by a StoppingGame at its stop; carries the events of the action that got there."""

    def __init__(self, stop: str, source: str, target: str, events: list[Event]) -> None:
        super().__init__(f"{stop}: {source} -> {target}")
        self.stop, self.source, self.target, self.events = stop, source, target, events


class StoppingGame(Game):
    """A Game that halts at a phase change named by `stop` (raising PhaseEnded, state kept as it is
    at that moment). `stopped` records where it halted."""

    __slots__ = ("stop", "stopped")

    def __init__(self, game: Game, stop: str) -> None:
        super().__init__(game.state, game.rules, game.chance, on_phase_change=self._phase_changing)
        self.stop = stop
        self.stopped: PhaseEnded | None = None

    # Not `Self` as model.base declares: a StoppingGame's copies are plain Games on purpose.
    def _game_on(self, state: Any, chance: Any) -> Game:  # type: ignore[override]
        """Copies and snapshots are plain games: they do not stop."""
        return Game(state, self.rules, chance)

    def _phase_changing(self, source: str, target: str, events: list[Event]) -> None:
        if self.stopped is None and ends_at(self.stop, source, target):
            self.stopped = PhaseEnded(self.stop, source, target, events)
            raise self.stopped
