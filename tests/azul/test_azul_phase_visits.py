"""Classic Azul's phase changes go through its phase graph and are counted: the report's classic
phase diagram shows real visit counts (every edge said 0 when the engine set `state.phase` itself)."""

from __future__ import annotations

import pytest

from model.azul.phases import EDGES, change_phase
from model.azul.state import OFFER, OVER, TILING
from model.phases import PhaseError
from properties.simulate import run_campaign
from tests.azul.helpers import bare


def test_a_campaign_counts_the_engine_phase_edges() -> None:
    campaign = run_campaign(3, 0, {}, jobs=1, game="azul", players=2)
    visits = campaign.totals("edge_hits")
    finished = sum(g.failure is None and not g.stalled for g in campaign.games)
    assert finished, "no classic game finished"
    assert visits[(OFFER, TILING)] > 0, f"no offer -> tiling counted: {dict(visits)}"
    assert visits[(TILING, OFFER)] > 0, f"no tiling -> offer counted: {dict(visits)}"
    assert visits[(TILING, OVER)] == finished, f"{finished} games ended, tiling -> over counted {dict(visits)}"
    # every round begins with a tiling; each but the last goes back to the offer
    assert visits[(OFFER, TILING)] == visits[(TILING, OFFER)] + visits[(TILING, OVER)]
    assert set(visits) <= {(a, b) for a, b, _, _ in EDGES}


def test_a_phase_change_outside_the_graph_is_refused() -> None:
    g = bare()
    with pytest.raises(PhaseError, match="offer -> offer|over -> tiling"):
        g.state.phase = OVER
        change_phase(g.state, TILING)
