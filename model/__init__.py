"""model: what every game's rules share, and nothing of any one game.

- `model.clauses`: the citation recorder (`cite`, `cite_alternative`, `cite_edge`).
- `model.chance`: injected chance (`Chance` protocol, seeded and scripted sources).
- `model.events`: `Event` (every effect names its clause) and `Outcome`.
- `model.errors`: `IllegalAction`, `RulesetError`, `RuleLoopError`.
- `model.phases`: the phase-graph machinery (a game lists its phases and edges).
- `model.protocol`: `Game`, the one surface shared layers use.

Each game's rules live in their own folder (`model/duel/`, `model/azul/`), found through the registry
(harness/registry.py); this package imports none of them.
"""

from model.chance import Chance, ScriptedChance, SeededChance
from model.errors import IllegalAction, RuleLoopError, RulesetError
from model.events import Event, Outcome
from model.protocol import Game

__all__ = ["Chance", "Event", "Game", "IllegalAction", "Outcome", "RuleLoopError", "RulesetError",
           "ScriptedChance", "SeededChance"]
