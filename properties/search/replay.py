"""Replaying a found game the way its scenario file will (`ScriptedChance` on the recorded draws),
checking a goal on the replay, and shrinking: fewest actions (delta debugging, every candidate
replayed and its goal re-checked), then the script cut to the draws the game consumed."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import attrs

from model.chance import ChanceScriptError, ScriptedChance
from model.clauses import RECORDER, recording
from model.errors import IllegalAction
from model.events import Event
from model.protocol import Game
from properties.registry import GameEntry
from properties.search.chance import ChanceRecord, LenientChance
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
    _scores: list[Any] = attrs.field(factory=list, init=False, eq=False, repr=False)    # the entry's, once loaded

    def start(self, overrides: Mapping[str, str], chance: Any) -> Game:
        if self.hooks.start is not None:
            return self.hooks.start(self.seed, dict(overrides), self.players, chance)
        return self.entry.load("new_game")(seed=self.seed, overrides=dict(overrides), players=self.players,
                                           chance=chance)

    def scores(self, game: Game) -> tuple[int, ...]:
        if not self._scores:                    # loaded once: the search asks at every step
            self._scores.append(self.entry.load("scores"))
        return tuple(self._scores[0](game))


@attrs.frozen
class StepResult:
    """After set-up (step 0) or one action: what a scenario's `then` can compare."""

    events: tuple[str, ...]
    scores: tuple[int, ...]
    legal: tuple[str, ...]
    clauses: frozenset[str] = frozenset()         # clauses cited in the step (when recorded)
    outcome: str = ""                             # once the game is over: why it ended as it did


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
                      frozenset(RECORDER.clauses) if record_clauses else frozenset(), outcome_of(game))


def outcome_of(game: Game) -> str:
    """How a finished game ended (its outcome's reason: who won and why), "" while it goes on. Two
    readings can end the same last step with the same events and scores and still name another
    winner (a tie-break reading), so the outcome is compared too. The recorder does not see it:
    looking at the end is not playing it."""
    if not game.is_over:
        return ""
    was = RECORDER.enabled
    RECORDER.enabled = False
    try:
        out = game.outcome()
    finally:
        RECORDER.enabled = was
    return out.reason if out is not None else ""


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
        if a.events != d.events or a.scores != d.scores or a.legal != d.legal or a.outcome != d.outcome:
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


def lenient_play(setup: Setup, overrides: Mapping[str, str], actions: Sequence[str],
                 record: ChanceRecord, steps: int | None = None) -> tuple[tuple[str, ...], ChanceRecord]:
    """Play `actions` under `overrides`, taking each recorded action if it is legal, else the first
    legal one, on chance that reads `record` while its outcomes are possible (LenientChance); then
    first legal actions up to `steps` in all. Returns what was played and drawn, which then replays
    exactly with the strict script."""
    chance = LenientChance(record)
    was = RECORDER.enabled
    RECORDER.enabled = False
    played: list[str] = []
    try:
        try:
            game = setup.start(overrides, chance)
        except (ChanceScriptError, IllegalAction):
            return (), chance.played
        for n in range(max(len(actions), steps or 0)):
            text = actions[n] if n < len(actions) else ""
            if game.is_over:
                break
            legal = game.legal_actions()
            if not legal:
                break
            action = next((a for a in legal if str(a) == text), legal[0])
            try:
                game.apply(action)
            except (ChanceScriptError, IllegalAction):
                break
            played.append(str(action))
    finally:
        RECORDER.enabled = was
    return tuple(played), chance.played


def _cut(setup: Setup, goal: Goal, actions: Sequence[str], record: ChanceRecord) -> ChanceRecord:
    """The record cut to the draws the file's replay consumes (kept whole if the cut one fails)."""
    final = replay(setup, goal_overrides(goal), actions, record, strict=True)
    tiles, chips = final.draws_used
    kept = ChanceRecord(record.tiles[:tiles], record.plates, record.chips[:chips], record.first)
    return kept if met_at(setup, goal, actions, kept) is not None else record


SHRINK_STEPS = 150_000      # actions a shrink may replay in all (a few CPU s: docs/design.md)


def shrink(setup: Setup, goal: Goal, actions: Sequence[str], record: ChanceRecord, *,
           max_replays: int = 400, max_steps: int = SHRINK_STEPS) -> Shrunk:
    """Fewest actions, then fewest draws: the game cut where the goal is first met, then delta
    debugging over the choices. A candidate drops a chunk of the actions and is played leniently
    (each later recorded action if still legal, else the first legal one; each recorded draw if the
    bag still holds it, else the first colour it holds: `lenient_play`), so dropping a choice keeps
    the rest meaningful; it is kept when the file's strict replay of what was played meets the goal
    no later than the current witness's length. Chunks run from half the game down to single actions,
    latest first (the end of a game matters least to an early goal), within the budget: at most
    `max_replays` replays and `max_steps` replayed actions, a count of work rather than a clock, so the
    same found game shrinks to the same witness on any machine and at any load."""
    replays = steps = 0
    before = (len(actions), record.draws())
    first = met_at(setup, goal, list(actions), record)
    replays, steps = 1, len(actions)
    if first is None:
        raise ValueError(f"{goal.key}: the found game does not meet its goal on replay")
    current: tuple[str, ...] = tuple(actions[:first])
    rec = _cut(setup, goal, current, record)
    overrides = goal_overrides(goal)

    def attempt(candidate: Sequence[str]) -> tuple[tuple[str, ...], ChanceRecord] | None:
        nonlocal replays, steps
        replays += 2
        played, drawn = lenient_play(setup, overrides, candidate, rec, len(current) - 1)
        steps += len(played) * 2
        at = met_at(setup, goal, played, drawn)
        if at is None or at >= len(current):
            return None
        return played[:at], drawn

    chunk = max(1, len(current) // 2)
    def budget_left() -> bool:
        return replays < max_replays and steps < max_steps

    while chunk >= 1 and budget_left():
        i = len(current) - chunk
        removed = False
        while i >= 0 and budget_left():
            got = attempt(current[:i] + current[i + chunk:])
            if got is not None:
                current, drawn = got
                rec = _cut(setup, goal, current, drawn)
                replays += 2
                steps += len(current) * 2
                removed = True
                i = min(i, len(current)) - chunk
            else:
                i -= chunk
        if not removed:
            chunk //= 2
    if met_at(setup, goal, current, rec) is None:           # never: every kept candidate was replayed
        raise ValueError(f"{goal.key}: the shrunk game does not meet its goal on replay")
    return Shrunk(current, rec, replays + 1, before, (len(current), rec.draws()))
