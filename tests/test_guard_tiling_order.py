"""Guarding tests for the Dome-tiling order (duel.tiling.top-to-bottom) and the Bonus-chip
combinations (duel.bonus.complete-line) (issue 10).

Each test pins down what a surviving planted rule bug in the tiling loop or the chip checks got
wrong: which line is handled when, an empty line skipped, a complete line moved, an incomplete one
staying, the chip decision offered only where chips can complete the line, the space decision, the
second player after the first, the phase moving on after each decision. Hand-built positions,
assertions on positions, pending decisions, refusals, events and scores.

Every tiling run here goes through `bounded`: the design promises that the tiling cursor advances a
line or a player on every pass (docs/design.md, Watchdogs), so a run that executes more than a few
thousand statements of `_advance_tiling` in one call is a loop that never ends; `bounded` stops it
deterministically with a `Livelock` (a step bound, not a clock) instead of letting the test hang.
"""

from __future__ import annotations

import copy
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from types import FrameType
from typing import Any

import pytest

from model.duel import IllegalAction, parse_action
from model.duel.colours import EMPTY
from model.duel.serialize import game_from_data, game_to_data
from properties.watchdog import Livelock
from tests.helpers import B, K, R, T, Y, bare, empty_table, play, put_plate, record, set_line, set_tiles, start_tiling

# One pass of the tiling loop runs about 25 statements; 2 players x 6 lines is 12 passes. A bound 15
# times larger still ends a runaway loop within milliseconds.
TILING_STATEMENT_BOUND = 5_000


@contextmanager
def bounded(game: Any) -> Iterator[None]:
    """Run Dome-tiling code with a statement bound on each `_advance_tiling` call (see module doc)."""
    outer = sys.gettrace()

    def tracer(frame: FrameType, event: str, arg: object) -> Any:
        if event != "call" or frame.f_code.co_name != "_advance_tiling":
            return outer(frame, event, arg) if outer is not None else None   # e.g. coverage keeps tracing
        steps = [0]

        def count(frame: FrameType, event: str, arg: object) -> Any:
            if event == "line":
                steps[0] += 1
                if steps[0] > TILING_STATEMENT_BOUND:
                    raise Livelock(f"Dome-tiling ran past {TILING_STATEMENT_BOUND} statements in one call",
                                   game.state.phase, steps[0], game.state.round)
            return count
        return count

    sys.settrace(tracer)
    try:
        yield
    finally:
        sys.settrace(outer)


@pytest.fixture(scope="module")
def round_one() -> dict[str, Any]:
    """A bare round-1 position (no plates, P1 starts, Factories emptied), built once per module."""
    g = bare()
    g.state.starter = 0
    empty_table(g)
    return game_to_data(g)


def tiled(round_one: dict[str, Any], setup: Callable[[Any], None], **overrides: str) -> tuple[Any, list]:
    """The round-1 position under the given readings, `setup` applied, then Dome-tiling run until
    the first decision or the next phase."""
    data = copy.deepcopy(round_one)
    data["ruleset"]["choices"].update(overrides)
    g = game_from_data(data)
    setup(g)
    with bounded(g):
        events = start_tiling(g)
    return g, events


def decide(g: Any, *moves: str) -> list:
    with bounded(g):
        return play(g, *moves)


def give_chips(g: Any, who: int, *chips: int) -> None:
    """Face-up Bonus chips in a player's storage, taken from the face-down supply."""
    for chip in chips:
        g.state.chip_supply.remove(chip)
    g.state.players[who].chips = sorted(chips)


def moves(events: list) -> list[tuple[int, str]]:
    return [(e.player, e.detail) for e in events if e.clause == "duel.tiling.move-rightmost"]


def line(g: Any, who: int, n: int) -> tuple[int, int]:
    pl = g.state.players[who]
    return pl.line_colour[n - 1], pl.line_count[n - 1]


# --- the order of lines and players ----------------------------------------------------------------

