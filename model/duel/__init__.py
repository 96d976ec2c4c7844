"""model.duel: the executable rules of Azul Duel. Every rule site cites its `duel.*` clause id.

The names below are imported on first use (model/lazy.py): `import model.duel` alone loads no rules;
`from model.duel import new_game` loads the engine."""

from __future__ import annotations

from typing import TYPE_CHECKING

from model.lazy import lazy_exports

if TYPE_CHECKING:
    from model.chance import Chance, ScriptedChance, SeededChance
    from model.duel.actions import Action, Kind, NotationError, parse_action
    from model.duel.engine import Game
    from model.duel.game import new_game
    from model.duel.ruleset import IMPLEMENTED, Ruleset
    from model.errors import IllegalAction, RulesetError
    from model.events import Event, Outcome

_EXPORTS = {
    "Action": "model.duel.actions", "Kind": "model.duel.actions", "NotationError": "model.duel.actions",
    "parse_action": "model.duel.actions",
    "Chance": "model.chance", "ScriptedChance": "model.chance", "SeededChance": "model.chance",
    "Game": "model.duel.engine", "new_game": "model.duel.game",
    "IllegalAction": "model.errors", "RulesetError": "model.errors",
    "Event": "model.events", "Outcome": "model.events",
    "IMPLEMENTED": "model.duel.ruleset", "Ruleset": "model.duel.ruleset",
}
__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)

__all__ = [
    "IMPLEMENTED", "Action", "Chance", "Event", "Game", "IllegalAction", "Kind", "NotationError",
    "Outcome", "Ruleset", "RulesetError", "ScriptedChance", "SeededChance", "new_game", "parse_action",
]
