"""Phase 1: the four actions, pattern lines, Broken tiles, passing and the end of the phase."""

from __future__ import annotations

import pytest

from model.duel import IllegalAction, parse_action
from model.duel.acquisition import acquisition_over
from model.duel.state import SLOT_CELLS
from tests.helpers import B, K, R, T, Y, empty_table, in_acquisition, play, record, set_line, set_small


def _setup_small(seed: int = 0):
    g = in_acquisition(seed)
    empty_table(g)
    g.state.to_move = 0
    return g


@pytest.mark.clause("duel.acquire.sun.take-colour", "duel.acquire.sun.small-leftovers")
def test_sun_pick_on_small_factory_stacks_leftovers_in_chosen_order() -> None:
    g = _setup_small()
    set_small(g, 1, sun={T: 2, K: 1, Y: 1}, chip=1)
    play(g, "sun 1 turquoise")
    assert g.state.pending.kind == "stack"
    assert [str(a) for a in g.legal_actions()] == ["stack yellow,black", "stack black,yellow"]
    play(g, "stack black,yellow", "line 2")
    fac = g.state.small[0]
    assert fac.moon == [K, Y], "black at the bottom, yellow on top"
    assert g.state.players[0].line_count[1] == 2 and g.state.players[0].line_colour[1] == T


@pytest.mark.clause("duel.acquire.sun.large-leftovers")
def test_sun_pick_on_large_factory_spreads_leftovers_on_its_moon() -> None:
    g = _setup_small()
    s = g.state
    for c, n in ((T, 2), (R, 1), (K, 2)):
        s.bag[c] -= n
        s.large.sun[c] = n
    play(g, "sun L turquoise", "line 3")
    assert s.large.sun == [0] * 5 and s.large.moon[R] == 1 and s.large.moon[K] == 2


@pytest.mark.clause("duel.acquire.sun.reveal-monochrome")
def test_four_of_a_colour_reveals_the_chip_at_once() -> None:
    g = _setup_small()
    set_small(g, 2, sun={R: 4}, chip=5)
    play(g, "sun 2 red")
    assert g.state.small[1].chip_revealed and not g.state.small[1].moon


@pytest.mark.clause("duel.acquire.moon.top-tile-only", "duel.acquire.moon.take-colour")
def test_moon_pick_takes_only_exposed_tops_across_factories() -> None:
    g = _setup_small()
    set_small(g, 1, moon=[R, Y], chip=1)       # red buried under yellow
    set_small(g, 2, moon=[Y, R], chip=2)       # red on top
    set_small(g, 3, moon=[R], chip=3)
    g.state.bag[R] -= 1
    g.state.large.moon[R] = 1
    assert g.why_illegal(parse_action("moon blue"))[0] == "duel.acquire.moon.take-colour"
    play(g, "moon red")
    assert g.state.pending.data == (R, 3)
    assert g.state.small[0].moon == [R, Y] and g.state.small[1].moon == [Y]


@pytest.mark.clause("duel.acquire.moon.top-tile-only")
def test_buried_colour_is_refused_naming_the_clause() -> None:
    g = _setup_small()
    set_small(g, 1, moon=[R, Y], chip=1)
    with pytest.raises(IllegalAction) as err:
        g.apply(parse_action("moon red"))
    assert err.value.clause == "duel.acquire.moon.top-tile-only"


@pytest.mark.clause("duel.acquire.moon.start-player-tile")
def test_first_large_moon_pick_takes_the_starting_player_tile() -> None:
    g = _setup_small()
    s = g.state
    set_small(g, 1, moon=[Y], chip=1)
    s.bag[R] -= 2
    s.large.moon[R] = 2
    play(g, "moon yellow", "line 1")            # no large-moon tile: no Starting player tile
    assert s.large.start_tile and not s.players[0].start_tile
    play(g, "moon red", "line 2")
    assert s.players[1].start_tile and not s.large.start_tile


@pytest.mark.clause("duel.acquire.moon.reveal-chip", "duel.acquire.chip.accessible", "duel.acquire.chip.take")
def test_last_moon_tile_reveals_the_chip_which_then_can_be_taken() -> None:
    g = _setup_small()
    set_small(g, 1, moon=[B, Y], chip=7)
    assert g.why_illegal(parse_action("chip 1"))[0] == "duel.acquire.chip.accessible"
    play(g, "moon yellow", "line 1", "moon blue", "line 1")
    assert g.state.small[0].chip_revealed
    play(g, "chip 1")
    assert g.state.players[0].chips == [7] and g.state.small[0].chip == 0


