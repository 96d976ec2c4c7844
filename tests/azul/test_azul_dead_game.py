"""azul.end.dead-game: a legal game in which no wall can ever change again (4 players, gray wall,
seed 88 of the uniform random player) ends (default) or stalls; the condition itself
(model.azul.dead_game.walls_can_change) on hand-built positions; and the step bounds of a game."""

from __future__ import annotations

import random

import pytest

from model.azul import IMPLEMENTED, Game, IllegalAction, new_game, parse_action, round_end
from model.azul.colours import printed_column
from model.azul.dead_game import walls_can_change
from model.azul.supply import fill_factories
from model.azul.walls import complete_rows
from properties.azul import check_all
from properties.azul.bounds import per_round_bound, wall_change_rounds_bound
from tests.azul.helpers import BLUE, RED, YELLOW, bare, set_line

DEAD = "azul.end.dead-game"


def random_play(g: Game, rng: random.Random, max_steps: int) -> tuple[int, list[int]]:
    """Uniform random legal play until the game is over or stalled; (steps, actions per round)."""
    per_round: list[int] = []
    steps = 0
    current = g.state.round
    count = 0
    while not (g.is_over or g.is_stalled) and steps < max_steps:
        g.apply(rng.choice(g.legal_actions()))
        steps += 1
        count += 1
        if g.state.round != current:
            per_round.append(count)
            current, count = g.state.round, 0
    per_round.append(count)
    return steps, per_round


@pytest.mark.clause("azul.end.trigger", "azul.end.bonus-colour")
@pytest.mark.parametrize("alt", IMPLEMENTED[DEAD])
def test_seed_88_game_ends_or_stalls(alt: str) -> None:
    """The game that used to cycle forever (3000 actions, round > 400) stops at the first round's end
    after which no tile can reach a wall, and not before: every round it begins could still change a
    wall (azul.end.trigger's dead-game condition), it stops within the cap random games keep to
    (test_random_games_respect_the_step_bounds), and the round it stops in could not."""
    g = new_game(4, seed=88, wall="gray", interpretations={DEAD: alt})
    rng = random.Random(88)
    bound = per_round_bound(4) * wall_change_rounds_bound(4)   # the empirical cap of the step-bounds test below
    steps, rounds_begun = 0, 0
    while not (g.is_over or g.is_stalled):
        assert steps < bound, f"still playing after {steps} actions (round {g.state.round})"
        current = g.state.round
        g.apply(rng.choice(g.legal_actions()))
        steps += 1
        if g.state.round != current and not (g.is_over or g.is_stalled):
            rounds_begun += 1
            assert walls_can_change(g.state, g.rules), f"round {g.state.round} began though no wall can change"
    s = g.state
    assert rounds_begun == s.round - 1 and s.round > 1   # it stopped at a round's end, after some rounds
    assert not any(complete_rows(b.wall) for b in s.boards)
    assert not walls_can_change(s, g.rules) and (any(s.bag) or any(s.lid))
    assert check_all(g) == []
    assert g.legal_actions() == []
    before = s.copy()
    with pytest.raises(IllegalAction) as exc:
        g.apply(parse_action("take C blue floor"))
    assert exc.value.clause == "azul.end.trigger" and g.state == before
    if alt == "end-game":
        assert g.is_over and not g.is_stalled and g.outcome() is not None
        assert [b.score for b in s.boards] == [0, 10, 0, 0]          # P2's colour bonus was scored
    else:
        assert g.is_stalled and not g.is_over and g.outcome() is None and g.current_player == -1
        assert [b.score for b in s.boards] == [0, 0, 0, 0]           # no bonuses


PASS_ON = {"azul.offer.marker-untaken": "next-clockwise"}     # every seat gets to start a round


def _gray_dead_walls(interpretations: dict[str, str] | None = None) -> Game:
    """2 players, gray wall: both walls hold red in rows 1-4 (columns 1-4), so red fits nowhere but
    row 5 of P1 (rows 1-4 hold it; row 5's free columns 1-4 hold it too: c5 is blue). P2 has
    red in rows 1 and 2 only: rows 3-5 take red, which needs 3, 4 or 5 red tiles. By default the
    start passes on (PASS_ON), so every seat's lines count."""
    g = bare(players=2, wall="gray", interpretations=PASS_ON if interpretations is None else interpretations)
    s = g.state
    p1, p2 = s.boards[0].wall, s.boards[1].wall
    for r in range(4):
        p1[r * 5 + r] = RED
    p1[4 * 5 + 4] = BLUE
    p2[0] = RED
    p2[5 + 1] = RED
    s.bag = [0] * 5
    for f in s.factories:
        f[:] = [0] * 5
    return g


