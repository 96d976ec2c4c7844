"""The supply arithmetic Azul Duel's search steering stands on (properties/duel/predicates.py): the
bag is restocked from the Tower only when empty, so set-up and the first two refills leave it at
44, 23 and 2 tiles whatever is played; the round-4 refill pours in the Tower and leaves
44 - kept, where kept is the tiles on the Domes and pattern lines after round 3's Dome-tiling.
A one-coloured bag for the round-5 refill, or a refill short of tiles, needs the players to keep
that many tiles out: the distances steer toward exactly these counts."""

from __future__ import annotations

import random

import pytest

from model.duel.colours import EMPTY, SPECIAL
from model.duel.game import new_game
from properties.duel.predicates import REFILL, TILES, kept_tiles


def _on_boards(state: object) -> int:
    return sum(sum(pl.line_count) + sum(1 for t in pl.dome_tile if t not in (EMPTY, SPECIAL))
               for pl in state.players)                                   # type: ignore[attr-defined]


@pytest.mark.parametrize("seed", range(6))
def test_the_bag_before_each_refill_is_fixed_until_round_4(seed: int) -> None:
    game = new_game(seed=seed)
    rng = random.Random(seed)
    starts: dict[int, tuple[int, int, int]] = {}
    for _ in range(2000):
        if game.is_over:
            break
        game.apply(rng.choice(game.legal_actions()))
        s = game.state
        if s.phase == "acquisition" and s.round not in starts:
            starts[s.round] = (sum(s.bag), sum(s.tower), _on_boards(s))
    assert game.is_over
    assert [starts[r][0] for r in (2, 3)] == [23, 2], starts
    bag4, tower4, kept = starts[4]
    assert tower4 == 0, "the round-4 refill emptied the Tower into the bag"
    assert bag4 == TILES - REFILL - kept, (bag4, kept)


def test_kept_tiles_counts_what_stays_out_at_the_refill() -> None:
    """At round 2's start every tile is in the bag, the Tower, a Factory or on a board, and the
    projection of what stays out (kept_tiles) never counts more than the boards hold."""
    game = new_game(seed=1)
    rng = random.Random(1)
    seen = 0
    for _ in range(2000):
        if game.is_over:
            break
        game.apply(rng.choice(game.legal_actions()))
        s = game.state
        if s.pending is None and s.phase == "acquisition" and s.round == 2 and not seen:
            factories = sum(s.large.sun) + sum(s.large.moon) + sum(sum(f.sun) + len(f.moon) for f in s.small)
            on = _on_boards(s)
            assert sum(s.bag) + sum(s.tower) + factories + on == TILES
            assert kept_tiles(s) <= on, "a projection never keeps more than is on the boards"
            seen += 1
    assert seen == 1


def test_looking_at_the_tablets_fires_no_tablet_clause() -> None:
    """The view's `tablets_now` (what the tablets would score for the Domes as they stand, which
    the tie steer reads at every step) is looked at with the recorder off: a tablet clause it
    cited would count as fired and answer `--clause duel.tablet.*` with a game that never scored."""
    from model.clauses import RECORDER, recording
    from properties.duel.predicates import view

    game = new_game(seed=2)
    rng = random.Random(2)
    while game.state.round < 3:
        game.apply(rng.choice(game.legal_actions()))
    with recording():
        RECORDER.reset()
        seen = view(game)
        fired = sorted(c for c in RECORDER.clauses if c.startswith("duel.tablet."))
    assert len(seen["tablets_now"]) == 2
    assert not fired, f"looking fired {fired}"
