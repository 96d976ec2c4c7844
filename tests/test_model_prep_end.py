"""Phase 3 (Preparation), the end of the game, the tie-break and the Scoring tablets."""

from __future__ import annotations

import pytest

from model.duel import ScriptedChance, new_game
from model.duel.colours import SPECIAL, WILD
from model.duel.ruleset import Ruleset
from model.duel.scoring import tablet_points
from tests.helpers import B, K, R, T, Y, bare, empty_table, start_tiling


@pytest.mark.clause("duel.prep.tokens-back", "duel.prep.display-refill", "duel.prep.factories-refill",
                    "duel.prep.start-player")
def test_preparation_resets_the_round_and_the_tile_holder_starts() -> None:
    g = bare(5)
    s = g.state
    s.starter = 0
    s.display = [s.display[0], 0, 0]
    s.players[1].start_tile = True
    s.large.start_tile = False
    start_tiling(g)
    assert s.round == 2 and s.phase == "acquisition"
    assert all(s.display) and s.starter == 1 and g.current_player == 1
    assert s.large.start_tile and not s.players[1].start_tile
    assert all(p.tokens_used == 0 for p in s.players)
    assert sum(s.large.sun) == 5 and all(sum(f.sun) == 4 and f.chip for f in s.small)


@pytest.mark.clause("duel.prep.start-player")
@pytest.mark.parametrize("reading,next_starter", [("same-starter", 0), ("alternate", 1)])
def test_untaken_starting_player_tile(reading: str, next_starter: int) -> None:
    g = bare(5, **{"duel.prep.untaken-start-tile": reading})
    g.state.starter = 0
    start_tiling(g)
    assert g.state.starter == next_starter


@pytest.mark.clause("duel.prep.bag-restock")
def test_empty_bag_is_restocked_from_the_tower_mid_refill() -> None:
    g = bare(5)
    empty_table(g)
    s = g.state
    start_bag = s.bag[:]
    # leave 3 tiles in the bag, the rest in the Tower
    s.tower = [start_bag[c] - (1 if c < 3 else 0) for c in range(5)]
    s.bag = [1, 1, 1, 0, 0]
    events = start_tiling(g)
    assert any(e.kind == "restock" for e in events)
    assert sum(s.large.sun) == 5 and all(sum(f.sun) == 4 for f in s.small)


@pytest.mark.clause("duel.prep.rare-empty")
def test_bag_and_tower_run_dry_chips_on_empty_factories_are_revealed() -> None:
    g = bare(5)
    empty_table(g)
    s = g.state
    s.tower = [0] * 5
    s.bag = [2, 2, 2, 0, 0]                    # 6 tiles for 21 places
    events = start_tiling(g)
    assert any(e.kind == "tiles-ran-out" for e in events)
    assert sum(s.large.sun) == 5 and sum(s.small[0].sun) == 1
    assert [f.chip_revealed for f in s.small] == [False, True, True, True]


def _finish_round_five(g) -> None:
    g.state.round = 5
    start_tiling(g)


@pytest.mark.clause("duel.end.after-round-5", "duel.end.winner", "duel.prep.skip-last")
def test_game_ends_after_round_five_tiling() -> None:
    g = bare(5)
    g.state.players[0].score, g.state.players[1].score = 10, 7
    _finish_round_five(g)
    assert g.is_over and g.outcome().winner == 0 and g.returns() == (1.0, -1.0)
    assert g.legal_actions() == []


@pytest.mark.clause("duel.end.tie-break")
def test_tie_goes_to_the_starting_player_tile_holder() -> None:
    g = bare(5)
    g.state.players[0].score = 9
    g.state.players[1].score = 11              # the tile's -2 brings P2 level with P1
    g.state.players[1].start_tile = True
    g.state.large.start_tile = False
    _finish_round_five(g)
    out = g.outcome()
    assert out.scores == (9, 9)
    assert out.winner == 1 and "Starting player tile" in out.reason


@pytest.mark.clause("duel.end.tie-break")
@pytest.mark.parametrize("reading,winner", [("draw", None), ("round-starter", 1)])
def test_tie_without_the_tile(reading: str, winner: int | None) -> None:
    g = bare(5, **{"duel.end.tie-without-tile": reading})
    g.state.starter = 1
    for pl in g.state.players:
        pl.score = 9
    _finish_round_five(g)
    assert g.outcome().scores == (9, 9) and g.outcome().winner == winner


