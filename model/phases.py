"""The phase-graph machinery every game uses: a game lists its phases and its edges (each with the
guard in words and the clause ids that justify it); `PhaseGraph` builds the networkx DiGraph the
engine asks before every phase change and the diagram is drawn from. A change the graph lacks is
refused, so the picture is the machine itself. The phases themselves are a game's (model/<game>/phases.py).
"""

from __future__ import annotations

from collections.abc import Sequence

import networkx as nx

Edge = tuple[str, str, str, tuple[str, ...]]     # (source, target, guard in words, clause ids)


class PhaseError(RuntimeError):
    """The engine tried a phase change that the phase graph does not have (a model bug)."""


def build_phase_graph(title: str, phases: Sequence[str], edges: Sequence[Edge]) -> nx.DiGraph:
    """The DiGraph of `phases` with one edge per entry of `edges` (attributes `guard`, `clauses`)."""
    g = nx.DiGraph(name=title)
    for p in phases:
        g.add_node(p)
    for source, target, guard, clauses in edges:
        if source not in g or target not in g:
            raise PhaseError(f"edge {source} -> {target} names a phase not in {list(phases)}")
        g.add_edge(source, target, guard=guard, clauses=clauses)
    return g


def check_edge(graph: nx.DiGraph, source: str, target: str) -> None:
    """Refuse a phase change the graph lacks."""
    if not graph.has_edge(source, target):
        raise PhaseError(f"no phase-graph edge {source} -> {target}")
