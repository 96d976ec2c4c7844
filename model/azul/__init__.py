"""model.azul: the executable rules of classic Azul (2-4 players, coloured or gray wall).
Every rule site cites its `azul.*` clause id (contract: spec/azul/)."""

from model.azul.actions import Action, Kind, NotationError, format_action, parse_action
from model.azul.game import Game
from model.azul.outcome import AzulOutcome
from model.azul.ruleset import DEFAULTS, IMPLEMENTED, WALL_SIDES, Ruleset
from model.azul.setup import new_game
from model.errors import IllegalAction, RulesetError

__all__ = ["DEFAULTS", "IMPLEMENTED", "WALL_SIDES", "Action", "AzulOutcome", "Game", "IllegalAction", "Kind",
           "NotationError", "Ruleset", "RulesetError", "format_action", "new_game", "parse_action"]
