"""The one-colour large Factory when only the Tower holds another colour (blind Duel audit F3):
duel.refill.monochrome-unavoidable and its alternative restock-from-tower.

The audit's position: at Preparation the bag holds 5 red tiles and the Tower 2 yellow. The large
Factory draws the 5 reds; from the bag alone no redraw can succeed. Under restock-from-tower the
Tower's tiles go into the bag and the redraw goes on; under accept the reds stay, under leave-empty
they go back. The same position as scenarios: fixtures/duel/interpretations/monochrome-unavoidable-tower-yellow-*.toml.
"""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from model.duel import Game, ScriptedChance, new_game
from model.duel.ruleset import Ruleset
from model.duel.supply import fill_large
from model.errors import RulesetError
from model.events import Event
from tests.helpers import R, Y, empty_table, record, refill_problems

POINT = "duel.refill.monochrome-unavoidable"


def _large_refill(alt: str, *, bag: list[int], tower: list[int], tiles: Sequence[int] = (),
                  method: str = "redraw-all", seed: int = 0) -> tuple[Game, list[Event], dict[tuple[str, str], int]]:
    """Fill only the large Factory from `bag` and `tower` under `alt`; the draws follow `tiles`, then
    the seed. Returns the game, the events and the alternatives recorded as deciding."""
    game = new_game(seed=seed, overrides={POINT: alt, "duel.refill.monochrome": method})
    empty_table(game)
    s = game.state
    s.bag, s.tower = list(bag), list(tower)
    events: list[Event] = []
    with record() as rec:
        fill_large(s, game.rules, ScriptedChance(tiles=list(tiles), seed=seed), events)
    return game, events, dict(rec.alternatives)


AUDIT_BAG = [0, 0, 5, 0, 0]        # 5 red
AUDIT_TOWER = [0, 2, 0, 0, 0]      # 2 yellow


@pytest.mark.clause("duel.setup.large-factory.monochrome-redraw", "duel.prep.bag-restock")
def test_restock_from_tower_pours_the_tower_in_and_redraws() -> None:
    game, events, alts = _large_refill("restock-from-tower", bag=AUDIT_BAG, tower=AUDIT_TOWER,
                                       tiles=[R] * 5 + [R, R, R, R, Y])
    s = game.state
    assert s.large.sun == [0, 1, 4, 0, 0]
    assert s.tower == [0] * 5 and s.bag == [0, 1, 1, 0, 0]
    assert [e.kind for e in events] == ["redraw", "restock"]
    assert "2 tiles from the Tower" in events[1].detail and events[1].clause == "duel.prep.bag-restock"
    assert alts == {(POINT, "restock-from-tower"): 1, ("duel.refill.monochrome", "redraw-all"): 1}


@pytest.mark.clause("duel.setup.large-factory.monochrome-redraw", "duel.prep.bag-restock")
def test_restock_from_tower_keeps_redrawing_until_another_colour_shows() -> None:
    """The first redraw after the restock is 5 reds again: the bag now holds yellow, so it is
    redrawn once more (no second restock, no 'impossible')."""
    game, events, _ = _large_refill("restock-from-tower", bag=AUDIT_BAG, tower=AUDIT_TOWER,
                                    tiles=[R] * 10 + [Y, R, R, R, R])
    assert game.state.large.sun == [0, 1, 4, 0, 0]
    assert [e.kind for e in events] == ["redraw", "restock", "redraw"]


@pytest.mark.clause("duel.setup.large-factory.monochrome-redraw", "duel.prep.bag-restock")
@pytest.mark.parametrize("seed", range(4))
def test_restock_from_tower_with_replace_one_always_takes_the_towers_colour(seed: int) -> None:
    game, events, _ = _large_refill("restock-from-tower", bag=AUDIT_BAG, tower=AUDIT_TOWER,
                                    method="replace-one", seed=seed)
    s = game.state
    assert s.large.sun == [0, 1, 4, 0, 0] and s.bag == [0, 1, 1, 0, 0] and s.tower == [0] * 5
    assert [e.kind for e in events] == ["redraw", "restock"]


@pytest.mark.clause("duel.setup.large-factory.monochrome-redraw")
@pytest.mark.parametrize(("alt", "sun", "bag"), [("accept", [0, 0, 5, 0, 0], [0] * 5),
                                                 ("leave-empty", [0] * 5, [0, 0, 5, 0, 0])])
def test_the_other_readings_leave_the_tower_alone(alt: str, sun: list[int], bag: list[int]) -> None:
    game, events, alts = _large_refill(alt, bag=AUDIT_BAG, tower=AUDIT_TOWER)
    s = game.state
    assert s.large.sun == sun and s.bag == bag and s.tower == AUDIT_TOWER
    assert [e.kind for e in events] == ["redraw", "redraw-impossible"]
    assert alts[(POINT, alt)] == 1


