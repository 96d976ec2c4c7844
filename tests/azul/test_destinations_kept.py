"""Classic generation keeps each board's destinations (model.azul.generation.destinations) and
re-decides a pattern line only when it or the wall changed. These tests change a board from outside
the engine after a listing, and play a copy apart from its original, and ask each time that the
listing is still what the legality predicate allows (a kept decision that went stale would list an
action the predicate refuses, or miss one it allows)."""

from __future__ import annotations

import random

from model.azul.colours import printed_column
from model.azul.game import Game
from model.azul.start import start
from tests.azul.helpers import BLUE, RED, bare, set_line, settle
from tests.azul.test_azul_play import agreement


def _agrees(g: Game) -> None:
    assert agreement(g, full=True) == []


def test_an_edit_from_outside_after_a_listing_is_seen() -> None:
    g = bare()
    s = g.state
    s.factories[0][BLUE] = 2
    s.centre[RED] = 1
    settle(g)
    before = g.legal_actions()
    assert "take F1 blue line 1" in map(str, before)
    b = s.boards[0]
    b.wall[printed_column(0, BLUE)] = BLUE          # row 1 now holds blue: line 1 refuses it
    set_line(b, 2, RED, 1)                          # line 2 now holds one red
    g.forget_offer()
    after = [str(a) for a in g.legal_actions()]
    assert "take F1 blue line 1" not in after and "take F1 blue line 2" not in after
    assert "take C red line 2" in after
    _agrees(g)


def test_a_copy_and_its_original_keep_their_own_destinations() -> None:
    for seed in range(6):
        g = start(seed=seed, players=2)
        rng = random.Random(seed)
        for _ in range(12):                         # into the first round, both boards listed
            g.apply(rng.choice(g.legal_actions()))
        twin = g.copy()
        for game in (twin, g, twin, g):             # each plays on, then the other lists
            if game.is_over:
                continue
            game.apply(rng.choice(game.legal_actions()))
            _agrees(game)
