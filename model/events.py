"""What happened: every effect of `Game.apply` is an Event naming its clause."""

from __future__ import annotations

from typing import NamedTuple

import attrs


class Event(NamedTuple):
    """Immutable; a NamedTuple because the engine makes one per effect on its hot path."""

    kind: str              # e.g. "score", "penalty", "phase", "reveal-chip", "broken", "restock"
    clause: str
    player: int | None = None
    points: int = 0
    detail: str = ""

    def __str__(self) -> str:
        who = f"P{self.player + 1} " if self.player is not None else ""
        pts = f" {self.points:+d}" if self.points else ""
        return f"{who}{self.kind}{pts}: {self.detail} [{self.clause}]".replace(":  [", " [")


_NEW = tuple.__new__


def ev(kind: str, clause: str, player: int | None, points: int, detail: str) -> Event:
    """An Event from its five fields in order, built without the keyword handling of `Event(...)`
    (the engines make one per effect; the value, repr and type are those of `Event(...)`)."""
    return _NEW(Event, (kind, clause, player, points, detail))


@attrs.frozen(slots=True)
class Outcome:
    """The end of a game: final scores (one per seat), the winner (None for a draw or a shared
    win) and why, naming the clause that decided it."""

    scores: tuple[int, ...]
    winner: int | None
    reason: str
    clause: str
