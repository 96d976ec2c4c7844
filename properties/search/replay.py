"""Replaying a found game the way its scenario file will (`ScriptedChance` on the recorded draws),
checking a goal on the replay, and shrinking: fewest actions (delta debugging, every candidate
replayed and its goal re-checked), then the script cut to the draws the game consumed."""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import attrs

from model.chance import ChanceScriptError, ScriptedChance
from model.clauses import RECORDER, recording
from model.errors import IllegalAction
from model.events import Event
from model.protocol import Game
from properties.registry import GameEntry
from properties.search.chance import ChanceRecord
from properties.search.goals import ClauseGoal, DecideGoal, Goal
from properties.search.hooks import SearchHooks
from properties.search.view import step_view


@attrs.frozen
class Setup:
    """How every game of one search starts: its game, hooks, player count and the set-up seed."""

    entry: GameEntry
    hooks: SearchHooks
    players: int | None
    seed: int = 0

    def start(self, overrides: Mapping[str, str], chance: Any) -> Game:
        if self.hooks.start is not None:
            return self.hooks.start(self.seed, dict(overrides), self.players, chance)
        return self.entry.load("new_game")(seed=self.seed, overrides=dict(overrides), players=self.players,
                                           chance=chance)

    def scores(self, game: Game) -> tuple[int, ...]:
        return tuple(self.entry.load("scores")(game))


@attrs.frozen
class StepResult:
    """After set-up (step 0) or one action: what a scenario's `then` can compare."""

    events: tuple[str, ...]
    scores: tuple[int, ...]
    legal: tuple[str, ...]
    clauses: frozenset[str] = frozenset()         # clauses cited in the step (when recorded)


@attrs.frozen
class Replay:
    steps: tuple[StepResult, ...]                 # step 0 is set-up
    complete: bool                                # every action legal, chance sufficed
    draws_used: tuple[int, int]                   # (tiles, chips) the script gave out
    problem: str = ""
    game: Any = None
    last_events: tuple[Event, ...] = ()


def script_of(record: ChanceRecord, seed: int, strict: bool) -> ScriptedChance:
    return ScriptedChance(tiles=record.tiles, plates=record.plates, chips=record.chips, first=record.first,
                          seed=seed, strict=strict)


def replay(setup: Setup, overrides: Mapping[str, str], actions: Sequence[str], record: ChanceRecord, *,
           strict: bool = True, record_clauses: bool = False,
           on_step: Callable[[Game, list[Event], int], bool] | None = None) -> Replay:
    """Play `actions` from set-up under `overrides` on the scripted record. `on_step(game, events, n)`
    returning True stops the replay there (the goal is met)."""
    chance = script_of(record, setup.seed, strict)
    steps: list[StepResult] = []
    was = RECORDER.enabled
    ctx = recording() if record_clauses else None
    if ctx:
        ctx.__enter__()
    try:
        try:
            game = setup.start(overrides, chance)
        except (ChanceScriptError, IllegalAction) as exc:
            return Replay((), False, (0, 0), f"set-up: {exc}")
        steps.append(_result(setup, game, [], record_clauses))
        events: list[Event] = []
        if on_step is not None and on_step(game, [], 0):
            return _done(steps, True, record, chance, game, [])
        for n, text in enumerate(actions, 1):
            action = next((a for a in game.legal_actions() if str(a) == text), None)
            if action is None:
                return _done(steps, False, record, chance, game, events, f"step {n}: {text!r} is not legal")
            if record_clauses:
                RECORDER.reset()
            try:
                events = game.apply(action)
            except ChanceScriptError as exc:
                return _done(steps, False, record, chance, game, events, f"step {n}: {exc}")
            steps.append(_result(setup, game, events, record_clauses))
            if on_step is not None and on_step(game, events, n):
                break
        return _done(steps, True, record, chance, game, events)
    finally:
        if ctx:
            ctx.__exit__(None, None, None)
        RECORDER.enabled = was


def _result(setup: Setup, game: Game, events: Sequence[Event], record_clauses: bool) -> StepResult:
    return StepResult(tuple(str(e) for e in events), setup.scores(game),
                      tuple(str(a) for a in game.legal_actions()),
                      frozenset(RECORDER.clauses) if record_clauses else frozenset())


def _done(steps: list[StepResult], complete: bool, record: ChanceRecord, chance: ScriptedChance, game: Game,
          events: Sequence[Event], problem: str = "") -> Replay:
    used = (len(record.tiles) - len(chance.tiles), len(record.chips) - len(chance.chips))
    return Replay(tuple(steps), complete, used, problem, game, tuple(events))


# --- goals on a replay -------------------------------------------------------------------------

