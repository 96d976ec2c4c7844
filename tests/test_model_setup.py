"""Game Setup and the opening plate picks."""

from __future__ import annotations

import pytest

from model.duel import ScriptedChance, new_game
from tests.helpers import B, R, play


@pytest.mark.clause("duel.setup.supplies", "duel.setup.fill-factories", "duel.setup.bonus-chips",
                    "duel.setup.plate-pile", "duel.setup.scores", "duel.component.tiles",
                    "duel.component.factories", "duel.component.plates", "duel.component.bonus-chips")
def test_setup_lays_out_the_table() -> None:
    g = new_game(seed=1)
    s = g.state
    assert sum(s.large.sun) == 5 and all(sum(f.sun) == 4 for f in s.small)
    assert sum(s.bag) == 65 - 21
    assert all(f.chip and not f.chip_revealed for f in s.small) and len(s.chip_supply) == 16
    assert s.display.count(0) == 0 and len(s.pile) == 15
    assert s.special_supply == 9 and s.large.start_tile
    assert [p.score for p in s.players] == [5, 5]
    assert len(g.rules.tables.plates) == 18 and len(g.rules.tables.chips) == 20
    assert sum(p.is_special for p in g.rules.tables.plates) == 9


@pytest.mark.clause("duel.acquire.turn-order")
def test_turns_alternate_from_the_starting_player() -> None:
    g = new_game(seed=2, chance=ScriptedChance(first=1, seed=2))
    while g.state.phase == "setup":
        g.apply(g.legal_actions()[0])
    assert g.current_player == 1
    movers = []
    for _ in range(6):
        movers.append(g.current_player)
        plate_or_tiles = g.legal_actions()[-1]          # a sun/moon pick or a chip
        g.apply(plate_or_tiles)
        while g.state.pending is not None:
            g.apply(g.legal_actions()[0])
    assert movers == [1, 0, 1, 0, 1, 0]


@pytest.mark.clause("duel.setup.scores")
def test_starting_score_interpretation() -> None:
    g = new_game(seed=1, overrides={"duel.score.start": "zero"})
    assert [p.score for p in g.state.players] == [0, 0]


@pytest.mark.clause("duel.setup.opening-plates", "duel.setup.first-player")
def test_opening_picks_second_player_first_and_display_refilled() -> None:
    g = new_game(seed=2, chance=ScriptedChance(first=0, seed=2))
    s = g.state
    assert s.starter == 0 and g.current_player == 1
    first_pile_top = s.pile[0]
    picked = s.display[1]
    play(g, "plate 2", "place 5 r0")
    assert s.players[1].plates[4] == picked
    assert s.display[1] == first_pile_top, "display refilled from the pile after the pick"
    assert g.current_player == 0 and s.phase == "setup"
    play(g, "plate 1", "place 1 r3")
    assert s.phase == "acquisition" and g.current_player == 0
    assert [p.plate_count for p in s.players] == [1, 1]
    assert all(s.display)


@pytest.mark.clause("duel.setup.large-factory.monochrome-redraw")
def test_large_factory_five_of_a_colour_is_redrawn() -> None:
    chance = ScriptedChance(tiles=[R] * 5 + [R, R, R, R, B], seed=0)
    g = new_game(chance=chance)
    assert g.state.large.sun[R] == 4 and g.state.large.sun[B] == 1
    assert sum(g.state.bag) + 21 == 65


@pytest.mark.clause("duel.setup.large-factory.monochrome-redraw")
def test_large_factory_replace_one_reading() -> None:
    chance = ScriptedChance(tiles=[R] * 5 + [R, R, B], seed=0)
    g = new_game(chance=chance, overrides={"duel.refill.monochrome": "replace-one"})
    assert g.state.large.sun[R] == 4 and g.state.large.sun[B] == 1
