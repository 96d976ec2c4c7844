"""With 2 players a refill never runs short, so `azul-rules search --all --players 2` not finding
azul.prep.partial-fill, azul.prep.fill-order=round-robin or azul.prep.empty-round=stall is an answer,
not a budget running out (docs/designer-guide.md, "Can this happen?").

At a refill (after a wall-tiling and floor scoring that did not end the game) the tiles outside bag
and lid lie on walls and unfinished pattern lines only: displays and centre are empty, floors went
to the lid, every full line was tiled. A wall with no complete row holds at most 5 x 4 = 20 tiles,
unfinished lines at most 0+1+2+3+4 = 10; two players lock up at most 60 of the 100 tiles, so bag and
lid hold at least 40, twice the 20 that 5 displays take."""

from __future__ import annotations

from typing import Any

import pytest

from model.azul import round_end
from model.azul.colours import NUM_COLOURS, ROWS, TILES_PER_COLOUR
from model.azul.state import FACTORY_TILES
from properties.registry import get_game
from properties.search.engine import Budget, Explorer
from properties.search.goals import WhereGoal
from properties.search.replay import Setup
from properties.search.run import hooks_of

PLAYERS = 2
DISPLAYS = 2 * PLAYERS + 1                                   # azul.setup.factories
LOCKED = PLAYERS * (ROWS * (ROWS - 1) + sum(range(ROWS)))    # walls without a full row + unfinished lines
LEAST = NUM_COLOURS * TILES_PER_COLOUR - LOCKED
NODES = 4_000                                                # the steered search's node budget


def test_two_players_always_have_twice_a_refill_in_bag_and_lid() -> None:
    assert (LOCKED, LEAST) == (60, 40)
    assert LEAST >= 2 * FACTORY_TILES * DISPLAYS


@pytest.mark.clause("azul.prep.partial-fill")
def test_a_search_steered_to_lock_tiles_up_finds_bag_and_lid_never_below_the_bound(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The search steered toward a round with no tile (every tile on a wall or a line: the
    `no-tile-left` distance) plays 2-player games that lock up as many tiles as it can; at every
    refill they reach, bag and lid hold at least 40 tiles."""
    seen: list[int] = []
    original = round_end.fill_factories

    def watched(state: Any, *args: Any, **kwargs: Any) -> None:
        seen.append(sum(state.bag) + sum(state.lid))
        original(state, *args, **kwargs)

    monkeypatch.setattr(round_end, "fill_factories", watched)
    entry = get_game("azul")
    hooks = hooks_of(entry)
    goal = WhereGoal("no-tile-left", predicate=hooks.predicates["no-tile-left"])
    explorer = Explorer(Setup(entry, hooks, PLAYERS), [goal], 0, Budget(600.0, NODES), overrides={})
    found, explored = explorer.run()
    assert not found and explored.nodes == NODES
    assert len(seen) > 20, len(seen)                         # the search did reach refills
    assert min(seen) >= LEAST, min(seen)


def test_the_search_answers_the_short_refill_questions_by_the_count_at_two_players_only() -> None:
    """`search --players 2` answers the three short-refill questions "shown unreachable" (the count
    above); at 4 players the same questions are searched (a 4-player refill can run short)."""
    from properties.search.goals import ClauseGoal
    from properties.search.run import search

    goal = ClauseGoal("azul.prep.partial-fill")
    for two in (search("azul", [goal], players=2, cpu_seconds=600, nodes=1),
                search("azul", [goal], players=None, cpu_seconds=600, nodes=1)):    # the CLI's default count
        assert [g.key for g, _ in two.unreachable] == [goal.key] and "at least 40" in two.unreachable[0][1]
        assert not two.missing, "an unreachable question is answered, not missing"
    four = search("azul", [goal], players=4, cpu_seconds=600, nodes=1)
    assert not four.unreachable, "at 4 players the question is searched"
