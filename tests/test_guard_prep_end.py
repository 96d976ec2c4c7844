"""Guard tests for Preparation, the end of the game and the Scoring tablets.

Each test pins down a position where a plausible slip in the rule (a bound off by one, the wrong
player, a branch reversed: the survivors of `azul-rules mutate` for these clauses) would give a
different score, starter, event or supply count than the rules do. Positions are hand-built and
cheap: tablet sides are scored on a bare Dome, the end of the game is reached from an emptied
round 5, Preparation from an emptied round 1.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import pytest

from model.clauses import RECORDER, recording
from model.duel import Game, new_game
from model.duel.colours import EMPTY, SPECIAL, WILD
from model.duel.ruleset import Ruleset
from model.duel.scoring import tablet_points
from model.duel.serialize import state_from_data, state_to_data
from model.duel.state import SLOT_CELLS
from properties.duel.invariants import violations
from tests.helpers import B, K, R, T, Y, bare, empty_table, put_plate, set_line, set_tiles, start_tiling

DEFAULT = Ruleset.build()


def _decisions(point: str, run: Callable[[], object]) -> int:
    """How many outcomes the interpretation point `point` is recorded as deciding while `run` runs
    (the count the report and the interpretation matrix show as the point's decisions)."""
    with recording(reset=False):
        before = sum(n for (p, _), n in RECORDER.alternatives.items() if p == point)
        run()
        return sum(n for (p, _), n in RECORDER.alternatives.items() if p == point) - before


def _dome(cells: dict[int, int] | Sequence[int]) -> tuple[list[int], list[int]]:
    """A Dome of multicoloured spaces (any colour fits) with the given cells tiled (blue for a bare
    list); a Special tile lies on a Special space."""
    spaces = [WILD] * 36
    tiles = [EMPTY] * 36
    items = cells.items() if isinstance(cells, dict) else ((c, B) for c in cells)
    for cell, colour in items:
        tiles[cell] = colour
        if colour == SPECIAL:
            spaces[cell] = SPECIAL
    return spaces, tiles


def _score(side: str, cells: dict[int, int] | Sequence[int], rules: Ruleset = DEFAULT) -> int:
    spaces, tiles = _dome(cells)
    return tablet_points(side, rules, spaces, tiles)


# --- duel.tablet.rows-complete -------------------------------------------------------------------

@pytest.mark.clause("duel.tablet.rows-complete")
def test_rows_complete_counts_each_row_by_its_own_six_spaces() -> None:
    row = lambda r: range(r * 6, r * 6 + 6)  # noqa: E731
    # Dome rows 2 and 6 full; row 1 misses only its last space (cell 5) and row 3 is empty (its
    # first space, cell 12, touches the end of row 2): two complete rows.
    cells = [*row(1), *row(5), 0, 1, 2, 3, 4]
    assert _score("rows-complete", cells) == 6
    assert _score("rows-complete", [*row(5)]) == 3                    # the bottom row alone
    assert _score("rows-complete", [0, 1, 2, 3, 4, 6]) == 0           # 5 of row 1 + row 2's first


# --- duel.tablet.columns-complete ----------------------------------------------------------------

@pytest.mark.clause("duel.tablet.columns-complete")
def test_columns_complete_counts_each_column_down_to_row_six() -> None:
    last_column = list(range(5, 36, 6))
    assert _score("columns-complete", last_column) == 7
    assert _score("columns-complete", last_column[:-1]) == 0          # row 6 of column 6 empty
    assert _score("columns-complete", list(range(1, 36, 6))) == 7      # column 2 alone


# --- duel.tablet.colourful-rows ------------------------------------------------------------------

def _row(r: int, colours: Sequence[int | None]) -> dict[int, int]:
    return {r * 6 + c: colour for c, colour in enumerate(colours) if colour is not None}


@pytest.mark.clause("duel.tablet.colourful-rows")
def test_colourful_rows_reads_each_row_from_its_own_spaces() -> None:
    # Dome row 2 has five colours only with its first tile (turquoise); row 1 is empty.
    assert _score("colourful-rows", _row(1, [T, B, Y, R, K, B])) == 4
    assert _score("colourful-rows", _row(5, [B, Y, R, K, T, B])) == 4   # the bottom row counts too
    assert _score("colourful-rows", {**_row(1, [T, B, Y, R, K, B]), **_row(5, [B, Y, R, K, T, B])}) == 8


@pytest.mark.clause("duel.tablet.colourful-rows")
def test_full_row_reading_skips_only_the_gappy_row() -> None:
    full_only = Ruleset.build({"duel.tablet.colourful-rows.full": "full-row"})
    cells = {**_row(0, [B, Y, R, K, T, None]), **_row(1, [T, B, Y, R, K, B])}
    assert _score("colourful-rows", cells, full_only) == 4            # row 1 skipped, row 2 still counts
    assert _score("colourful-rows", cells) == 8                        # gaps allowed: both rows


@pytest.mark.clause("duel.tablet.colourful-rows")
def test_special_tile_reading_decides_nothing_in_a_row_without_a_special_tile() -> None:
    cells = _row(0, [B, Y, R, K, T, B])
    assert _decisions("duel.tablet.colourful-rows.special", lambda: _score("colourful-rows", cells)) == 0
    counts = Ruleset.build({"duel.tablet.colourful-rows.special": "counts-as-colour"})
    five_colours_and_special = _row(0, [B, Y, R, K, T, SPECIAL])          # 4 points under both readings
    assert _decisions("duel.tablet.colourful-rows.special",
                      lambda: _score("colourful-rows", five_colours_and_special, counts)) == 0
    four_colours_and_special = _row(0, [B, Y, R, K, SPECIAL, B])          # 4 points or 0: the reading decides
    assert _score("colourful-rows", four_colours_and_special, counts) == 4
    assert _score("colourful-rows", four_colours_and_special) == 0
    for rules in (counts, DEFAULT):
        assert _decisions("duel.tablet.colourful-rows.special",
                          lambda rules=rules: _score("colourful-rows", four_colours_and_special, rules)) == 1


# --- duel.tablet.corner-plates -------------------------------------------------------------------

UPPER_8 = Ruleset.build({"duel.tablet.corner-values": "upper-8-lower-3"})


@pytest.mark.clause("duel.tablet.corner-plates")
@pytest.mark.parametrize("rules,upper,lower", [(DEFAULT, 3, 8), (UPPER_8, 8, 3)],
                         ids=["upper-3-lower-8", "upper-8-lower-3"])
def test_each_filled_corner_plate_scores_its_value(rules: Ruleset, upper: int, lower: int) -> None:
    def corners(*slots: int) -> int:
        return _score("corner-plates", [c for s in slots for c in SLOT_CELLS[s]], rules)

    assert corners(6) == lower and corners(8) == lower                # lower left, lower right
    assert corners(0) == upper and corners(2) == upper
    assert corners(0, 2, 6, 8) == 2 * upper + 2 * lower
    assert corners(1, 3, 4, 5, 7) == 0                                 # the other plates never count
    partial = [c for c in SLOT_CELLS[6] if c != SLOT_CELLS[6][3]]
    assert _score("corner-plates", partial, rules) == 0               # 3 of 4 spaces are not enough


@pytest.mark.clause("duel.tablet.corner-plates")
def test_corner_values_decide_only_when_a_corner_plate_scores() -> None:
    assert _decisions("duel.tablet.corner-values", lambda: _score("corner-plates", SLOT_CELLS[4])) == 0
    assert _decisions("duel.tablet.corner-values", lambda: _score("corner-plates", SLOT_CELLS[8])) == 1
    one_upper_one_lower = SLOT_CELLS[0] + SLOT_CELLS[8]                 # 3 + 8 = 8 + 3: nothing decided
    assert _score("corner-plates", one_upper_one_lower) == _score("corner-plates", one_upper_one_lower, UPPER_8) == 11
    assert _decisions("duel.tablet.corner-values", lambda: _score("corner-plates", one_upper_one_lower)) == 0


# --- duel.end.tablets-scored (and its point duel.end.tablet-floor) -------------------------------

TABLETS = ("rows-complete", "columns-complete", "empty-special-spaces")


def _round_five_end(score: int, full_row: bool, reading: str = "net-then-floor") -> Game:
    """P1 ends round 5 with an empty Special space (-3) and, if `full_row`, a complete Dome row 5
    (+3); P2 has no plates. Nobody holds the Starting player tile."""
    g = new_game(seed=5, overrides={"duel.end.tablet-floor": reading}, tablets=TABLETS)
    while g.state.phase == "setup":
        g.apply(g.legal_actions()[0])
    for pl in g.state.players:
        for slot, pid in enumerate(pl.plates):
            if pid:
                g.state.pile.append(pid)
                pl.plates[slot] = 0
        pl.dome_space[:] = [EMPTY] * 36
    put_plate(g, 0, 0, 1)                      # yellow, black / turquoise, Special (cell 7)
    for slot, plate in ((6, 2), (7, 3), (8, 4)):
        put_plate(g, 0, slot, plate)           # Dome row 5: wild, blue, turquoise, red, black, yellow
    if full_row:
        set_tiles(g, 0, {24: R, 25: B, 26: T, 27: R, 28: K, 29: Y})
    g.state.players[0].score, g.state.players[1].score = score, 4
    g.state.round = 5
    start_tiling(g)
    assert g.is_over
    return g


@pytest.mark.clause("duel.end.tablets-scored")
@pytest.mark.parametrize("reading,final", [("net-then-floor", 1), ("losses-first", 3)])
def test_tablet_floor_readings_on_score_one_with_a_gain_and_a_loss(reading: str, final: int) -> None:
    decided = _decisions("duel.end.tablet-floor", lambda: _round_five_end(1, True, reading))
    g = _round_five_end(1, True, reading)
    assert g.state.players[0].score == final and g.state.players[1].score == 4
    assert decided == 1                        # the two readings give 1 and 3: the point decided


@pytest.mark.clause("duel.end.tablets-scored")
@pytest.mark.parametrize("score,full_row,final", [(10, True, 10), (2, False, 0)],
                         ids=["gain-and-loss-above-zero", "loss-only-floored"])
def test_tablet_floor_point_decides_nothing_when_the_readings_agree(score: int, full_row: bool,
                                                                    final: int) -> None:
    for reading in ("net-then-floor", "losses-first"):
        box: list[Game] = []
        decided = _decisions("duel.end.tablet-floor",
                             lambda box=box, reading=reading: box.append(_round_five_end(score, full_row, reading)))
        assert box[0].state.players[0].score == final, reading
        assert decided == 0, reading


@pytest.mark.clause("duel.end.tablets-scored")
def test_after_the_tablets_nobody_is_to_move_in_the_saved_position() -> None:
    g = _round_five_end(10, True)
    assert g.state.phase == "game_over" and g.current_player == -1 and g.legal_actions() == []
    # The position itself (what a saved game stores) says nobody is to move: -1, as in a stalled
    # Acquisition, not the "no turns in Dome-tiling" mark (-2) and not a player.
    saved = state_to_data(g.state)
    assert saved["to_move"] == -1 and state_from_data(saved) == g.state


# --- duel.end.after-round-5 ----------------------------------------------------------------------

@pytest.mark.clause("duel.end.after-round-5")
def test_broken_leftovers_leave_empty_lines_and_every_tile_accounted_for() -> None:
    g = bare(5, **{"duel.end.leftover-lines": "broken"})
    set_line(g, 0, 3, Y, 2)                    # line 3 unfinished, no Dome plate in its row
    set_line(g, 1, 4, K, 3)
    g.state.round = 5
    tower = g.state.tower[:]
    start_tiling(g)
    assert g.is_over
    for pl in g.state.players:
        assert pl.line_count == [0] * 6 and pl.line_colour == [EMPTY] * 6
    assert g.state.tower[Y] == tower[Y] + 2 and g.state.tower[K] == tower[K] + 3   # broken, then Tower
    assert [str(v) for _, v in violations(g, physical_only=True)] == []


# --- duel.end.winner, duel.end.tie-break ---------------------------------------------------------

@pytest.mark.clause("duel.end.winner")
def test_second_player_with_more_points_wins() -> None:
    g = bare(5)
    g.state.players[0].score, g.state.players[1].score = 7, 10
    g.state.round = 5
    start_tiling(g)
    out = g.outcome()
    assert out is not None and out.winner == 1 and out.reason == "more points"
    assert g.returns() == (-1.0, 1.0)


# --- duel.prep.start-player, duel.prep.factories-refill ------------------------------------------

@pytest.mark.clause("duel.prep.start-player", "duel.prep.factories-refill")
@pytest.mark.parametrize("reading", ["same-starter", "alternate"])
def test_first_player_holding_the_tile_starts_the_next_round(reading: str) -> None:
    g = bare(5, **{"duel.prep.untaken-start-tile": reading})
    s = g.state
    s.starter = 1
    s.players[0].start_tile = True
    s.large.start_tile = False
    start_tiling(g)
    assert s.round == 2 and s.starter == 0 and g.current_player == 0
    assert s.large.start_tile and not s.players[0].start_tile and not s.players[1].start_tile


@pytest.mark.clause("duel.prep.start-player")
def test_alternate_reading_passes_the_start_back_to_the_first_player() -> None:
    g = bare(5, **{"duel.prep.untaken-start-tile": "alternate"})
    g.state.starter = 1
    start_tiling(g)
    assert g.state.starter == 0 and g.current_player == 0


# --- duel.prep.bag-restock ------------------------------------------------------------------------

@pytest.mark.clause("duel.prep.bag-restock")
def test_restock_moves_every_colour_of_the_tower_into_the_bag() -> None:
    g = bare(5)
    empty_table(g)
    s = g.state
    totals = [s.bag[c] + s.tower[c] for c in range(5)]
    s.bag = [0, 0, 0, 0, 1]                    # one turquoise tile left in the bag
    s.tower = [totals[c] - s.bag[c] for c in range(5)]
    events = start_tiling(g)
    assert [e.kind for e in events].count("restock") == 1
    assert s.tower == [0, 0, 0, 0, 0]
    on_factories = [s.large.sun[c] + sum(f.sun[c] for f in s.small) for c in range(5)]
    assert [s.bag[c] + on_factories[c] for c in range(5)] == totals
    assert sum(on_factories) == 21


# --- duel.prep.rare-empty -------------------------------------------------------------------------

@pytest.mark.clause("duel.prep.rare-empty")
def test_a_full_refill_reports_no_shortage() -> None:
    g = bare(5)
    events = start_tiling(g)
    s = g.state
    assert sum(s.large.sun) == 5 and [sum(f.sun) for f in s.small] == [4, 4, 4, 4]
    assert not [e for e in events if e.clause == "duel.prep.rare-empty"]
    assert not any(f.chip_revealed for f in s.small)


@pytest.mark.clause("duel.prep.rare-empty")
def test_last_small_factory_one_tile_short_is_reported() -> None:
    g = bare(5)
    empty_table(g)
    s = g.state
    s.tower = [0] * 5
    s.bag = [4, 4, 4, 4, 4]                    # 20 tiles for 21 places
    events = start_tiling(g)
    assert sum(s.large.sun) == 5 and [sum(f.sun) for f in s.small] == [4, 4, 4, 3]
    assert [e.kind for e in events if e.clause == "duel.prep.rare-empty"] == ["tiles-ran-out"]
    assert not any(f.chip_revealed for f in s.small)   # every small Factory has tiles


@pytest.mark.clause("duel.prep.rare-empty")
def test_a_large_sun_left_empty_by_the_one_colour_rule_is_no_shortage() -> None:
    """Under leave-empty, only blue in the bag leaves the large sun empty (the one-colour rule), while
    the bag still holds tiles: the bag and Tower did not run out, so no tiles-ran-out is reported."""
    g = bare(5, **{"duel.refill.monochrome-unavoidable": "leave-empty"})
    empty_table(g)
    s = g.state
    s.bag = [49, 0, 0, 0, 0]
    s.tower = [0, 13, 13, 13, 13]
    events = start_tiling(g)
    assert sum(s.large.sun) == 0 and [sum(f.sun) for f in s.small] == [4, 4, 4, 4]
    assert sum(s.bag) > 0
    assert not [e for e in events if e.kind == "tiles-ran-out"]


@pytest.mark.clause("duel.prep.rare-empty")
def test_a_large_sun_left_empty_with_an_empty_tower_is_no_shortage_either() -> None:
    """As above with nothing in the Tower: the bag alone still holds tiles, so nothing ran out."""
    g = bare(5, **{"duel.refill.monochrome-unavoidable": "leave-empty"})
    empty_table(g)
    s = g.state
    s.bag = [49, 0, 0, 0, 0]
    s.tower = [0, 0, 0, 0, 0]
    events = start_tiling(g)
    assert sum(s.large.sun) == 0 and sum(s.bag) > 0
    assert not [e for e in events if e.kind == "tiles-ran-out"]


@pytest.mark.clause("duel.tablet.colourful-rows")
def test_under_full_row_a_gappy_row_with_the_special_tile_decides_nothing() -> None:
    """Under full-row a row with a gap scores nothing whatever the Special tile counts as, so the
    Special reading decides nothing there; in a full row it does."""
    both = {"duel.tablet.colourful-rows.full": "full-row"}
    gappy = _row(0, [B, Y, R, K, SPECIAL, None])
    for special in ("counts-as-colour", "not-a-colour"):
        rules = Ruleset.build({**both, "duel.tablet.colourful-rows.special": special})
        assert _score("colourful-rows", gappy, rules) == 0
        assert _decisions("duel.tablet.colourful-rows.special",
                          lambda rules=rules: _score("colourful-rows", gappy, rules)) == 0
    full = _row(0, [B, Y, R, K, SPECIAL, B])
    rules = Ruleset.build({**both, "duel.tablet.colourful-rows.special": "counts-as-colour"})
    assert _decisions("duel.tablet.colourful-rows.special", lambda: _score("colourful-rows", full, rules)) == 1


# --- duel.tablet.outer-spaces: when the outer-scope reading decides ----------------------------------

@pytest.mark.clause("duel.tablet.outer-spaces")
@pytest.mark.parametrize("scope", ["edge-cells", "outer-plates"])
def test_the_outer_scope_reading_decides_only_with_a_tile_inside_the_edge_on_an_outer_plate(scope: str) -> None:
    """The two readings of duel.tablet.outer-scope count the same spaces on the Dome's edge; they part
    only over the inner spaces of the 8 outer plates. So a tablet scored with tiles on the edge alone
    is decided by neither reading, and one with a tile on such an inner space is decided by the chosen
    one (and scores differently under the two)."""
    rules = Ruleset.build({"duel.tablet.outer-scope": scope})
    edge_only = [0, 5, 30, 35]
    assert _decisions("duel.tablet.outer-scope", lambda: _score("outer-spaces", edge_only, rules)) == 0
    inner = [7]                                  # row 2 column 2: on plate slot 1, off the edge
    assert _decisions("duel.tablet.outer-scope", lambda: _score("outer-spaces", inner, rules)) == 1
    assert _score("outer-spaces", inner, rules) == (1 if scope == "outer-plates" else 0)


# --- duel.prep.factories-refill: the refill order and running out -----------------------------------

def _refill(order: str, bag: list[int]) -> tuple[Game, list]:
    """Round 1 emptied, the Tower empty and the bag as given, then refilled under `order` (start_tiling
    runs the round to the next Preparation)."""
    g = bare(5, **{"duel.prep.refill-order": order})
    empty_table(g)
    g.state.tower = [0] * 5
    g.state.bag = list(bag)
    return g, start_tiling(g)


def _ran_out(events: list) -> bool:
    return any(e.kind == "tiles-ran-out" for e in events)


@pytest.mark.clause("duel.prep.factories-refill", "duel.prep.rare-empty")
@pytest.mark.parametrize("order", ["large-first", "small-first"])
def test_either_refill_order_fills_every_factory_when_tiles_suffice(order: str) -> None:
    g, events = _refill(order, [20, 20, 20, 20, 20])
    s = g.state
    assert sum(s.large.sun) == 5 and [sum(f.sun) for f in s.small] == [4, 4, 4, 4]
    assert not _ran_out(events)                  # the Tower is empty, but nothing ran short


@pytest.mark.clause("duel.prep.factories-refill", "duel.prep.rare-empty")
@pytest.mark.parametrize("order", ["large-first", "small-first"])
def test_exactly_enough_tiles_fill_every_factory_and_nothing_ran_out(order: str) -> None:
    g, events = _refill(order, [5, 4, 4, 4, 4])  # 21 tiles for 21 places: bag and Tower end empty
    s = g.state
    assert sum(s.large.sun) == 5 and [sum(f.sun) for f in s.small] == [4, 4, 4, 4]
    assert not any(s.bag) and not any(s.tower)
    assert not _ran_out(events)


@pytest.mark.clause("duel.prep.factories-refill", "duel.prep.rare-empty")
@pytest.mark.parametrize("order", ["large-first", "small-first"])
def test_one_tile_short_leaves_the_factory_filled_last_short(order: str) -> None:
    """20 tiles for 21 places: the Factory filled last is the one short, and the shortage is reported."""
    g, events = _refill(order, [4, 4, 4, 4, 4])
    s = g.state
    if order == "large-first":
        assert sum(s.large.sun) == 5 and [sum(f.sun) for f in s.small] == [4, 4, 4, 3]
    else:
        assert sum(s.large.sun) == 4 and [sum(f.sun) for f in s.small] == [4, 4, 4, 4]
    assert _ran_out(events)


@pytest.mark.clause("duel.prep.factories-refill", "duel.prep.rare-empty")
def test_a_large_sun_left_empty_by_the_one_colour_rule_with_an_empty_tower_ran_nothing_out() -> None:
    """Under leave-empty, a bag of blue only leaves the large sun empty while the bag keeps its tiles:
    the Tower is empty but the bag is not, so no shortage is reported."""
    g = bare(5, **{"duel.refill.monochrome-unavoidable": "leave-empty", "duel.prep.refill-order": "small-first"})
    empty_table(g)
    s = g.state
    s.bag = [49, 0, 0, 0, 0]
    s.tower = [0, 0, 0, 0, 0]
    events = start_tiling(g)
    assert sum(s.large.sun) == 0 and sum(s.bag) > 0
    assert not _ran_out(events)


@pytest.mark.clause("duel.prep.factories-refill", "duel.prep.rare-empty")
def test_a_large_sun_left_empty_with_the_bag_just_used_up_and_tiles_in_the_tower_ran_nothing_out() -> None:
    """Under leave-empty a bag of 16 blues leaves the large sun empty (its five blues go back) and the
    small Factories then take exactly the 16 blues: the bag is empty, but the Tower still holds tiles,
    so nothing ran out and no shortage is reported."""
    g = bare(5, **{"duel.refill.monochrome-unavoidable": "leave-empty", "duel.prep.refill-order": "large-first"})
    empty_table(g)
    s = g.state
    s.bag = [16, 0, 0, 0, 0]
    s.tower = [0, 4, 4, 4, 4]
    events = start_tiling(g)
    assert sum(s.large.sun) == 0 and [sum(f.sun) for f in s.small] == [4, 4, 4, 4]
    assert not any(s.bag) and any(s.tower)
    assert not _ran_out(events)
