"""Azul Duel's side of the registry entry (harness/duel/__init__.py): its invariants, step
invariants, designer statistics and views in the shapes the shared properties layer asks for
(docs/adding-a-game.md). Every check reports (invariant name, clause id, message)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from model.duel.actions import Action, Kind
from model.duel.engine import Game
from model.duel.game import TABLETS
from model.events import Event
from properties.duel.invariants import INVARIANTS, changed_domes, dome_consistency_where, violations
from properties.duel.predicates import CONTEXTS
from properties.duel.steps import STEP_INVARIANTS, check_step
from properties.machine_hooks import MachineHooks
from properties.matrix import RowSetup

Violation = tuple[str, str, str]

INVARIANT_TABLE: dict[str, tuple[str, ...]] = {
    **{inv.name: inv.clauses for inv in INVARIANTS}, **{inv.name: inv.clauses for inv in STEP_INVARIANTS}}

# Rows of the interpretation matrix beyond "each alternative alone": interplay designers ask about.
COMBINATIONS: tuple[dict[str, str], ...] = (
    {"duel.plate.draw-at-zero": "must-pay", "duel.acquire.end.passed-tokens": "strict"},
    {"duel.score.start": "zero", "duel.plate.draw-at-zero": "must-pay"},
    {"duel.score.start": "zero", "duel.plate.draw-at-zero": "must-pay", "duel.acquire.end.passed-tokens": "strict"},
)


# Rows whose reading scores a tablet side the first game's tablets (rows-complete, columns-complete,
# diagonals; duel.setup.tablets) do not have: their games are played with tablets that score it (the
# search's contexts for the same readings, properties/duel/predicates.py), else the row decides nothing.
# `greedy` fills rows and corner plates, where two of those readings decide (10 games, seed 0, measured
# 2026-12-02: corner-values 1 decision under uniform, 13 under greedy; counts-as-colour 0 and 4).
# duel.end.tablet-floor decides only when a tablet's loss meets another's gain at a low score.
def _with_tablets_of(label: str, policy: str = "uniform") -> RowSetup:
    return RowSetup(policy=policy, context=dict(CONTEXTS[label]))


ROW_SETUPS: dict[str, RowSetup] = {
    "duel.tablet.outer-scope=outer-plates": _with_tablets_of("duel.tablet.outer-scope=outer-plates"),
    "duel.tablet.colourful-rows.full=full-row": _with_tablets_of("duel.tablet.colourful-rows.full=full-row"),
    "duel.tablet.colourful-rows.special=counts-as-colour":
        _with_tablets_of("duel.tablet.colourful-rows.special=counts-as-colour", "greedy"),
    "duel.tablet.corner-values=upper-8-lower-3": _with_tablets_of("duel.tablet.corner-values=upper-8-lower-3", "greedy"),
    "duel.end.tablet-floor=losses-first": RowSetup(context={TABLETS: "colourful-rows,outer-spaces,empty-special-spaces"}),
}


def _first_clause(name: str) -> str:
    clauses = INVARIANT_TABLE.get(name, ())
    return clauses[0] if clauses else ""


def state_invariants(game: Game, *, physical_only: bool = False) -> list[Violation]:
    return [(inv.name, inv.clauses[0], msg) for inv, msg in violations(game, physical_only=physical_only)]


_DOME = next(inv for inv in INVARIANTS if inv.name == "dome-consistency")


def incremental_invariants(before: Game, game: Game, events: Sequence[Event]) -> list[Violation]:
    """The state invariants whose every change a step makes in one place, checked only where this
    step changed the table (checked play runs them every step and the full `state_invariants` every
    few steps and at each phase end). Dome consistency: the Dome spaces and cells that differ from
    the state before the step (every place a tile or plate landed, the events' included, and any
    change no event announced)."""
    where = changed_domes(before.state, game.state)
    return [(_DOME.name, _DOME.clauses[0], msg) for msg in dome_consistency_where(game, where)] if where else []


def step_invariants(before: Game, game: Game, events: list[Event], step: int, action: Action | None,
                    deep_every: int = 10) -> list[Violation]:
    return [(name, _first_clause(name), msg)
            for name, msg in check_step(before.state, game, events, step, deep_every, action=action)]


def scores(game: Game) -> tuple[int, ...]:
    return tuple(p.score for p in game.state.players)


def substep(game: Game) -> str:
    """The phase and the pending decision's kind ("acquisition/turn" when a player is to start a
    turn), for the phase diagram's sub-steps."""
    s = game.state
    return f"{s.phase}/{s.pending.kind}" if s.pending else (f"{s.phase}/turn" if s.phase == "acquisition" else s.phase)


_BRANCH_OF_EVENT: dict[str, str] = {
    "restock": "bag restocked from the Tower",
    "tiles-ran-out": "rare empty-bag round",
    "redraw": "large Factory redrawn (one colour)",
    "redraw-impossible": "one-colour redraw impossible",
}


def statistics(game: Game, action: Action, events: Sequence[Event], branches: Counter[str],
               draws: Counter[int], scratch: dict[str, int]) -> None:
    """Designer counts of one step: rare branches taken, and how many plates each draw turn drew
    (`scratch` is the game's own notebook between steps)."""
    drawing = scratch.get("drawing", 0)
    if action.kind is Kind.DRAW_PLATE:
        scratch["drawing"] = drawing + 1
    elif drawing and action.kind is Kind.KEEP_PLATE:
        draws[drawing] += 1
        scratch["drawing"] = 0
    if action.kind is Kind.PASS:
        branches["forced pass"] += 1
    for e in events:
        if e.kind in _BRANCH_OF_EVENT:
            branches[_BRANCH_OF_EVENT[e.kind]] += 1
        elif e.kind == "bonus":
            if "pair" in e.detail:
                branches["chips spent as 2-matching"] += 1
            if "any-3" in e.detail:
                branches["chips spent as any-3"] += 1
        elif e.kind == "broken" and e.clause == "duel.tiling.unplaceable":
            branches["unplaceable line broken"] += 1
        elif e.kind == "reveal-chip" and e.clause == "duel.acquire.sun.reveal-monochrome":
            branches["chip revealed by four of a kind"] += 1
    if game.is_over:
        outcome = game.outcome()
        if outcome and outcome.winner is not None and "tie" in outcome.reason:
            branches["tie broken by the Starting player tile"] += 1


# The Hypothesis machine (properties/machine.py) plays Duel with the shared parts only: the player
# count and readings the machine is given (nothing drawn at setup), no checks beyond the shared ones,
# and the shared failure (a counterexample scenario file that `azul-rules scenario` replays).
MACHINE_HOOKS = MachineHooks()