@pytest.mark.clause("azul.end.trigger", "azul.wall.no-space", "azul.lines.wall-has-colour")
def test_condition_counts_free_tiles_and_released_lines() -> None:
    g = _gray_dead_walls()
    s = g.state
    s.bag[RED] = 2
    assert not walls_can_change(s, g.rules)          # P2 needs 3 red for row 3: only 2 are free
    s.bag[RED] = 3
    assert walls_can_change(s, g.rules)
    s.bag[RED] = 2
    set_line(s.boards[0], 5, RED, 3)                 # P1's line 5: 3 red, no wall space (allowed)
    assert walls_can_change(s, g.rules)              # 2 complete it, all 5 go to the floor: free
    refused = bare(players=2, wall="gray", interpretations={**PASS_ON, "azul.gray.unplaceable-line": "refused"})
    assert not walls_can_change(s, refused.rules)    # refused: that line can never be completed
    s.bag[RED] = 1
    assert not walls_can_change(s, g.rules)          # one is too few to complete it


@pytest.mark.clause("azul.end.trigger")
def test_condition_lines_block_their_rows() -> None:
    g = _gray_dead_walls()
    s = g.state
    s.bag[RED] = 3
    for line in (3, 4, 5):                           # P2's rows that take red wait for yellow
        set_line(s.boards[1], line, YELLOW, 1)
    assert not walls_can_change(s, g.rules)          # and no yellow is free to complete them
    s.lid[YELLOW] = 2
    assert walls_can_change(s, g.rules)              # P2's line 3 can be completed with yellow
    s.lid[YELLOW] = 0
    set_line(s.boards[1], 3, RED, 1)                 # a red line in a row that takes red
    assert walls_can_change(s, g.rules)              # 1 + 3 free >= 3


@pytest.mark.clause("azul.end.trigger", "azul.prep.refill", "azul.floor.marker-kept")
def test_one_colour_on_one_factory_counts_only_the_next_starter() -> None:
    """Free tiles of one colour that fit one factory all land on it; its starter's take ends the round
    with the centre untaken, so under same-starter that player starts every later round and only
    their lines count (docs/azul-dead-game.md, the endless same-starter game)."""
    g = _gray_dead_walls({})                         # default readings: same-starter
    s = g.state
    s.bag[RED] = 3                                   # P2 could complete line 3 with them; P1 cannot
    s.starter = 0
    assert not walls_can_change(s, g.rules)          # P1 takes them every round, to the floor
    assert walls_can_change(s, _gray_dead_walls().rules)      # next-clockwise: P2 will start a round
    s.starter = 1
    assert walls_can_change(s, g.rules)              # P2 starts for ever: P2's line counts
    s.starter, s.marker = 0, 1
    assert walls_can_change(s, g.rules)              # P2 took the marker: P2 starts next
    s.marker = -1
    s.bag[RED] = 4
    assert not walls_can_change(s, g.rules)          # 4 still fit the first factory
    s.bag[RED] = 5
    assert walls_can_change(s, g.rules)              # the 5th opens a second factory: P2 gets a turn
    s.bag[RED], s.lid[YELLOW] = 3, 1
    assert walls_can_change(s, g.rules)              # two colours: what P1 leaves goes to the centre
    s.lid[YELLOW] = 0
    s.bag[RED] = 2
    set_line(s.boards[0], 5, RED, 3)                 # P1's line 5 has no space: 2 complete it, 5 freed
    assert walls_can_change(s, g.rules)              # 5 red then reach two factories: P2's line 3
    s.starter = 1
    assert not walls_can_change(s, g.rules)          # P2 alone takes the 2: P1's line never completes


@pytest.mark.clause("azul.end.trigger", "azul.prep.refill", "azul.floor.marker-kept")
def test_one_colour_over_several_factories_counts_one_seat_per_factory() -> None:
    """4 players, coloured wall: P1 and P2 hold red in every row, P3 and P4 none. Free red over two
    factories is two whole-factory takes a round, by the starter and the next seat."""
    g = bare(players=4)
    s = g.state
    s.bag = [0] * 5
    for board in s.boards[:2]:
        for r in range(5):
            board.wall[r * 5 + printed_column(r, RED)] = RED
    s.bag[RED], s.starter = 6, 0
    assert not walls_can_change(s, g.rules)          # P1 and P2 floor them every round
    s.starter = 1
    assert walls_can_change(s, g.rules)              # P2 and P3: P3 can tile red
    s.starter, s.bag[RED] = 3, 8
    assert walls_can_change(s, g.rules)              # P4 and P1
    s.starter, s.bag[RED] = 0, 9
    assert walls_can_change(s, g.rules)              # a third factory: P3 takes too


