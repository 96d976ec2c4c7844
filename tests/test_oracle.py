"""The scoring oracle, the outcome check, the movement table and the refill invariant on their own."""

from __future__ import annotations

import random

import pytest

from model.duel import new_game
from model.duel.actions import parse_action
from model.duel.colours import EMPTY, SPECIAL, WILD
from model.duel.ruleset import Ruleset
from properties.duel.factories import refill_violations
from properties.duel.flows import ACTION_FLOWS, FLOW_CLAUSES, PHASE_FLOWS, flow_violations
from properties.duel.oracle import expected_winner, placement_points, tablet_value
from properties.duel.policy import POLICIES
from properties.duel.steps import check_step
from spec import default_catalogue
from tests.helpers import refill_problems

ORACLE_NAMES = {"scoring-oracle", "outcome", "score-accounting", "component-flows"}


def _checked_games(seeds, overrides=None, tablets=None, policy="greedy") -> list[tuple[int, str, str]]:
    problems = []
    for seed in seeds:
        game = new_game(seed=seed, overrides=dict(overrides or {}), tablets=tablets)
        rng = random.Random(seed)
        step = 0
        while not game.is_over and step < 3000:
            action = POLICIES[policy](game, game.legal_actions(), rng)
            before = game.state.copy()
            events = game.apply(action)
            step += 1
            problems += [(seed, n, m) for n, m in check_step(before, game, events, step, 0, action=action)
                         if n in ORACLE_NAMES]
    return problems


ALTERNATIVES = [
    {},
    {"duel.special.row-points": "band-double"},
    {"duel.broken.penalties": "last-slot-three"},
    {"duel.end.tie-without-tile": "round-starter"},
    {"duel.end.tablet-floor": "losses-first"},
    {"duel.tablet.colourful-rows.special": "counts-as-colour", "duel.tablet.colourful-rows.full": "full-row"},
    {"duel.tablet.corner-values": "upper-8-lower-3"},
    {"duel.score.start": "zero", "duel.plate.draw-at-zero": "must-pay"},
    {"duel.end.leftover-lines": "broken", "duel.tiling.unplaceable-scope": "complete-only"},
    {"duel.bonus.unmovable-line": "spend-anyway", "duel.chips.carry-over": "expire"},
]
TABLET_SETS = [
    None,
    ("colourful-rows", "outer-spaces", "corner-plates", "empty-special-spaces"),
    ("rows-complete", "columns-complete", "diagonals", "wild-spaces"),
]


@pytest.mark.clause("duel.invariant.score-accounting", "duel.score.isolated", "duel.score.horizontal",
                    "duel.score.vertical", "duel.score.broken-penalty", "duel.end.tablets-scored")
@pytest.mark.parametrize("overrides", ALTERNATIVES, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()) or "defaults")
def test_oracle_agrees_with_the_model_under_each_alternative(overrides) -> None:
    for tablets in TABLET_SETS:
        assert _checked_games(range(2), overrides, tablets) == []


def test_oracle_adjacency_by_hand() -> None:
    tiles = [EMPTY] * 36
    assert placement_points(tiles[:0] + [0] + tiles[1:], 0)[0] == 1          # alone
    tiles[0], tiles[1], tiles[2] = 0, 1, SPECIAL                             # a Special tile links
    tiles[8] = 3
    assert placement_points(tiles, 2)[0] == 3 + 2                            # 3 across, 2 down
    assert placement_points(tiles, 8)[0] == 2


def test_oracle_tablets_by_hand() -> None:
    rules = Ruleset.build({})
    spaces = [EMPTY] * 36
    tiles = [EMPTY] * 36
    for c in range(6):                                   # top row full, 5 colours and a Special tile
        spaces[c] = WILD if c == 0 else (SPECIAL if c == 5 else c - 1)
        tiles[c] = SPECIAL if c == 5 else c % 5
    assert tablet_value("rows-complete", rules, spaces, tiles) == 3
    assert tablet_value("colourful-rows", rules, spaces, tiles) == 4
    assert tablet_value("outer-spaces", rules, spaces, tiles) == 6
    assert tablet_value("wild-spaces", rules, spaces, tiles) == 2
    assert tablet_value("empty-special-spaces", rules, spaces, tiles) == 0
    spaces[6] = SPECIAL
    assert tablet_value("empty-special-spaces", rules, spaces, tiles) == -3


@pytest.mark.clause("duel.end.tie-break")
def test_expected_winner_follows_the_tie_break_reading() -> None:
    game = new_game(seed=0)
    s = game.state
    s.players[0].score = s.players[1].score = 7
    s.players[1].start_tile, s.large.start_tile = True, False
    assert expected_winner(s, game.rules) == (1, "duel.end.tie-break")
    s.players[1].start_tile = False
    s.starter = 1
    assert expected_winner(s, game.rules)[0] is None
    assert expected_winner(s, Ruleset.build({"duel.end.tie-without-tile": "round-starter"}))[0] == 1


