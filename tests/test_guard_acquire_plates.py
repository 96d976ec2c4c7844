"""Guards for Phase 1's plate actions, passing, turn order and the end of Acquisition.

Each test pins down one rule outcome a planted rule bug (a survivor of `azul-rules mutate`) got
wrong: refusals of out-of-range or occupied spaces (naming the clause, state unchanged), the
events' wording, the pay at 1 point, the token limit, turn alternation after a pass, and the
clause trace: which rule and which interpretation alternative the model records as having applied
(`model.clauses.recording`, the record the coverage report and the interpretation matrix are built
from).
"""

from __future__ import annotations

from collections import Counter

import pytest

from model.clauses import recording
from model.duel import Action, Game, IllegalAction, Kind, parse_action
from tests.helpers import B, empty_table, in_acquisition, play, set_small


def _fired(game: Game, *moves: str) -> tuple[Counter[str], Counter[tuple[str, str]], list[str]]:
    """Play `moves`; the clauses and interpretation alternatives they fired, and their events."""
    with recording(reset=False) as rec:
        clauses, alternatives = Counter(rec.clauses), Counter(rec.alternatives)
        events = play(game, *moves)
        return rec.clauses - clauses, rec.alternatives - alternatives, [str(e) for e in events]


def _refused(game: Game, action: Action, clause: str) -> str:
    """Assert `action` is refused naming `clause` and leaves the state unchanged; the reason."""
    before = game.state.copy()
    with pytest.raises(IllegalAction) as info:
        game.apply(action)
    assert info.value.clause == clause, info.value
    assert game.state == before
    return info.value.reason


def _empty_factories(seed: int = 0, **overrides: str) -> Game:
    """Round 1's Acquisition with every Factory empty, P1 to move."""
    g = in_acquisition(seed, **overrides)
    empty_table(g)
    g.state.to_move = 0
    return g


def _free_space(game: Game, who: int) -> int:
    return next(i for i in range(9) if not game.state.players[who].plates[i]) + 1


def _plate_turn(game: Game) -> None:
    """The player to move takes the first displayed plate and places it on their first free space."""
    who = game.current_player
    space = next(i for i, p in enumerate(game.state.display) if p) + 1
    play(game, f"plate {space}", f"place {_free_space(game, who)} r0")


# --- duel.acquire.plate.display ------------------------------------------------------------------

@pytest.mark.clause("duel.acquire.plate.display")
def test_an_emptied_display_space_cannot_be_taken_from_and_says_which() -> None:
    g = in_acquisition(0)
    s = g.state
    _plate_turn(g)                                   # P1 takes the plate of display space 1
    assert s.display[0] == 0 and s.display[1] and s.display[2]
    reason = _refused(g, parse_action("plate 1"), "duel.acquire.plate.display")
    assert reason == "display space 1 is empty"
    play(g, "plate 2")                               # the other spaces still offer their plates


@pytest.mark.clause("duel.acquire.plate.display")
@pytest.mark.parametrize("space", [-1, 3])
def test_a_display_space_outside_the_three_is_refused(space: int) -> None:
    g = in_acquisition(0)
    assert all(g.state.display)
    _refused(g, Action(Kind.TAKE_PLATE, (space,)), "duel.acquire.plate.display")


# --- duel.acquire.plate.placement ----------------------------------------------------------------

@pytest.mark.clause("duel.acquire.plate.placement")
def test_an_occupied_dome_space_is_refused_and_named() -> None:
    g = in_acquisition(0)
    pl = g.state.players[0]
    assert pl.plates[0] and not pl.plates[8]
    play(g, "plate 1")
    reason = _refused(g, parse_action("place 1 r0"), "duel.acquire.plate.placement")
    assert reason == "Dome space 1 is not empty"
    play(g, "place 9 r3")                            # the last Dome space is a Dome space too
    assert pl.plates[8] and pl.rotations[8] == 3


@pytest.mark.clause("duel.acquire.plate.placement")
@pytest.mark.parametrize("space,rotation", [(-1, 0), (9, 0), (4, -1), (4, 4)])
def test_a_space_or_rotation_outside_the_dome_is_refused(space: int, rotation: int) -> None:
    g = in_acquisition(0)
    assert not g.state.players[0].plates[8]         # space -1 must not wrap round to space 9
    play(g, "plate 1")
    _refused(g, Action(Kind.PLACE_PLATE, (space, rotation)), "duel.acquire.plate.placement")