@pytest.mark.clause("duel.setup.large-factory.monochrome-redraw")
@pytest.mark.parametrize("tower", [[0] * 5, [0, 0, 2, 0, 0]], ids=["empty-tower", "red-tower"])
def test_restock_from_tower_accepts_when_the_tower_holds_no_other_colour(tower: list[int]) -> None:
    """Nothing anywhere could break the colour: the reds stay (as under accept) and the Tower, even
    one holding more reds, is not poured in for nothing."""
    game, events, alts = _large_refill("restock-from-tower", bag=AUDIT_BAG, tower=tower)
    s = game.state
    assert s.large.sun == [0, 0, 5, 0, 0] and s.bag == [0] * 5 and s.tower == tower
    assert [e.kind for e in events] == ["redraw", "redraw-impossible"]
    assert "(restock-from-tower)" in events[1].detail
    assert alts[(POINT, "restock-from-tower")] == 1


@pytest.mark.clause("duel.setup.large-factory.monochrome-redraw")
def test_restock_from_tower_changes_nothing_when_the_bag_can_break_the_colour() -> None:
    """Yellow in the bag: the redraw is possible from the bag, the Tower stays where it is and the
    point is not reached."""
    game, events, alts = _large_refill("restock-from-tower", bag=[0, 1, 5, 0, 0], tower=[3, 0, 0, 0, 0],
                                       tiles=[R] * 5 + [R, R, R, R, Y])
    assert game.state.large.sun == [0, 1, 4, 0, 0] and game.state.tower == [3, 0, 0, 0, 0]
    assert [e.kind for e in events] == ["redraw"]
    assert not any(point == POINT for point, _ in alts)


# --- the refill invariant (duel.invariant.factory-structure) under restock-from-tower -------------

def _refilled(alt: str, *, large: list[int], bag: list[int], tower: list[int]) -> list[str]:
    return refill_problems(alt, large=large, bag=bag, tower=tower, small_sun=[0, 0, 4, 0, 0])


@pytest.mark.clause("duel.setup.large-factory.monochrome-redraw", "duel.invariant.factory-structure")
def test_invariant_refuses_one_colour_when_the_tower_held_another_under_restock() -> None:
    # The Tower still holds yellow, so it was never poured in: under restock-from-tower the redraw
    # could have succeeded; under accept the bag alone decides (it holds only red), so it is fine.
    problems = _refilled("restock-from-tower", large=[0, 0, 5, 0, 0], bag=[0] * 5, tower=[0, 2, 0, 0, 0])
    assert any("5 red" in p for p in problems), problems
    assert _refilled("accept", large=[0, 0, 5, 0, 0], bag=[0] * 5, tower=[0, 2, 0, 0, 0]) == []


@pytest.mark.clause("duel.setup.large-factory.monochrome-redraw", "duel.invariant.factory-structure")
def test_invariant_accepts_one_colour_under_restock_when_nothing_held_another() -> None:
    assert _refilled("restock-from-tower", large=[0, 0, 5, 0, 0], bag=[0] * 5, tower=[0, 0, 2, 0, 0]) == []
    assert _refilled("restock-from-tower", large=[0, 0, 5, 0, 0], bag=[0, 1, 0, 0, 0], tower=[0] * 5) == []


# --- the alternative is selectable wherever alternatives are --------------------------------------

def test_ruleset_accepts_the_alternative_and_suggests_it_for_a_typo() -> None:
    assert Ruleset.build({POINT: "restock-from-tower"}).choices[POINT] == "restock-from-tower"
    with pytest.raises(RulesetError, match="did you mean 'restock-from-tower'"):
        Ruleset.build({POINT: "restock-from-towr"})


def test_the_matrix_has_a_row_for_the_alternative() -> None:
    from properties.matrix import matrix_rows

    assert (f"{POINT}=restock-from-tower", {POINT: "restock-from-tower"}) in matrix_rows("duel")


@pytest.mark.clause("duel.setup.large-factory.monochrome-redraw", "duel.prep.bag-restock")
@pytest.mark.parametrize("colour", range(5))
def test_restock_from_tower_sees_every_colour_in_the_tower(colour: int) -> None:
    """Whichever single other colour the Tower holds (the last of the five too), it is poured in."""
    mono = 2 if colour != 2 else 0                       # red, or blue when the Tower holds red
    bag, tower = [0] * 5, [0] * 5
    bag[mono], tower[colour] = 5, 2
    _, events, _ = _large_refill("restock-from-tower", bag=bag, tower=tower,
                                 tiles=[mono] * 5 + [mono, mono, mono, mono, colour])
    assert [e.kind for e in events][:2] == ["redraw", "restock"]
