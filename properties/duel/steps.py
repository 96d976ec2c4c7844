"""Invariants over a step (the state before, the action's events, the state after)."""

from __future__ import annotations

import json
import re

import attrs

from model.duel.actions import Action
from model.duel.colours import EMPTY
from model.duel.engine import Game
from model.duel.phases import TRANSITIONS
from model.duel.serialize import game_from_data, game_to_data
from model.duel.state import GameState
from model.duel.universe import candidate_actions
from model.events import Event
from properties.duel.factories import (
    factories_empty_at_phase_end,
    line_placement,
    picks_take_all,
    pile_order,
    refill_violations,
    round_reset_violations,
    start_tile_moves,
    sun_picked_once,
)
from properties.duel.flows import flow_violations
from properties.duel.oracle import ORACLE_CLAUSES, OUTCOME_CLAUSES, check_outcome, check_scoring
from properties.generator_check import SHARES, disagreement
from spec import Catalogue

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
    StepInvariant("component-flows", ("duel.invariant.component-flows",)),
    StepInvariant("sun-picked-once", ("duel.invariant.factory-structure", "duel.acquire.sun.take-colour")),
    StepInvariant("picks-take-all", ("duel.acquire.sun.take-colour", "duel.acquire.moon.take-colour",
                                     "duel.acquire.moon.top-tile-only")),
    StepInvariant("line-placement", ("duel.lines.one-line", "duel.lines.capacity", "duel.lines.overflow",
                                     "duel.broken.stack", "duel.broken.capacity")),
    StepInvariant("factory-refill", ("duel.invariant.factory-structure", "duel.prep.factories-refill",
                                     "duel.setup.fill-factories", "duel.setup.large-factory.monochrome-redraw")),
    StepInvariant("round-reset", ("duel.prep.tokens-back", "duel.prep.start-player", "duel.prep.display-refill",
                                  "duel.score.broken-penalty")),
    StepInvariant("start-tile-with-large-moon", ("duel.acquire.moon.start-player-tile",)),
    StepInvariant("plate-pile-order", ("duel.acquire.plate.draw", "duel.acquire.plate.keep-one")),
    StepInvariant("factories-empty-at-phase-end", ("duel.acquire.end", "duel.acquire.end.start-tile")),
    StepInvariant("score-accounting", ("duel.invariant.score-accounting",)),
    StepInvariant("scoring-oracle", ORACLE_CLAUSES),
    StepInvariant("outcome", OUTCOME_CLAUSES),
)

# Events that carry points, and the clauses they may cite (duel.invariant.score-accounting).
SCORE_EVENT_KINDS = frozenset({"score", "penalty", "pay", "tablet"})


def _phase_changes(events: list[Event]) -> list[tuple[str, str]]:
    out = []
    for e in events:
        if e.kind == "phase":
            m = _PHASE.match(e.detail)
            if m:
                out.append((m[1], m[2]))
    return out