@pytest.mark.clause("duel.tiling.top-to-bottom", "duel.tiling.incomplete-stay")
def test_an_incomplete_line_stays_and_the_second_player_is_tiled_after_the_first(
        round_one: dict[str, Any]) -> None:
    """P1: line 1 empty, line 2 one black tile with a free black space (incomplete: it stays, no
    chips). P2: lines 1-2 empty, line 3 two reds and three chips that can complete it: the chip
    decision is P2's, for line 3, only after P1's lines are done; P2 declines and round 2 begins. Empty
    lines are never offered chips."""
    def setup(g: Any) -> None:
        put_plate(g, 0, 0, 2)                  # P1 row 1: wild, blue / row 2: turquoise, black
        set_line(g, 0, 2, K, 1)
        put_plate(g, 1, 3, 3)                  # P2 row 3: turquoise, red
        set_line(g, 1, 3, R, 2)
        give_chips(g, 1, 4, 5, 6)              # C04 blue/red, C05 red, C06 red/turquoise

    g, events = tiled(round_one, setup)
    p = g.state.pending
    assert (p.kind, p.player, p.data) == ("bonus", 1, (2,)), "P2 decides on chips for line 3"
    assert g.current_player == 1
    assert line(g, 0, 2) == (K, 1) and g.state.players[0].dome_tile[7] == EMPTY, "P1's line 2 stays"
    decide(g, "no-bonus")
    assert line(g, 1, 3) == (R, 2) and g.state.players[1].chips == [4, 5, 6], "P2's line 3 stays"
    assert g.state.pending is None and g.state.phase == "acquisition" and g.state.round == 2


@pytest.mark.clause("duel.tiling.top-to-bottom", "duel.tiling.move-rightmost")
@pytest.mark.parametrize("first", ["only-space", "choice"])
def test_lines_are_tiled_from_the_top_down_to_the_sixth(round_one: dict[str, Any], first: str) -> None:
    """Lines 1, 2 and 6 complete, 3-5 empty: the tiles move in line order, line 6 last, whether line 1
    moves to its only space or waits for the player's choice of space."""
    def setup(g: Any) -> None:
        put_plate(g, 0, 0, 2)                  # row 1: wild, blue / row 2: turquoise, black
        put_plate(g, 0, 6, 1)                  # row 6: turquoise, special
        set_line(g, 0, 1, R if first == "only-space" else B, 1)
        set_line(g, 0, 2, K, 2)
        set_line(g, 0, 6, T, 6)

    g, events = tiled(round_one, setup)
    if first == "choice":
        assert (g.state.pending.kind, g.state.pending.data) == ("tile", (0,))
        events += decide(g, "tile 1")
    colour = "red" if first == "only-space" else "blue"
    assert moves(events) == [(0, f"{colour} to row 1 column 1"), (0, "black to row 2 column 2"),
                             (0, "turquoise to row 6 column 1")]
    pl = g.state.players[0]
    assert pl.line_count == [0] * 6
    assert g.state.phase == "acquisition" and g.state.round == 2, "the phase went on to round 2"


@pytest.mark.clause("duel.tiling.top-to-bottom", "duel.bonus.complete-line")
@pytest.mark.parametrize("decision", ["bonus C07+C08", "no-bonus"])
@pytest.mark.parametrize("first", ["only-space", "choice"])
def test_the_line_below_a_tiled_line_gets_its_chip_decision_and_the_phase_goes_on(
        round_one: dict[str, Any], first: str, decision: str) -> None:
    """Line 1 complete (moves by itself or after the space choice) although P1 holds chips: no chip
    decision for a complete line. Line 2 holds one black tile of two, and C07 (black/blue) + C08
    (yellow/black) form a matching pair: the chip decision comes for line 2. Spending the chips moves
    the line; declining keeps line and chips. Then line 3 (three blues, a wild and a blue space)
    waits for the space choice, after which line 2 is not decided again: Dome-tiling ends."""
    def setup(g: Any) -> None:
        put_plate(g, 0, 0, 2)                  # row 1: wild, blue / row 2: turquoise, black
        set_line(g, 0, 1, R if first == "only-space" else B, 1)
        set_line(g, 0, 2, K, 1)
        put_plate(g, 0, 3, 2)                  # row 3: wild, blue
        set_line(g, 0, 3, B, 3)
        give_chips(g, 0, 7, 8)

    g, events = tiled(round_one, setup)
    if first == "choice":
        assert (g.state.pending.kind, g.state.pending.data) == ("tile", (0,))
        events += decide(g, "tile 2")
    p = g.state.pending
    assert (p.kind, p.player, p.data) == ("bonus", 0, (1,)), "the chip decision is P1's, for line 2"
    assert [str(a) for a in g.legal_actions()] == ["bonus C07+C08", "no-bonus"]
    events += decide(g, decision)
    pl = g.state.players[0]
    if decision == "no-bonus":
        assert line(g, 0, 2) == (K, 1) and pl.dome_tile[7] == EMPTY, "the incomplete line stays"
        assert pl.chips == [7, 8] and pl.used_chips == []
    else:
        assert line(g, 0, 2) == (EMPTY, 0) and pl.dome_tile[7] == K, "the completed line moved"
        assert pl.chips == [] and pl.used_chips == [7, 8]
    assert (g.state.pending.kind, g.state.pending.data) == ("tile", (2,))
    events += decide(g, "tile 2")
    assert pl.dome_tile[13] == B and line(g, 0, 3) == (EMPTY, 0)
    assert len(moves(events)) == (3 if decision != "no-bonus" else 2)
    assert g.state.pending is None and g.state.phase == "acquisition" and g.state.round == 2


