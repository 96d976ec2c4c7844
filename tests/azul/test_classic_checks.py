"""Classic Azul's step invariants (properties/azul/steps.py) each catch a planted rule bug in a
checked campaign (properties/simulate.py), under their own name: one-line bugs of the kinds public
classic engines had, in scoring, in who starts a round, in the tie-break, in turn order, in where
tiles go and in the refill. Each case patches one model function with monkeypatch, plays a seeded
campaign in this process and expects every failed game to name the invariant (and so its clauses);
the same campaigns pass on the unbroken model."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

import model.azul.game as azul_game
import model.azul.start as azul_start
from model.azul import offer, round_end, scoring, supply, tiling
from model.azul.actions import CENTRE_SOURCE
from model.azul.outcome import AzulOutcome
from model.azul.ruleset import IMPLEMENTED, Ruleset
from model.azul.state import CENTRE, AzulState
from properties.azul.hooks import INVARIANT_TABLE
from properties.azul.oracle import ORACLE_INDIFFERENT, ORACLE_READS
from properties.azul.steps import RULE_STEP_INVARIANTS
from properties.azul.turns import UNTAKEN_READINGS
from properties.simulate import run_campaign

Plant = Callable[[pytest.MonkeyPatch], None]


def scoring_counts_the_lone_axis(mp: pytest.MonkeyPatch) -> None:
    """azul.score.single-axis=skip-single, yet a tile with neighbours along one axis scores the lone
    axis's 1 too."""
    original = tiling.placement_points
    mp.setattr(tiling, "placement_points", lambda wall, row, col, count_both: original(wall, row, col, True))


def floor_second_space_costs_two(mp: pytest.MonkeyPatch) -> None:
    """The floor line's second space costs 2, not 1."""
    mp.setattr(scoring, "FLOOR_PENALTIES", (1, 2, 2, 2, 2, 3, 3))


def column_bonus_counts_rows(mp: pytest.MonkeyPatch) -> None:
    """The end bonus of 7 is paid per complete row instead of per complete column."""
    mp.setattr(round_end, "complete_columns", round_end.complete_rows)


def starter_ignores_the_marker(mp: pytest.MonkeyPatch) -> None:
    """The next round is started by the same player whoever took the marker."""
    mp.setattr(round_end, "next_starter", lambda state, rules: None)


def untaken_marker_keeps_the_starter(mp: pytest.MonkeyPatch) -> None:
    """When nobody took the marker, the same player starts again even under next-clockwise."""
    original = round_end.next_starter

    def next_starter(state: AzulState, rules) -> None:  # type: ignore[no-untyped-def]
        if state.marker != CENTRE:
            original(state, rules)
    mp.setattr(round_end, "next_starter", next_starter)


def second_seat_starts(mp: pytest.MonkeyPatch) -> None:
    """Under azul.setup.starter-choice=first-seat, the second seat starts round 1."""
    original = azul_start.new_game

    def new_game(*args, **kwargs) -> azul_game.Game:  # type: ignore[no-untyped-def]
        game = original(*args, **kwargs)
        game.state.starter = game.state.to_move = 1
        return game
    mp.setattr(azul_start, "new_game", new_game)


def bonus_order_ignored(mp: pytest.MonkeyPatch) -> None:
    """azul.end.bonus-order=bonuses-then-floor, yet the last round's floor penalties come first."""
    original = round_end.finish_round

    def finish_round(state: AzulState, rules: Ruleset, chance, events) -> None:  # type: ignore[no-untyped-def]
        original(state, Ruleset.build({**rules.overrides, "azul.end.bonus-order": "floor-then-bonuses"},
                                      wall=rules.wall), chance, events)
    mp.setattr(round_end, "finish_round", finish_round)


def fill_order_ignored(mp: pytest.MonkeyPatch) -> None:
    """azul.prep.fill-order=round-robin, yet a short refill goes display after display."""
    original = round_end.fill_factories
    mp.setattr(round_end, "fill_factories",
               lambda state, chance, events, clause, round_robin=False: original(state, chance, events, clause))


def tie_break_skipped(mp: pytest.MonkeyPatch) -> None:
    """Players tied on points share the win whatever their complete rows."""
    original = azul_game.decide

    def decide(state: AzulState) -> AzulOutcome:
        out = original(state)
        best = max(out.scores)
        leaders = tuple(i for i, s in enumerate(out.scores) if s == best)
        return out if len(leaders) == 1 else AzulOutcome(out.scores, None, "shared", "azul.end.shared-win", leaders)
    mp.setattr(azul_game, "decide", decide)


def turns_pass_anticlockwise(mp: pytest.MonkeyPatch) -> None:
    """After a take the turn passes to the previous seat (visible with 3 players)."""
    original = offer.end_turn

    def end_turn(state: AzulState, events: list) -> bool:  # type: ignore[type-arg]
        seat = state.to_move
        done = original(state, events)
        if not done:
            state.to_move = (seat - 1) % state.players
        return done
    mp.setattr(offer, "end_turn", end_turn)


