"""The wrong-pile and wrong-player mutants follow the game being mutated (harness/mutation/operators.py,
its registry entry's `mutation_piles` and `mutation_other_seat`): classic's bag <-> box lid and the
next of up to 4 seats; Duel's exactly as before (bag <-> Tower, `1 - who`)."""

from __future__ import annotations

import pytest
from cosmic_ray.mutating import mutate_code

from harness.mutation.mutants import _positions
from harness.mutation.operators import game_of_file, operator

CLASSIC = '''def refill(state, who):
    state.bag[0] += state.lid[0]
    board = state.boards[who]


def pay(board, who, events):
    events.append(who)
'''

DUEL = '''def discard(s, who):
    s.tower[0] += 1
    s.bag[1] -= 1
    score(s.boards[who])
'''


def _mutants(text: str, name: str, game: str) -> list[str]:
    count = sum(1 for op, _, _ in _positions(text, game) if op == name)
    return [mutate_code(text, operator(name, game), k) or "" for k in range(count)]


@pytest.mark.clause("azul.prep.bag-from-lid")
def test_classic_the_wrong_pile_swaps_the_bag_and_the_box_lid() -> None:
    mutants = _mutants(CLASSIC, "azul/OtherPile", "azul")
    assert len(mutants) == 2
    assert "state.lid[0] += state.lid[0]" in mutants[0] and "state.bag[0] += state.bag[0]" in mutants[1]
    assert not any("tower" in m for m in mutants)


@pytest.mark.clause("azul.offer.turn-order")
def test_classic_the_wrong_player_is_the_next_of_all_seats_where_the_state_is_at_hand() -> None:
    mutants = _mutants(CLASSIC, "azul/OtherPlayer", "azul")
    assert len(mutants) == 1                      # `pay` has no `state`: no mutant there
    assert "state.boards[((who + 1) % state.players)]" in mutants[0]
    assert not any("(1 - who)" in m for m in mutants)


@pytest.mark.clause("duel.acquire.turn-order")
def test_duel_mutants_are_the_two_player_ones() -> None:
    piles = _mutants(DUEL, "azul/OtherPile", "duel")
    assert ["s.bag[0] += 1" in piles[0], "s.tower[1] -= 1" in piles[1]] == [True, True] and len(piles) == 2
    players = _mutants(DUEL, "azul/OtherPlayer", "duel")
    assert len(players) == 1 and "s.boards[(1 - who)]" in players[0]


def test_the_game_of_a_mutated_file() -> None:
    assert game_of_file("model/azul/tiling.py") == "azul"
    assert game_of_file("model/duel/engine.py") == "duel"
    assert game_of_file("model/clauses.py") == "duel"           # a shared file: the default game