def _dead_band(g: Any) -> None:
    """P1's top band is full: row 1 yellow, black | black, special | special, black (yellow taken);
    row 2 turquoise, special | turquoise, red | red, blue. No red space in row 1, no yellow in row 2."""
    put_plate(g, 0, 0, 1)
    put_plate(g, 0, 1, 5)
    put_plate(g, 0, 2, 7)
    set_tiles(g, 0, {0: Y})


@pytest.mark.clause("duel.tiling.top-to-bottom", "duel.tiling.unplaceable", "duel.bonus.complete-line")
def test_under_complete_only_a_complete_dead_line_breaks_and_a_chip_completed_one_stays(
        round_one: dict[str, Any]) -> None:
    """Readings: chips may be spent on a line that cannot move (spend-anyway), and only complete lines
    break when unplaceable (complete-only). Line 1 (one red, complete, no red space, band full)
    breaks; line 2 (one yellow of two, no yellow space) gets chips C17+C20 (yellow, yellow), which
    are used up, but chips are no tiles: the line is still incomplete and stays."""
    def setup(g: Any) -> None:
        _dead_band(g)
        set_line(g, 0, 1, R, 1)
        set_line(g, 0, 2, Y, 1)
        give_chips(g, 0, 17, 20)
        g.state.players[0].score = 5

    g, events = tiled(round_one, setup, **{"duel.bonus.unmovable-line": "spend-anyway",
                                "duel.tiling.unplaceable-scope": "complete-only"})
    assert line(g, 0, 1) == (EMPTY, 0), "the complete unplaceable line broke"
    assert (g.state.pending.kind, g.state.pending.data) == ("bonus", (1,))
    events += decide(g, "bonus C17+C20")
    pl = g.state.players[0]
    assert line(g, 0, 2) == (Y, 1), "the chip-completed line cannot move and stays"
    assert pl.used_chips == [17, 20]
    broken = [e.detail for e in events if e.kind == "broken"]
    assert broken == ["1 red broken"]
    assert pl.score == 4, "one Broken tile: 1 point"


@pytest.mark.clause("duel.tiling.top-to-bottom", "duel.score.broken-penalty")
def test_the_second_player_pays_for_tiles_broken_in_their_own_tiling(
        round_one: dict[str, Any]) -> None:
    """P2's complete red line 1 cannot be placed (full band, no red space): it breaks during P2's
    tiling, and P2 pays for it after P2's lines, not before."""
    def setup(g: Any) -> None:
        for slot, plate in ((0, 1), (1, 5), (2, 7)):
            put_plate(g, 1, slot, plate)
        set_line(g, 1, 1, R, 1)
        g.state.players[1].score = 5

    g, events = tiled(round_one, setup)
    p2 = g.state.players[1]
    assert line(g, 1, 1) == (EMPTY, 0) and p2.broken == []
    assert p2.score == 4
    assert [(e.player, e.points) for e in events if e.kind == "penalty"] == [(1, -1)]


