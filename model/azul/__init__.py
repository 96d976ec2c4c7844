"""model.azul: the executable rules of classic Azul (2-4 players, coloured or gray wall).
Every rule site cites its `azul.*` clause id (contract: spec/azul/).

The names below are imported on first use (model/lazy.py): `import model.azul` alone loads no rules."""

from __future__ import annotations

from typing import TYPE_CHECKING

from model.lazy import lazy_exports

if TYPE_CHECKING:
    from model.azul.actions import Action, Kind, NotationError, format_action, parse_action
    from model.azul.game import Game
    from model.azul.outcome import AzulOutcome
    from model.azul.ruleset import DEFAULTS, IMPLEMENTED, WALL_SIDES, Ruleset
    from model.azul.setup import new_game
    from model.errors import IllegalAction, RulesetError

_EXPORTS = {
    "Action": "model.azul.actions", "Kind": "model.azul.actions", "NotationError": "model.azul.actions",
    "format_action": "model.azul.actions", "parse_action": "model.azul.actions",
    "Game": "model.azul.game", "AzulOutcome": "model.azul.outcome",
    "DEFAULTS": "model.azul.ruleset", "IMPLEMENTED": "model.azul.ruleset", "WALL_SIDES": "model.azul.ruleset",
    "Ruleset": "model.azul.ruleset", "new_game": "model.azul.setup",
    "IllegalAction": "model.errors", "RulesetError": "model.errors",
}
__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)

__all__ = ["DEFAULTS", "IMPLEMENTED", "WALL_SIDES", "Action", "AzulOutcome", "Game", "IllegalAction", "Kind",
           "NotationError", "Ruleset", "RulesetError", "format_action", "new_game", "parse_action"]