# --- duel.acquire.plate.draw, draw-blind, token --------------------------------------------------

@pytest.mark.clause("duel.acquire.plate.draw", "duel.acquire.plate.draw-blind")
@pytest.mark.parametrize("reading", ["free-at-zero", "must-pay"])
def test_a_draw_at_one_point_is_allowed_and_costs_that_point(reading: str) -> None:
    g = in_acquisition(4, **{"duel.plate.draw-at-zero": reading})
    g.state.players[0].score = 1
    assert g.why_illegal(parse_action("draw")) is None
    _, alternatives, events = _fired(g, "draw")
    assert g.state.players[0].score == 0
    assert any(e.startswith("P1 pay -1:") for e in events), events
    assert ("duel.plate.draw-at-zero", "free-at-zero") not in alternatives


@pytest.mark.clause("duel.acquire.plate.draw", "duel.acquire.plate.draw-blind")
@pytest.mark.parametrize("score,at_zero", [(3, False), (0, True)])
def test_only_a_draw_at_zero_points_is_recorded_as_the_free_at_zero_reading(score: int, at_zero: bool) -> None:
    g = in_acquisition(4)
    g.state.players[0].score = score
    clauses, alternatives, _ = _fired(g, "draw")
    assert (("duel.plate.draw-at-zero", "free-at-zero") in alternatives) is at_zero
    assert ("duel.score.floor" in clauses) is at_zero


@pytest.mark.clause("duel.acquire.plate.token")
@pytest.mark.parametrize("move", ["plate 1", "draw"])
def test_no_third_plate_in_a_round(move: str) -> None:
    g = in_acquisition(0)
    g.state.players[0].tokens_used = 2
    _refused(g, parse_action(move), "duel.acquire.plate.token")


# --- duel.acquire.turn-order, duel.acquire.pass, duel.acquire.pass.asymmetric ----------------------

@pytest.mark.clause("duel.acquire.turn-order", "duel.acquire.end")
def test_turns_alternate_and_no_hand_over_is_reported_as_a_stall() -> None:
    g = in_acquisition(0)
    for expected_next in (1, 0, 1):
        space = next(i for i, p in enumerate(g.state.display) if p) + 1
        clauses, _, events = _fired(g, f"plate {space}", f"place {_free_space(g, g.current_player)} r0")
        assert g.current_player == expected_next
        assert clauses["duel.acquire.turn-order"] == 1 and "duel.acquire.pass.asymmetric" not in clauses
        assert not any("stalled" in e for e in events), events


def _p1_must_pass(**overrides: str) -> Game:
    """P1 at the chip cap with both tokens used; P2 has two chips to take and one token to use."""
    g = _empty_factories(**overrides)
    s = g.state
    s.players[0].tokens_used = 2
    s.players[1].tokens_used = 1
    s.players[0].chips_this_round = 2
    set_small(g, 1, moon=[B], chip=1)
    set_small(g, 2, chip=2, revealed=True)
    play(g, "moon blue", "broken")                  # P1 empties Factory 1: its chip is revealed
    return g


@pytest.mark.clause("duel.acquire.pass", "duel.acquire.pass.asymmetric", "duel.acquire.turn-order")
@pytest.mark.parametrize("reading", ["permanent", "recheck"])
def test_after_a_pass_the_other_player_acts_on_alone(reading: str) -> None:
    g = _p1_must_pass(**{"duel.acquire.pass.permanent": reading})
    play(g, "chip 1")                               # P2
    assert [str(a) for a in g.legal_actions()] == ["pass"]
    clauses, _, events = _fired(g, "pass")
    assert any(e.startswith("P1 pass:") for e in events), events
    assert g.current_player == 1
    assert "duel.acquire.turn-order" in clauses, "P2 is next as usual"
    assert "duel.acquire.pass.asymmetric" not in clauses
    clauses, _, _ = _fired(g, "chip 2")
    assert g.current_player == 1 and g.state.players[0].passed, "P1 stays out: P2 acts again"
    assert "duel.acquire.pass.asymmetric" in clauses and "duel.acquire.turn-order" not in clauses
    _plate_turn(g)
    assert g.state.round == 2


