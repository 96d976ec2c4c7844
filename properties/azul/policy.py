"""Classic Azul play policies: `uniform`, and `lock-up`, biased to steer play into the one situation
neither random play nor, within its budget, `azul-rules search` reaches, so the interpretation
matrix can measure the alternative only it decides (properties/azul/hooks.py ROW_SETUPS). The other
rare rows (a marker taken onto a full floor, a short refill, a round nobody takes from the centre, a
dead game) are decided by the search's committed witnesses (fixtures/azul/witnesses/). The policy
picks among the legal actions only: the games are legal games, just not typical ones.

- lock-up: all 100 tiles on walls and unfinished lines, so that a round starts with no tile at all
  (azul.prep.empty-round; 4 players only: 20 wall tiles without a full row and 10 on lines each).
  Each seat keeps one wall column free (seat p: column p), grows the rest of its wall (completing
  lines, sending surplus to the floor, which the lid recirculates) and, once its wall holds its 20,
  parks each row's missing colour on the row's line without completing it. Once bag and lid are empty
  and the walls hold LOCK_WALLS tiles, it searches the round's takes (at most LOCK_NODES positions)
  for one that sends nothing to the lid; after LOCK_ROUNDS rounds it plays to complete lines.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from model.azul.actions import CENTRE_SOURCE, FLOOR, Action, Kind
from model.azul.colours import EMPTY, ROWS, printed_column
from model.azul.game import Game
from model.clauses import RECORDER
from properties.policies import BASE_POLICIES, Policy, uniform


def _best(actions: Sequence[Action], score: dict[Action, float], rng: random.Random) -> Action:
    top = max(score.values())
    return rng.choice([a for a in actions if score[a] == top])


def _taken(game: Game, action: Action) -> int:
    source, colour = action.args[0], action.args[1]
    s = game.state
    return s.centre[colour] if source == CENTRE_SOURCE else s.factories[source][colour]


LOCK_WALLS = 64       # wall tiles (all seats) from which a round's takes are searched for no lid tile
LOCK_NODES = 300      # positions one search may visit (the policy stays fast and bounded)
LOCK_ROUNDS = 40      # rounds played to lock tiles up; then lines are completed, so the game can end


def _lid_tiles(game: Game, a: Action) -> int:
    """Tiles this take sends to the box lid by the round's end: to the floor, overflowing, or the
    rest of a line of 2 or more it completes; a take completing a wall row counts as 1000."""
    s = game.state
    board = s.boards[s.to_move]
    n, dest = _taken(game, a), a.args[2]
    if dest == FLOOR:
        return n
    put = min(n, dest + 1 - board.line_count[dest]) if len(a.args) < 4 else a.args[3]
    if board.line_count[dest] + put < dest + 1:
        return n - put
    if sum(1 for c in board.wall[dest * ROWS:(dest + 1) * ROWS] if c != EMPTY) == ROWS - 1:
        return 1000
    return n - put + dest


def _offered(game: Game) -> int:
    s = game.state
    return sum(map(sum, s.factories)) + sum(s.centre)


@contextmanager
def _unrecorded() -> Iterator[None]:
    """The search's trial moves are not play: the clause recorder (which the matrix's `decided` and
    the coverage count) does not see them."""
    was = RECORDER.enabled
    RECORDER.enabled = False
    try:
        yield
    finally:
        RECORDER.enabled = was


def _sealed_round(game: Game) -> Action | None:
    """The first take of a way to finish the round sending the fewest tiles to the lid (depth first,
    cheapest takes first, at most LOCK_NODES positions); None when none is found. The round's last
    take is never tried (it would end the round, which draws the next round's tiles by chance):
    its cost is counted without playing it."""
    visited = [0]
    best: list[Any] = [1 << 30, None]

    def search(g: Game, spent: int, first: Action | None) -> None:
        visited[0] += 1
        if visited[0] > LOCK_NODES:
            return
        takes = sorted(((_lid_tiles(g, a), -_taken(g, a), a) for a in g.legal_actions() if a.kind == Kind.TAKE),
                       key=lambda t: (t[0], t[1]))
        for cost, _, a in takes:
            if spent + cost >= best[0]:
                break
            if _taken(g, a) == _offered(g):                   # the round's last take: a leaf
                best[:] = [spent + cost, first or a]
            else:
                after = g.snapshot()        # a take within the round: nothing is drawn
                after.apply(a)
                search(after, spent + cost, first or a)
            if best[0] == 0:
                return

    with _unrecorded():
        search(game, 0, None)
    return best[1]


def _lock_score(game: Game, a: Action) -> float:
    s = game.state
    seat = s.to_move
    board = s.boards[seat]
    n, dest, colour = _taken(game, a), a.args[2], a.args[1]
    wall_done = sum(1 for c in board.wall if c != EMPTY) >= 4 * ROWS
    if dest == FLOOR:
        return -10.0 * n - 5.0 if wall_done else -1.0 * n
    put = min(n, dest + 1 - board.line_count[dest]) if len(a.args) < 4 else a.args[3]
    completes = board.line_count[dest] + put == dest + 1
    if printed_column(dest, colour) == seat:           # the column this seat keeps free: park, never complete
        if completes:
            return -1000.0
        return 3.0 * (put - (n - put)) if wall_done else -20.0
    return 2.0 * put - 3.0 * (n - put) + (10.0 if completes else 0.0)


def _finish_score(game: Game, a: Action) -> float:
    s = game.state
    board = s.boards[s.to_move]
    n, dest = _taken(game, a), a.args[2]
    if dest == FLOOR:
        return -1.0 * n
    put = min(n, dest + 1 - board.line_count[dest]) if len(a.args) < 4 else a.args[3]
    return 10.0 if board.line_count[dest] + put == dest + 1 else float(put)


def lock_up(game: Game, actions: Sequence[Action], rng: random.Random) -> Action:
    """Lock every tile up on walls and unfinished lines (module docstring)."""
    takes = [a for a in actions if a.kind == Kind.TAKE]
    s = game.state
    if not takes:
        return uniform(game, actions, rng)
    if s.round > LOCK_ROUNDS:
        return _best(takes, {a: _finish_score(game, a) for a in takes}, rng)
    walls = sum(1 for b in s.boards for c in b.wall if c != EMPTY)
    if walls >= LOCK_WALLS and not any(s.bag) and not any(s.lid):
        sealed = _sealed_round(game)
        if sealed is not None:
            return sealed
    return _best(takes, {a: _lock_score(game, a) for a in takes}, rng)


POLICIES: dict[str, Policy] = {**BASE_POLICIES, "lock-up": lock_up}
