"""Guards for Phase 1's picks, pattern lines and Broken tiles (issue 10, group A2).

Each test pins one rule outcome that a planted rule bug (a surviving mutant) changed: where the
picked tiles and the leftovers end up, whose board and whose events they are, which actions are
refused and under which clause, and, for rule sites whose only effect is the coverage record, that
the record credits the clause or interpretation alternative exactly where it decided something
(the report's "fired" and alternative counts are the harness's output).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager

import attrs
import pytest

from model.clauses import RECORDER, recording
from model.duel import Action, Game, IllegalAction, Kind, parse_action
from model.duel.colours import EMPTY
from model.duel.dome import matching_cells
from tests.helpers import B, K, R, T, Y, bare, empty_table, in_acquisition, play, put_plate, set_line, set_small

WHOLE_BATCH = ("duel.lines.voluntary-break", "whole-batch")
ANY_SPLIT = ("duel.lines.voluntary-break", "any-split")
NO_CAP = ("duel.chips.per-round", "no-cap")
HARD_CAP = ("duel.chips.per-round", "hard-cap")


@attrs.define
class Fired:
    """What the coverage record credited inside a `fired()` block."""

    clauses: Counter[str] = attrs.field(factory=Counter)
    alternatives: Counter[tuple[str, str]] = attrs.field(factory=Counter)


@contextmanager
def fired() -> Iterator[Fired]:
    """Record clause and alternative hits in the block without losing the test's own tracking."""
    out = Fired()
    clauses, alternatives = Counter(RECORDER.clauses), Counter(RECORDER.alternatives)
    with recording(reset=False):
        yield out
        out.clauses.update(RECORDER.clauses - clauses)
        out.alternatives.update(RECORDER.alternatives - alternatives)


def table(**readings: str) -> Game:
    """Round 1's Acquisition with every Factory emptied and player 1 (index 0) to move."""
    g = in_acquisition(0, **readings)
    empty_table(g)
    g.state.to_move = 0
    return g


def set_large(g: Game, sun: dict[int, int] | None = None, moon: dict[int, int] | None = None) -> None:
    s = g.state
    for where, counts in ((s.large.sun, sun), (s.large.moon, moon)):
        for c, n in (counts or {}).items():
            s.bag[c] -= n
            where[c] += n


def refusal(g: Game, action: Action | str) -> tuple[str, str]:
    """The (clause, reason) of a refused action; the position must be unchanged."""
    a = parse_action(action) if isinstance(action, str) else action
    before = g.state.copy()
    with pytest.raises(IllegalAction) as err:
        g.apply(a)
    assert g.state == before, f"refusing {a} changed the position"
    return err.value.clause, err.value.reason


def of_kind(events: list, kind: str) -> list:
    return [e for e in events if e.kind == kind]


# --- sun picks -------------------------------------------------------------------------------


@pytest.mark.clause("duel.acquire.actions", "duel.acquire.sun.take-colour", "duel.acquire.sun.large-leftovers")
def test_large_sun_pick_takes_the_colour_and_moves_every_other_colour_to_the_moon() -> None:
    g = table()
    s = g.state
    set_large(g, sun={B: 2, R: 1, T: 3})
    play(g, "sun L blue")
    assert s.pending.kind == "line" and s.pending.data == (B, 2) and g.current_player == 0
    assert s.large.sun == [0, 0, 0, 0, 0], "the large sun is emptied"
    assert s.large.moon == [0, 0, 1, 0, 3], "the picked blue is not left behind; red and turquoise move"
    play(g, "line 2")
    assert (s.players[0].line_colour[1], s.players[0].line_count[1]) == (B, 2), "the picker places them"
    assert s.players[1].line_count == [0] * 6


