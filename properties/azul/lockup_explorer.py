"""A round-level explorer for the question azul.prep.empty-round=stall at 4 players (a round
prepared with no tile at all: bag and lid empty, all 100 tiles on walls and unfinished pattern
lines), which the coverage-guided search (properties/search/) does not reach (it stops 6-10 tiles
short: docs/designer-guide.md). At 2 players it cannot happen (the search's hooks' `unreachable`).

What the way there needs (what the retired `lock-up` policy planned): each seat's wall holds up to
20 tiles without a full row and its lines up to 10 without a full one, so at least 60 of the 100
tiles must be on walls, and none of the tiling may complete a wall row (that ends the game). Walls
grow only by completed lines, whose surplus the lid recirculates; a tile parked early on a line
blocks its row. So the walls must grow first and the lines hoard last: in the step cost a wall tile
is worth WALL_WEIGHT more than a parked line tile (without that term the explorer stalls at some 20
free tiles: tests/azul/test_lockup_explorer.py).

Go-Explore by rounds: a population of games at a round's start; from each, a few rollouts play the
round to the next one's start; the best games by `round_cost` go on. A rollout chooses for all
players and for chance: at each step it tries the legal actions (a sample) on snapshots and plays
the one of lowest `step_cost` (tiles not locked up after the coming tiling, wall tiles worth more,
a wall row completed), with a little noise; at a refill chance draws as a random style says
(SearchChance). Every outcome is recorded, so the game replays with the scenario's strict script.

Effort: at most ROUNDS rounds x population games x rollouts, each rollout at most per_round_bound
steps of at most TRIES trial snapshots (`explore(0, 30, 4)`: about 7 CPU s). `find` is classic's own
explorer for the goal in the search's hooks (`SearchHooks.explorers`, properties/azul/predicates.py),
so `azul-rules search --game azul --players 4 --decide azul.prep.empty-round=stall` runs it, shrinks
its game and writes the witness."""

from __future__ import annotations

import random
from typing import Any

from model.azul.actions import CENTRE_SOURCE, Action, Kind
from model.azul.colours import EMPTY, ROWS
from model.azul.game import Game
from model.azul.state import AzulState
from model.clauses import RECORDER
from properties.azul.bounds import per_round_bound
from properties.search.chance import TILE_STYLES, ChanceRecord, SearchChance
from properties.search.rounds import Line, Nodes, first_found

GOAL = "azul.prep.empty-round=stall"
OVERRIDES = {"azul.prep.empty-round": "stall"}
PLAYERS = 4
TILES = 100
SETUP_SEED = 0                # the search's set-up seed (properties/search/replay.py Setup): its witnesses start so
ROUNDS = 14                   # rounds explored (lock-up games run dry in about 8)
COMPLETING = 1000.0           # cost of a tiling that completes a wall row: the game would end
TRIES = 40                    # legal actions a rollout tries at a step (a sample when more)
NOISE = 0.05                  # share of a rollout's steps played at random
WALL_WEIGHT = 8.0             # extra worth of a wall tile over a parked line tile: walls must grow first
JITTER = 0.3                  # random tie-break added to a trial's cost


def _wall_tiles(s: AzulState) -> int:
    return sum(1 for b in s.boards for c in b.wall if c != EMPTY)


def locked(s: AzulState) -> int:
    """Tiles locked up after the coming tiling: wall tiles, one per full line (its wall tile; the rest
    goes to the lid) and the tiles of unfinished lines."""
    n = _wall_tiles(s)
    for b in s.boards:
        for r in range(ROWS):
            n += 1 if b.line_count[r] == r + 1 else b.line_count[r]
    return n


def walled(s: AzulState) -> int:
    """Wall tiles after the coming tiling: those on the walls and one per full line."""
    return _wall_tiles(s) + sum(1 for b in s.boards for r in range(ROWS) if b.line_count[r] == r + 1)


def completing(s: AzulState) -> int:
    """Wall rows the coming tiling completes (a full line on a row of 4 tiles)."""
    return sum(1 for b in s.boards for r in range(ROWS)
               if b.line_count[r] == r + 1 and sum(1 for c in b.wall[r * ROWS:(r + 1) * ROWS] if c != EMPTY) == ROWS - 1)


def step_cost(s: AzulState) -> float:
    """A position within a round: the tiles not locked up after the coming tiling, each wall tile
    WALL_WEIGHT less (walls grow first), and a completed wall row (the game would end)."""
    return float(TILES - locked(s)) - WALL_WEIGHT * walled(s) + COMPLETING * completing(s)


