"""What every part of the engine may rely on: the state, the ruleset and the chance."""

from __future__ import annotations

from model.chance import Chance
from model.duel.ruleset import Ruleset
from model.duel.state import GameState


class GameBase:
    """Attributes shared by the engine's parts (generation, legality, the three phases)."""

    __slots__ = ()
    state: GameState
    rules: Ruleset
    chance: Chance