@pytest.mark.clause("duel.acquire.actions", "duel.acquire.sun.small-leftovers", "duel.acquire.sun.take-colour")
def test_small_sun_pick_with_one_leftover_colour_stacks_it_on_the_moon() -> None:
    g = table()
    s = g.state
    set_small(g, 1, sun={B: 1, T: 3}, chip=4)
    events = play(g, "sun 1 blue")
    assert s.small[0].sun == [0] * 5 and s.small[0].moon == [T, T, T]
    assert not s.small[0].chip_revealed and not of_kind(events, "reveal-chip"), "tiles remain: chip hidden"
    assert s.pending.data == (B, 1)


@pytest.mark.clause("duel.acquire.sun.take-colour")
def test_sun_pick_of_a_colour_the_factory_lacks_is_refused() -> None:
    g = table()
    set_small(g, 1, sun={Y: 3, R: 1}, chip=4)
    assert refusal(g, "sun 1 blue")[0] == "duel.acquire.sun.take-colour"
    assert refusal(g, Action(Kind.SUN, (5, Y)))[0] == "duel.acquire.sun.take-colour"


# --- moon picks ------------------------------------------------------------------------------


@pytest.mark.clause("duel.acquire.actions", "duel.acquire.moon.reveal-chip", "duel.acquire.chip.accessible")
def test_moon_pick_reveals_the_chip_of_the_factory_it_emptied_only() -> None:
    g = table()
    s = g.state
    set_small(g, 1, sun={Y: 4}, chip=3)
    set_small(g, 2, moon=[R], chip=6)
    events = play(g, "moon red")
    assert s.small[1].chip_revealed and not s.small[0].chip_revealed
    assert [e.detail for e in of_kind(events, "reveal-chip")] == ["Factory 2 is empty: C06 revealed"]


@pytest.mark.clause("duel.acquire.actions", "duel.acquire.moon.start-player-tile", "duel.acquire.moon.take-colour")
def test_large_moon_pick_takes_the_colour_and_the_starting_player_tile() -> None:
    g = table()
    s = g.state
    set_large(g, moon={R: 2, K: 1})
    set_small(g, 1, moon=[R], chip=3)
    events = play(g, "moon red")
    assert s.pending.data == (R, 3) and g.current_player == 0
    assert s.large.moon == [0, 0, 0, 1, 0], "no red is left on the large moon"
    assert s.players[0].start_tile and not s.players[1].start_tile and not s.large.start_tile
    assert [(e.player, e.clause) for e in of_kind(events, "start-tile")] == \
        [(0, "duel.acquire.moon.start-player-tile")]
    play(g, "line 3")
    assert (s.players[0].line_colour[2], s.players[0].line_count[2]) == (R, 3)
    assert s.players[1].line_count == [0] * 6
    # the tile is gone: player 2's large-moon pick takes no Starting player tile
    events = play(g, "moon black")
    assert s.players[0].start_tile and not s.players[1].start_tile and not of_kind(events, "start-tile")


@pytest.mark.clause("duel.acquire.actions", "duel.acquire.moon.top-tile-only")
def test_moon_pick_takes_one_top_tile_even_over_the_same_colour() -> None:
    g = table()
    s = g.state
    set_small(g, 1, moon=[R, R], chip=3)
    with fired() as rec:
        play(g, "moon red")
    assert s.small[0].moon == [R] and s.pending.data == (R, 1) and not s.small[0].chip_revealed
    assert rec.clauses["duel.acquire.moon.top-tile-only"] == 1, "the buried red stayed because of top-tile-only"


# --- Bonus chips -----------------------------------------------------------------------------


@pytest.mark.clause("duel.acquire.chip.take")
def test_chip_action_on_a_factory_without_a_chip_is_refused_naming_chip_take() -> None:
    g = table()
    set_small(g, 4, chip=9, revealed=True)
    set_small(g, 1, chip=5, revealed=True)
    assert refusal(g, "chip 2")[0] == "duel.acquire.chip.take", "an empty Factory with no chip"
    assert refusal(g, Action(Kind.CHIP, (0,)))[0] == "duel.acquire.chip.take", "Factories are 1-4"
    assert refusal(g, Action(Kind.CHIP, (5,)))[0] == "duel.acquire.chip.take"


