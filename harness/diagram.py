"""The phase diagram, rendered from the engine's own networkx graph with graphviz."""

from __future__ import annotations

import shutil
from collections.abc import Mapping
from pathlib import Path

import graphviz

from model.phases import phase_graph


def phase_dot(visits: Mapping[tuple[str, str], int] | None = None) -> graphviz.Digraph:
    """The phase graph as a graphviz Digraph; with `visits`, edges show counts and untaken ones are red."""
    g = phase_graph()
    dot = graphviz.Digraph("azul_duel_phases", graph_attr={"rankdir": "LR", "fontname": "Helvetica"},
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


def render_phases(out: Path, fmt: str = "svg", visits: Mapping[tuple[str, str], int] | None = None) -> Path:
    """Write the diagram; falls back to DOT (with a note) when Graphviz's `dot` is missing."""
    dot = phase_dot(visits)
    out.parent.mkdir(parents=True, exist_ok=True)
    if fmt == "dot" or not has_dot():
        target = out if fmt == "dot" else out.with_suffix(".dot")
        target.write_text(dot.source)
        return target
    out.write_bytes(dot.pipe(format=fmt))
    return out
