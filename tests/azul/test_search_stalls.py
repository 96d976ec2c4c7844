"""Classic Azul's stall readings found by the search (issue 21), without a policy written for them:
a dead game (azul.end.dead-game=stall) is steered to by `slack`, the free tiles that must still leave
circulation before no wall completion is possible, on the gray wall (properties/azul/predicates.py
CONTEXTS, STEER)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import attrs
import pytest

from properties.azul import predicates
from properties.registry import get_game
from properties.search.engine import Budget, Explorer
from properties.search.replay import Setup
from properties.search.run import decide_goal, hooks_of

DEAD = "azul.end.dead-game=stall"


def _goal(text: str) -> Any:
    return decide_goal("azul", text, hooks_of(get_game("azul")))


@pytest.mark.clause("azul.end.trigger")
@pytest.mark.parametrize("players, seed, bound", ((4, 0, 1_000), (2, 30, 6_000)))
def test_a_dead_game_is_found_on_the_gray_wall(players: int, seed: int, bound: int) -> None:
    """4 players, seed 0: found after 215 nodes (the committed witness); 2 players, seed 30 (the seed
    `search --all` gives it): after 3,522. Counting only the completions still possible
    (`options`), a tile parked on a line is no step closer: that finds the first after 441 nodes but
    not the second within 37,000."""
    goal = _goal(DEAD)
    assert dict(goal.overrides)[predicates.WALL_SIDE] == "gray"
    entry = get_game("azul")
    explorer = Explorer(Setup(entry, hooks_of(entry), players), [goal], seed, Budget(600.0, bound),
                        overrides=goal.overrides, shadow_overrides=goal.default_overrides)
    found, explored = explorer.run()
    assert [f.goal for f in found] == [goal] and explored.nodes < bound


def test_slack_is_zero_exactly_where_no_completion_is_left_and_never_below_the_count() -> None:
    """Along a steered search (4 players, gray wall): `slack` is 0 exactly where `options` is, and
    never less than it (each possible completion counts at least one tile)."""
    entry = get_game("azul")
    hooks = hooks_of(entry)
    seen: list[tuple[int, int]] = []

    def watched(game: Any) -> Mapping[str, Any]:
        v = hooks.view(game)
        seen.append((v["options"], v["slack"]))
        return v

    goal = _goal(DEAD)
    setup = Setup(entry, attrs.evolve(hooks, view=watched), 4)
    Explorer(setup, [goal], 0, Budget(600.0, 4_000), overrides=goal.overrides,
             shadow_overrides=goal.default_overrides).run()
    assert any(o == 0 for o, _ in seen) and any(o > 0 for o, _ in seen)
    assert all((o == 0) == (s == 0) and s >= o for o, s in seen)