@pytest.mark.clause("duel.tiling.top-to-bottom", "duel.end.after-round-5")
@pytest.mark.parametrize("round_", [4, 5])
def test_leftover_lines_break_after_the_last_line_of_round_5_only(
        round_one: dict[str, Any], round_: int) -> None:
    """Reading `broken`: after round 5's Dome-tiling, tiles left on a line break. P1 (first) keeps one
    black tile on line 2; P2's complete line 1 moves to the Dome before any of P2's leftovers are
    handled. In round 4 the same leftover stays."""
    def setup(g: Any) -> None:
        g.state.round = round_
        set_line(g, 0, 2, K, 1)
        g.state.players[0].score = 10
        put_plate(g, 1, 0, 2)                  # P2 row 1: wild, blue
        set_line(g, 1, 1, R, 1)

    g, events = tiled(round_one, setup, **{"duel.end.leftover-lines": "broken"})
    assert g.state.players[1].dome_tile[0] == R, "P2's complete line moved"
    leftovers = [(e.player, e.detail) for e in events if e.kind == "broken"]
    if round_ == 5:
        assert line(g, 0, 2) == (EMPTY, 0) and leftovers == [(0, "1 black broken")]
        assert [(e.player, e.points) for e in events if e.kind == "penalty"] == [(0, -1)]
    else:
        assert line(g, 0, 2) == (K, 1) and leftovers == []


# --- Bonus-chip refusals ----------------------------------------------------------------------------

def _red_line_three_with_chips(g: Any) -> None:
    put_plate(g, 0, 3, 3)                      # row 3: turquoise, red
    set_line(g, 0, 3, R, 2)                    # one tile missing
    give_chips(g, 0, 4, 5)                     # C04 blue/red, C05 red
    pl = g.state.players[0]
    g.state.chip_supply.remove(10)
    pl.used_chips = [10]                       # C10 (red) is face down: used in an earlier round


@pytest.mark.clause("duel.bonus.complete-line")
@pytest.mark.parametrize("chips", ["C05+C05", "C05+C10", "C05+C06"])
def test_chips_must_be_distinct_and_face_up_in_the_players_storage(
        round_one: dict[str, Any], chips: str) -> None:
    """The same chip twice, a face-down (used) chip, a chip from the supply: refused, state unchanged."""
    g, _ = tiled(round_one, _red_line_three_with_chips)
    assert g.state.pending.kind == "bonus"
    before = g.state.copy()
    with pytest.raises(IllegalAction) as err:
        g.apply(parse_action(f"bonus {chips}"))
    assert err.value.clause == "duel.bonus.complete-line"
    assert err.value.reason == "those chips are not face up in the player's storage"
    assert g.state == before


@pytest.mark.clause("duel.bonus.complete-line")
def test_one_chip_cannot_replace_a_missing_tile(round_one: dict[str, Any]) -> None:
    """A missing tile takes two matching chips or three any: one red chip is refused for that reason."""
    g, _ = tiled(round_one, _red_line_three_with_chips)
    before = g.state.copy()
    with pytest.raises(IllegalAction) as err:
        g.apply(parse_action("bonus C05"))
    assert err.value.clause == "duel.bonus.complete-line"
    assert err.value.reason == "1 missing tile(s) take 2 matching or 3 any chips each"
    assert g.state == before



@pytest.mark.clause("duel.bonus.complete-line")
def test_more_chips_than_three_per_missing_tile_are_refused(round_one: dict[str, Any]) -> None:
    """A missing tile takes at most three chips: four face-up chips (two of them red) offered for the
    one tile line 3 lacks are refused for that reason, and the chip decision is not offered them."""
    def setup(g: Any) -> None:
        put_plate(g, 0, 3, 3)                  # row 3: turquoise, red
        set_line(g, 0, 3, R, 2)                # one tile missing
        give_chips(g, 0, 1, 2, 4, 5)           # C04 blue/red, C05 red, two more

    g, _ = tiled(round_one, setup)
    assert g.state.pending.kind == "bonus"
    assert "bonus C01+C02+C04+C05" not in [str(a) for a in g.legal_actions()]
    before = g.state.copy()
    with pytest.raises(IllegalAction) as err:
        g.apply(parse_action("bonus C01+C02+C04+C05"))
    assert err.value.clause == "duel.bonus.complete-line"
    assert err.value.reason == "1 missing tile(s) take 2 matching or 3 any chips each"
    assert g.state == before

