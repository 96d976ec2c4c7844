"""The guide's components, setup and turn rules that had no test of their own (classic Azul)."""

from __future__ import annotations

import pytest

from model.azul import RulesetError, new_game
from model.azul.colours import COLOURS, EMPTY, ROWS, printed_colour, printed_column
from model.azul.state import FLOOR_SPACES, NOBODY, OFFER, TILING
from model.azul.walls import complete_rows
from properties.azul.invariants import tiles_by_colour
from tests.azul.helpers import BLUE, RED, YELLOW, bare, end_offer, play, set_line, settle


@pytest.mark.clause("azul.component.tiles", "azul.component.bag", "azul.component.factories",
                    "azul.component.starting-marker", "azul.setup.scores")
@pytest.mark.parametrize("players", (2, 3, 4))
def test_setup_components(players: int) -> None:
    g = new_game(players, seed=players)
    s = g.state
    assert tiles_by_colour(g) == [20] * 5                                  # 100 tiles, 20 of each colour
    assert sum(s.bag) + sum(map(sum, s.factories)) == 100                  # all in the bag or on displays
    assert len(s.factories) <= 9 and all(sum(f) == 4 for f in s.factories)
    assert s.marker == -1 and not any(5 in b.floor for b in s.boards)     # one marker, in the centre
    assert [b.score for b in s.boards] == [0] * players


@pytest.mark.clause("azul.component.players")
@pytest.mark.parametrize("players", (1, 5))
def test_two_to_four_players(players: int) -> None:
    with pytest.raises(RulesetError, match=r"2 to 4 players.*\[azul.component.players\]"):
        new_game(players)


@pytest.mark.clause("azul.component.board")
def test_board_lines_wall_floor() -> None:
    b = bare().state.boards[0]
    assert len(b.line_count) == ROWS and len(b.wall) == ROWS * ROWS and b.wall == [EMPTY] * 25
    assert FLOOR_SPACES == 7 and b.floor == []
    g = bare()
    g.state.factories[0][RED] = 4
    g.state.factories[1][BLUE] = 1                                         # the offer goes on
    settle(g)
    play(g, "take F1 red line 2")                                          # line 2 holds 2: 2 overflow
    b = g.state.boards[0]
    assert b.line_count[1] == 2 and b.floor == [RED, RED]


@pytest.mark.clause("azul.component.wall-pattern")
def test_printed_wall_holds_each_colour_once_per_row_and_column() -> None:
    assert [COLOURS[printed_colour(0, c)] for c in range(5)] == ["blue", "yellow", "red", "black", "turquoise"]
    for k in range(ROWS):
        assert sorted(printed_colour(k, c) for c in range(ROWS)) == list(range(5))
        assert sorted(printed_colour(r, k) for r in range(ROWS)) == list(range(5))
    assert printed_colour(1, 0) == printed_colour(0, 4)                    # each row shifts one right


@pytest.mark.clause("azul.setup.wall-side")
def test_every_player_uses_the_chosen_side() -> None:
    for wall in ("coloured", "gray"):
        assert new_game(3, wall=wall).rules.gray is (wall == "gray")
    with pytest.raises(RulesetError, match=r"unknown wall side 'grey'.*\[azul.setup.wall-side\]"):
        new_game(2, wall="grey")


@pytest.mark.clause("azul.offer.turn-order")
def test_turns_go_clockwise_and_wrap() -> None:
    g = bare(players=3, first=1)
    s = g.state
    for f in range(5):
        s.factories[f][BLUE + f % 2] = 1
    settle(g)
    seen = []
    for source in ("F1 blue", "F2 yellow", "F3 blue", "F4 yellow"):
        seen.append(g.current_player)
        play(g, f"take {source} floor")
    assert seen == [1, 2, 0, 1]


@pytest.mark.clause("azul.offer.end", "azul.wall.complete-only", "azul.score.immediate")
def test_offer_ends_only_when_displays_and_centre_are_empty() -> None:
    g = bare()
    s = g.state
    b = s.boards[0]
    s.factories[0][RED] = 1
    s.factories[0][BLUE] = 1
    settle(g)
    play(g, "take F1 red line 1")                       # complete, but the centre holds the blue
    assert s.phase == OFFER and b.wall == [EMPTY] * 25 and b.score == 0 and s.centre[BLUE] == 1
    events = play(g, "take C blue line 2")              # the last tile: tiling, scored at once
    assert b.wall[printed_column(0, RED)] == RED and b.score == 1
    assert any(e.kind == "score" and e.clause == "azul.score.immediate" for e in events)
    assert s.boards[1].line_count[1] == 1 and s.boards[1].wall == [EMPTY] * 25   # incomplete: no move
    assert s.round == 2 and s.phase == OFFER


@pytest.mark.clause("azul.wall.simultaneous")
def test_tiling_one_board_does_not_depend_on_the_others() -> None:
    """Tiling goes seat by seat, but each player's result is what tiling their board alone gives."""
    def tiled(both: bool) -> tuple[list[int], int]:
        g = bare(wall="gray")
        s = g.state
        set_line(s.boards[0], 1, YELLOW, 1)
        if both:
            set_line(s.boards[1], 1, YELLOW, 1)
            set_line(s.boards[1], 2, RED, 2)
        settle(g)
        end_offer(g, line=4)
        while s.phase == TILING:                        # each choice: the leftmost allowed space
            row = s.tiling[1]
            col = next(a for a in g.legal_actions()).args[1]
            play(g, f"wall r{row + 1} c{col + 1}")
        return s.boards[0].wall[:], s.boards[0].score
    assert tiled(True) == tiled(False)


@pytest.mark.clause("azul.prep.continue")
def test_no_row_completed_no_end() -> None:
    g = bare()
    end_offer(g)
    assert not g.is_over and g.current_player != NOBODY and not complete_rows(g.state.boards[0].wall)
