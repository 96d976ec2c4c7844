"""Issue 12: classic Azul's `apply` trusts the very list `legal_actions()` just offered (model.base's
TRUSTS_OFFER, as Duel): an action from it skips the legality predicate, any other action, an action
kept past an `apply`, and every action after `forget_offer()` or on another state object goes through
the predicate, refused with its clause and the state unchanged. No timing here."""

from __future__ import annotations

import random

import pytest

from model.azul import IllegalAction
from model.azul.actions import CENTRE_SOURCE, FLOOR, take
from model.azul.game import Game
from model.azul.start import start


def _counting_checks(monkeypatch: pytest.MonkeyPatch) -> list[object]:
    checked: list[object] = []
    original = Game._check

    def counting(self: Game, action: object) -> tuple[str, str] | None:
        checked.append(action)
        return original(self, action)          # type: ignore[arg-type]

    monkeypatch.setattr(Game, "_check", counting)
    return checked


def test_an_offered_action_skips_the_predicate(monkeypatch: pytest.MonkeyPatch) -> None:
    checked = _counting_checks(monkeypatch)
    g = start(seed=3, players=3)
    rng = random.Random(3)
    for _ in range(30):
        g.apply(rng.choice(g.legal_actions()))
    assert checked == []


def test_an_action_kept_past_its_apply_is_checked_and_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    checked = _counting_checks(monkeypatch)
    g = start(seed=4, players=2)
    first = g.legal_actions()[0]                          # a take from F1
    g.apply(first)
    before = g.state.copy()
    with pytest.raises(IllegalAction) as err:
        g.apply(first)                                    # F1 is empty now, and nothing was offered
    assert checked == [first]
    assert err.value.clause == "azul.offer.take-factory"
    assert g.state == before


def test_an_offer_is_dropped_by_forget_offer_after_an_edit(monkeypatch: pytest.MonkeyPatch) -> None:
    checked = _counting_checks(monkeypatch)
    g = start(seed=5, players=2)
    offered = g.legal_actions()
    a = next(x for x in offered if x.args[0] == 0 and x.args[2] == FLOOR)
    g.state.factories[0] = [0] * 5                        # edit the state in place after the offer...
    g.forget_offer()                                      # ...and say so
    before = g.state.copy()
    with pytest.raises(IllegalAction) as err:
        g.apply(a)
    assert checked == [a] and err.value.clause == "azul.offer.take-factory" and g.state == before


def test_an_offer_made_for_another_state_object_is_not_trusted(monkeypatch: pytest.MonkeyPatch) -> None:
    checked = _counting_checks(monkeypatch)
    g = start(seed=6, players=2)
    g.legal_actions()
    g.state = g.state.copy()                              # the same position, another object
    a = take(CENTRE_SOURCE, 0, FLOOR)                     # the centre is empty at a round's start
    with pytest.raises(IllegalAction) as err:
        g.apply(a)
    assert checked == [a] and err.value.clause == "azul.offer.take-centre"
