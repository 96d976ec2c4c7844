"""The greedy policy scores a choice's actions from what they share, worked out once per choice
(issue 13: checked play faster). These tests hold the shortcuts to the rule they stand for, on
positions of seeded greedy games: same values, so the same seed still plays the same games."""

from __future__ import annotations

import random
from collections.abc import Iterator

from model.duel import new_game
from model.duel.colours import EMPTY, WILD
from model.duel.dome import matching_cells
from model.duel.engine import Game
from model.duel.state import Player
from properties.duel.policy import (
    _best_placement,
    _Board,
    _decision_value,
    _fits,
    _open_kinds,
    _placement_value,
    _turn_value,
    greedy,
)

MAX_STEPS = 400


def _positions(seeds: range = range(3)) -> Iterator[Game]:
    """Every position of seeded greedy games (bounded: a Duel game is well under MAX_STEPS actions)."""
    for seed in seeds:
        game, rng = new_game(seed=seed), random.Random(seed)
        for _ in range(MAX_STEPS):
            if game.is_over:
                break
            yield game
            game.apply(greedy(game, game.legal_actions(), rng))


def _placement_by_the_rule(game: Game, pl: Player, plate: int, slot: int, rot: int) -> float:
    """A plate's value written out: each of its two rows adds 2 + the line's tiles once if a space
    fits the line's colour, and each placed neighbour plate adds a half."""
    spaces = game.rules.tables.plate(plate).rotations[rot]
    value = 0.0
    top = 2 * (slot // 3)
    for k, row in enumerate((top, top + 1)):
        colour = pl.line_colour[row]
        wanted = {colour} if colour != EMPTY else set()
        for space in spaces[2 * k:2 * k + 2]:
            if space in wanted or (space == WILD and wanted):
                value += 2.0 + pl.line_count[row]
                wanted = set()
    r, c = divmod(slot, 3)
    value += 0.5 * sum(1 for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1))
                       if 0 <= rr < 3 and 0 <= cc < 3 and pl.plates[rr * 3 + cc])
    return value


def test_open_rows_are_the_matching_cells() -> None:
    for game in _positions():
        for pl in game.state.players:
            rows = _open_kinds(pl)
            for line in range(6):
                for colour in range(5):
                    assert _fits(rows, line, colour) == bool(matching_cells(pl, line, colour))


def test_plate_values_follow_the_rule_written_out() -> None:
    seen = 0
    for game in _positions(range(2)):
        s = game.state
        plates = [p for p in s.display if p]
        for pl in s.players:
            for plate in plates:
                for slot in range(9):
                    for rot in range(4):
                        seen += 1
                        assert (_placement_value(game, pl, plate, slot, rot)
                                == _placement_by_the_rule(game, pl, plate, slot, rot))
                assert _best_placement(game, pl, plate) == max(
                    (_placement_by_the_rule(game, pl, plate, slot, rot) for slot in range(9) if not pl.plates[slot]
                     for rot in range(4)), default=0.0)
    assert seen > 1000


def test_a_shared_board_scores_each_action_as_a_fresh_one() -> None:
    for game in _positions():
        who = game.current_player
        value = _turn_value if game.state.pending is None else _decision_value
        pl = game.state.players[who]
        shared = _Board(game, pl, _open_kinds(pl))
        for action in game.legal_actions():
            assert value(game, who, action, shared) == value(game, who, action), (str(action), game.state.round)


def test_a_boards_best_line_is_the_best_line_written_out() -> None:
    """`_Board.best_line` reads each pattern line once per choice; it gives `_best_line`'s value (every
    line tried through `_line_value`, the Dome read by `matching_cells`) for every colour and count."""
    from properties.duel.policy import _best_line

    n = 0
    for game in _positions(range(2)):
        pl = game.state.players[game.current_player]
        board = _Board(game, pl)
        for colour in range(5):
            for count in range(1, 10):
                assert board.best_line(colour, count) == _best_line(pl, colour, count), (colour, count)
                n += 1
    assert n > 10_000


def test_a_boards_plate_values_are_the_rule_written_out() -> None:
    """`_Board.placement` works out a plate's spaces once per band of Dome rows and rotation and
    `moon_tops` the small moons' top tiles once per choice: the values are those of the rule."""
    seen = 0
    for game in _positions(range(2)):
        s = game.state
        for pl in s.players:
            board = _Board(game, pl)                    # one board for every plate, slot and rotation
            for plate in (p for p in s.display if p):
                for slot in range(9):
                    for rot in range(4):
                        seen += 1
                        assert board.placement(plate, slot, rot) == _placement_by_the_rule(game, pl, plate, slot, rot)
            for colour in range(5):
                assert board.moon_tops().count(colour) == sum(1 for f in s.small if f.moon and f.moon[-1] == colour)
    assert seen > 1000
