"""Phase 2: moving tiles to the Dome, scoring, Special tiles, Bonus chips, penalties."""

from __future__ import annotations

import pytest

from model.duel.colours import SPECIAL
from tests.helpers import B, K, R, T, Y, bare, play, put_plate, set_line, set_tiles, start_tiling


def _points(events, who=0, clause=None):
    return sum(e.points for e in events if e.player == who and (clause is None or e.clause == clause))


@pytest.mark.clause("duel.tiling.move-rightmost", "duel.tiling.joker-space", "duel.score.isolated",
                    "duel.tiling.discard-rest")
def test_complete_line_moves_one_tile_to_the_only_matching_space() -> None:
    g = bare()
    s = g.state
    s.starter = 0
    put_plate(g, 0, 0, 2)                      # row 1: wild, blue / row 2: turquoise, black
    set_line(g, 0, 2, K, 2)
    events = start_tiling(g)
    pl = s.players[0]
    assert pl.dome_tile[7] == K and pl.line_count[1] == 0
    assert s.tower[K] == 1, "the other black tile is discarded to the Tower"
    assert _points(events, clause="duel.tiling.move-rightmost") == 1


@pytest.mark.clause("duel.tiling.move-rightmost")
def test_player_chooses_among_several_matching_spaces() -> None:
    g = bare()
    g.state.starter = 0
    put_plate(g, 0, 0, 2)                      # row 1: wild (col 1), blue (col 2)
    set_line(g, 0, 1, B, 1)
    start_tiling(g)
    assert g.state.pending.kind == "tile"
    assert [str(a) for a in g.legal_actions()] == ["tile 1", "tile 2"]
    play(g, "tile 1")
    assert g.state.players[0].dome_tile[0] == B


@pytest.mark.clause("duel.score.horizontal", "duel.score.vertical")
def test_adjacency_counts_horizontal_then_vertical_runs() -> None:
    g = bare()
    g.state.starter = 0
    put_plate(g, 0, 0, 2)                      # row1: wild, blue; row2: turquoise, black
    put_plate(g, 0, 1, 3)                      # row1: turquoise, red; row2: blue, wild
    set_tiles(g, 0, {0: R, 2: T, 1 + 6: K})    # row 1 cols 1,3; row 2 col 2
    set_line(g, 0, 1, B, 1)                    # blue to row 1 col 2: joins 3 across, 2 down
    events = start_tiling(g)
    assert g.state.pending is None
    assert _points(events, clause="duel.tiling.move-rightmost") == 3 + 2


@pytest.mark.clause("duel.plate.special-space", "duel.score.special-no-adjacency", "duel.tiling.move-rightmost")
@pytest.mark.parametrize("reading,row_points", [("row-number", 3), ("band-double", 4)])
def test_special_tile_fills_the_plate_and_scores_its_row(reading: str, row_points: int) -> None:
    g = bare(**{"duel.special.row-points": reading})
    s = g.state
    s.starter = 0
    put_plate(g, 0, 3, 5)                      # row 3: black, SPECIAL; row 4: turquoise, red
    set_tiles(g, 0, {12: K, 18: T})
    set_line(g, 0, 4, R, 4)
    events = start_tiling(g)
    pl = s.players[0]
    assert pl.dome_tile[19] == R and pl.dome_tile[13] == SPECIAL and s.special_supply == 8
    assert _points(events, clause="duel.tiling.move-rightmost") == 2      # red + turquoise run
    assert _points(events, clause="duel.plate.special-space") == row_points


@pytest.mark.clause("duel.score.special-no-adjacency", "duel.score.vertical")
def test_later_tiles_count_special_tiles_in_their_runs() -> None:
    g = bare()
    g.state.starter = 0
    put_plate(g, 0, 0, 1)                      # row1: yellow, black; row2: turquoise, SPECIAL
    put_plate(g, 0, 3, 2)                      # row3: wild, blue
    set_tiles(g, 0, {0: Y, 1: K, 6: T, 7: SPECIAL})
    set_line(g, 0, 3, B, 3)                    # blue to row 3 col 2, under the Special tile
    start_tiling(g)
    events = play(g, "tile 2")
    assert _points(events, clause="duel.tiling.move-rightmost") == 3      # black, Special, blue


@pytest.mark.clause("duel.tiling.wait", "duel.tiling.incomplete-stay")
def test_lines_wait_without_a_matching_space() -> None:
    g = bare()
    g.state.starter = 0
    put_plate(g, 0, 0, 1)                      # row 1: yellow, black
    set_line(g, 0, 1, R, 1)                    # complete, no red space, band not full
    set_line(g, 0, 3, B, 2)                    # incomplete
    start_tiling(g)
    pl = g.state.players[0]
    assert (pl.line_colour[0], pl.line_count[0]) == (R, 1)
    assert (pl.line_colour[2], pl.line_count[2]) == (B, 2)


def _full_band_without_red_or_yellow(g) -> None:
    put_plate(g, 0, 0, 1)                      # row1: Y K      row2: T S
    put_plate(g, 0, 1, 5)                      # row1: K S      row2: T R
    put_plate(g, 0, 2, 7)                      # row1: S K      row2: R B
    set_tiles(g, 0, {0: Y})                    # the only yellow space of row 1 is taken


@pytest.mark.clause("duel.tiling.unplaceable")
def test_complete_unplaceable_line_is_broken() -> None:
    g = bare()
    g.state.starter = 0
    _full_band_without_red_or_yellow(g)
    set_line(g, 0, 1, R, 1)
    events = start_tiling(g)
    assert g.state.players[0].line_count[0] == 0
    assert _points(events, clause="duel.score.broken-penalty") == -1