@pytest.mark.clause("duel.acquire.pass", "duel.acquire.turn-order")
def test_a_pass_lasts_only_for_its_round() -> None:
    g = _p1_must_pass()
    play(g, "chip 1", "pass", "chip 2")             # P2, P1 passes, P2 again
    _plate_turn(g)                                  # and again: round 1 is over
    s = g.state
    assert s.round == 2 and s.phase == "acquisition"
    assert not any(pl.passed for pl in s.players)
    first = g.current_player
    _plate_turn(g)
    assert g.current_player == 1 - first
    _plate_turn(g)
    assert g.current_player == first, "the player who passed in round 1 takes turns again in round 2"


# --- duel.acquire.end, duel.acquire.plate.tokens-required ----------------------------------------

def _last_tile_of_the_round(round_: int, **overrides: str) -> Game:
    """Round `round_`, every Factory empty but one blue tile on Factory 1, all tokens used."""
    g = _empty_factories(**overrides)
    s = g.state
    s.round = round_
    for pl in s.players:
        pl.tokens_used = 2 if round_ < 5 else 0
    set_small(g, 1, moon=[B])
    return g


@pytest.mark.clause("duel.acquire.end", "duel.acquire.plate.tokens-required")
@pytest.mark.parametrize("round_,tokens_rule", [(1, True), (4, True), (5, False)])
def test_the_end_of_acquisition_records_the_token_rule_in_rounds_1_to_4_only(
        round_: int, tokens_rule: bool) -> None:
    g = _last_tile_of_the_round(round_)
    clauses, _, events = _fired(g, "moon blue", "broken")
    assert any("acquisition -> dome_tiling" in e for e in events), events
    assert clauses["duel.acquire.end"] >= 1
    assert ("duel.acquire.plate.tokens-required" in clauses) is tokens_rule


@pytest.mark.clause("duel.acquire.end")
def test_a_token_still_unused_by_an_active_player_is_no_case_for_the_passed_tokens_point() -> None:
    g = _empty_factories(**{"duel.acquire.end.passed-tokens": "strict"})
    s = g.state
    s.players[0].tokens_used = 2
    s.players[1].tokens_used = 1
    set_small(g, 1, moon=[B])
    _, alternatives, events = _fired(g, "moon blue", "broken")   # Factories empty, P2 holds a token
    assert s.phase == "acquisition" and g.current_player == 1
    assert not any(a[0] == "duel.acquire.end.passed-tokens" for a in alternatives), alternatives
    assert not any("stalled" in e for e in events)


def _passed_with_a_token(reading: str) -> Game:
    """P1 (0 points, must-pay, display empty) passes with a token unused after the last pick."""
    g = _empty_factories(**{"duel.acquire.end.passed-tokens": reading, "duel.plate.draw-at-zero": "must-pay"})
    s = g.state
    s.display = [0, 0, 0]
    s.players[0].score = 0
    s.players[0].tokens_used = 1
    s.players[1].tokens_used = 2
    set_small(g, 1, moon=[B], chip=1)
    play(g, "moon blue", "broken", "chip 1")         # P1 empties the last Factory, P2 takes its chip
    return g


@pytest.mark.clause("duel.acquire.end")
def test_a_passed_player_s_unused_token_is_recorded_under_the_reading_in_force() -> None:
    g = _passed_with_a_token("pass-counts-as-done")
    _, alternatives, _ = _fired(g, "pass")
    assert g.state.round == 2
    assert alternatives[("duel.acquire.end.passed-tokens", "pass-counts-as-done")] >= 1
    assert ("duel.acquire.end.passed-tokens", "strict") not in alternatives


@pytest.mark.clause("duel.acquire.end", "duel.acquire.turn-order", "duel.acquire.pass.asymmetric")
def test_a_stall_is_reported_once_and_is_no_hand_over() -> None:
    g = _passed_with_a_token("strict")
    clauses, alternatives, events = _fired(g, "pass")           # P1 passes; P2 is next
    assert g.current_player == 1 and not g.is_stalled
    assert alternatives[("duel.acquire.end.passed-tokens", "strict")] >= 1
    clauses, _, events = _fired(g, "pass")                      # P2 cannot act either
    assert g.is_stalled
    assert [e for e in events if "stalled" in e] == [
        "stalled: nobody can act and the phase cannot end [duel.acquire.end]"]
    assert "duel.acquire.turn-order" not in clauses and "duel.acquire.pass.asymmetric" not in clauses
