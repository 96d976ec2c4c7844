"""The peer engine's speed on the same kind of games as `azul-rules bench --game azul` (issue 12).

`azul-game-engine` has no legal-move generator, so the peer's random games are driven by a small
enumerator over the peer's own state (every source and colour present, every pattern line the peer
accepts, and the floor), chosen uniformly, and played through the peer's public methods. The peer checks
nothing before it changes its state, so only moves it accepts are offered. Its randomness is Python's
global `random` module: seeded per game here and restored afterwards, so the run is repeatable.
The enumerator is the only code of ours in the timed loop; it is charged to the peer, so it is kept
minimal (it reads the peer's state, never the peer's slow rule queries: `_moves`).
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from typing import Any

import attrs

from harness.bench import Rates
from harness.errors import UserError


@attrs.frozen
class PeerBench(Rates):
    games: int
    actions: int
    seconds: float
    crashed: int          # games the peer raised in (its bugs); counted, their actions and time included
    cpu_seconds: float = 0.0              # this process's CPU time over the games (time.process_time)
    engine: str = "azul-game-engine"      # the peer's package name, for the table


_TILES: tuple[Any, ...] = ()                  # the peer's Tile members, filled by _peer()


def _peer() -> Any:
    try:
        import azul_game_engine  # noqa: F401
    except ImportError as exc:
        raise UserError("the peer engine azul-game-engine is not installed "
                        "(`make` installs it from requirements/peer.txt)") from exc
    from azul_game_engine import board, floor, game, lid, player, wall
    from azul_game_engine.tile import Tile
    global _TILES
    _TILES = tuple(Tile)                      # the peer's colour order (its wall layout: Wall.already_has)
    return board, floor, game, lid, player, wall


def _moves(g: Any) -> list[tuple[int, Any, int, int]]:
    """(factory index or -1 for the centre, tile, tiles to the floor, pattern line) the peer accepts,
    in the order of the factories, then the centre, each source's colours in first-seen order.

    Minimal, so that the peer is charged for its own work only: it reads the peer's state (pattern
    lines, wall spaces) directly, where asking the peer's `Wall.already_has` would charge the peer
    for a scan of its colour enum on every question; colours are compared by identity (the peer's
    `Tile` members are singletons, and hashing an Enum member runs Python code)."""
    me = g.players[g.current_player].board
    lines = me.pattern_lines
    spaces = me.wall.tiles
    moves: list[tuple[int, Any, int, int]] = []
    asked: list[Any] = []                         # colours whose lines are worked out, and ...
    accepted: list[list[int]] = []                # ... the pattern lines the peer accepts each on
    sources: list[tuple[int, Sequence[Any]]] = [(i, f.tiles) for i, f in enumerate(g.factory_displays)]
    sources.append((-1, g.center.tiles))
    for index, tiles in sources:
        seen: list[Any] = []
        for tile in tiles:
            if tile in seen:                      # list membership: identity first, at C speed
                continue
            seen.append(tile)
            if tile in asked:
                rows = accepted[asked.index(tile)]
            else:
                rows = _rows_for(lines, spaces, _TILES.index(tile))
                asked.append(tile)
                accepted.append(rows)
            moves += [(index, tile, 0, row) for row in rows]
            moves.append((index, tile, tiles.count(tile), 0))   # everything to the floor
    return moves


def _rows_for(lines: Sequence[Any], spaces: Sequence[Sequence[Any]], colour: int) -> list[int]:
    """The pattern lines a tile of the peer's colour number `colour` may go on: empty or holding that
    colour and not full, with its wall space (the peer's layout: column (colour + row) mod 5) empty."""
    tile = _TILES[colour]
    return [row for row, line in enumerate(lines)
            if not (line.tile_count and (line.tile is not tile or line.tile_count == line.size))
            and not spaces[row][(colour + row) % 5].is_placed]


def new_peer_game(players: int) -> Any:
    """A peer game after its setup (its factories drawn from Python's global `random`)."""
    board, floor, game, lid, player, wall = _peer()
    shared = lid.Lid()
    return game.Game([player.Player(board.Board(wall=wall.Wall(), floor=floor.Floor(shared)), f"P{i + 1}")
                      for i in range(players)], starting_player=0, lid=shared)


def play(seed: int, players: int, max_actions: int = 2000) -> tuple[int, bool]:
    """One random peer game; returns (actions, crashed)."""
    _peer()
    rng = random.Random(seed)
    saved = random.getstate()
    random.seed(seed)
    n = 0
    try:
        g = new_peer_game(players)
        while g.is_running:
            if n >= max_actions:
                raise RuntimeError(f"peer game seed {seed}: no end after {max_actions} actions")
            moves = _moves(g)
            if not moves:
                return n, True
            index, tile, on_floor, row = rng.choice(moves)
            if index < 0:
                g.execute_factory_offer_phase_with_center(tile, on_floor, row)
            else:
                g.execute_factory_offer_phase_with_factory(index, tile, on_floor, row)
            n += 1
        return n, False
    except RuntimeError:
        raise
    except Exception:  # noqa: BLE001 - the peer's own failure: counted, never hidden
        return n, True
    finally:
        random.setstate(saved)


def run(games: int, seed: int = 0, players: int = 2) -> PeerBench:
    _peer()                                   # its import outside the clock, like ours
    start, cpu = time.perf_counter(), time.process_time()
    actions = crashed = 0
    for i in range(games):
        n, broke = play(seed + i, players)
        actions += n
        crashed += broke
    return PeerBench(games, actions, time.perf_counter() - start, crashed, time.process_time() - cpu)