@pytest.mark.clause("duel.tiling.unplaceable")
@pytest.mark.parametrize("reading,broken", [("any-line", True), ("complete-only", False)])
def test_incomplete_dead_line(reading: str, broken: bool) -> None:
    g = bare(**{"duel.tiling.unplaceable-scope": reading})
    g.state.starter = 0
    _full_band_without_red_or_yellow(g)
    set_line(g, 0, 2, Y, 1)                    # row 2 has no yellow space and its band is full
    start_tiling(g)
    assert (g.state.players[0].line_count[1] == 0) is broken


@pytest.mark.clause("duel.bonus.complete-line", "duel.bonus.two-colour")
def test_bonus_chips_complete_a_line() -> None:
    g = bare()
    s = g.state
    s.starter = 0
    put_plate(g, 0, 3, 3)                      # row 3: turquoise, red
    set_line(g, 0, 3, R, 2)
    pl = s.players[0]
    pl.chips = [4, 5, 6]                       # C04 blue/red, C05 red, C06 red/turquoise
    start_tiling(g)
    assert s.pending.kind == "bonus"
    options = [str(a) for a in g.legal_actions()]
    assert options == ["bonus C04+C05", "bonus C04+C05+C06", "bonus C04+C06", "bonus C05+C06", "no-bonus"]
    events = play(g, "bonus C04+C06")
    assert pl.used_chips == [4, 6] and pl.chips == [5]
    assert pl.dome_tile[13] == R and s.tower[R] == 1
    assert any(e.clause == "duel.bonus.complete-line" for e in events)


@pytest.mark.clause("duel.bonus.complete-line")
def test_bonus_chips_never_fill_an_empty_line_and_need_matching_pairs() -> None:
    g = bare()
    s = g.state
    s.starter = 0
    put_plate(g, 0, 3, 3)
    set_line(g, 0, 3, R, 1)                    # 2 missing: needs 4-6 chips
    s.players[0].chips = [1, 2, 3]             # blue, turquoise, turquoise/yellow: only one "any 3"
    start_tiling(g)
    assert s.pending is None, "three chips cannot replace two tiles"


@pytest.mark.clause("duel.score.broken-penalty", "duel.score.start-player-tile", "duel.score.floor")
@pytest.mark.parametrize("reading,totals", [("triangular", (1, 3, 6, 10)), ("last-slot-three", (1, 3, 6, 9))])
def test_broken_penalties_and_starting_player_tile(reading: str, totals: tuple[int, ...]) -> None:
    for n, total in enumerate(totals, 1):
        g = bare(**{"duel.broken.penalties": reading})
        pl = g.state.players[0]
        pl.score = 20
        pl.broken = [K] * n
        g.state.bag[K] -= n
        pl.start_tile = True
        g.state.large.start_tile = False
        events = start_tiling(g)
        assert _points(events, clause="duel.score.broken-penalty") == -total
        assert _points(events, clause="duel.score.start-player-tile") == -2
        assert not pl.broken and g.state.tower[K] >= n
    g = bare()
    pl = g.state.players[1]
    pl.score, pl.broken = 2, [K, K, K]
    g.state.bag[K] -= 3
    start_tiling(g)
    assert pl.score == 0, "a score never drops below 0"


@pytest.mark.clause("duel.tiling.simultaneous")
def test_the_order_in_which_players_tile_does_not_matter() -> None:
    finals = []
    for starter in (0, 1):
        g = bare(7)
        g.state.starter = starter
        for who in (0, 1):
            put_plate(g, who, 0, 2 + who)
            set_line(g, who, 1, B, 1)
            set_line(g, who, 2, T, 2)
            g.state.players[who].broken = [K]
            g.state.bag[K] -= 1
        start_tiling(g)
        while g.state.pending is not None:
            play(g, str(g.legal_actions()[0]))
        finals.append([(p.score, p.dome_tile, p.line_count) for p in g.state.players])
    assert finals[0] == finals[1]


@pytest.mark.clause("duel.lines.right-to-left")
def test_lines_are_shown_filling_from_the_right() -> None:
    from model.duel.render import render_text
    from tests.helpers import empty_table, in_acquisition, set_small
    g = in_acquisition(0)
    empty_table(g)
    g.state.to_move = 0
    set_small(g, 1, sun={R: 2, B: 2}, chip=1)
    play(g, "sun 1 red", "line 3")                        # two red tiles placed by the rules
    assert "  .RR |" in render_text(g)


@pytest.mark.clause("duel.bonus.complete-line")
def test_bonus_existence_check_agrees_with_the_enumeration() -> None:
    import random

    from model.duel.bonus import bonus_options, has_bonus_option
    g = bare()
    pl = g.state.players[0]
    rng = random.Random(3)
    for _ in range(300):
        pl.chips = sorted(rng.sample(range(1, 21), rng.randrange(0, 9)))
        colour, missing = rng.randrange(5), rng.randrange(1, 6)
        assert has_bonus_option(pl, colour, missing, g.rules.tables) == bool(
            bonus_options(pl, colour, missing, g.rules.tables)), (pl.chips, colour, missing)


@pytest.mark.clause("duel.score.horizontal", "duel.score.vertical", "duel.score.isolated")
def test_runs_reach_the_edges_of_the_dome() -> None:
    from model.duel.scoring import adjacency_points
    tiles = [-1] * 36
    for c in range(6):
        tiles[5 * 6 + c] = R                   # the bottom row, full
    for r in range(6):
        tiles[r * 6 + 5] = B                   # the right column, full
    assert adjacency_points(tiles, 35) == (6, 6)
    assert adjacency_points(tiles, 30) == (6, 1)
    assert adjacency_points(tiles, 5) == (1, 6)
    tiles[0] = Y
    assert adjacency_points(tiles, 0) == (1, 1)
