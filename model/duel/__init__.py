"""model.duel: the executable rules of Azul Duel. Every rule site cites its `duel.*` clause id."""

from model.duel.actions import Action, Kind, NotationError, parse_action
from model.chance import Chance, ScriptedChance, SeededChance
from model.duel.engine import Game
from model.errors import IllegalAction, RulesetError
from model.events import Event, Outcome
from model.duel.game import new_game
from model.duel.ruleset import IMPLEMENTED, Ruleset

__all__ = [
    "IMPLEMENTED", "Action", "Chance", "Event", "Game", "IllegalAction", "Kind", "NotationError",
    "Outcome", "Ruleset", "RulesetError", "ScriptedChance", "SeededChance", "new_game", "parse_action",
]
