"""Classic Azul's phases as a graph (machinery: model.phases), for the diagram and the phase-edge
step invariant (properties/azul/hooks.py). The state's `phase` is one of these and changes only
through `change_phase`, which asks the graph first and counts the edge (model.clauses.cite_edge:
the report's visit counts). The offer and the wall-tiling of a coloured wall happen within one
action (offer -> tiling -> offer), so across a step a round change keeps the phase "offer" and a
game's last round goes offer -> over: the step invariant's edge, never taken inside the engine.
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING

from model.azul.state import OFFER, OVER, TILING, AzulState
from model.clauses import cite_edge
from model.phases import Edge, build_phase_graph, check_edge, phase_edges

if TYPE_CHECKING:      # networkx only to draw or analyse the graph (start-up time)
    import networkx as nx

PHASES: tuple[str, ...] = (OFFER, TILING, OVER)

EDGES: tuple[Edge, ...] = (
    (OFFER, TILING, "centre and factories empty: wall-tiling starts (a gray-wall line may wait here for its space)",
     ("azul.offer.end", "azul.gray.free-placement")),
    (TILING, OFFER, "every line tiled, no row complete: next round prepared",
     ("azul.prep.continue", "azul.prep.refill")),
    (TILING, OVER, "every line tiled and a wall row complete: bonuses scored",
     ("azul.end.trigger", "azul.end.winner")),
    (OFFER, OVER, "seen across one action only (a coloured wall's last take; the engine passes through tiling)",
     ("azul.offer.end", "azul.end.trigger")),
)


TRANSITIONS: frozenset[tuple[str, str]] = phase_edges(PHASES, EDGES)


@cache
def phase_graph() -> nx.DiGraph:
    return build_phase_graph("Azul (classic) phases", PHASES, EDGES)


def check_transition(source: str, target: str) -> None:
    check_edge(TRANSITIONS, source, target)


def change_phase(state: AzulState, target: str) -> None:
    """Move `state` to phase `target` along a graph edge, counted while recording (a change to the
    phase it is in, as at a round's start, is no transition)."""
    if state.phase != target:
        check_transition(state.phase, target)
        cite_edge(state.phase, target)
    state.phase = target
