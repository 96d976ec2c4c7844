"""The phase diagram of any registered game, rendered from its engine's own networkx graph (its
registry entry's `phase_graph`) with graphviz; the sub-step diagram groups a game's `substeps`."""

from __future__ import annotations

import shutil
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import graphviz

from properties.registry import DEFAULT_GAME, get_game


def phase_graph(game: str = DEFAULT_GAME) -> Any:
    """The game's phase DiGraph (model.phases machinery, the game's own phases)."""
    return get_game(game).load("phase_graph")()


def phase_dot(visits: Mapping[tuple[str, str], int] | None = None, game: str = DEFAULT_GAME) -> graphviz.Digraph:
    """The phase graph as a graphviz Digraph; with `visits`, edges show counts and untaken ones are red."""
    g = phase_graph(game)
    dot = graphviz.Digraph(f"{game}_phases", graph_attr={"rankdir": "LR", "fontname": "Helvetica"},
                           node_attr={"shape": "box", "style": "rounded", "fontname": "Helvetica"},
                           edge_attr={"fontname": "Helvetica", "fontsize": "10"})
    for node in g.nodes:
        dot.node(node, node.replace("_", " "))
    for source, target, data in sorted(g.edges(data=True)):
        label = data["guard"] + "\\n" + "\\n".join(data["clauses"])
        attrs = {}
        if visits is not None:
            n = visits.get((source, target), 0)
            label += f"\\nvisits: {n}"
            if n == 0:
                attrs = {"color": "red", "fontcolor": "red", "style": "dashed"}
        dot.edge(source, target, label=label, **attrs)
    return dot


def has_dot() -> bool:
    return shutil.which("dot") is not None


def render_phases(out: Path, fmt: str = "svg", visits: Mapping[tuple[str, str], int] | None = None,
                  game: str = DEFAULT_GAME) -> Path:
    """Write the diagram; falls back to DOT (with a note) when Graphviz's `dot` is missing."""
    dot = phase_dot(visits, game)
    out.parent.mkdir(parents=True, exist_ok=True)
    if fmt == "dot" or not has_dot():
        target = out if fmt == "dot" else out.with_suffix(".dot")
        target.write_text(dot.source)
        return target
    out.write_bytes(dot.pipe(format=fmt))
    return out


def _width(n: int, top: int) -> str:
    """Edge width grows with the log of its visits (1 visit: thin, the busiest: 7)."""
    import math
    return f"{1 + 6 * math.log1p(n) / math.log1p(max(top, 1)):.2f}"


def substep_dot(visits: Mapping[tuple[str, str], int],
                phase_visits: Mapping[tuple[str, str], int] | None = None, game: str = DEFAULT_GAME) -> graphviz.Digraph:
    """Play's sub-steps grouped by phase, edges as wide as they were travelled (log scale), labelled
    with their visit counts; sub-steps never reached are dashed red. The phase graph's own edges
    (`phase_visits`, cluster to cluster, dotted) show the phases play passes through automatically."""
    entry = get_game(game)
    graph = phase_graph(game)
    SUBSTEPS = entry.load("substeps") if entry.has("substeps") else {p: ((p, p.replace("_", " ")),) for p in graph}
    dot = graphviz.Digraph(f"{game}_substeps", graph_attr={"rankdir": "LR", "fontname": "Helvetica",
                                                            "compound": "true", "nodesep": "0.25", "ranksep": "0.5"},
                           node_attr={"shape": "box", "style": "rounded,filled", "fillcolor": "#ffffff",
                                      "fontname": "Helvetica", "fontsize": "10"},
                           edge_attr={"fontname": "Helvetica", "fontsize": "9", "color": "#3b5b92"})
    phase_visits = phase_visits or {}
    seen = {n for edge in visits for n in edge}
    seen |= {SUBSTEPS[p][0][0] for edge, n in phase_visits.items() if n for p in edge if p in SUBSTEPS}
    known = {key for group in SUBSTEPS.values() for key, _ in group}
    top = max(visits.values(), default=1)
    for phase, group in SUBSTEPS.items():
        with dot.subgraph(name=f"cluster_{phase}") as sub:
            sub.attr(label=phase.replace("_", " "), style="rounded", color="#c3c9d5", fontsize="11")
            for key, label in group:
                extra = {} if key in seen else {"color": "red", "fontcolor": "red", "style": "rounded,dashed"}
                sub.node(key, label, **extra)
    for key in sorted(seen - known):
        dot.node(key, key)
    for (a, b), n in sorted(visits.items()):
        if a == b:
            dot.edge(a, b, label=str(n), penwidth=_width(n, top), arrowsize="0.5")
        else:
            dot.edge(a, b, label=str(n), penwidth=_width(n, top), arrowsize="0.6")
    for source, target, _data in sorted(graph.edges(data=True)):
        n = int(phase_visits.get((source, target), 0))
        dot.edge(SUBSTEPS[source][0][0], SUBSTEPS[target][0][0], label=f"phase: {n}", style="dotted",
                 ltail=f"cluster_{source}", lhead=f"cluster_{target}", color="red" if n == 0 else "#7a869a",
                 fontcolor="red" if n == 0 else "#5b6475", penwidth=_width(n, top))
    return dot


def svg_of(dot: graphviz.Digraph) -> str:
    """The diagram as inline SVG (or its DOT source in <pre> when Graphviz's `dot` is missing)."""
    if not has_dot():
        import html
        return "<pre>" + html.escape(dot.source) + "</pre>"
    svg = dot.pipe(format="svg").decode()
    return svg[svg.index("<svg"):]
