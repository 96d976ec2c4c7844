"""Guarding tests for classic Azul's setup (issue 12): the position `new_game` deals, the chance it uses,
the ruleset it is given, and the rules it records (the components and setup steps each fire once).
"""

from __future__ import annotations

import pytest

from model.azul import new_game
from model.azul.ruleset import Ruleset
from model.chance import ScriptedChance
from tests.azul.guard import record

SETUP_CLAUSES = ("azul.component.players", "azul.component.tiles", "azul.component.board",
                 "azul.component.factories", "azul.component.starting-marker", "azul.setup.wall-side",
                 "azul.setup.scores", "azul.setup.factory-count", "azul.component.bag", "azul.setup.bag",
                 "azul.setup.first-player", "azul.setup.fill-factories", "azul.offer.marker-to-centre")


@pytest.mark.clause(*SETUP_CLAUSES)
@pytest.mark.parametrize("players", [2, 3, 4])
def test_setup_records_each_component_and_step_once(players: int) -> None:
    with record() as fired:
        new_game(players, seed=1)
    assert {c: fired.clauses[c] for c in SETUP_CLAUSES} == {c: 1 for c in SETUP_CLAUSES}
    assert fired.alternatives[("azul.setup.starter-choice", "first-seat")] == 1


@pytest.mark.clause("azul.setup.fill-factories", "azul.setup.bag", "azul.setup.first-player",
                    "azul.component.players")
def test_setup_draws_with_the_chance_it_is_given() -> None:
    tiles = [0, 1, 2, 3] * 5
    g = new_game(2, seed=99, chance=ScriptedChance(tiles=tiles, strict=True))
    s = g.state
    assert s.factories == [[1, 1, 1, 1, 0]] * 5
    assert s.bag == [15, 15, 15, 15, 20]
    assert s.centre == [0] * 5 and s.starter == 0 and s.to_move == 0 and s.marker == -1
    g = new_game(3, interpretations={"azul.setup.starter-choice": "by-chance"},
                 chance=ScriptedChance(first=2, seed=4))
    assert g.state.starter == 2 and g.current_player == 2 and g.state.marker == -1


@pytest.mark.clause("azul.component.players", "azul.setup.wall-side")
def test_a_ruleset_is_taken_as_given_and_not_mixed_with_overrides() -> None:
    gray = Ruleset.build({"azul.lines.voluntary-split": "voluntary-split"}, wall="gray")
    g = new_game(3, seed=2, ruleset=gray)
    assert g.rules is gray and len(g.state.factories) == 7
    with pytest.raises(ValueError, match="either a ruleset or wall/interpretations"):
        new_game(2, ruleset=gray, wall="gray")
    with pytest.raises(ValueError, match="either a ruleset or wall/interpretations"):
        new_game(2, ruleset=gray, interpretations={"azul.score.single-axis": "count-both"})
    assert new_game(2, seed=2, wall="gray").rules.gray
