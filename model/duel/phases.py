"""Azul Duel's phases and the edges between them (the machinery is model.phases).

Each edge carries its guard (in words) and the clause ids that justify it; the engine asks the graph
before every phase change (`check_transition`), through a frozen edge set: networkx is imported only
when the graph is drawn or analysed (`phase_graph`).
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING

from model.phases import Edge, PhaseError, build_phase_graph, check_edge, phase_edges

if TYPE_CHECKING:
    import networkx as nx

__all__ = ["EDGES", "PHASES", "TRANSITIONS", "PhaseError", "check_transition", "phase_graph"]

PHASES: tuple[str, ...] = (
    "setup", "acquisition", "dome_tiling", "preparation", "tablet_scoring", "game_over",
)

EDGES: tuple[Edge, ...] = (
    ("setup", "acquisition", "both opening plates placed",
     ("duel.setup.opening-plates", "duel.acquire.turn-order")),
    ("acquisition", "dome_tiling", "Factories empty and tokens used (or passed)",
     ("duel.acquire.end",)),
    ("dome_tiling", "preparation", "round < 5", ("duel.round.structure",)),
    ("dome_tiling", "tablet_scoring", "round = 5", ("duel.end.after-round-5", "duel.prep.skip-last")),
    ("preparation", "acquisition", "next round prepared", ("duel.prep.start-player",)),
    ("tablet_scoring", "game_over", "tablets scored", ("duel.end.tablets-scored", "duel.end.winner")),
)


TRANSITIONS: frozenset[tuple[str, str]] = phase_edges(PHASES, EDGES)


@cache
def phase_graph() -> nx.DiGraph:
    return build_phase_graph("Azul Duel phases", PHASES, EDGES)


def check_transition(source: str, target: str) -> None:
    check_edge(TRANSITIONS, source, target)
