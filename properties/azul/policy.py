"""Classic Azul play policies: `uniform`, and two biased ones that steer play into situations random
play almost never reaches, so the interpretation matrix can measure the alternatives that only
those situations decide (properties/azul/hooks.py ROW_SETUPS). Every policy picks among the legal
actions only: the games are legal games, just not typical ones.

- floor-first: the round's starter fills their floor line from the largest factory piles, the others
  leave those piles to them, and the starter's first centre pick comes with a full floor (the marker
  finds no space: azul.offer.marker-on-full-floor).
- hoard: keep tiles on pattern lines and walls and out of the lid: nothing to the floor, no wall
  row completed (which would end the game), factories before the centre. With 4 players the bag
  and lid run low, so late rounds are partly filled and nobody has to take from the centre
  (azul.offer.marker-untaken). It does not (yet) reach a round with no tile at all
  (azul.prep.empty-round): the supply bottoms out at about 4 tiles.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from model.azul.actions import CENTRE_SOURCE, FLOOR, Action, Kind
from model.azul.colours import EMPTY, ROWS
from model.azul.game import Game
from model.azul.state import CENTRE, FLOOR_SPACES
from properties.policies import BASE_POLICIES, Policy, uniform


def _best(actions: Sequence[Action], score: dict[Action, float], rng: random.Random) -> Action:
    top = max(score.values())
    return rng.choice([a for a in actions if score[a] == top])


def _taken(game: Game, action: Action) -> int:
    source, colour = action.args[0], action.args[1]
    s = game.state
    return s.centre[colour] if source == CENTRE_SOURCE else s.factories[source][colour]


def floor_first(game: Game, actions: Sequence[Action], rng: random.Random) -> Action:
    """The round's starter fills their floor with the largest piles the factories offer and, once it
    is full, takes from the centre (and so the marker); the others take the smallest factory piles,
    leaving the large ones, and the centre only when no factory is left."""
    s = game.state
    takes = [a for a in actions if a.kind == Kind.TAKE]
    if not takes:
        return uniform(game, actions, rng)
    starter = s.to_move == s.starter
    full = len(s.boards[s.to_move].floor) >= FLOOR_SPACES
    score: dict[Action, float] = {}
    for a in takes:
        n = _taken(game, a)
        if a.args[0] == CENTRE_SOURCE:
            score[a] = 100.0 if starter and full and s.marker == CENTRE else -100.0
        else:
            score[a] = (n if starter else -n) + (a.args[2] == FLOOR) / 2
    return _best(takes, score, rng)


# Rounds in which `hoard` hoards; after them it plays uniformly, so the game ends as random games do
# (without a limit, hoarders put tiles that fit nowhere on the floor forever: a livelock).
HOARD_ROUNDS = 20


def _hoard_score(game: Game, a: Action) -> float:
    s = game.state
    board = s.boards[s.to_move]
    n = _taken(game, a)
    dest = a.args[2]
    if dest == FLOOR:
        return -10.0 * n - 5.0
    room = dest + 1 - board.line_count[dest]
    put = min(n, room) if len(a.args) < 4 else a.args[3]
    overflow = n - put
    score = 2.0 * put - 10.0 * overflow
    wall_row = board.wall[dest * ROWS:(dest + 1) * ROWS]
    filled = sum(1 for c in wall_row if c != EMPTY)
    if board.line_count[dest] + put == dest + 1:             # the line will be tiled this round
        score -= 100.0 if filled == ROWS - 1 else 0.0        # ... and would complete the wall row
        score -= 0.5 * dest                                  # tiling sends dest tiles to the lid
    if a.args[0] == CENTRE_SOURCE:
        score -= 3.0
    return score


def hoard(game: Game, actions: Sequence[Action], rng: random.Random) -> Action:
    """Keep tiles out of circulation: on lines (not the floor, no overflow), never completing a wall
    row, factories before the centre."""
    takes = [a for a in actions if a.kind == Kind.TAKE]
    if not takes or game.state.round > HOARD_ROUNDS:
        return uniform(game, actions, rng)
    return _best(takes, {a: _hoard_score(game, a) for a in takes}, rng)


POLICIES: dict[str, Policy] = {**BASE_POLICIES, "floor-first": floor_first, "hoard": hoard}