@pytest.mark.clause("duel.acquire.chip.take", "duel.acquire.chip.limit")
def test_taken_chips_are_held_in_id_order_and_leave_no_face_up_chip() -> None:
    g = table()
    s = g.state
    set_small(g, 1, chip=7, revealed=True)
    set_small(g, 2, chip=3, revealed=True)
    set_small(g, 3, chip=2, revealed=True)
    set_large(g, sun={B: 1, R: 1})
    play(g, "chip 1", "chip 2", "chip 3")
    assert s.players[0].chips == [2, 7] and s.players[1].chips == [3]
    assert all(f.chip == 0 and not f.chip_revealed for f in s.small), "no chip shows on any Factory"
    play(g, "sun L blue", "line 1")
    # player 1 holds two chips but no chip is showing: the hard cap decides nothing
    with fired() as rec:
        legal = {str(a) for a in g.legal_actions()}
    assert "moon red" in legal and not any(a.startswith("chip") for a in legal)
    assert rec.alternatives[HARD_CAP] == 0 and rec.clauses["duel.acquire.chip.limit"] == 0


@pytest.mark.clause("duel.acquire.chip.take", "duel.acquire.chip.limit")
def test_only_a_third_chip_in_a_round_is_credited_to_the_no_cap_reading() -> None:
    g = table(**{"duel.chips.per-round": "no-cap"})
    s = g.state
    for f, chip in ((1, 7), (2, 3), (3, 2), (4, 9)):
        set_small(g, f, chip=chip, revealed=True)
    set_large(g, sun={B: 1, R: 1})
    credited = []
    for move in ("chip 1", "chip 2", "chip 3", "sun L blue", "line 1", "chip 4"):
        with fired() as rec:
            play(g, move)
        credited.append(rec.alternatives[NO_CAP])
    assert credited == [0, 0, 0, 0, 0, 1], "only player 1's third chip needs the no-cap reading"
    assert s.players[0].chips == [2, 7, 9] and s.players[0].chips_this_round == 3


# --- pattern lines and Broken tiles ----------------------------------------------------------


def picked(g: Game, colour: int, n: int) -> None:
    """Player 1 (index 0) has just picked `n` tiles of `colour` from the large sun."""
    set_large(g, sun={colour: n, K: 1})
    play(g, f"sun L {('blue', 'yellow', 'red', 'black', 'turquoise')[colour]}")
    assert g.state.pending.data == (colour, n)


@pytest.mark.clause("duel.lines.one-line", "duel.broken.stack", "duel.broken.capacity", "duel.lines.capacity")
def test_a_line_choice_fills_the_pickers_line_and_breaks_nothing() -> None:
    g = table()
    s = g.state
    picked(g, B, 1)
    with fired() as rec:
        events = play(g, "line 1")
    assert (s.players[0].line_colour[0], s.players[0].line_count[0]) == (B, 1) and s.players[0].broken == []
    assert [(e.player, e.clause, e.detail) for e in of_kind(events, "line")] == \
        [(0, "duel.lines.one-line", "1 blue on line 1")]
    assert not of_kind(events, "broken")
    assert rec.alternatives[WHOLE_BATCH] == 0, "a single tile cannot be split: the reading decides nothing"


@pytest.mark.clause("duel.broken.stack", "duel.broken.capacity", "duel.lines.one-line")
def test_broken_sends_the_whole_batch_to_the_broken_space_of_the_picker() -> None:
    g = table()
    s = g.state
    picked(g, T, 2)
    with fired() as rec:
        events = play(g, "broken")
    assert s.players[0].broken == [T, T] and s.players[0].line_count == [0] * 6
    assert s.players[0].line_colour == [EMPTY] * 6 and s.tower[T] == 0
    assert [(e.player, e.clause) for e in of_kind(events, "broken")] == [(0, "duel.broken.stack")]
    assert rec.clauses["duel.broken.capacity"] == 0, "both tiles fit: the capacity rule decides nothing"


