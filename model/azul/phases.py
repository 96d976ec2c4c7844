"""Classic Azul's phases as a graph (machinery: model.phases), for the diagram and the phase-edge
step invariant (properties/azul/hooks.py). The state's `phase` is one of these; the offer and the
wall-tiling of a coloured wall happen within one action, so a round change keeps the phase "offer".
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING

from model.azul.state import OFFER, OVER, TILING
from model.phases import Edge, build_phase_graph, check_edge, phase_edges

if TYPE_CHECKING:      # networkx only to draw or analyse the graph (start-up time)
    import networkx as nx

PHASES: tuple[str, ...] = (OFFER, TILING, OVER)

EDGES: tuple[Edge, ...] = (
    (OFFER, TILING, "centre and factories empty; a gray-wall line needs its space chosen",
     ("azul.offer.end", "azul.gray.free-placement")),
    (TILING, OFFER, "every line tiled, no row complete: next round prepared",
     ("azul.prep.continue", "azul.prep.refill")),
    (TILING, OVER, "every line tiled and a wall row complete: bonuses scored",
     ("azul.end.trigger", "azul.end.winner")),
    (OFFER, OVER, "centre and factories empty, lines tiled at once and a wall row complete",
     ("azul.offer.end", "azul.end.trigger")),
)


TRANSITIONS: frozenset[tuple[str, str]] = phase_edges(PHASES, EDGES)


@cache
def phase_graph() -> nx.DiGraph:
    return build_phase_graph("Azul (classic) phases", PHASES, EDGES)


def check_transition(source: str, target: str) -> None:
    check_edge(TRANSITIONS, source, target)
