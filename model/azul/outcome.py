"""The end of a classic Azul game as a value: the shared Outcome with every winner (shared wins)."""

from __future__ import annotations

import attrs

from model.azul.state import AzulState
from model.azul.walls import complete_rows
from model.clauses import cite
from model.events import Outcome


@attrs.frozen(slots=True)
class AzulOutcome(Outcome):
    """`winner` is the sole winner (None when the win is shared); `winners` lists them all."""

    winners: tuple[int, ...]


def decide(state: AzulState) -> AzulOutcome:
    scores = tuple(b.score for b in state.boards)
    best = max(scores)
    leaders = [i for i, s in enumerate(scores) if s == best]
    if len(leaders) == 1:
        cite("azul.end.winner")
        return AzulOutcome(scores, leaders[0], "highest score", "azul.end.winner", (leaders[0],))
    cite("azul.end.tie-break")
    rows = {i: complete_rows(state.boards[i].wall) for i in leaders}
    most = max(rows.values())
    # rule: azul.end.tie-break
    # rule: azul.end.shared-win
    winners = tuple(i for i in leaders if rows[i] == most)
    if len(winners) == 1:
        return AzulOutcome(scores, winners[0], f"tie on {best} points: more complete rows ({most})",
                           "azul.end.tie-break", winners)
    cite("azul.end.shared-win")
    return AzulOutcome(scores, None, f"tie on {best} points and {most} complete rows: shared win",
                       "azul.end.shared-win", winners)


def returns(outcome: AzulOutcome | None, players: int) -> tuple[float, ...]:
    """Zero-sum returns: the winners share the win; a sole winner of two players gets (1, -1)."""
    if outcome is None:
        return (0.0,) * players
    k = len(outcome.winners)
    scale = players / (players - 1)
    return tuple(scale * ((1.0 / k if i in outcome.winners else 0.0) - 1.0 / players) for i in range(players))
