"""The round-level explorer for azul.prep.empty-round=stall (properties/azul/lockup_explorer.py)
finds, at 4 players and within a bounded effort, a game whose next round is prepared with no tile
at all, and its chance record replays it under the scenario's strict script. The step cost's key
term is that a wall tile is worth WALL_WEIGHT more than a tile parked on a line (walls must grow
before the lines hoard): without it the same effort finds nothing."""

from __future__ import annotations

import pytest

from properties.azul import lockup_explorer as explorer
from properties.azul.predicates import start
from properties.search.chance import SearchChance
from properties.search.replay import script_of
from properties.search.rounds import UNLIMITED

SEED = 3                  # exploration seed (chance and choices; the set-up is the search's, seed 0)
POPULATION = 10           # 10 games x 3 rollouts x at most ROUNDS rounds: about 2 CPU s
ROLLOUTS = 3


@pytest.mark.clause("azul.prep.partial-fill")
def test_the_explorer_finds_a_round_with_no_tile_and_it_replays() -> None:
    line = explorer.explore(SEED, POPULATION, ROLLOUTS)
    assert line is not None and line.game.is_stalled
    chance = line.game.chance
    assert isinstance(chance, SearchChance)
    record = chance.record
    game = start(explorer.SETUP_SEED, explorer.OVERRIDES, explorer.PLAYERS,
                 script_of(record, explorer.SETUP_SEED, True))
    for text in line.actions:
        game.apply(next(a for a in game.legal_actions() if str(a) == text))
    s = game.state
    assert game.is_stalled and not any(s.bag) and not any(s.lid)
    assert sum(1 for b in s.boards for c in b.wall if c >= 0) + sum(sum(b.line_count) for b in s.boards) == 100


def test_without_wall_growth_first_the_same_effort_finds_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(explorer, "WALL_WEIGHT", 0.0)
    assert explorer.explore(SEED, POPULATION, ROLLOUTS) is None


def test_the_search_runs_the_explorer_for_the_empty_round_at_4_players() -> None:
    """`azul-rules search --game azul --players 4 --decide azul.prep.empty-round=stall` finds it: the
    explorer is classic's own for that goal (SearchHooks.explorers); exploration 0 finds it within
    half of 30,000 nodes, the first pass's share (12,355 played)."""
    from properties.registry import get_game
    from properties.search.run import decide_goal, hooks_of, search

    goal = decide_goal("azul", explorer.GOAL, hooks_of(get_game("azul")))
    result = search("azul", [goal], players=explorer.PLAYERS, seed=0, nodes=30_000, cpu_seconds=120.0)
    assert [w.goal.key for w in result.witnesses] == [goal.key]


def test_the_explorer_plays_within_the_node_budget_it_is_given() -> None:
    assert explorer.find(0, 500) == (None, 500)
    assert explorer.NODES.limit == UNLIMITED, "the limit is lifted again after find"