@pytest.mark.clause("azul.end.trigger", "azul.prep.continue")
@pytest.mark.parametrize("alt", IMPLEMENTED[DEAD])
def test_the_round_that_kills_the_walls_is_the_last(alt: str) -> None:
    """A hand-built position: the offer ends, nothing free can reach a wall: the game ends or stalls
    after that round's floor scoring; with one more tile usable, the next round is prepared."""
    for usable in (False, True):
        g = _gray_dead_walls()
        g.rules = bare(players=2, wall="gray", interpretations={**PASS_ON, DEAD: alt}).rules
        s = g.state
        s.lid[RED] = 1 + usable                       # 3 red free would let P2 tile row 3
        s.factories[0][RED] = 1                       # the last tile on offer: P1 floors it
        g.apply(parse_action("take F1 red floor"))
        if usable:
            assert s.round == 2 and not g.is_over and not g.is_stalled
            continue
        assert s.round == 1 and s.boards[0].score == 0
        assert g.is_over if alt == "end-game" else g.is_stalled
        assert (g.outcome() is not None) == (alt == "end-game")


@pytest.mark.clause("azul.lines.to-floor")
@pytest.mark.parametrize("alt", IMPLEMENTED[DEAD])
def test_floor_only_play_never_ends(alt: str) -> None:
    """No step bound holds for every legal game: a tile may always be put on the floor line by choice
    (azul.lines.to-floor), so players who never fill a line play forever while every wall could
    still change. Neither alternative ends such a game; only a driver's step limit does."""
    g = new_game(2, seed=5, interpretations={DEAD: alt})
    for _ in range(60 * per_round_bound(2)):
        floor = [a for a in g.legal_actions() if str(a).endswith("floor")]
        g.apply(floor[0])
    assert g.state.round > 60 and not (g.is_over or g.is_stalled)
    assert walls_can_change(g.state, g.rules) and all(b.score == 0 for b in g.state.boards)


@pytest.mark.clause("azul.end.trigger")
@pytest.mark.parametrize("players", (2, 3, 4))
@pytest.mark.parametrize("wall", ("coloured", "gray"))
@pytest.mark.parametrize("alt", IMPLEMENTED[DEAD])
def test_random_games_respect_the_step_bounds(players: int, wall: str, alt: str) -> None:
    """Every round within per_round_bound actions (a bound from the components); wall-changing rounds
    within wall_change_rounds_bound; and uniform random games end or stall within
    per_round_bound x wall_change_rounds_bound actions (an empirical cap: rounds in which no wall
    changes have no rule bound, see test_floor_only_play_never_ends)."""
    cap = per_round_bound(players) * wall_change_rounds_bound(players)
    for seed in range(12):
        g = new_game(players, seed=seed, wall=wall, interpretations={DEAD: alt})
        walls_before = [b.wall[:] for b in g.state.boards]
        changes = 0
        rng = random.Random(seed)
        steps, per_round = 0, [0]
        current = g.state.round
        while not (g.is_over or g.is_stalled) and steps < cap:
            g.apply(rng.choice(g.legal_actions()))
            steps += 1
            per_round[-1] += 1
            if g.state.round != current:
                current = g.state.round
                per_round.append(0)
                walls = [b.wall[:] for b in g.state.boards]
                changes += walls != walls_before
                walls_before = walls
        assert g.is_over or g.is_stalled, f"seed {seed}: {steps} actions, round {g.state.round}"
        assert max(per_round) <= per_round_bound(players)
        assert changes <= wall_change_rounds_bound(players)


@pytest.mark.clause("azul.end.trigger")
def test_a_dead_position_really_never_changes_a_wall(monkeypatch: pytest.MonkeyPatch) -> None:
    """Soundness of the condition on the seed-88 position: with the check switched off, play on from
    it (several random continuations, the floor-heavy and the line-heavy player): no wall changes."""
    g = new_game(4, seed=88, wall="gray", interpretations={DEAD: "stall"})
    random_play(g, random.Random(88), 3000)
    assert g.is_stalled
    monkeypatch.setattr(round_end, "walls_can_change", lambda state, rules: True)
    dead = g.state
    for seed in range(4):
        h = new_game(4, seed=seed, wall="gray", interpretations={DEAD: "stall"})
        h.state = dead.copy()
        h.state.to_move = h.state.starter
        round_end.next_starter(h.state, h.rules)
        h.state.round += 1
        fill_factories(h.state, h.chance, [], "azul.prep.refill")
        round_end.start_round(h.state, [])
        walls = [b.wall[:] for b in h.state.boards]
        rng = random.Random(seed)
        prefer_lines = seed % 2 == 1
        for _ in range(600):
            legal = h.legal_actions()
            lines = [a for a in legal if not str(a).endswith("floor")]
            h.apply(rng.choice(lines if prefer_lines and lines else legal))
            assert [b.wall for b in h.state.boards] == walls
        assert h.state.round > dead.round + 10 and not h.is_over
