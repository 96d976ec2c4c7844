"""The phase machine as a networkx DiGraph. The engine asks it for every phase change.

Each edge carries its guard (in words) and the clause ids that justify it; a change the graph lacks
is refused, so the diagram rendered from this graph is the machine itself.
"""

from __future__ import annotations

from functools import cache

import networkx as nx

PHASES: tuple[str, ...] = (
    "setup", "acquisition", "dome_tiling", "preparation", "tablet_scoring", "game_over",
)

EDGES: tuple[tuple[str, str, str, tuple[str, ...]], ...] = (
    ("setup", "acquisition", "both opening plates placed",
     ("duel.setup.opening-plates", "duel.acquire.turn-order")),
    ("acquisition", "dome_tiling", "Factories empty and tokens used (or passed)",
     ("duel.acquire.end",)),
    ("dome_tiling", "preparation", "round < 5", ("duel.round.structure",)),
    ("dome_tiling", "tablet_scoring", "round = 5", ("duel.end.after-round-5", "duel.prep.skip-last")),
    ("preparation", "acquisition", "next round prepared", ("duel.prep.start-player",)),
    ("tablet_scoring", "game_over", "tablets scored", ("duel.end.tablets-scored", "duel.end.winner")),
)


@cache
def phase_graph() -> nx.DiGraph:
    g = nx.DiGraph(name="Azul Duel phases")
    for p in PHASES:
        g.add_node(p)
    for source, target, guard, clauses in EDGES:
        g.add_edge(source, target, guard=guard, clauses=clauses)
    return g


class PhaseError(RuntimeError):
    """The engine tried a phase change that the phase graph does not have (a model bug)."""


def check_transition(source: str, target: str) -> None:
    if not phase_graph().has_edge(source, target):
        raise PhaseError(f"no phase-graph edge {source} -> {target}")
