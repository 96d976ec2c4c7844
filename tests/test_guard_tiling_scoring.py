"""Guarding tests for Setup, Dome-tiling, Bonus chips, Special spaces and scoring (issue 10).

Each test pins down a behaviour that a surviving planted rule bug got wrong: hand-built positions,
assertions on positions, refusals, events and scores. Where a rule site only records that the rule
fired (a `cite` with nothing else in its branch), the test asserts on the clause record itself
(`record`): which rules fired, and which interpretation alternative decided, are what the coverage
report and `azul-rules explain` show, so a citation in the wrong place is a wrong report.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from model.duel import IllegalAction, ScriptedChance, new_game, parse_action
from model.duel.colours import NUM_COLOURS
from model.duel.state import GameState
from model.duel.supply import monochrome_redraw_bound
from model.errors import RuleLoopError
from tests.helpers import B, K, R, T, Y, bare, empty_table, play, put_plate, record, set_line, start_tiling

TILES_PER_COLOUR = 13


def give_chips(game, who: int, *chips: int) -> None:
    """Face-up Bonus chips for a player, taken from the face-down supply (Factories emptied first)."""
    empty_table(game)
    for chip in chips:
        game.state.chip_supply.remove(chip)
    game.state.players[who].chips = sorted(chips)


def _tiled(setup: Callable[[object], None], **overrides: str):
    """A bare round-1 position (P1 starts), `setup` applied, then Dome-tiling run under `record`."""
    g = bare(**overrides)
    g.state.starter = 0
    setup(g)
    with record() as fired:
        events = start_tiling(g)
    return g, events, fired


# --- Setup -----------------------------------------------------------------------------------------

@pytest.mark.clause("duel.setup.first-player", "duel.setup.opening-plates")
def test_chance_chooses_the_starter_and_the_other_player_picks_the_first_opening_plate() -> None:
    g = new_game(chance=ScriptedChance(first=1, seed=3))
    s = g.state
    assert s.starter == 1, "the first player is drawn by chance (here P2)"
    assert s.pending.kind == "opening" and g.current_player == 0, "P1, the second player, picks first"
    play(g, "plate 1", "place 1 r0")
    assert s.pending.kind == "opening" and g.current_player == 1, "then the starter picks"
    play(g, "plate 1", "place 1 r0")
    assert s.phase == "acquisition" and g.current_player == 1, "the starter opens round 1"


@pytest.mark.clause("duel.setup.plate-pile")
def test_display_shows_the_top_three_plates_of_the_shuffled_pile() -> None:
    order = [7, 3, 12, 1, 18, 5, 9, 2, 16, 4, 11, 6, 14, 8, 17, 10, 13, 15]
    s = new_game(chance=ScriptedChance(plates=order, seed=0)).state
    assert s.display == order[:3]
    assert s.pile == order[3:], "the rest stays face down in shuffled order, top first"


@pytest.mark.clause("duel.setup.large-factory.monochrome-redraw")
def test_redraw_all_stops_at_its_bound_with_a_rule_loop_error() -> None:
    """A chance source that yields five reds every time: exactly `bound` redraws are made, then the
    model names the rule instead of drawing again (the strict script has no sixth handful)."""
    after_fill = GameState()
    after_fill.bag = [TILES_PER_COLOUR] * NUM_COLOURS
    after_fill.bag[R] -= 5
    bound = monochrome_redraw_bound(after_fill, "redraw-all")
    chance = ScriptedChance(tiles=[R] * 5 * (bound + 1), plates=list(range(1, 19)), first=0, strict=True)
    with pytest.raises(RuleLoopError) as err:
        new_game(chance=chance)
    assert err.value.clause == "duel.setup.large-factory.monochrome-redraw" and err.value.bound == bound
    assert chance.tiles == [], "every scripted handful was drawn, and no more"


@pytest.mark.clause("duel.setup.large-factory.monochrome-redraw")
def test_replace_one_swaps_one_tile_through_the_bag() -> None:
    chance = ScriptedChance(tiles=[R] * 5 + [R, R, B], seed=0)
    s = new_game(chance=chance, overrides={"duel.refill.monochrome": "replace-one"}).state
    assert s.large.sun[R] == 4 and s.large.sun[B] == 1
    assert s.tower == [0] * NUM_COLOURS, "nothing goes to the Tower at setup"
    for c in range(NUM_COLOURS):
        on_table = s.large.sun[c] + sum(f.sun[c] for f in s.small)
        assert s.bag[c] + on_table == TILES_PER_COLOUR, f"colour {c}: one red back in the bag, one blue out"


# --- Dome-tiling -----------------------------------------------------------------------------------

@pytest.mark.clause("duel.tiling.move-rightmost")
def test_a_space_of_another_column_is_refused_naming_column_and_row() -> None:
    g = bare()
    g.state.starter = 0
    put_plate(g, 0, 0, 2)                      # row 1: wild, blue / row 2: turquoise, black
    set_line(g, 0, 1, B, 1)
    start_tiling(g)
    before = g.state.copy()
    with pytest.raises(IllegalAction) as err:
        g.apply(parse_action("tile 3"))
    assert err.value.clause == "duel.tiling.move-rightmost"
    assert err.value.reason == "column 3 of row 1 cannot take the tile"
    assert g.state == before


@pytest.mark.clause("duel.tiling.joker-space", "duel.tiling.move-rightmost")
@pytest.mark.parametrize("line,colour,cell,wild", [(1, Y, 0, True), (2, K, 7, False)])
def test_joker_space_fires_only_when_the_tile_lands_on_a_wild_space(line: int, colour: int, cell: int,
                                                                    wild: bool) -> None:
    def setup(g) -> None:
        put_plate(g, 0, 0, 2)                  # row 1: wild, blue / row 2: turquoise, black
        set_line(g, 0, line, colour, line)

    g, _, fired = _tiled(setup)
    assert g.state.players[0].dome_tile[cell] == colour
    assert fired.clauses["duel.tiling.joker-space"] == (1 if wild else 0)


@pytest.mark.clause("duel.tiling.discard-rest", "duel.tiling.move-rightmost")
@pytest.mark.parametrize("line,colour,discarded", [(1, T, 0), (2, K, 1)])
def test_only_the_tiles_beyond_the_first_are_discarded(line: int, colour: int, discarded: int) -> None:
    def setup(g) -> None:
        put_plate(g, 0, 0, 3 if line == 1 else 2)   # plate 3 row 1: turquoise, red; plate 2 row 2: T, K
        set_line(g, 0, line, colour, line)

    g, _, fired = _tiled(setup)
    assert g.state.tower[colour] == discarded
    assert fired.clauses["duel.tiling.discard-rest"] == (1 if discarded else 0)


@pytest.mark.clause("duel.tiling.top-to-bottom", "duel.tiling.simultaneous")
def test_lines_are_tiled_top_to_bottom_starter_first_even_across_a_decision() -> None:
    def setup(g) -> None:
        put_plate(g, 0, 0, 2)                  # P1 row 1: wild, blue / row 2: turquoise, black
        set_line(g, 0, 1, B, 1)                # two matching spaces: P1 must choose
        set_line(g, 0, 2, K, 2)
        put_plate(g, 1, 0, 3)                  # P2 row 1: turquoise, red
        set_line(g, 1, 1, T, 1)

    with record() as fired:
        g, events, _ = _tiled(setup)
        assert g.state.pending.kind == "tile" and g.state.pending.player == 0
        events += play(g, "tile 2")
    moves = [(e.player, e.detail) for e in events if e.clause == "duel.tiling.move-rightmost"]
    assert moves == [(0, "blue to row 1 column 2"), (0, "black to row 2 column 2"),
                     (1, "turquoise to row 1 column 1")]
    assert fired.clauses["duel.tiling.top-to-bottom"] == 2, "the order rule starts once per player"


@pytest.mark.clause("duel.tiling.simultaneous")
def test_the_second_round_dome_tiling_starts_again_from_the_top() -> None:
    g = bare()
    g.state.starter = 0
    start_tiling(g)                             # round 1: nothing to tile
    assert g.state.round == 2 and g.state.phase == "acquisition"
    put_plate(g, 0, 0, 2)
    set_line(g, 0, 2, K, 2)
    score = g.state.players[0].score
    events = start_tiling(g)
    pl = g.state.players[0]
    assert pl.dome_tile[7] == K and pl.line_count[1] == 0
    assert pl.score == score + 1 and any(e.clause == "duel.tiling.move-rightmost" for e in events)


# --- Bonus chips -----------------------------------------------------------------------------------

def _bonus_position(g, chips: tuple[int, ...], line: int, colour: int, count: int) -> None:
    put_plate(g, 0, 3, 3)                      # row 3: turquoise, red / row 4: blue, wild
    set_line(g, 0, line, colour, count)
    give_chips(g, 0, *chips)


@pytest.mark.clause("duel.bonus.two-colour", "duel.bonus.complete-line")
@pytest.mark.parametrize("chips,two_colour", [((5, 10), False), ((4, 6), True)])
def test_two_colour_rule_fires_only_when_a_two_colour_chip_is_spent(chips: tuple[int, ...],
                                                                    two_colour: bool) -> None:
    g, _, _ = _tiled(lambda g: _bonus_position(g, chips, 3, R, 2))
    assert g.state.pending.kind == "bonus"
    with record() as fired:
        play(g, "bonus " + "+".join(f"C{c:02d}" for c in chips))
    pl = g.state.players[0]
    assert pl.dome_tile[13] == R and pl.used_chips == sorted(chips)
    assert fired.clauses["duel.bonus.two-colour"] == (1 if two_colour else 0)


@pytest.mark.clause("duel.bonus.complete-line")
def test_bonus_event_names_the_pairs_and_the_any_three_groups() -> None:
    g, _, _ = _tiled(lambda g: _bonus_position(g, (1, 4, 5, 10, 12), 4, B, 2))
    events = play(g, "bonus C01+C04+C05+C10+C12")
    details = [e.detail for e in events if e.kind == "bonus"]
    assert details == ["line 4 completed with C01+C04+C05+C10+C12 (1 matching pair(s), 1 any-3)"]
    assert g.state.pending.kind == "tile", "the completed line moves: blue space or wild space"
    play(g, "tile 1")
    assert g.state.players[0].dome_tile[18] == B and g.state.players[0].line_count[3] == 0


# --- Scoring ---------------------------------------------------------------------------------------

@pytest.mark.clause("duel.score.floor", "duel.score.broken-penalty")
@pytest.mark.parametrize("score,broken,after,floored", [(10, 1, 9, False), (1, 1, 0, False), (1, 2, 0, True)])
def test_score_floor_applies_only_when_the_loss_exceeds_the_score(score: int, broken: int, after: int,
                                                                  floored: bool) -> None:
    def setup(g) -> None:
        pl = g.state.players[0]
        pl.score, pl.broken = score, [K] * broken
        g.state.bag[K] -= broken

    g, events, fired = _tiled(setup)
    assert g.state.players[0].score == after
    assert any("floor" in e.detail for e in events if e.player == 0) is floored
    assert fired.clauses["duel.score.floor"] == (1 if floored else 0)


@pytest.mark.clause("duel.score.floor")
@pytest.mark.parametrize("score,paid", [(0, 0), (3, 1)])
def test_drawing_a_plate_at_zero_is_free_and_only_then_the_floor_applies(score: int, paid: int) -> None:
    g = bare()
    who = g.current_player
    g.state.players[who].score = score
    with record() as fired:
        play(g, "draw")
    assert g.state.players[who].score == score - paid
    assert fired.clauses["duel.score.floor"] == (0 if paid else 1)
    assert fired.alternatives[("duel.plate.draw-at-zero", "free-at-zero")] == (0 if paid else 1)


@pytest.mark.clause("duel.score.broken-penalty")
@pytest.mark.parametrize("reading", ["triangular", "last-slot-three"])
@pytest.mark.parametrize("n", [1, 2, 3, 4])
def test_broken_penalty_reading_decides_only_for_one_and_four_tiles(reading: str, n: int) -> None:
    """Only the totals for 1 and 4 Broken tiles are open (duel.broken.penalties): the record says the
    reading decided exactly there."""
    def setup(g) -> None:
        pl = g.state.players[0]
        pl.score, pl.broken = 20, [K] * n
        g.state.bag[K] -= n

    g, _, fired = _tiled(setup, **{"duel.broken.penalties": reading})
    totals = {"triangular": (1, 3, 6, 10), "last-slot-three": (1, 3, 6, 9)}[reading]
    assert g.state.players[0].score == 20 - totals[n - 1]
    assert fired.alternatives[("duel.broken.penalties", reading)] == (1 if n in (1, 4) else 0)


@pytest.mark.clause("duel.bonus.complete-line")
def test_a_position_after_chips_spent_on_two_lines_exports_and_loads_back_identically(tmp_path) -> None:
    """Chips spent on line 3 (C10+C15) and then line 4 (C01+C04) lie face down as one set; the position
    written between turns of round 2 rebuilds the same state."""
    from harness.duel.scenarios.position import build_game
    from harness.duel.scenarios.writer import position_toml
    from harness.scenarios import load_scenario

    g, _, _ = _tiled(lambda g: (_bonus_position(g, (1, 4, 10, 15), 3, R, 2), set_line(g, 0, 4, B, 3)))
    play(g, "bonus C10+C15", "bonus C01+C04", "tile 1")
    assert g.state.phase == "acquisition" and g.state.round == 2
    assert sorted(g.state.players[0].used_chips) == [1, 4, 10, 15] and not g.state.players[0].chips
    path = tmp_path / "after-bonus.toml"
    path.write_text(position_toml(g, scenario_id="t.after-bonus", description="x",
                                  clauses=["duel.bonus.complete-line"]))
    back, _ = build_game(load_scenario(path))
    assert back.state.players == g.state.players
