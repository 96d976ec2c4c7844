"""The engine as a straight line (issue 12) and its fast path (issue 13): the dispatch table covers
every kind of action, `apply` trusts only the list it just offered, and the rule loops stop at
bounds the rules give instead of spinning."""

from __future__ import annotations

import pytest

import model.duel.tiling as tiling
from model.duel import IllegalAction, Kind, new_game
from model.duel.acquisition import CHIPS_PER_ROUND_BOUND
from model.duel.engine import RULES
from model.duel.state import LINES
from model.errors import RuleLoopError
from tests.helpers import R, empty_table, in_acquisition, play, set_line, set_small, start_tiling


def test_every_kind_of_action_has_one_rule_function() -> None:
    assert set(RULES) == set(Kind)


def test_an_offered_action_is_trusted_once_then_checked_again() -> None:
    """The same action object applied twice: the second time the offer is gone, so the predicate
    runs and refuses it (a second plate from an emptied display space)."""
    g = new_game(seed=3)
    take = next(a for a in g.legal_actions() if a.kind is Kind.TAKE_PLATE)
    g.apply(take)
    g.apply(g.legal_actions()[0])                  # place it: the other player's opening pick is next
    g.legal_actions()
    g.state.display[take.args[0]] = 0              # edit the state in place after the offer...
    g.forget_offer()                               # ...and say so
    with pytest.raises(IllegalAction) as err:
        g.apply(take)
    assert err.value.clause == "duel.acquire.plate.display"


def test_an_offer_made_for_another_state_is_not_trusted() -> None:
    g = in_acquisition(seed=1)
    offered = g.legal_actions()
    sun = next(a for a in offered if a.kind is Kind.SUN)
    before = g.state.copy()
    g.state = before.copy()                          # a different state object
    f, c = sun.args
    (g.state.large.sun if f == 0 else g.state.small[f - 1].sun)[c] = 0
    with pytest.raises(IllegalAction) as err:
        g.apply(sun)
    assert err.value.clause == "duel.acquire.sun.take-colour"


def test_an_action_applied_after_its_turn_is_refused() -> None:
    """`apply` drops the offer at once: replaying the action just applied is checked in full."""
    g = in_acquisition(seed=2)
    sun = next(a for a in g.legal_actions() if a.kind is Kind.SUN)
    g.apply(sun)
    with pytest.raises(IllegalAction):
        g.apply(sun)                                 # a line decision is open now


@pytest.mark.clause("duel.tiling.top-to-bottom")
def test_dome_tiling_stops_at_its_bound_with_a_rule_loop_error(monkeypatch: pytest.MonkeyPatch) -> None:
    """Dome-tiling visits each pattern line once per player; a loop that takes more steps than that
    (here the bound is lowered below what one player's full lines need) names the clause."""
    # the bound: both players' lines, twice (duel.bonus.timing=after-pass passes again for the chips)
    assert tiling.TILING_STEPS == 2 * 2 * LINES
    g = in_acquisition(seed=0)
    empty_table(g)
    for who in (0, 1):
        for line in range(2, 7):                    # one tile each: every line stays, no decision
            set_line(g, who, line, R, 1)
    monkeypatch.setattr(tiling, "TILING_STEPS", 3)
    with pytest.raises(RuleLoopError) as err:
        start_tiling(g)
    assert err.value.clause == "duel.tiling.top-to-bottom" and err.value.bound == 3


@pytest.mark.clause("duel.acquire.chip.limit")
def test_a_chip_count_never_reset_is_stopped_naming_the_chip_limit() -> None:
    """No player can take more chips in a round than the small Factories hold: a count past that
    (a round that did not reset it) raises instead of letting the game run on."""
    g = in_acquisition(seed=0, **{"duel.chips.per-round": "no-cap"})
    empty_table(g)
    set_small(g, 1, chip=7, revealed=True)
    g.state.players[g.state.to_move].chips_this_round = CHIPS_PER_ROUND_BOUND
    with pytest.raises(RuleLoopError) as err:
        play(g, "chip 1")
    assert err.value.clause == "duel.acquire.chip.limit" and err.value.bound == 4