@pytest.mark.clause("duel.acquire.chip.limit")
@pytest.mark.parametrize("reading,legal", [("hard-cap", False), ("no-cap", True)])
def test_third_chip_in_a_round(reading: str, legal: bool) -> None:
    g = in_acquisition(0, **{"duel.chips.per-round": reading})
    empty_table(g)
    g.state.to_move = 0
    set_small(g, 3, chip=9, revealed=True)
    g.state.players[0].chips_this_round = 2
    assert (g.why_illegal(parse_action("chip 3")) is None) is legal


@pytest.mark.clause("duel.lines.same-colour", "duel.lines.overflow", "duel.lines.capacity", "duel.broken.capacity",
                    "duel.component.player-board")
def test_line_rules_overflow_and_broken_capacity() -> None:
    g = _setup_small()
    s = g.state
    set_line(g, 0, 2, R, 1)
    set_small(g, 1, sun={B: 3, Y: 1}, chip=1)
    play(g, "sun 1 blue")
    with pytest.raises(IllegalAction) as err:
        g.apply(parse_action("line 2"))
    assert err.value.clause == "duel.lines.same-colour"
    assert s.pending.kind == "line", "a refused action leaves the decision open"
    s.players[0].broken = [K, K, K]
    play(g, "line 1")                          # 1 fits, 2 overflow: 1 to Broken, 1 to the Tower
    assert s.players[0].line_count[0] == 1 and len(s.players[0].broken) == 4 and s.tower[B] == 1


@pytest.mark.clause("duel.lines.one-line")
@pytest.mark.parametrize("reading,extra", [("whole-batch", set()), ("any-split", {"line 4 x1", "line 4 x2"})])
def test_voluntary_break_reading(reading: str, extra: set[str]) -> None:
    g = in_acquisition(0, **{"duel.lines.voluntary-break": reading})
    empty_table(g)
    g.state.to_move = 0
    set_small(g, 1, sun={B: 3, Y: 1}, chip=1)
    play(g, "sun 1 blue")
    names = {str(a) for a in g.legal_actions()}
    assert {"broken", "line 4"} <= names
    assert {n for n in names if " x" in n} >= extra and (extra or not any(" x" in n for n in names))


@pytest.mark.clause("duel.acquire.plate.display", "duel.acquire.plate.placement", "duel.acquire.plate.token",
                    "duel.component.tokens", "duel.component.dome", "duel.acquire.actions")
def test_take_displayed_plate_uses_a_token_and_is_not_refilled() -> None:
    g = in_acquisition(3)
    s = g.state
    who = g.current_player
    plate = s.display[0]
    free = next(i for i in range(9) if not s.players[who].plates[i])
    play(g, "plate 1", f"place {free + 1} r1")
    pl = s.players[who]
    assert pl.tokens_used == 1 and s.display[0] == 0
    # with one token used the same player may still take a plate with the second (two a round)
    s.to_move = who
    assert s.display[1] and g.why_illegal(parse_action("plate 2")) is None
    pl.tokens_used = 2
    assert g.why_illegal(parse_action("plate 2"))[0] == "duel.acquire.plate.token"
    s.to_move, pl.tokens_used = 1 - who, 1
    spaces = g.rules.tables.plate(plate).spaces
    tl, tr, bl, br = SLOT_CELLS[free]
    # one clockwise quarter turn: the bottom-left space comes to the top-left
    assert [pl.dome_space[c] for c in (tl, tr, bl, br)] == [spaces[2], spaces[0], spaces[3], spaces[1]]


@pytest.mark.clause("duel.acquire.plate.draw", "duel.acquire.plate.keep-one", "duel.acquire.plate.draw-blind")
def test_draw_two_plates_pay_two_keep_one_return_other_under_pile() -> None:
    g = in_acquisition(4)
    s = g.state
    who = g.current_player
    top2 = s.pile[:2]
    play(g, "draw", "draw")
    assert s.players[who].score == 3
    assert {str(a) for a in g.legal_actions()} == {"draw", f"keep P{top2[0]:02d}", f"keep P{top2[1]:02d}"}
    free = next(i for i in range(9) if not s.players[who].plates[i])
    play(g, f"keep P{top2[1]:02d}", f"place {free + 1} r0")
    assert s.pile[-1] == top2[0] and s.players[who].plates[free] == top2[1]


@pytest.mark.clause("duel.acquire.plate.draw", "duel.score.floor")
@pytest.mark.parametrize("reading,legal", [("free-at-zero", True), ("must-pay", False)])
def test_drawing_at_zero_points(reading: str, legal: bool) -> None:
    g = in_acquisition(4, **{"duel.plate.draw-at-zero": reading})
    g.state.players[g.current_player].score = 0
    assert (g.why_illegal(parse_action("draw")) is None) is legal
    if legal:
        play(g, "draw")
        assert g.state.players[g.current_player].score == 0


