"""Guards for the Duel clauses left unguarded after the engine restructure (issue 10).

Each test pins down one outcome that a planted rule bug got wrong, or that a planted bug turned
into an endless loop (then the test fails fast, on a small position, before any slow test runs):
the wording of the rule-loop errors (which player, which line), the fourth chip of a round under
the no-cap reading, a hand-built plate placement on the first space in the first rotation, the row
a Special tile scores for, a moon pick that takes only top tiles, the phase events, the round
after which Preparation is skipped, and when a complete line with no matching space waits (its
band of three plates not yet full) or breaks.
"""

from __future__ import annotations

import pytest

from model.duel import new_game, parse_action, tiling
from model.duel.acquisition import CHIPS_PER_ROUND_BOUND
from model.duel.colours import SPECIAL
from model.duel.state import NUM_SMALL
from model.errors import RuleLoopError
from model.events import Event
from tests.helpers import (
    B,
    K,
    R,
    T,
    bare,
    empty_table,
    in_acquisition,
    play,
    put_plate,
    set_line,
    set_small,
    set_tiles,
    start_tiling,
)

NO_CAP = {"duel.chips.per-round": "no-cap"}


def _chip_table(who: int, taken: int):
    """Round 1 under no-cap, `who` to move, having taken `taken` chips this round; Factory 1
    shows chip C07 on an emptied Factory (the one legal action besides passing)."""
    g = in_acquisition(seed=0, **NO_CAP)
    empty_table(g)
    set_small(g, 1, chip=7, revealed=True)
    g.state.to_move = who
    g.state.players[who].chips_this_round = taken
    return g


def _phases(events: list[Event]) -> list[str]:
    return [e.detail for e in events if e.kind == "phase"]


# --- duel.acquire.chip.limit: the bound and its wording ------------------------------------------

@pytest.mark.clause("duel.acquire.chip.limit")
@pytest.mark.parametrize("who", [0, 1])
def test_a_chip_count_past_the_bound_names_the_player_and_the_count(who: int) -> None:
    g = _chip_table(who, CHIPS_PER_ROUND_BOUND)
    with pytest.raises(RuleLoopError) as err:
        play(g, "chip 1")
    assert str(err.value) == (f"rule loop ran past its bound of {NUM_SMALL}: P{who + 1} has taken "
                              f"{NUM_SMALL + 1} chips in round 1, more than the {NUM_SMALL} small Factories "
                              "hold [duel.acquire.chip.limit]")


@pytest.mark.clause("duel.acquire.chip.limit", "duel.acquire.chip.take")
@pytest.mark.parametrize("who", [0, 1])
def test_under_no_cap_a_fourth_chip_in_a_round_is_taken(who: int) -> None:
    g = _chip_table(who, NUM_SMALL - 1)
    play(g, "chip 1")
    pl = g.state.players[who]
    assert pl.chips_this_round == NUM_SMALL and 7 in pl.chips
    assert g.state.small[0].chip == 0


# --- duel.tiling.top-to-bottom: the rule-loop bounds and their wording ---------------------------

@pytest.mark.clause("duel.tiling.top-to-bottom")
@pytest.mark.parametrize("starter", [0, 1])
def test_the_tiling_step_bound_names_the_player_and_line_it_stopped_at(
        starter: int, monkeypatch: pytest.MonkeyPatch) -> None:
    g = bare()
    g.state.starter = starter
    monkeypatch.setattr(tiling, "TILING_STEPS", 0)          # the very first step is past the bound
    with pytest.raises(RuleLoopError) as err:
        start_tiling(g)
    assert str(err.value) == ("rule loop ran past its bound of 0: Dome-tiling took more than 0 steps "
                              f"(P{starter + 1}, line 1) [duel.tiling.top-to-bottom]")


@pytest.mark.clause("duel.tiling.top-to-bottom")
def test_each_player_is_tiled_once_per_call() -> None:
    assert tiling.TILED_PLAYERS == 2
    g = bare()
    g.state.starter = 1
    set_line(g, 0, 2, R, 1)
    set_line(g, 1, 3, B, 1)
    events = start_tiling(g)
    assert g.state.phase == "acquisition" and g.state.round == 2, "both players tiled, on to round 2"
    p1, p2 = g.state.players
    assert (p1.line_colour[1], p1.line_count[1]) == (R, 1) and (p2.line_colour[2], p2.line_count[2]) == (B, 1)
    assert _phases(events)[:2] == ["acquisition -> dome_tiling (round 1)", "dome_tiling -> preparation (round 1)"]