@pytest.mark.clause("duel.tablet.empty-special-spaces")
@pytest.mark.parametrize("cell", [0, 7, 28, 35])
def test_every_empty_special_space_costs_three_wherever_it_lies(cell: int) -> None:
    """-3 for each Special space left without its Special tile, the Dome's first and last cells too
    (a count that skipped the corner cell 35 gave 0 for a bottom-right Special space)."""
    rules = Ruleset.build()
    spaces, tiles = [R] * 36, [-1] * 36
    spaces[cell] = SPECIAL
    assert tablet_points("empty-special-spaces", rules, spaces, tiles) == -3
    tiles[cell] = SPECIAL
    assert tablet_points("empty-special-spaces", rules, spaces, tiles) == 0


def _dome() -> tuple[list[int], list[int]]:
    """A full Dome row 1, full column 1, full main diagonal, a filled upper-left plate."""
    spaces = [R] * 36
    spaces[35] = WILD
    spaces[7] = SPECIAL
    tiles = [-1] * 36
    for c in range(6):
        tiles[c] = [B, Y, R, K, T, B][c]       # row 1: five colours
        tiles[c * 6] = B                       # column 1
        tiles[c * 7] = R if c else B           # main diagonal
    tiles[7] = SPECIAL                         # upper-left plate complete (0, 1, 6, 7)
    return spaces, tiles


@pytest.mark.clause("duel.tablet.rows-complete", "duel.tablet.columns-complete", "duel.tablet.diagonals",
                    "duel.tablet.wild-spaces", "duel.tablet.colourful-rows", "duel.tablet.outer-spaces",
                    "duel.tablet.corner-plates", "duel.tablet.empty-special-spaces")
def test_every_tablet_side() -> None:
    rules = Ruleset.build()
    spaces, tiles = _dome()
    expected = {"rows-complete": 3, "columns-complete": 7, "diagonals": 10, "wild-spaces": 2,
                "colourful-rows": 4, "outer-spaces": 12, "corner-plates": 3, "empty-special-spaces": 0}
    got = {side: tablet_points(side, rules, spaces, tiles) for side in expected}
    assert got == expected
    tiles[35] = -1                             # the only wild space empties
    assert tablet_points("wild-spaces", rules, spaces, tiles) == 0
    spaces[8] = SPECIAL
    assert tablet_points("empty-special-spaces", rules, spaces, tiles) == -3
    alt = Ruleset.build({"duel.tablet.corner-values": "upper-8-lower-3"})
    assert tablet_points("corner-plates", alt, spaces, tiles) == 8


@pytest.mark.clause("duel.tablet.colourful-rows")
def test_special_tile_as_a_colour_reading() -> None:
    spaces = [R] * 36
    tiles = [-1] * 36
    tiles[0:6] = [B, Y, R, K, SPECIAL, B]      # four colours and a Special tile
    assert tablet_points("colourful-rows", Ruleset.build(), spaces, tiles) == 0
    counts = Ruleset.build({"duel.tablet.colourful-rows.special": "counts-as-colour"})
    assert tablet_points("colourful-rows", counts, spaces, tiles) == 4
    tiles[0:6] = [B, Y, R, SPECIAL, B, Y]      # three colours and a Special tile: four kinds, not five
    assert tablet_points("colourful-rows", counts, spaces, tiles) == 0


@pytest.mark.clause("duel.setup.tablets", "duel.component.tablets")
def test_tablet_sets_are_validated() -> None:
    from model.duel import RulesetError
    with pytest.raises(RulesetError, match="two sides of one tablet"):
        new_game(tablets=("rows-complete", "colourful-rows", "diagonals"))
    with pytest.raises(RulesetError, match="3 or 4"):
        new_game(tablets=("rows-complete", "diagonals"))
    g = new_game(tablets=("rows-complete", "outer-spaces", "corner-plates", "wild-spaces"),
                 chance=ScriptedChance(seed=1))
    assert len(g.rules.tablets) == 4