def round_cost(game: Game) -> float:
    """A game at a round's start: the tiles not locked up (bag, lid, factories; the goal is 0), each
    wall tile WALL_WEIGHT less; an ended game is out."""
    if game.is_over:
        return float("inf")
    s = game.state
    return float(TILES - locked(s)) - WALL_WEIGHT * _wall_tiles(s)


NODES = Nodes()               # actions the rollouts played (trials aside), and the most they may play


def _rollout(line: Line, rng: random.Random) -> bool:
    """Play the line's round to the next round's start (at most per_round_bound steps); True when a
    round was prepared with no tile at all (the game stalled)."""
    game = line.game
    start = game.state.round
    for _ in range(per_round_bound(PLAYERS)):
        if game.state.round != start or game.is_over or game.is_stalled:
            break
        NODES.play()
        legal = game.legal_actions()
        if rng.random() < NOISE:
            action = rng.choice(legal)
        else:
            tries = legal if len(legal) <= TRIES else rng.sample(legal, TRIES)
            best: tuple[float, Any] | None = None
            for a in tries:
                trial = game.snapshot()
                if _is_round_end(trial, a, start):      # the round's last step: the refill follows
                    cost = -1.0
                else:
                    trial.apply(a)
                    cost = step_cost(trial.state) + rng.random() * JITTER
                if best is None or cost < best[0]:
                    best = (cost, a)
            assert best is not None
            action = best[1]
        game.apply(action)
        line.actions.append(str(action))
    return game.is_stalled


def _is_round_end(trial: Game, action: Action, start: int) -> bool:
    """Whether `action` ends the offer's takes (the tiling and the refill follow: a snapshot may not
    draw, so it is not played)."""
    s = trial.state
    offered = sum(map(sum, s.factories)) + sum(s.centre)
    if action.kind != Kind.TAKE or offered == 0:
        return False
    source, colour = action.args[0], action.args[1]
    taken = s.centre[colour] if source == CENTRE_SOURCE else s.factories[source][colour]
    return bool(taken == offered)


def explore(seed: int, population: int, rollouts: int) -> Line | None:
    """Up to ROUNDS rounds from `population` games (the search's set-up, SETUP_SEED; chance and
    choices from `seed`), `rollouts` per game and round; the first game prepared with no tile at
    all, or None."""
    from properties.azul.predicates import start as start_witness

    rng = random.Random(seed)
    was = RECORDER.enabled
    RECORDER.enabled = False
    try:
        lines = [Line(start_witness(SETUP_SEED, OVERRIDES, PLAYERS,
                                    SearchChance(rng.randrange(2**32), rng.choice(TILE_STYLES))), [])
                 for _ in range(population)]
        for _ in range(ROUNDS):
            scored: list[tuple[float, Line]] = []
            for line in lines:
                for _ in range(rollouts):
                    game = line.game.copy()
                    chance = game.chance
                    assert isinstance(chance, SearchChance)
                    chance.reseed(rng.randrange(2**32), rng.choice(TILE_STYLES))
                    branch = Line(game, list(line.actions))
                    if _rollout(branch, rng):
                        return branch
                    cost = round_cost(game)
                    if cost != float("inf"):
                        scored.append((cost + rng.random() * JITTER, branch))
            if not scored:
                return None
            scored.sort(key=lambda x: x[0])
            lines = [line for _, line in scored[:population]]
        return None
    finally:
        RECORDER.enabled = was


FIND_POPULATION = 30          # games per round start in `find`
FIND_ROLLOUTS = 4             # rollouts per game and round in `find`
FIND_TRIES = 4                # explorations `find` tries (about 7 CPU s each)


def find(seed: int, nodes: int) -> tuple[tuple[list[str], ChanceRecord] | None, int]:
    """The search's own explorer for azul.prep.empty-round=stall (`SearchHooks.explorers`): up to
    FIND_TRIES explorations, seeds seed * FIND_TRIES onward, playing at most `nodes` actions; the
    actions and chance record of the first game prepared with no tile (or None), and the actions
    played. Its games have 4 players (at 2 the question is unreachable; at 3 the search's replay of
    a 4-player game fails, so nothing is kept)."""
    return first_found(lambda k: explore(k, FIND_POPULATION, FIND_ROLLOUTS),
                       range(seed * FIND_TRIES, (seed + 1) * FIND_TRIES), NODES, nodes)