@pytest.mark.clause("duel.tiling.top-to-bottom")
@pytest.mark.parametrize("starter", [0, 1])
def test_a_second_player_past_the_player_bound_is_named(starter: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """With the bound lowered to one player, reaching the second player raises, naming them."""
    g = bare()
    g.state.starter = starter
    monkeypatch.setattr(tiling, "TILED_PLAYERS", 1)
    with pytest.raises(RuleLoopError) as err:
        start_tiling(g)
    other = 2 - starter
    assert str(err.value) == (f"rule loop ran past its bound of 1: Dome-tiling reached P{other} after 1 "
                              "player(s) were tiled [duel.tiling.top-to-bottom]")


# --- duel.acquire.plate.placement: a hand-built action --------------------------------------------

@pytest.mark.clause("duel.acquire.plate.placement")
def test_a_hand_built_placement_on_the_first_space_in_rotation_r0_is_legal() -> None:
    g = new_game(seed=0)
    s = g.state
    who = g.current_player
    play(g, "plate 1")
    plate = s.pending.data[0]
    place = parse_action("place 1 r0")                       # not the object legal_actions() offered
    assert g.why_illegal(place) is None
    g.apply(place)
    assert s.players[who].plates[0] == plate and s.players[who].rotations[0] == 0


# --- duel.score.special-no-adjacency: the Special tile's row --------------------------------------

@pytest.mark.clause("duel.score.special-no-adjacency", "duel.plate.special-space")
def test_a_special_tile_in_the_right_column_scores_its_own_row() -> None:
    g = bare(**{"duel.special.row-points": "row-number"})
    s = g.state
    s.starter = 0
    put_plate(g, 0, 4, 5)                      # slot 5: row 3 black, SPECIAL (cell 15); row 4 turquoise, red
    set_tiles(g, 0, {14: K, 20: T})
    set_line(g, 0, 4, R, 4)
    events = start_tiling(g)
    pl = s.players[0]
    assert pl.dome_tile[21] == R and pl.dome_tile[15] == SPECIAL
    special = [e for e in events if e.clause == "duel.plate.special-space"]
    assert special == [Event("score", "duel.plate.special-space", 0, 3, "Special tile in row 3")]


# --- duel.acquire.actions: a moon pick takes top tiles only ----------------------------------------

@pytest.mark.clause("duel.acquire.actions", "duel.acquire.moon.take-colour")
def test_a_moon_pick_takes_the_top_tile_of_each_stack_not_the_bottom_one() -> None:
    g = in_acquisition(seed=0)
    empty_table(g)
    s = g.state
    set_small(g, 1, moon=[R, B])               # bottom red, top blue
    set_small(g, 2, moon=[B, R])               # bottom blue, top red
    who = g.current_player
    play(g, "moon blue")
    assert s.small[0].moon == [R] and s.small[1].moon == [B, R]
    assert s.pending.kind == "line" and s.pending.player == who and s.pending.data == (B, 1)


# --- duel.round.structure: phase events --------------------------------------------------------------

@pytest.mark.clause("duel.round.structure")
def test_every_phase_change_is_an_event_naming_both_phases_and_the_round() -> None:
    g = bare()
    events = start_tiling(g)
    assert [e for e in events if e.kind == "phase"] == [
        Event("phase", "duel.round.structure", detail="acquisition -> dome_tiling (round 1)"),
        Event("phase", "duel.round.structure", detail="dome_tiling -> preparation (round 1)"),
        Event("phase", "duel.round.structure", detail="preparation -> acquisition (round 2)"),
    ]


# --- duel.prep.skip-last: Preparation after rounds 1-4 only ---------------------------------------

@pytest.mark.clause("duel.prep.skip-last")
@pytest.mark.parametrize("round_no", [1, 4])
def test_preparation_follows_the_tiling_of_rounds_1_to_4(round_no: int) -> None:
    g = bare()
    g.state.round = round_no
    events = start_tiling(g)
    assert g.state.phase == "acquisition" and g.state.round == round_no + 1
    assert _phases(events)[1:] == [f"dome_tiling -> preparation (round {round_no})",
                                   f"preparation -> acquisition (round {round_no + 1})"]


@pytest.mark.clause("duel.prep.skip-last")
def test_after_the_tiling_of_round_5_the_tablets_are_scored_without_preparation() -> None:
    g = bare()
    g.state.round = 5
    events = start_tiling(g)
    assert g.state.phase == "game_over" and g.state.round == 5
    assert _phases(events)[1:] == ["dome_tiling -> tablet_scoring (round 5)", "tablet_scoring -> game_over (round 5)"]


# --- duel.tiling.wait: a complete line waits until its band holds 3 plates ----------------------

def _plates(g, slots) -> None:
    """Plates on these Dome spaces of P1, with every space left blank: no colour can go there."""
    pl = g.state.players[0]
    for slot in slots:
        pl.plates[slot] = g.state.pile.pop(0)


@pytest.mark.clause("duel.tiling.wait", "duel.tiling.unplaceable")
@pytest.mark.parametrize("line", range(1, 7))
def test_a_complete_line_with_no_space_breaks_once_its_own_band_is_full(line: int) -> None:
    g = bare()
    g.state.starter = 0
    band = (line - 1) // 2
    _plates(g, [3 * band, 3 * band + 1, 3 * band + 2])   # only this line's band
    set_line(g, 0, line, R, line)
    events = start_tiling(g)
    assert g.state.players[0].line_count[line - 1] == 0
    assert [e.detail for e in events if e.clause == "duel.tiling.unplaceable"] == [
        f"{line} red broken" + (f", {line - 4} to the Tower" if line > 4 else "")]


@pytest.mark.clause("duel.tiling.wait")
@pytest.mark.parametrize("missing", range(3))
@pytest.mark.parametrize("line", range(1, 7))
def test_a_complete_line_with_no_space_waits_while_a_plate_of_its_band_is_missing(line: int, missing: int) -> None:
    g = bare()
    g.state.starter = 0
    band = (line - 1) // 2
    _plates(g, [slot for slot in range(9) if slot != 3 * band + missing])   # every other band full
    set_line(g, 0, line, R, line)
    events = start_tiling(g)
    pl = g.state.players[0]
    assert (pl.line_colour[line - 1], pl.line_count[line - 1]) == (R, line)
    assert not [e for e in events if e.kind == "broken"]


# --- duel.tiling.top-to-bottom: resuming after a chip decision -----------------------------------

@pytest.mark.clause("duel.tiling.top-to-bottom")
def test_after_chips_complete_the_last_line_the_decision_is_closed_and_the_round_goes_on() -> None:
    g = bare()
    s = g.state
    s.starter = 0
    put_plate(g, 0, 0, 2)                      # row 2: turquoise, black
    set_line(g, 0, 2, K, 1)                    # one black of two
    empty_table(g)
    for chip in (7, 8):                        # C07 (black/blue) + C08 (yellow/black): a black pair
        s.chip_supply.remove(chip)
    s.players[0].chips = [7, 8]
    start_tiling(g)
    assert (s.pending.kind, s.pending.player, s.pending.data) == ("bonus", 0, (1,))
    play(g, "bonus C07+C08")
    assert s.players[0].dome_tile[7] == K and s.players[0].used_chips == [7, 8]
    assert s.pending is None and s.phase == "acquisition" and s.round == 2 and g.current_player == 0


# --- duel.acquire.chip.limit: the count is per round ------------------------------------------------

@pytest.mark.clause("duel.acquire.chip.limit")
def test_preparation_starts_each_players_chip_count_of_the_new_round_at_zero() -> None:
    g = bare()
    for who, taken in ((0, 2), (1, 1)):
        g.state.players[who].chips_this_round = taken
    start_tiling(g)
    assert g.state.phase == "acquisition" and g.state.round == 2
    assert [pl.chips_this_round for pl in g.state.players] == [0, 0]
