"""The deep check of checked play: the action generator against the legality predicate, written
apart (every game's `generator-agrees` step invariant).

Every generated action must pass the predicate and the list must be sorted; every candidate the
predicate accepts must be generated. The first half is checked in full at every deep check (the
generated list is short). The second half calls the predicate on the whole candidate universe, most
of which is refused; it is shared out over `SHARES` deep checks in turn: the n-th deep check of a
game asks the predicate about every candidate whose index in the universe is n modulo SHARES, so
any SHARES consecutive deep checks have asked about every candidate once. No game is named here.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import pairwise
from typing import Any

from model.protocol import Game

SHARES = 4


def disagreement(game: Game, candidates: Sequence[Any], check_no: int, shares: int = SHARES) -> str | None:
    """What the generator and the predicate disagree on at this position (one line), or None.
    `check_no` numbers the game's deep checks (it picks this check's share of the universe)."""
    legal = game.legal_actions()
    why_illegal = game.why_illegal
    refused = [a for a in legal if why_illegal(a) is not None]
    offered = set(legal)
    share = candidates[check_no % shares::shares] if shares > 1 else candidates
    missing = [a for a in share if a not in offered and why_illegal(a) is None]
    if refused or missing:
        return (f"generated-only {sorted(map(str, refused))} vs "
                f"predicate-only {sorted(map(str, set(missing)))}")
    if any(b < a for a, b in pairwise(legal)):
        return f"generated list not sorted: {list(map(str, legal))}"
    return None
