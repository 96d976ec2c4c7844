"""The round structure: every phase change goes through here, asking the phase graph
(model.duel.phases) first. A game may watch phase changes (`Game.on_phase_change`, used by the
scenario runner to stop at a named point)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from model.clauses import cite, cite_edge
from model.duel.phases import check_transition
from model.events import Event, ev

if TYPE_CHECKING:
    from model.duel.engine import Game


def change_phase(g: Game, target: str, events: list[Event]) -> None:
    s = g.state
    if g.on_phase_change is not None:
        g.on_phase_change(s.phase, target, events)
    check_transition(s.phase, target)
    cite("duel.round.structure")
    cite_edge(s.phase, target)
    events.append(ev("phase", "duel.round.structure", None, 0, f"{s.phase} -> {target} (round {s.round})"))
    s.phase = target