@pytest.mark.clause("duel.acquire.plate.tokens-required")
def test_no_plates_in_round_five() -> None:
    g = in_acquisition(0)
    g.state.round = 5
    assert g.why_illegal(parse_action("plate 1"))[0] == "duel.acquire.plate.tokens-required"
    assert not any(str(a).startswith(("plate", "draw")) for a in g.legal_actions())


@pytest.mark.clause("duel.acquire.pass", "duel.acquire.pass.asymmetric", "duel.acquire.end")
def test_pass_only_when_nothing_else_and_the_other_player_continues() -> None:
    g = _setup_small()
    s = g.state
    for pl in s.players:
        pl.tokens_used = 2
    set_small(g, 1, moon=[B, Y], chip=1)
    set_small(g, 2, chip=2, revealed=True)      # an empty Factory: its chip lies revealed
    s.players[0].chips_this_round = 2
    assert g.why_illegal(parse_action("pass"))[0] == "duel.acquire.pass"
    play(g, "moon yellow", "broken")            # P1; now P2 to move
    play(g, "moon blue", "broken")              # P2 empties Factory 1: chip revealed
    assert g.current_player == 0
    assert [str(a) for a in g.legal_actions()] == ["pass"], "P1 is at the chip cap, nothing else to do"
    play(g, "pass")
    assert g.current_player == 1
    play(g, "chip 1")
    assert g.current_player == 1, "P1 has passed: P2 takes its turns one after another"
    play(g, "chip 2")
    assert s.round == 2, "Factories empty and tokens used: Acquisition (and the round) is over"


@pytest.mark.clause("duel.acquire.end")
def test_acquisition_does_not_end_while_tokens_are_unused() -> None:
    g = _setup_small()
    s = g.state
    s.players[0].tokens_used = 2
    s.players[1].tokens_used = 1
    set_small(g, 1, moon=[B], chip=1)
    play(g, "moon blue", "broken")
    assert s.phase == "acquisition" and g.current_player == 1
    play(g, "chip 1")                           # Factories now empty, but P2 holds a token
    assert s.phase == "acquisition" and s.round == 1
    play(g, "pass")                             # P1 can do nothing
    assert g.current_player == 1 and all(str(a).startswith(("plate", "draw")) for a in g.legal_actions())
    free = next(i for i in range(9) if not s.players[1].plates[i])
    play(g, "plate 1", f"place {free + 1} r0")
    assert s.round == 2


@pytest.mark.clause("duel.acquire.end")
@pytest.mark.parametrize("reading,stalls", [("pass-counts-as-done", False), ("strict", True)])
def test_passed_player_with_an_unused_token(reading: str, stalls: bool) -> None:
    g = in_acquisition(0, **{"duel.acquire.end.passed-tokens": reading,
                             "duel.plate.draw-at-zero": "must-pay"})
    empty_table(g)
    s = g.state
    s.to_move = 0
    s.display = [0, 0, 0]
    s.players[0].score = 0
    s.players[0].tokens_used = 1
    s.players[1].tokens_used = 2
    set_small(g, 1, moon=[B], chip=1)
    play(g, "moon blue", "broken")              # P1 empties the last Factory
    play(g, "chip 1")                           # P2 takes the chip
    assert [str(a) for a in g.legal_actions()] == ["pass"]
    play(g, "pass")
    if stalls:
        play(g, "pass")                         # P2 has nothing to do either
    assert g.is_stalled is stalls
    assert g.legal_actions() == [] if stalls else s.round == 2


@pytest.mark.clause("duel.lines.premature")
def test_tiles_may_go_on_a_line_whose_dome_row_has_no_matching_space_yet() -> None:
    g = _setup_small()
    s = g.state
    assert not any(s.players[0].plates[6:9]), "no plate in the bottom band: row 5 has no space yet"
    set_small(g, 1, sun={B: 3, Y: 1}, chip=1)
    play(g, "sun 1 blue", "line 5")
    assert (s.players[0].line_colour[4], s.players[0].line_count[4]) == (B, 3)



@pytest.mark.clause("duel.acquire.end.start-tile")
@pytest.mark.parametrize("on_large", [True, False])
def test_the_start_tile_left_alone_on_the_large_factory_is_what_the_end_rule_is_cited_for(on_large: bool) -> None:
    """With every Factory empty and no chip left, the phase ends although the Starting player tile
    may still lie on the large Factory: the end rule for that tile (duel.acquire.end.start-tile) is
    the one deciding then, and only then; with the tile already taken it plays no part."""
    g = in_acquisition(3)
    empty_table(g)
    s = g.state
    s.round = 5                                   # no token rule keeps the phase going
    s.large.start_tile = on_large
    with record() as rec:
        over = acquisition_over(g)
    assert over, "empty Factories and no chips: Acquisition is over"
    assert rec.clauses["duel.acquire.end.start-tile"] == (1 if on_large else 0)