@pytest.mark.clause("duel.lines.overflow", "duel.lines.right-to-left", "duel.lines.same-colour",
                    "duel.broken.stack", "duel.lines.one-line")
def test_overflow_of_a_partly_filled_line_breaks_the_excess_under_overflow() -> None:
    g = table()
    s = g.state
    set_line(g, 0, 3, B, 1)
    picked(g, B, 3)
    with fired() as rec:
        events = play(g, "line 3")
    assert s.players[0].line_count[2] == 3 and s.players[0].broken == [B]
    assert [(e.player, e.clause, e.detail) for e in of_kind(events, "broken")] == \
        [(0, "duel.lines.overflow", "1 blue broken")]
    assert [e.detail for e in of_kind(events, "line")] == ["2 blue on line 3"]
    assert rec.clauses["duel.lines.same-colour"] == 1 and rec.alternatives[WHOLE_BATCH] == 1
    assert rec.alternatives[ANY_SPLIT] == 0


@pytest.mark.clause("duel.lines.same-colour", "duel.lines.right-to-left", "duel.lines.one-line")
def test_same_colour_is_credited_only_when_the_line_already_holds_tiles() -> None:
    g = table()
    picked(g, R, 2)
    with fired() as rec:
        play(g, "line 4")
    assert g.state.players[0].line_count[3] == 2
    assert rec.clauses["duel.lines.same-colour"] == 0 and rec.alternatives[WHOLE_BATCH] == 1


@pytest.mark.clause("duel.lines.one-line", "duel.lines.right-to-left", "duel.broken.stack", "duel.lines.overflow")
def test_any_split_places_the_chosen_number_and_breaks_the_rest_under_broken_stack() -> None:
    g = table(**{"duel.lines.voluntary-break": "any-split"})
    s = g.state
    picked(g, Y, 3)
    assert refusal(g, "line 4 x0")[0] == "duel.lines.one-line", "x0 is 'broken', not a split"
    clause, why = refusal(g, "line 4 x3")
    assert clause == "duel.lines.one-line" and "x3" in why, "placing all 3 is plain 'line 4'"
    with fired() as rec:
        events = play(g, "line 4 x1")
    assert (s.players[0].line_colour[3], s.players[0].line_count[3]) == (Y, 1) and s.players[0].broken == [Y, Y]
    assert [(e.player, e.clause, e.detail) for e in of_kind(events, "broken")] == \
        [(0, "duel.broken.stack", "2 yellow broken")]
    assert rec.alternatives[ANY_SPLIT] == 1 and rec.alternatives[WHOLE_BATCH] == 0


@pytest.mark.clause("duel.lines.one-line", "duel.lines.right-to-left")
def test_any_split_reading_decides_nothing_when_the_whole_batch_is_placed() -> None:
    g = table(**{"duel.lines.voluntary-break": "any-split"})
    picked(g, Y, 3)
    with fired() as rec:
        play(g, "line 4")
    assert g.state.players[0].line_count[3] == 3 and g.state.players[0].broken == []
    assert rec.alternatives[ANY_SPLIT] == 0 and rec.alternatives[WHOLE_BATCH] == 0


@pytest.mark.clause("duel.lines.capacity")
def test_line_numbers_outside_1_to_6_and_full_lines_are_refused_naming_capacity() -> None:
    g = table()
    set_line(g, 0, 2, B, 2)
    picked(g, B, 2)
    assert refusal(g, Action(Kind.LINE, (7,)))[0] == "duel.lines.capacity"
    assert refusal(g, "line 2") == ("duel.lines.capacity", "line 2 is already complete (use 'broken')")
    assert g.why_illegal(parse_action("line 6")) is None, "line 6 holds six tiles"
    play(g, "line 6")
    assert g.state.players[0].line_count[5] == 2


def _matching_colour(g: Game, who: int, line: int) -> int:
    """A colour with an empty matching Dome space in the row of `line` (1-based)."""
    pl = g.state.players[who]
    found = [c for c in (B, Y, R, K, T) if matching_cells(pl, line - 1, c)]
    assert found, f"the test plate gives row {line} no space"
    return found[0]