def met_at(setup: Setup, goal: Goal, actions: Sequence[str], record: ChanceRecord) -> int | None:
    """The first step (0 = set-up) after which `goal` holds when the file's game is replayed, or None."""
    if isinstance(goal, DecideGoal):
        return divergence(setup, goal, actions, record)[0]
    overrides = goal_overrides(goal)
    hit: list[int] = []
    extra = setup.hooks.view

    def check(game: Game, events: list[Event], n: int) -> bool:
        if isinstance(goal, ClauseGoal):
            ok = RECORDER.clauses.get(goal.clause, 0) > 0
        else:
            view = step_view(game, events, actions[n - 1] if n else "", _player_of(events), n,
                             setup.scores(game), extra(game))
            ok = goal.holds(view)
        if ok:
            hit.append(n)
        return ok

    if isinstance(goal, ClauseGoal):
        _replay_clause_steps(setup, overrides, actions, record, check)
    else:
        replay(setup, overrides, actions, record, on_step=check)
    return hit[0] if hit else None


def _replay_clause_steps(setup: Setup, overrides: Mapping[str, str], actions: Sequence[str], record: ChanceRecord,
                         check: Callable[[Game, list[Event], int], bool]) -> None:
    """A replay that records the clauses of each step (set-up included) for `check`."""
    with recording():
        chance = script_of(record, setup.seed, True)
        try:
            game = setup.start(overrides, chance)
        except (ChanceScriptError, IllegalAction):
            return
        if check(game, [], 0):
            return
        for n, text in enumerate(actions, 1):
            RECORDER.reset()
            action = next((a for a in game.legal_actions() if str(a) == text), None)
            if action is None:
                return
            try:
                events = game.apply(action)
            except ChanceScriptError:
                return
            if game.is_over:
                game.outcome()
            if check(game, events, n):
                return


def _player_of(events: Sequence[Event]) -> int:
    return next((e.player for e in events if e.player is not None), -1)


def goal_overrides(goal: Goal) -> dict[str, str]:
    """The ruleset a goal's game is played under (an alternative, and the context it needs)."""
    if isinstance(goal, DecideGoal):
        return goal.overrides
    return dict(getattr(goal, "context", ()))


def divergence(setup: Setup, goal: DecideGoal, actions: Sequence[str],
               record: ChanceRecord) -> tuple[int | None, Replay | None, Replay | None]:
    """The first step after which the game under the alternative (which the record was drawn for:
    strict script) and under the default (the same script, seeded past its end) differ."""
    alt = replay(setup, goal.overrides, actions, record, strict=True)
    if not alt.complete:
        return None, None, None
    default = replay(setup, goal.default_overrides, actions, record, strict=False)
    for n, (a, d) in enumerate(zip(alt.steps, default.steps, strict=False)):
        if a.events != d.events or a.scores != d.scores or a.legal != d.legal:
            return n, alt, default
    return None, alt, default


# --- shrinking ---------------------------------------------------------------------------------

@attrs.frozen
class Shrunk:
    actions: tuple[str, ...]
    record: ChanceRecord
    replays: int
    before: tuple[int, int]                       # (actions, draws) found
    after: tuple[int, int]                        # (actions, draws) kept


def shrink(setup: Setup, goal: Goal, actions: Sequence[str], record: ChanceRecord, *,
           max_replays: int = 60, cpu_seconds: float = 2.0) -> Shrunk:
    """Fewest actions (the game cut where the goal is first met, then delta debugging: drop chunks of
    actions while the replay stays legal and still meets the goal), then the script cut to what was
    drawn. Every candidate is replayed as its file will be."""
    deadline = time.process_time() + cpu_seconds
    replays = 0
    before = (len(actions), record.draws())
    current = list(actions)
    first = met_at(setup, goal, current, record)
    replays += 1
    if first is None:
        raise ValueError(f"{goal.key}: the found game does not meet its goal on replay")
    current = current[:first]

    def ok(candidate: list[str]) -> int | None:
        nonlocal replays
        replays += 1
        return met_at(setup, goal, candidate, record)

    chunk = max(1, len(current) // 2)
    while chunk >= 1 and replays < max_replays and time.process_time() < deadline:
        i = 0
        removed = False
        while i < len(current) and replays < max_replays and time.process_time() < deadline:
            candidate = current[:i] + current[i + chunk:]
            at = ok(candidate)
            if at is not None:
                current = candidate[:at]
                removed = True
            else:
                i += chunk
        if not removed:
            chunk //= 2
    overrides = goal_overrides(goal)
    final = replay(setup, overrides, current, record, strict=True)
    tiles, chips = final.draws_used
    kept = ChanceRecord(record.tiles[:tiles], record.plates, record.chips[:chips], record.first)
    if met_at(setup, goal, current, kept) is None:      # the cut script must still replay it
        kept = record
    return Shrunk(tuple(current), kept, replays + 2, before, (len(current), kept.draws()))