def check_step(before: GameState, game: Game, events: list[Event], step_no: int,
               deep_every: int = 10, action: Action | None = None) -> list[tuple[str, str]]:
    """Violations (invariant name, message) of one step. `action` (the action played) lets the
    movement and scoring checks tell what the action did from what the phases did; without it the
    checks that need it are skipped."""
    out: list[tuple[str, str]] = []
    s = game.state
    changes = _phase_changes(events)
    for who in (0, 1):
        old, new = before.players[who], s.players[who]
        if old.plates != new.plates or old.rotations != new.rotations:
            for slot in range(9):
                if old.plates[slot] and (old.plates[slot], old.rotations[slot]) != (new.plates[slot], new.rotations[slot]):
                    out.append(("dome-never-moves", f"P{who + 1} plate on Dome space {slot + 1} moved"))
        if old.dome_tile != new.dome_tile:
            for cell in range(36):
                if old.dome_tile[cell] != EMPTY and old.dome_tile[cell] != new.dome_tile[cell]:
                    out.append(("dome-never-moves", f"P{who + 1} Dome tile at cell {cell} moved"))
    for source, target in changes:
        if (source, target) not in TRANSITIONS:       # the phase graph's edges (frozen: no graph library)
            out.append(("phase-edges", f"phase change {source} -> {target} is not an edge"))
        if source == "dome_tiling":
            # checked on the state after the whole step; Dome-tiling ends with empty Broken spaces,
            # and Preparation cannot add Broken tiles.
            for who, pl in enumerate(s.players):
                if pl.broken:
                    out.append(("broken-empty-after-tiling", f"P{who + 1} keeps {len(pl.broken)} Broken tiles"))
    # Acquisition just ended: tokens and chips of the round, read from the state before the step
    # plus this step's own action (the last action of the phase).
    if before.phase == "acquisition" and ("acquisition", "dome_tiling") in changes:
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
        problem = disagreement(game, candidate_actions(game), step_no // deep_every)
        if problem is not None:
            out.append(("generator-agrees", problem))
        # the round trip on every SHARES-th deep check (the first included), beside the generator's
        if (step_no // deep_every) % SHARES == 0 and game_from_data(json.loads(json.dumps(game_to_data(game)))).state != s:
            out.append(("serialisation-round-trip", "state differs after to-data and back"))
    out += _movement_and_scoring(before, game, events, action, changes)
    return out


def _movement_and_scoring(before: GameState, game: Game, events: list[Event], action: Action | None,
                          changes: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """How components moved, the Factories' structure, and every point of the step (`changes`: the
    step's phase changes, read from its events once by the caller)."""
    out: list[tuple[str, str]] = []
    s = game.state
    phases = (before.phase, *(target for _, target in changes))
    if action is not None:
        out += [("component-flows", m) for m in flow_violations(before, s, action, phases, events)]
    out += [("sun-picked-once", m) for m in sun_picked_once(before, s, action, phases)]
    out += [("picks-take-all", m) for m in picks_take_all(before, s, action)]
    out += [("start-tile-with-large-moon", m) for m in start_tile_moves(before, s, action, phases)]
    out += [("plate-pile-order", m) for m in pile_order(before, s, action, phases)]
    if ("acquisition", "dome_tiling") in changes:        # checked at the phase change, every round
        out += [("factories-empty-at-phase-end", m) for m in factories_empty_at_phase_end(before, action)]
    out += [("line-placement", m) for m in line_placement(before, s, action, phases)]
    if before.phase == "setup" and before.opening_picks == 0 and before.pending is not None:
        out += [("factory-refill", f"at setup: {m}") for m in refill_violations(before, game)]
    if phases[-1] == "acquisition" and "preparation" in phases:
        out += [("factory-refill", f"round {s.round}: {m}") for m in refill_violations(s, game)]
        out += [("round-reset", f"round {s.round}: {m}") for m in round_reset_violations(s)]
    out += [("score-accounting", m) for m in score_accounting(before, s, events)]
    if action is not None:
        out += [("scoring-oracle", m) for m in check_scoring(before, game, events, action)]
    out += [("outcome", m) for m in check_outcome(game)] if game.is_over and before.phase != "game_over" else []
    return out


def score_accounting(before: GameState, after: GameState, events: list[Event]) -> list[str]:
    """Every score change of a step is the sum of that step's score events, and each of them names a
    clause of the catalogue."""
    scored = [e for e in events if e.points]
    if not scored and all(a.score == b.score for a, b in zip(before.players, after.players, strict=True)):
        return []                # no points told, none changed (most steps)
    out = []
    if scored:
        from spec import default_catalogue

        known = _clause_ids(default_catalogue())
        for e in scored:
            if e.kind not in SCORE_EVENT_KINDS or e.clause not in known:
                out.append(f"event '{e}' changes points without a scoring kind and a known clause")
    for who in (0, 1):
        change = after.players[who].score - before.players[who].score
        told = sum(e.points for e in scored if e.player == who)
        if change != told:
            out.append(f"P{who + 1}'s score changed by {change:+d} but the step's events add up to {told:+d}")
    return out


_CLAUSE_IDS: dict[int, frozenset[str]] = {}


def _clause_ids(catalogue: Catalogue) -> frozenset[str]:
    key = id(catalogue)
    if key not in _CLAUSE_IDS:
        _CLAUSE_IDS[key] = frozenset(c.id for c in catalogue.clauses)
    return _CLAUSE_IDS[key]


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
    from properties.duel.invariants import INVARIANTS

    for inv in INVARIANTS:
        if inv.name == name:
            return inv.clauses
    for step in STEP_INVARIANTS:
        if step.name == name:
            return step.clauses
    raise KeyError(f"unknown invariant {name!r}")