# --- duel.bonus.timing=after-pass: the second pass over the lines ------------------------------------

AFTER_PASS = {"duel.bonus.timing": "after-pass"}


def _one_space(g: Any, who: int, n: int, colour: int) -> None:
    """Dome row `n` (1-6) with one space for `colour` (column 1) and yellow spaces elsewhere, without
    plates (no band is full): a complete line of that colour moves there by itself."""
    g.state.players[who].dome_space[(n - 1) * 6:n * 6] = [colour] + [Y] * 5


@pytest.mark.clause("duel.tiling.top-to-bottom", "duel.bonus.complete-line")
def test_after_pass_the_second_pass_offers_chips_line_by_line_down_to_the_sixth(round_one: dict[str, Any]) -> None:
    """Under after-pass the first pass moves only complete lines (line 4 here); the second pass then
    goes down the lines still short: line 2 (a red short of one; P1's two black chips can neither pair
    with red nor make three) gets no offer and is passed over, line 3 (two blacks of three) gets the
    chip decision, and after it is declined so does line 6 (five blacks of six), the last line."""
    def setup(g: Any) -> None:
        for n, colour in ((2, R), (3, K), (4, T), (6, K)):
            _one_space(g, 0, n, colour)
        set_line(g, 0, 2, R, 1)
        set_line(g, 0, 3, K, 2)
        set_line(g, 0, 4, T, 4)
        set_line(g, 0, 6, K, 5)
        give_chips(g, 0, 12, 14)               # both black

    g, events = tiled(round_one, setup, **AFTER_PASS)
    assert line(g, 0, 4) == (EMPTY, 0), "the complete line moved in the first pass"
    p = g.state.pending
    assert (p.kind, p.player, p.data) == ("bonus", 0, (2,)), "line 2 passed over, line 3 offered the chips"
    assert line(g, 0, 2) == (R, 1)
    events += decide(g, "no-bonus")
    p = g.state.pending
    assert p is not None and (p.kind, p.data) == ("bonus", (5,)), "the second pass reaches line 6"
    events += decide(g, "bonus C12+C14")
    pl = g.state.players[0]
    assert line(g, 0, 6) == (EMPTY, 0) and pl.dome_tile[30] == K, "line 6 completed and moved"
    assert line(g, 0, 3) == (K, 2) and line(g, 0, 2) == (R, 1), "declined and unhelped lines stay"
    assert g.state.pending is None and g.state.phase == "acquisition" and g.state.round == 2


@pytest.mark.clause("duel.tiling.top-to-bottom")
def test_after_pass_tiling_with_nothing_to_decide_runs_both_players_to_the_end(round_one: dict[str, Any]) -> None:
    """Two passes over six lines for each player, with no decision in between, all in one go: the
    tiling's loop bound must allow the whole of it (a complete line of each player moves, then the
    round goes on)."""
    def setup(g: Any) -> None:
        for who in (0, 1):
            _one_space(g, who, 1, B)
            set_line(g, who, 1, B, 1)

    g, events = tiled(round_one, setup, **AFTER_PASS)
    assert [who for who, _ in moves(events)] == [0, 1]
    assert g.state.pending is None and g.state.phase == "acquisition" and g.state.round == 2


@pytest.mark.clause("duel.tiling.top-to-bottom", "duel.bonus.complete-line")
@pytest.mark.parametrize("timing", ["as-reached", "after-pass"])
def test_a_chip_decision_is_recorded_as_decided_by_the_bonus_timing_in_force(
        round_one: dict[str, Any], timing: str) -> None:
    """Line 3 short of one with two matching chips: the chip decision comes under either timing, and
    the record names the reading in force as the one that decided when (never the other)."""
    def setup(g: Any) -> None:
        _one_space(g, 0, 3, K)
        set_line(g, 0, 3, K, 2)
        give_chips(g, 0, 12, 14)

    with record() as rec:
        g, _ = tiled(round_one, setup, **{"duel.bonus.timing": timing})
    assert (g.state.pending.kind, g.state.pending.data) == ("bonus", (2,))
    decided = {alt for (point, alt), n in rec.alternatives.items() if point == "duel.bonus.timing" and n}
    assert decided == {timing}
