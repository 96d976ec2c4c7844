"""The rare Duel readings of issue 21: what the search needs to find them (a context, a steer), a
witness whose readings break an invariant, and the bounded check behind the one reading shown
unreachable (duel.acquire.pass.permanent=recheck)."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from harness.duel.scenarios.position import build_game
from harness.scenarios import load_scenario, run_scenario
from harness.search_commands import write_witnesses
from model.duel import generation, legality, parse_action
from model.duel.colours import EMPTY
from model.duel.game import new_game
from model.duel.generation import PASS
from properties.duel.predicates import PREDICATES
from properties.registry import get_game
from properties.search import run as search_run
from properties.search.run import decide_goal, hooks_of, search
from properties.search.view import step_view

ROOT = Path(__file__).resolve().parents[1]
WITNESSES = ROOT / "fixtures" / "duel" / "witnesses"


def _goal(text: str) -> Any:
    return decide_goal("duel", text, hooks_of(get_game("duel")))


def test_a_witness_whose_readings_break_an_invariant_says_so_and_replays(tmp_path: Path) -> None:
    """Under must-pay the default end reading ends a round with a token unused, which breaks
    tokens-each-round (duel.acquire.plate.tokens-required): the finding, not a bad witness. The file
    leaves the invariants out, names the break, and still parts the two readings."""
    entry = get_game("duel")
    result = search("duel", [_goal("duel.acquire.end.passed-tokens=strict")], cpu_seconds=600, nodes=2_000)
    assert not result.missing, "not found within 2,000 nodes"
    [(_, path, _)] = write_witnesses(result, entry, tmp_path, 0)
    text = path.read_text()
    outcome = run_scenario(load_scenario(path))
    assert outcome.passed, outcome.diffs
    assert 'invariants = "all"' not in text
    assert "tokens-each-round broken" in text


def test_the_tablet_floor_reading_is_found_with_a_loss_and_a_gain_in_play() -> None:
    """The floor acts between tablets only with a losing tablet (empty-special-spaces) and a gaining
    one in play (outer-spaces: nearly every Dome has an edge tile); the first game's tablets have no
    loss, so without its context the reading can never decide."""
    goal = _goal("duel.end.tablet-floor=losses-first")
    assert "empty-special-spaces" in dict(goal.context)["tablets"]
    result = search("duel", [goal], cpu_seconds=600, nodes=3_000)
    assert not result.missing, "not found within 3,000 nodes"


def _final_view(path: Path) -> dict[str, Any]:
    """The view after the last step of a committed witness, under its own reading."""
    scenario = load_scenario(path)
    game, _ = build_game(scenario)
    events: list[Any] = []
    for step in scenario.steps:
        events = game.apply(parse_action(step.action))
    hooks = hooks_of(get_game("duel"))
    scores = tuple(p.score for p in game.state.players)
    return step_view(game, events, scenario.steps[-1].action, -1, len(scenario.steps), scores, hooks.view(game))


@pytest.mark.parametrize("name, witness", [
    ("tablet-floor-between", "decide-duel.end.tablet-floor-losses-first.toml"),
    ("colourful-row-with-gap", "decide-duel.tablet.colourful-rows.full-full-row.toml"),
    ("tie-without-start-tile-small-first", "decide-duel.end.tie-without-tile-round-starter.toml"),
])
def test_the_steering_condition_holds_where_the_committed_witness_decides(name: str, witness: str) -> None:
    view = _final_view(WITNESSES / witness)
    predicate = PREDICATES[name]
    assert predicate.holds(view)
    assert predicate.distance is not None and predicate.distance(view) == 0


def test_the_colourful_row_steer_gives_up_a_row_that_cannot_reach_five_colours() -> None:
    """A row gains at most one regular tile per Dome-tiling: lacking 2 colours with 2 tilings left is
    kept, with 1 left it is given up (distance far); so is a row whose empty cells cannot take the
    colours it lacks."""
    game = new_game(seed=0)
    s = game.state
    pl = s.players[0]
    pl.dome_tile[0:3] = [0, 1, 2]                    # row 1: blue, yellow, red; three cells empty
    assert pl.dome_tile[3] == EMPTY
    s.phase = "acquisition"
    distance = PREDICATES["colourful-row-with-gap"].distance
    assert distance is not None

    def at(rnd: int) -> float:
        s.round = rnd
        return distance(step_view(game, [], "", -1, 0, (0, 0), {}))
    assert at(4) < 20 <= at(5)
    pl.dome_space[3:6] = [0, 1, 2]                   # its empty cells take only colours it has
    assert 20 <= at(2)


def _recheck_search(nodes: int) -> tuple[Counter[str], list[str]]:
    """Search for recheck deciding, counting every time a passed player is looked at again."""
    real = legality.can_act
    seen: Counter[str] = Counter()

    def counting(g: Any, who: int) -> bool:
        ok = real(g, who)
        pl = g.state.players[who]
        if pl.passed:
            seen["rechecked"] += 1
            seen["with a token left"] += pl.tokens_used < 2 and g.state.round < 5
            seen["could act"] += ok
        return ok

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(legality, "can_act", counting)
        # the hooks answer this goal by its reason and skip it; the bound searches it all the same
        mp.setattr(search_run, "shown_unreachable", lambda *args: None)
        result = search("duel", [_goal("duel.acquire.pass.permanent=recheck")], cpu_seconds=600, nodes=nodes)
    return seen, [g.key for g in result.missing]


def test_a_passed_player_never_gets_an_action_back_within_the_bound() -> None:
    """duel.acquire.pass.permanent=recheck, shown unreachable: a player passes only when they cannot
    act, and nothing in the rest of the phase can give them an action. Within 10,000 search nodes
    steered toward players passing with a token left (under must-pay), every passed player looked at
    again still cannot act, and recheck decides nothing."""
    seen, missing = _recheck_search(10_000)
    assert seen["with a token left"] > 0, f"the bound never reached a passed player with a token left: {seen}"
    assert seen["could act"] == 0
    assert missing == ["decide duel.acquire.pass.permanent=recheck"]


def test_the_recheck_bound_would_catch_a_passed_player_who_can_act(monkeypatch: pytest.MonkeyPatch) -> None:
    """Planted: passing allowed on any turn (the rules allow it only to a player who cannot act, the
    first step of the argument). A player who passed with an action left is then looked at again able
    to act: the same bounded search counts it and finds recheck deciding."""
    legal, illegal = generation.legal_actions, legality.why_illegal

    def with_pass(g: Any) -> list[Any]:
        actions = legal(g)
        s = g.state
        if s.phase == "acquisition" and s.pending is None and s.to_move >= 0 and PASS not in actions:
            actions = [*actions, PASS]
        return actions

    def passing(g: Any, action: Any) -> Any:
        return None if action == PASS and g.state.pending is None else illegal(g, action)

    monkeypatch.setattr(generation, "legal_actions", with_pass)
    monkeypatch.setattr(legality, "why_illegal", passing)
    seen, missing = _recheck_search(10_000)
    assert seen["could act"] > 0
    assert missing == []


def test_every_reading_shown_unreachable_is_a_question_the_search_asks() -> None:
    from properties.duel.predicates import UNREACHABLE
    from properties.search.run import all_goals

    entry = get_game("duel")
    keys = {g.key for g in all_goals(entry, hooks_of(entry))}
    assert UNREACHABLE and set(UNREACHABLE) <= keys


@pytest.mark.parametrize("reading", ["duel.prep.untaken-start-tile=alternate", "duel.end.tie-without-tile=round-starter"])
def test_the_untaken_start_tile_is_searched_with_the_small_factories_filled_first(reading: str) -> None:
    """Both readings need a large Factory whose tiles never reach its moon; filled last, it draws the
    bag's last tiles, which chance can leave all of one colour (one sun pick clears them)."""
    goal = _goal(reading)
    assert dict(goal.context) == {"duel.prep.refill-order": "small-first"}
    result = search("duel", [goal], cpu_seconds=600, nodes=6_000)
    assert not result.missing, "not found within 6,000 nodes"


