"""Games to and from plain data with cattrs (JSON-ready; round-trips exactly).

The data holds the state and the ruleset (interpretation choices and tablets); the chance object is
not data, so loading takes one (a seeded chance by default).
"""

from __future__ import annotations

from typing import Any

import cattrs

from model.chance import Chance, SeededChance
from model.duel.engine import Game
from model.duel.ruleset import Ruleset
from model.duel.state import GameState

FORMAT = "azul-rules/duel-state/1"
_converter = cattrs.Converter(forbid_extra_keys=True)


def state_to_data(state: GameState) -> dict[str, Any]:
    return _converter.unstructure(state)


def state_from_data(data: dict[str, Any]) -> GameState:
    return _converter.structure(data, GameState)


def game_to_data(game: Game) -> dict[str, Any]:
    return {
        "format": FORMAT,
        "ruleset": {"choices": dict(game.rules.choices), "tablets": list(game.rules.tablets)},
        "state": state_to_data(game.state),
    }


def game_from_data(data: dict[str, Any], chance: Chance | None = None) -> Game:
    if data.get("format") != FORMAT:
        raise ValueError(f"not a {FORMAT} document")
    rules = Ruleset.build(data["ruleset"]["choices"], tablets=tuple(data["ruleset"]["tablets"]))
    return Game(state_from_data(data["state"]), rules, chance if chance is not None else SeededChance(0))
