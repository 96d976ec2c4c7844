"""Classic Azul's invariants over one step (the position before, the action, its events, the position
after), each citing the clauses it guards: the scoring oracle and the outcome (properties.azul.
oracle), component flows and the refill (properties.azul.flows), turn order (properties.azul.turns)."""

from __future__ import annotations

from collections.abc import Sequence

from model.azul.actions import Action
from model.azul.game import Game
from model.azul.state import OVER
from model.events import Event
from properties.azul.flows import FLOW_CLAUSES, REFILL_CLAUSES, flow_problems, refill_problems
from properties.azul.oracle import ORACLE_CLAUSES, OUTCOME_CLAUSES, check_outcome, check_scoring
from properties.azul.turns import TURN_CLAUSES, turn_problems

# name -> the clauses it guards (the first is the one a counterexample cites first)
RULE_STEP_INVARIANTS: dict[str, tuple[str, ...]] = {
    "scoring-oracle": ORACLE_CLAUSES,
    "outcome": OUTCOME_CLAUSES,
    "component-flows": FLOW_CLAUSES,
    "factory-refill": REFILL_CLAUSES,
    "turn-order": TURN_CLAUSES,
}


def rule_step_problems(before: Game, game: Game, events: Sequence[Event], step: int,
                       action: Action | None) -> list[tuple[str, str]]:
    """(invariant name, message) of the step's rule checks, in RULE_STEP_INVARIANTS order."""
    a, s = before.state, game.state
    out: list[tuple[str, str]] = [("scoring-oracle", m) for m in check_scoring(before, game, events, action)]
    if s.phase == OVER and a.phase != OVER:
        out += [("outcome", m) for m in check_outcome(game)]
    out += [("component-flows", m) for m in flow_problems(a, s, action, events)]
    out += [("factory-refill", m) for m in refill_problems(a, s, game.rules.choices)]
    out += [("turn-order", m) for m in turn_problems(a, s, action, game.rules.choices)]
    return out