def test_leave_empty_is_searched_where_the_large_factory_draws_the_last_tiles() -> None:
    """leave-empty decides when the large Factory must draw from a one-coloured bag; with the small
    Factories filled first it draws the round-3 refill's last 7 tiles, so the search finds the
    reading deciding within a few thousand nodes (under the defaults' order it needs 31-39 tiles kept
    through round 3: not found within these nodes, and not in 464 CPU s of the seed-0 --all search)."""
    goal = _goal("duel.refill.monochrome-unavoidable=leave-empty")
    assert dict(goal.context) == {"duel.prep.refill-order": "small-first"}
    result = search("duel", [goal], cpu_seconds=600, nodes=6_000)
    assert not result.missing, "not found within 6,000 nodes"


def test_the_last_tiles_can_be_one_colour_only_when_one_colour_holds_them() -> None:
    """The bag of 23 the round-3 refill draws from: the small Factories take 16, the large one the
    last 7, all of one colour only when a colour has 7 of the 23."""
    from properties.duel.predicates import _last_colour_gap

    assert _last_colour_gap([0, 7, 4, 6, 6]) == 0
    assert _last_colour_gap([5, 5, 5, 4, 4]) == 2
    assert _last_colour_gap([2, 2, 0, 0, 15]) == 2 * 2          # 3 left for the large Factory: too few


