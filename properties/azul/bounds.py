"""Step bounds of classic Azul, derived from the components and the rules (azul.end.dead-game).

- One round: every take removes at least one of the <= 4 x factories tiles put on offer
  (azul.setup.fill-factories, azul.setup.factory-count), and each player is asked at most one
  gray-wall placement per pattern line (azul.wall.top-to-bottom): 4F + 5P actions (2p 30, 3p 43,
  4p 56).
- Rounds in which some wall gains a tile: a wall holds at most 4 x 5 tiles without a complete row,
  so the (20P + 1)-th such round completes a row and ends the game (azul.end.trigger), unless
  azul.end.dead-game ended or stalled it earlier.
- Rounds in which no wall changes have no bound from the rules: a player may always put taken tiles
  on the floor line (azul.lines.to-floor), so players who never fill a line play forever
  (tests/azul/test_azul_dead_game.py::test_floor_only_play_never_ends). Drivers cap games.
"""

from __future__ import annotations

from model.azul.setup import FACTORIES_FOR
from model.azul.state import FACTORY_TILES

WALL_ROWS = 5


def per_round_bound(players: int) -> int:
    return FACTORY_TILES * FACTORIES_FOR[players] + WALL_ROWS * players


def wall_change_rounds_bound(players: int) -> int:
    return 4 * WALL_ROWS * players + 1