def factory_rest_to_the_lid(mp: pytest.MonkeyPatch) -> None:
    """A factory's other tiles go to the box lid instead of the centre (no tile is lost)."""
    original = offer.take_tiles

    def take_tiles(state: AzulState, rules, action, events) -> None:  # type: ignore[no-untyped-def]
        centre = state.centre[:]
        original(state, rules, action, events)
        if action.args[0] != CENTRE_SOURCE:
            for c, n in enumerate(state.centre):
                state.lid[c] += n - centre[c]
            state.centre[:] = centre
    mp.setattr(offer, "take_tiles", take_tiles)


def marker_left_in_the_centre(mp: pytest.MonkeyPatch) -> None:
    """The first take from the centre leaves the starting player marker there."""
    mp.setattr(offer, "_take_marker", lambda state, rules, who, events: None)


def displays_get_three(mp: pytest.MonkeyPatch) -> None:
    """Each factory display is refilled with 3 tiles instead of 4."""
    mp.setattr(supply, "FACTORY_TILES", 3)


def marker_free_at_pick(mp: pytest.MonkeyPatch) -> None:
    """Under azul.floor.marker-cost=one-point-at-pick the marker's point is never paid at the take (the
    scoring oracle's quiet-step path, a take that tiles nothing, must still expect it)."""
    mp.setattr(offer, "_pay_for_marker", lambda board, who, events: None)


def floor_overflows_at_six(mp: pytest.MonkeyPatch) -> None:
    """The floor line sends tiles to the lid once 6 of its 7 spaces are covered."""
    import model.azul.floor as floor

    mp.setattr(floor, "FLOOR_SPACES", 6)


# (planted bug, invariant expected to name it, players, games, readings, policy); a failed game may
# name only that invariant, except where noted below.
CASES: tuple[tuple[Plant, str, int, int, dict[str, str], str], ...] = (
    (scoring_counts_the_lone_axis, "scoring-oracle", 2, 30, {}, "uniform"),
    (floor_second_space_costs_two, "scoring-oracle", 2, 30, {}, "uniform"),
    (column_bonus_counts_rows, "scoring-oracle", 2, 30, {}, "uniform"),
    (bonus_order_ignored, "scoring-oracle", 2, 30, {"azul.end.bonus-order": "bonuses-then-floor"}, "uniform"),
    (starter_ignores_the_marker, "turn-order", 2, 30, {}, "uniform"),
    (second_seat_starts, "turn-order", 2, 10, {}, "uniform"),
    (tie_break_skipped, "outcome", 2, 200, {}, "uniform"),
    (turns_pass_anticlockwise, "turn-order", 3, 30, {}, "uniform"),
    (factory_rest_to_the_lid, "component-flows", 2, 30, {}, "uniform"),
    (marker_left_in_the_centre, "component-flows", 2, 30, {}, "uniform"),
    (displays_get_three, "factory-refill", 2, 30, {}, "uniform"),
    (floor_overflows_at_six, "component-flows", 2, 60, {}, "uniform"),
    (marker_free_at_pick, "scoring-oracle", 2, 30, {"azul.floor.marker-cost": "one-point-at-pick"}, "uniform"),
)

# A floor that overflows early also changes the floor line scored at the round's end: a game whose
# round-ending take overflows is named by the scoring oracle first.
ALSO: dict[Plant, tuple[str, ...]] = {floor_overflows_at_six: ("scoring-oracle",)}


def _failures(players: int, games: int, readings: dict[str, str] | None = None,
              policy: str = "uniform") -> list[tuple[int, str, str]]:
    report = run_campaign(games, seed=0, overrides=readings, game="azul", players=players, jobs=1, policy=policy)
    return [(g.seed, *g.failure) for g in report.failures if g.failure is not None]


# The clause each planted bug breaks (the test of that case declares it, so mutation analysis runs
# the case for that clause's mutants only).
BROKEN_CLAUSE: dict[Plant, str] = {
    scoring_counts_the_lone_axis: "azul.score.column-run", floor_second_space_costs_two: "azul.floor.penalties",
    column_bonus_counts_rows: "azul.end.bonus-column", bonus_order_ignored: "azul.end.trigger",
    starter_ignores_the_marker: "azul.floor.marker-kept", untaken_marker_keeps_the_starter: "azul.prep.refill",
    second_seat_starts: "azul.setup.first-player", tie_break_skipped: "azul.end.tie-break",
    turns_pass_anticlockwise: "azul.offer.turn-order", factory_rest_to_the_lid: "azul.offer.take-factory",
    marker_left_in_the_centre: "azul.offer.first-from-centre", displays_get_three: "azul.prep.refill",
    fill_order_ignored: "azul.prep.partial-fill", floor_overflows_at_six: "azul.floor.overflow-lid",
    marker_free_at_pick: "azul.floor.marker-kept",
}


@pytest.mark.parametrize("plant, invariant, players, games, readings, policy",
                         [pytest.param(*case, id=case[0].__name__, marks=pytest.mark.clause(BROKEN_CLAUSE[case[0]]))
                          for case in CASES])
