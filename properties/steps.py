"""Invariants over a step (the state before, the action's events, the state after)."""

from __future__ import annotations

import json
import re

import attrs

from model.colours import EMPTY
from model.engine import Game
from model.events import Event
from model.phases import phase_graph
from model.serialize import game_from_data, game_to_data
from model.state import GameState
from model.universe import candidate_actions

_PHASE = re.compile(r"^(\w+) -> (\w+)")


@attrs.frozen
class StepInvariant:
    name: str
    clauses: tuple[str, ...]


STEP_INVARIANTS: tuple[StepInvariant, ...] = (
    StepInvariant("dome-never-moves", ("duel.invariant.dome-consistency", "duel.acquire.plate.placement")),
    StepInvariant("broken-empty-after-tiling", ("duel.score.broken-penalty",)),
    StepInvariant("phase-edges", ("duel.round.structure",)),
    StepInvariant("two-chips-each-round", ("duel.acquire.chip.limit",)),
    StepInvariant("tokens-each-round", ("duel.acquire.plate.tokens-required",)),
    StepInvariant("five-rounds", ("duel.end.after-round-5", "duel.round.structure")),
    StepInvariant("generator-agrees", ("duel.acquire.actions",)),
    StepInvariant("serialisation-round-trip", ("duel.invariant.component-conservation",)),
)


def _phase_changes(events: list[Event]) -> list[tuple[str, str]]:
    out = []
    for e in events:
        if e.kind == "phase":
            m = _PHASE.match(e.detail)
            if m:
                out.append((m[1], m[2]))
    return out


def check_step(before: GameState, game: Game, events: list[Event], step_no: int,
               deep_every: int = 10) -> list[tuple[str, str]]:
    """Violations (invariant name, message) of one step."""
    out: list[tuple[str, str]] = []
    s = game.state
    for who in (0, 1):
        old, new = before.players[who], s.players[who]
        for slot in range(9):
            if old.plates[slot] and (old.plates[slot], old.rotations[slot]) != (new.plates[slot], new.rotations[slot]):
                out.append(("dome-never-moves", f"P{who + 1} plate on Dome space {slot + 1} moved"))
        for cell in range(36):
            if old.dome_tile[cell] != EMPTY and old.dome_tile[cell] != new.dome_tile[cell]:
                out.append(("dome-never-moves", f"P{who + 1} Dome tile at cell {cell} moved"))
    graph = phase_graph()
    for source, target in _phase_changes(events):
        if not graph.has_edge(source, target):
            out.append(("phase-edges", f"phase change {source} -> {target} is not an edge"))
        if source == "dome_tiling":
            # checked on the state after the whole step; Dome-tiling ends with empty Broken spaces,
            # and Preparation cannot add Broken tiles.
            for who, pl in enumerate(s.players):
                if pl.broken:
                    out.append(("broken-empty-after-tiling", f"P{who + 1} keeps {len(pl.broken)} Broken tiles"))
    # Acquisition just ended: tokens and chips of the round, read from the state before the step
    # plus this step's own action (the last action of the phase).
    if before.phase == "acquisition" and any(c == ("acquisition", "dome_tiling") for c in _phase_changes(events)):
        r = before.round
        for who in (0, 1):
            tokens, chips = _round_totals(before, events, who)
            expected_tokens = 2 if r <= 4 else 0
            if tokens != expected_tokens:
                out.append(("tokens-each-round", f"P{who + 1} used {tokens} tokens in round {r}"))
            if chips != 2:
                out.append(("two-chips-each-round", f"P{who + 1} took {chips} Bonus chips in round {r}"))
    if game.is_over and before.phase != "game_over":
        if s.round != 5:
            out.append(("five-rounds", f"the game ended in round {s.round}"))
    if deep_every and step_no % deep_every == 0:
        legal = game.legal_actions()
        predicate = {a for a in candidate_actions(game) if game.why_illegal(a) is None}
        if set(legal) != predicate or legal != sorted(legal):
            out.append(("generator-agrees", f"generated {sorted(map(str, set(legal) - predicate))} vs "
                                            f"predicate-only {sorted(map(str, predicate - set(legal)))}"))
        data = json.loads(json.dumps(game_to_data(game)))
        if game_from_data(data).state != s:
            out.append(("serialisation-round-trip", "state differs after to-data and back"))
    return out


def _round_totals(before: GameState, events: list[Event], who: int) -> tuple[int, int]:
    """Tokens and chips of the round that ended in this step: the state before the step plus this
    step's own chip (a token is counted when the plate is taken, which is never the phase's last step;
    the round may already be prepared at the end of the step, so the state after is not used)."""
    pl = before.players[who]
    chips = pl.chips_this_round + sum(1 for e in events if e.kind == "chip" and e.player == who)
    tokens = pl.tokens_used
    return tokens, chips


def invariant_clauses(name: str) -> tuple[str, ...]:
    """The clause ids an invariant (state or step) guards."""
    from properties.invariants import INVARIANTS

    for inv in INVARIANTS:
        if inv.name == name:
            return inv.clauses
    for step in STEP_INVARIANTS:
        if step.name == name:
            return step.clauses
    raise KeyError(f"unknown invariant {name!r}")
