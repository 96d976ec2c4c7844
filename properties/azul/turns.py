"""Classic Azul's turn order: who moves next within a round and who starts the next one, worked out
from the position before the step (apart from model.azul.offer and model.azul.round_end).

- During the offer, turns pass clockwise: after a take that leaves tiles on offer, the next seat
  moves (azul.offer.turn-order).
- A new round is started by the player who took the starting player marker in the round just
  ended (azul.floor.marker-kept, azul.offer.marker-to-centre); when nobody took it, by the same
  starter again or the next seat clockwise, as azul.offer.marker-untaken (on azul.prep.refill) says.
- Round 1 is started by the first seat, or by whoever chance picked (azul.setup.starter-choice, on
  azul.setup.first-player): before round 1's first take, the player to move is the round's starter.
- Gray-wall placements are asked board by board in seat order, each top to bottom
  (azul.wall.top-to-bottom): the open choice never goes back.
"""

from __future__ import annotations

from collections.abc import Mapping

from model.azul.actions import Action
from model.azul.colours import EMPTY
from model.azul.state import CENTRE, NOBODY, OFFER, TILING, AzulState
from properties.azul.oracle import marker_holder

TURN_CLAUSES: tuple[str, ...] = ("azul.offer.turn-order", "azul.floor.marker-kept", "azul.prep.refill",
                                 "azul.offer.marker-to-centre", "azul.setup.first-player",
                                 "azul.wall.top-to-bottom")
# The alternatives of who starts a round the check knows (others: not checked, and a test says so).
UNTAKEN_READINGS: tuple[str, ...] = ("same-starter", "next-clockwise")


def expected_starter(before: AzulState, action: Action | None, untaken: str) -> int | None:
    """Who starts the round after the one `before` is in (None: a reading the check does not know)."""
    holder = marker_holder(before, action)
    if holder != CENTRE:
        return holder
    if untaken == "same-starter":
        return before.starter
    if untaken == "next-clockwise":
        return (before.starter + 1) % before.players
    return None


def _round_one_unplayed(s: AzulState) -> bool:
    """Round 1 before its first take: the marker and every tile still where setup put them (read from
    the position, not from a step count: checked play and scenarios may start anywhere)."""
    return (s.round == 1 and s.phase == OFFER and s.marker == CENTRE and not any(s.centre)
            and all(not b.floor and not any(b.line_count) and b.score == 0 and all(t == EMPTY for t in b.wall)
                    for b in s.boards))


def turn_problems(before: AzulState, after: AzulState, action: Action | None,
                  choices: Mapping[str, str]) -> list[str]:
    get = choices.get
    out: list[str] = []
    n = before.players
    if _round_one_unplayed(before):
        if before.to_move != before.starter:
            out.append(f"round 1 opens with P{before.to_move + 1} to move, its starter is P{before.starter + 1}")
        if get("azul.setup.starter-choice", "first-seat") == "first-seat" and before.starter != 0:
            out.append(f"round 1 is started by P{before.starter + 1}, not the first seat")
    if after.round == before.round and before.phase == OFFER and after.phase == OFFER and after.to_move != NOBODY:
        want = (before.to_move + 1) % n
        if after.to_move != want:
            out.append(f"P{before.to_move + 1} took, then P{after.to_move + 1} moves; clockwise is P{want + 1}")
    if after.round != before.round and after.phase == OFFER and after.to_move != NOBODY:
        want_starter = expected_starter(before, action, get("azul.offer.marker-untaken", "same-starter"))
        if want_starter is not None and (after.starter, after.to_move) != (want_starter, want_starter):
            holder = marker_holder(before, action)
            why = (f"P{holder + 1} took the marker" if holder != CENTRE
                   else f"nobody took the marker (round {before.round} started by P{before.starter + 1})")
            out.append(f"round {after.round} is started by P{after.starter + 1} with P{after.to_move + 1} to move; "
                       f"{why}, so P{want_starter + 1} starts")
    if before.phase == TILING and after.phase == TILING and after.tiling <= before.tiling:
        out.append(f"the gray-wall choice went back from P{before.tiling[0] + 1} row {before.tiling[1] + 1} "
                   f"to P{after.tiling[0] + 1} row {after.tiling[1] + 1}")
    return out