def test_the_campaign_names_the_broken_rule(plant: Plant, invariant: str, players: int, games: int,
                                            readings: dict[str, str], policy: str,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    plant(monkeypatch)
    failures = _failures(players, games, readings, policy)
    assert failures, f"{plant.__name__}: {games} games passed"
    named = {name for _, name, _ in failures}
    assert invariant in named and named <= {invariant, *ALSO.get(plant, ())}, f"{plant.__name__}: {failures[:3]}"


# Situations random play (almost) never reaches are checked on the committed search witness that
# reaches them (fixtures/azul/witnesses/, written by `azul-rules search`): its replay, with the
# invariants checked after every step, must name the planted bug.
WITNESSES = Path(__file__).resolve().parents[2] / "fixtures" / "azul" / "witnesses"
WITNESS_CASES: tuple[tuple[Plant, str, str], ...] = (
    # a round nobody takes the marker in: every factory emptied by one take each (4 players)
    (untaken_marker_keeps_the_starter, "turn-order", "decide-azul.offer.marker-untaken-next-clockwise-4p.toml"),
    # a short refill: bag and lid run down (4 players)
    (fill_order_ignored, "factory-refill", "decide-azul.prep.fill-order-round-robin-4p.toml"),
)


@pytest.mark.parametrize("plant, invariant, witness",
                         [pytest.param(*case, id=case[0].__name__, marks=pytest.mark.clause(BROKEN_CLAUSE[case[0]]))
                          for case in WITNESS_CASES])
def test_the_witness_of_a_rare_situation_names_the_broken_rule(plant: Plant, invariant: str, witness: str,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    from harness.scenarios import load_scenario, run_scenario

    scenario = load_scenario(WITNESSES / witness)
    assert scenario.then.get("invariants") == "all", witness
    assert run_scenario(scenario).passed, witness
    plant(monkeypatch)
    result = run_scenario(scenario)
    assert not result.passed
    assert any(f"invariant {invariant} broken" in d for d in result.diffs), (plant.__name__, result.diffs[:3])


CAMPAIGNS = sorted({(p, g, tuple(sorted(r.items())), pol) for _, _, p, g, r, pol in CASES})


@pytest.mark.parametrize("players, games, readings, policy", CAMPAIGNS)
def test_the_same_campaigns_pass_on_the_model(players: int, games: int, readings: tuple[tuple[str, str], ...],
                                              policy: str) -> None:
    assert _failures(players, games, dict(readings), policy) == []


def test_every_rule_step_invariant_is_a_matrix_column_citing_catalogue_clauses() -> None:
    from spec import default_catalogue

    known = {c.id for c in default_catalogue("azul").clauses}
    for name, clauses in RULE_STEP_INVARIANTS.items():
        assert INVARIANT_TABLE[name] == clauses
        assert clauses and set(clauses) <= known, (name, set(clauses) - known)


def test_the_oracle_knows_every_reading() -> None:
    """A reading the model offers is either one whose alternatives the scoring oracle knows, or one
    it was told changes no score of a given position; a new one fails here until the oracle says which."""
    for point, alternatives in IMPLEMENTED.items():
        if point in ORACLE_READS:
            assert set(alternatives) <= set(ORACLE_READS[point]), (point, alternatives)
        else:
            assert point in ORACLE_INDIFFERENT, f"the scoring oracle does not know {point}"


def test_turn_order_knows_every_reading_of_who_starts() -> None:
    assert set(IMPLEMENTED["azul.offer.marker-untaken"]) == set(UNTAKEN_READINGS)


def test_the_invariants_doc_lists_every_invariant_with_its_clauses() -> None:
    """docs/classic-invariants.md's table names each classic invariant and exactly the clauses it guards."""
    from pathlib import Path

    text = (Path(__file__).resolve().parents[2] / "docs" / "classic-invariants.md").read_text()
    rows = {}
    for line in text.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 4 and cells[1] in ("state", "step"):
            rows[cells[0]] = {c.strip() for c in cells[2].split(",")}
    assert rows == {name: set(clauses) for name, clauses in INVARIANT_TABLE.items()}


MID_ROUND = '''game = "azul"
id = "t.mid-round"
description = "round 1 after P1's take: P2 moves, the checks must not take it for the game's first move"
clauses = ["azul.offer.turn-order"]
when = ["take F1 red line 2"]

[given]
factories = { F1 = "RRBY", F2 = "KKKK" }
centre = "TT"
starter = "P1"
to_move = "P2"

[given.p1]
lines = ["Y"]

[then]
to_move = "P1"
invariants = "all"
'''


@pytest.mark.clause("azul.offer.turn-order", "azul.setup.first-player")
def test_a_scenario_starting_mid_round_one_breaks_no_turn_order(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """Round 1's opening check reads the position (nothing taken yet), not the step count: a scenario's
    first step is not the game's first move."""
    from harness.scenarios import load_scenario, run_scenario
    from tests.scenario_helpers import write_scenario

    result = run_scenario(load_scenario(write_scenario(tmp_path, MID_ROUND)))
    assert result.passed, result.diffs