@pytest.mark.clause("duel.lines.premature", "duel.lines.right-to-left")
def test_premature_is_credited_only_for_a_line_with_no_matching_dome_space() -> None:
    g = bare()
    empty_table(g)
    g.state.to_move = 0
    put_plate(g, 0, 0, g.state.pile[0])             # the top-left plate covers rows 1-2
    colour = _matching_colour(g, 0, 1)
    picked(g, colour, 1)
    with fired() as rec:
        play(g, "line 1")
    assert rec.clauses["duel.lines.premature"] == 0, "row 1 has a space for it"
    g.state.to_move = 0
    picked(g, colour, 2)
    with fired() as rec:
        play(g, "line 5")
    assert g.state.players[0].line_count[4] == 2
    assert rec.clauses["duel.lines.premature"] == 1, "row 5 has no plate yet: placed prematurely"


@pytest.mark.clause("duel.acquire.actions")
def test_a_hand_built_action_with_the_wrong_number_of_arguments_is_refused() -> None:
    from model.duel import new_game
    from model.duel.serialize import state_to_data as to_data

    g = new_game(seed=3)
    while not any(a.kind is Kind.CHIP for a in g.legal_actions()) and not g.is_over:
        g.apply(g.legal_actions()[0])
    chip = next(a for a in g.legal_actions() if a.kind is Kind.CHIP)
    for bad in (Action(Kind.CHIP, chip.args + (2,)), Action(Kind.CHIP, ()), Action(Kind.PASS, (1,))):
        assert g.why_illegal(bad) is not None and g.why_illegal(bad)[0] == "duel.acquire.actions"
        before = to_data(g.state)
        with pytest.raises(IllegalAction, match="duel.acquire.actions"):
            g.apply(bad)
        assert to_data(g.state) == before


@pytest.mark.clause("duel.acquire.actions")
def test_any_hand_built_action_is_refused_or_legal_never_a_crash() -> None:
    """Bad input: actions of every kind with arguments out of every range (hand-built, as a script or a
    scenario file could) get a refusal naming a clause, never an exception; the state stays as it was."""
    import random

    from model.duel import new_game
    from model.duel.serialize import state_to_data

    rng = random.Random(7)
    for seed in (0, 1):
        g = new_game(seed=seed)
        for _ in range(150):
            if g.is_over:
                break
            for _ in range(12):
                bad = Action(rng.choice(list(Kind)), tuple(rng.randint(-3, 24) for _ in range(rng.choice([1, 2]))))
                why = g.why_illegal(bad)                       # must not raise
                if why is not None:
                    before = state_to_data(g.state)
                    with pytest.raises(IllegalAction, match=why[0]):
                        g.apply(bad)
                    assert state_to_data(g.state) == before
            g.apply(rng.choice(g.legal_actions()))


@pytest.mark.clause("duel.acquire.sun.take-colour", "duel.acquire.moon.take-colour")
def test_a_pick_naming_a_colour_outside_the_five_is_refused() -> None:
    from model.duel import new_game
    from model.duel.serialize import state_to_data as to_data

    g = new_game(seed=3)
    while not any(a.kind is Kind.SUN for a in g.legal_actions()):
        g.apply(g.legal_actions()[0])
    sun = next(a for a in g.legal_actions() if a.kind is Kind.SUN)
    for colour in (-1, 5):
        for bad, clause in ((Action(Kind.SUN, (sun.args[0], colour)), "duel.acquire.sun.take-colour"),
                            (Action(Kind.MOON, (colour,)), "duel.acquire.moon.take-colour")):
            assert g.why_illegal(bad) == (clause, f"colour {colour} is not one of the 5 colours")
            before = to_data(g.state)
            with pytest.raises(IllegalAction, match=clause):
                g.apply(bad)
            assert to_data(g.state) == before
    assert g.why_illegal(sun) is None                      # colour 0..4 stay pickable