def test_the_hoarding_explorer_runs_a_refill_dry_and_its_witness_replays(tmp_path: Path) -> None:
    """duel.prep.rare-empty needs 45 of the 63 tiles drawn by the round-4 refill kept on Domes and
    pattern lines; the round-level explorer (properties/duel/hoard.py) gets there from seed 3 with
    30 games and 6 rollouts each (the committed witness's run), and its file replays."""
    from properties.duel import hoard
    from properties.search.replay import Setup
    from properties.search.run import SearchResult, clause_goal, hooks_of, witness_of

    line = hoard.explore(3, 30, 6)
    assert line is not None, "no refill ran dry"
    entry = get_game("duel")
    setup = Setup(entry, hooks_of(entry), None)
    goal = clause_goal(entry, hoard.GOAL, setup.hooks)
    witness = witness_of(setup, goal, line.actions, line.game.chance.record)
    [(_, path, _)] = write_witnesses(SearchResult("duel", None, [witness], [], []), entry, tmp_path, 0)
    outcome = run_scenario(load_scenario(path))
    assert outcome.passed, outcome.diffs
    committed = (WITNESSES / path.name).read_text()
    assert path.read_text().split("when = [")[1] == committed.split("when = [")[1], "not the committed game"


def test_the_hoarding_explorer_keeps_the_lines_it_hoards_away_from_free_spaces() -> None:
    """A hoarded line whose Dome row has a free space for its colour cannot wait complete: the
    explorer counts it against a step. Planted: a line 3 of blue beside a free blue space."""
    from model.duel.colours import COLOURS
    from properties.duel import hoard

    game = new_game(seed=0)
    s = game.state
    pl = s.players[0]
    assert hoard._blocked(s) == 0
    blue = COLOURS.index("blue")
    pl.line_colour[2], pl.line_count[2] = blue, 1
    assert hoard._blocked(s) == 0                   # no plate in that band yet: no space at all
    pl.plates[3] = 1
    cells = range(12, 18)
    for c in cells:
        pl.dome_space[c] = blue
    assert hoard._blocked(s) == 1


def test_every_duel_question_has_a_committed_witness_or_a_reason() -> None:
    """What `azul-rules search --all` asks of Duel (each non-default alternative, each clause with a
    model site) is answered by a file in fixtures/duel/witnesses/ or shown unreachable."""
    from harness.found_by_search import unanswered

    assert [g.key for g in unanswered("duel", ROOT)] == []