def test_every_flow_cites_known_clauses() -> None:
    known = {c.id for c in default_catalogue().clauses}
    assert set(FLOW_CLAUSES) <= known, set(FLOW_CLAUSES) - known
    assert all(flows or True for flows in (*ACTION_FLOWS.values(), *PHASE_FLOWS.values()))


@pytest.mark.clause("duel.invariant.component-flows")
def test_a_tile_moved_between_Factories_is_reported() -> None:
    game = new_game(seed=3)
    for _ in range(4):                                   # both opening picks and placements
        game.apply(game.legal_actions()[0])
    assert game.state.phase == "acquisition" and game.state.pending is None
    before = game.state.copy()
    action = next(a for a in game.legal_actions() if str(a).startswith("sun 1 "))
    game.apply(action)
    f2 = game.state.small[1]
    colour = next(c for c in range(5) if f2.sun[c])
    f2.sun[colour] -= 1                                  # a tile slips from Factory 2 to the bag
    game.state.bag[colour] += 1
    problems = flow_violations(before, game.state, action, ("acquisition",))
    assert problems and "sun[2]" in problems[0] and "bag" in problems[0], problems
    assert parse_action(str(action)) == action


# --- the one-colour refill under duel.refill.monochrome-unavoidable ---------------------------------

def _refilled(alt: str, *, large: list[int], bag: list[int], tower: list[int]) -> list[str]:
    return refill_problems(alt, large=large, bag=bag, tower=tower, small_sun=[0, 4, 0, 0, 0])


@pytest.mark.clause("duel.setup.large-factory.monochrome-redraw", "duel.invariant.factory-structure")
def test_one_colour_refill_is_a_violation_when_avoidable() -> None:
    # The Tower still holds tiles, so it was never tipped into the bag: the bag held yellow tiles
    # when the redraw was due, and the redraw could have succeeded.
    problems = _refilled("accept", large=[5, 0, 0, 0, 0], bag=[0, 3, 0, 0, 0], tower=[1, 0, 0, 0, 0])
    assert any("5 blue" in p for p in problems), problems


@pytest.mark.clause("duel.setup.large-factory.monochrome-redraw", "duel.invariant.factory-structure")
def test_one_colour_refill_is_accepted_when_unavoidable_under_accept() -> None:
    # The Tower was emptied into the bag during the refill: the redraw may have been impossible.
    assert _refilled("accept", large=[5, 0, 0, 0, 0], bag=[0, 3, 0, 0, 0], tower=[0] * 5) == []


@pytest.mark.clause("duel.setup.large-factory.monochrome-redraw", "duel.invariant.factory-structure")
def test_leave_empty_never_accepts_one_colour() -> None:
    problems = _refilled("leave-empty", large=[5, 0, 0, 0, 0], bag=[0, 3, 0, 0, 0], tower=[0] * 5)
    assert any("5 blue" in p for p in problems), problems
    assert _refilled("leave-empty", large=[0] * 5, bag=[0, 3, 0, 0, 0], tower=[0] * 5) == []
    # the Tower was never tipped in and the bag holds two colours: the redraw could have succeeded
    assert _refilled("leave-empty", large=[0] * 5, bag=[1, 3, 0, 0, 0], tower=[2, 0, 0, 0, 0]) != []


def test_greedy_policy_scores_and_is_deterministic() -> None:
    from properties.simulate import play_checked

    greedy = [play_checked(s, record=False, deep_every=0, policy="greedy") for s in range(4)]
    careful = [play_checked(s, record=False, deep_every=0, policy="careful") for s in range(4)]
    assert all(g.failure is None for g in greedy)
    assert sum(sum(g.scores) for g in greedy) > 3 * sum(sum(g.scores) for g in careful)
    again = play_checked(2, record=False, deep_every=0, policy="greedy")
    assert again.actions_log == greedy[2].actions_log and again.scores == greedy[2].scores


@pytest.mark.clause("duel.prep.rare-empty", "duel.invariant.factory-structure")
def test_short_refill_only_when_bag_and_tower_are_empty() -> None:
    game = new_game(seed=2)
    s = game.state
    s.large.sun = [2, 1, 1, 1, 0]
    s.small[3].sun = [0, 0, 1, 0, 0]
    s.small[3].chip_revealed = False
    s.bag, s.tower = [0] * 5, [0] * 5
    assert refill_violations(s, game) == []                   # tiles ran out: short suns are right
    s.tower = [0, 0, 0, 1, 0]
    problems = refill_violations(s, game)
    assert any("small Factory 4's sun holds 1" in p for p in problems), problems
