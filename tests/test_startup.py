"""Start-up: playing a game does not import the graph library (networkx is for drawing and analysis)."""

from __future__ import annotations

import subprocess
import sys

import pytest

from model.phases import PhaseError


@pytest.mark.parametrize("module", ["model.duel", "model.azul"])
def test_importing_a_game_does_not_import_networkx(module: str) -> None:
    code = f"import sys, {module}; print('networkx' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True)
    assert out.stdout.strip() == "False", f"import {module} pulled in networkx"


@pytest.mark.parametrize("module", ["model.duel.phases", "model.azul.phases"])
def test_frozen_edges_are_the_graph_edges(module: str) -> None:
    """The edge set the engine checks and the DiGraph that is drawn are the same machine."""
    phases = __import__(module, fromlist=["TRANSITIONS", "phase_graph", "check_transition", "PHASES"])
    assert phases.TRANSITIONS == frozenset(phases.phase_graph().edges())
    for source in phases.PHASES:
        for target in phases.PHASES:
            if (source, target) in phases.TRANSITIONS:
                phases.check_transition(source, target)
            else:
                with pytest.raises(PhaseError, match=f"no phase-graph edge {source} -> {target}"):
                    phases.check_transition(source, target)
