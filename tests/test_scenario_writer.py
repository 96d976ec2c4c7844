"""Writing a position as a scenario and loading it back rebuilds the same state."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from harness.duel.scenarios.position import build_game
from harness.duel.scenarios.writer import ExportError, position_toml
from harness.scenarios import load_scenario
from model.duel import new_game


def _turn_states(seed: int, overrides=None, every: int = 9):
    g = new_game(seed=seed, overrides=overrides)
    rng = random.Random(seed)
    n = 0
    while not g.is_over:
        if g.state.phase == "acquisition" and g.state.pending is None and g.current_player >= 0:
            n += 1
            if n % every == 0:
                yield g
        g.apply(rng.choice(g.legal_actions()))


@pytest.mark.parametrize("seed", range(3))
def test_exported_positions_load_back_identically(seed: int, tmp_path: Path) -> None:
    overrides = {"duel.score.start": "zero"} if seed == 2 else None
    for k, g in enumerate(_turn_states(seed, overrides)):
        path = tmp_path / f"p{k}.toml"
        path.write_text(position_toml(g, scenario_id=f"t.export.{k}", description="x",
                                      clauses=["duel.round.structure"]))
        back, _ = build_game(load_scenario(path))
        a, b = back.state, g.state
        assert (a.round, a.phase, a.to_move, a.starter) == (b.round, b.phase, b.to_move, b.starter)
        assert (a.bag, a.tower, a.display, a.pile, a.chip_supply, a.special_supply) == \
            (b.bag, b.tower, b.display, b.pile, b.chip_supply, b.special_supply)
        assert (a.large, a.small, a.players) == (b.large, b.small, b.players)
        assert back.legal_actions() == g.legal_actions() and back.rules == g.rules


def test_positions_inside_a_decision_are_refused() -> None:
    g = new_game(seed=1)
    with pytest.raises(ExportError, match="between turns"):
        position_toml(g, scenario_id="t.x", description="x", clauses=["duel.round.structure"])
