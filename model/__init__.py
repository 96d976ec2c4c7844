"""model: what every game's rules share, and nothing of any one game.

- `model.clauses`: the citation recorder (`cite`, `cite_alternative`, `cite_edge`).
- `model.chance`: injected chance (`Chance` protocol, seeded and scripted sources).
- `model.events`: `Event` (every effect names its clause) and `Outcome`.
- `model.errors`: `IllegalAction`, `RulesetError`, `RuleLoopError`.
- `model.phases`: the phase-graph machinery (a game lists its phases and edges).
- `model.protocol`: `Game`, the one surface shared layers use.

Each game's rules live in their own folder (`model/duel/`, `model/azul/`), found through the registry
(properties/registry.py); this package imports none of them. The names below are imported on first use
(model/lazy.py): `import model` alone imports nothing else.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from model.lazy import lazy_exports

if TYPE_CHECKING:
    from model.chance import Chance, ScriptedChance, SeededChance
    from model.errors import IllegalAction, RuleLoopError, RulesetError
    from model.events import Event, Outcome
    from model.protocol import Game

_EXPORTS = {
    "Chance": "model.chance", "ScriptedChance": "model.chance", "SeededChance": "model.chance",
    "IllegalAction": "model.errors", "RuleLoopError": "model.errors", "RulesetError": "model.errors",
    "Event": "model.events", "Outcome": "model.events", "Game": "model.protocol",
}
__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)

__all__ = ["Chance", "Event", "Game", "IllegalAction", "Outcome", "RuleLoopError", "RulesetError",
           "ScriptedChance", "SeededChance"]
