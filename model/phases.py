"""The phase-graph machinery every game uses: a game lists its phases and its edges (each with the
guard in words and the clause ids that justify it). The engine asks a frozen edge set before every
phase change (`phase_edges`, `check_edge`): no graph library is imported to play a game. The
networkx DiGraph (`build_phase_graph`) is built only to draw or analyse the machine, from the same
edges, so the picture is the machine itself. The phases themselves are a game's
(model/<game>/phases.py).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import networkx as nx

Edge = tuple[str, str, str, tuple[str, ...]]     # (source, target, guard in words, clause ids)


class PhaseError(RuntimeError):
    """The engine tried a phase change that the phase graph does not have (a model bug)."""


def phase_edges(phases: Sequence[str], edges: Sequence[Edge]) -> frozenset[tuple[str, str]]:
    """The (source, target) pairs of `edges`, checked against `phases`: what the engine consults."""
    known = set(phases)
    for source, target, _, _ in edges:
        if source not in known or target not in known:
            raise PhaseError(f"edge {source} -> {target} names a phase not in {list(phases)}")
    return frozenset((source, target) for source, target, _, _ in edges)


def build_phase_graph(title: str, phases: Sequence[str], edges: Sequence[Edge]) -> nx.DiGraph:
    """The DiGraph of `phases` with one edge per entry of `edges` (attributes `guard`, `clauses`),
    for drawing and analysis (networkx is imported here, not when a game is played)."""
    import networkx as nx

    phase_edges(phases, edges)
    g = nx.DiGraph(name=title)
    for p in phases:
        g.add_node(p)
    for source, target, guard, clauses in edges:
        g.add_edge(source, target, guard=guard, clauses=clauses)
    return g


def check_edge(graph: Collection[tuple[str, str]] | nx.DiGraph, source: str, target: str) -> None:
    """Refuse a phase change the machine lacks (`graph`: the frozen edge set, or the DiGraph)."""
    has = graph.has_edge(source, target) if hasattr(graph, "has_edge") else (source, target) in graph
    if not has:
        raise PhaseError(f"no phase-graph edge {source} -> {target}")
