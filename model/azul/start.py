"""Classic Azul's `new_game` in the registry's one signature (properties/registry.py)."""

from __future__ import annotations

from collections.abc import Mapping

from model.azul.game import Game
from model.azul.setup import new_game
from model.chance import Chance

WALL_SIDE = "azul.setup.wall-side"     # the wall side travels with the overrides under its clause id


def start(seed: int = 0, overrides: Mapping[str, str] | None = None, players: int | None = None,
          chance: Chance | None = None) -> Game:
    """A game after setup. `overrides` are interpretation choices; the key "azul.setup.wall-side"
    ("coloured" or "gray") picks the wall side, so the matrix and the CLI can run the gray variant."""
    choices = dict(overrides or {})
    wall = choices.pop(WALL_SIDE, "coloured")
    return new_game(players=players or 2, seed=seed, wall=wall, interpretations=choices, chance=chance)
