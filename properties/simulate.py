"""Simulation campaigns: random legal games checked at every step, with designer statistics.

Each game g of a campaign with seed S uses `SeededChance(S + g)` and a uniform random policy seeded
the same way, so any game can be replayed alone (and is written as a scenario file when it fails).
"""

from __future__ import annotations

import random
import time
from collections import Counter
from collections.abc import Iterable, Mapping
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import attrs

from model import Ruleset, new_game
from model.actions import Kind
from model.clauses import RECORDER, recording
from model.engine import Game
from model.errors import RuleLoopError
from properties.counterexample import scenario_text, write_counterexample
from properties.failure import InvariantBroken
from properties.invariants import violations
from properties.policy import POLICIES
from properties.steps import check_step
from properties.watchdog import DEFAULT_GAME_SECONDS, GameWatchdog, Livelock, StepCounter, limit_memory, max_game_steps

# Failures that are not invariants of properties/invariants.py or properties/steps.py.
WATCHDOG_FAILURES: dict[str, tuple[str, ...]] = {
    "livelock": ("duel.round.structure", "duel.end.after-round-5"),   # the game must end
    "rule-loop": (),                                                  # the clause comes from the error
    "model-error": (),
}


@attrs.define
class GameReport:
    seed: int
    rounds: int
    actions: int
    scores: tuple[int, int]
    winner: int | None
    reason: str
    stalled: bool
    failure: tuple[str, str] | None          # (invariant, message)
    failure_step: int
    branches: Counter[str]
    draws: Counter[int]                       # plates drawn blind per draw turn
    clause_hits: Counter[str]
    alt_hits: Counter[tuple[str, str]]
    edge_hits: Counter[tuple[str, str]]
    actions_log: list[str]
    phase: str = ""                           # where the failure happened
    failure_clauses: tuple[str, ...] = ()     # for failures that are not invariants (rule-loop)
    substep_hits: Counter[tuple[str, str]] = attrs.field(factory=Counter)   # (step, step) -> times (substep)

    def broken(self, overrides: Mapping[str, str] | None = None, directory: Path | None = None,
               policy: str = "uniform") -> InvariantBroken | None:
        """The failure as an InvariantBroken naming invariant, seed, step and replay command (its
        counterexample written to `directory`), or None when the game passed."""
        if self.failure is None:
            return None
        path = write_failure(self, overrides or {}, directory, policy)
        return InvariantBroken(self.failure[0], self.failure[1], seed=self.seed, step=self.failure_step,
                               scenario=path, overrides=overrides, policy=policy)


def assert_games_hold(seeds: Iterable[int], overrides: Mapping[str, str] | None = None, *,
                      directory: Path | None = None, deep_every: int = 1, policy: str = "uniform") -> None:
    """Play checked games; raise InvariantBroken for the first one that breaks (for tests)."""
    for seed in seeds:
        report = play_checked(seed, overrides, deep_every=deep_every, record=False, policy=policy)
        problem = report.broken(overrides, directory, policy)
        if problem is not None:
            raise problem


def play_checked(seed: int, overrides: Mapping[str, str] | None = None, *, deep_every: int = 25,
                 record: bool = True, max_steps: int | None = None, policy: str = "uniform",
                 game_seconds: float = DEFAULT_GAME_SECONDS) -> GameReport:
    """One random legal game with every invariant checked after every step. The game is watched:
    past `max_steps` (default: the longest game the components allow) or `game_seconds` it fails
    as `livelock` naming the phase; a rule loop past its bound fails as `rule-loop`."""
    ctx = recording() if record else None
    if ctx:
        ctx.__enter__()
    try:
        rules = Ruleset.build(dict(overrides or {}))
        watchdog = GameWatchdog(max_steps if max_steps is not None else max_game_steps(rules), game_seconds)
        counter = StepCounter()
        game: Game | None = None
        phase_hint = "setup"
        log: list[str] = []
        try:
            with watchdog.guard(None, counter):
                game = new_game(seed=seed, ruleset=rules)
        except (Livelock, RuleLoopError, Exception) as exc:
            failure, clauses = _watchdog_failure(exc, phase_hint)
            return GameReport(seed=seed, rounds=0, actions=0, scores=(0, 0), winner=None, reason="unfinished",
                              stalled=False, failure=failure, failure_step=0, branches=Counter(), draws=Counter(),
                              clause_hits=Counter(RECORDER.clauses) if record else Counter(),
                              alt_hits=Counter(RECORDER.alternatives) if record else Counter(),
                              edge_hits=Counter(RECORDER.edges) if record else Counter(), actions_log=log,
                              phase=phase_hint, failure_clauses=clauses)
        rng = random.Random(seed)
        choose = POLICIES[policy]
        branches: Counter[str] = Counter()
        draws: Counter[int] = Counter()
        failure: tuple[str, str] | None = None
        failure_clauses: tuple[str, ...] = ()
        substeps: Counter[tuple[str, str]] = Counter()
        try:
            with watchdog.guard(game, counter):
                failure = _play(game, rng, choose, watchdog, counter, log, branches, draws, deep_every, substeps)
        except (Livelock, RuleLoopError, Exception) as exc:
            failure, failure_clauses = _watchdog_failure(exc, game.state.phase)
        outcome = game.outcome() if failure is None or failure[0] not in WATCHDOG_FAILURES else None
        if outcome and outcome.winner is not None and "tie" in outcome.reason:
            branches["tie broken by the Starting player tile"] += 1
        return GameReport(
            seed=seed, rounds=game.state.round, actions=len(log),
            scores=(game.state.players[0].score, game.state.players[1].score),
            winner=outcome.winner if outcome else None, reason=outcome.reason if outcome else "unfinished",
            stalled=game.is_stalled if failure is None or failure[0] not in WATCHDOG_FAILURES else False,
            failure=failure, failure_step=len(log), branches=branches, draws=draws,
            clause_hits=Counter(RECORDER.clauses) if record else Counter(),
            alt_hits=Counter(RECORDER.alternatives) if record else Counter(),
            edge_hits=Counter(RECORDER.edges) if record else Counter(), actions_log=log,
            phase=game.state.phase, failure_clauses=failure_clauses, substep_hits=substeps,
        )
    finally:
        if ctx:
            ctx.__exit__(None, None, None)


def _watchdog_failure(exc: BaseException, phase: str) -> tuple[tuple[str, str], tuple[str, ...]]:
    """(failure, clauses) for a game that did not run to its end."""
    if isinstance(exc, Livelock):
        return ("livelock", str(exc)), WATCHDOG_FAILURES["livelock"]
    if isinstance(exc, RuleLoopError):
        return ("rule-loop", f"in phase {phase}: {exc}"), (exc.clause,)
    return ("model-error", f"in phase {phase}: {type(exc).__name__}: {exc}"), ()


def substep(game: Game) -> str:
    """Where play stands, finer than the phase: the phase and the pending decision's kind
    ("acquisition/turn" when a player is to start a turn), for the phase diagram's sub-steps."""
    s = game.state
    return f"{s.phase}/{s.pending.kind}" if s.pending else (f"{s.phase}/turn" if s.phase == "acquisition" else s.phase)


def _play(game: Game, rng: random.Random, choose: Any, watchdog: GameWatchdog, counter: StepCounter,
          log: list[str], branches: Counter[str], draws: Counter[int], deep_every: int,
          substeps: Counter[tuple[str, str]] | None = None) -> tuple[str, str] | None:
    """Play `game` to its end; the first failure (invariant, message), or None. `substeps` counts
    the transitions between sub-steps (substep) the actions made."""
    failure: tuple[str, str] | None = None
    drawing = 0
    for inv, msg in violations(game):
        return (inv.name, msg)
    step = 0
    while failure is None and not game.is_over:
        watchdog.tick(game, step)
        actions = game.legal_actions()
        if not actions:
            failure = ("progress", f"stalled in round {game.state.round}")
            break
        action = choose(game, actions, rng)
        before = game.state.copy()
        log.append(str(action))
        step += 1
        counter.value = step             # the action being played, should it never return
        where = substep(game) if substeps is not None else ""
        events = game.apply(action)
        if substeps is not None:
            substeps[(where, substep(game))] += 1
        if action.kind is Kind.DRAW_PLATE:
            drawing += 1
        elif drawing and action.kind is Kind.KEEP_PLATE:
            draws[drawing] += 1
            drawing = 0
        if action.kind is Kind.PASS:
            branches["forced pass"] += 1
        for e in events:
            if e.kind == "restock":
                branches["bag restocked from the Tower"] += 1
            elif e.kind == "tiles-ran-out":
                branches["rare empty-bag round"] += 1
            elif e.kind == "redraw":
                branches["large Factory redrawn (one colour)"] += 1
            elif e.kind == "redraw-impossible":
                branches["one-colour redraw impossible"] += 1
            elif e.kind == "bonus":
                if "pair" in e.detail:
                    branches["chips spent as 2-matching"] += 1
                if "any-3" in e.detail:
                    branches["chips spent as any-3"] += 1
            elif e.kind == "broken" and e.clause == "duel.tiling.unplaceable":
                branches["unplaceable line broken"] += 1
            elif e.kind == "reveal-chip" and e.clause == "duel.acquire.sun.reveal-monochrome":
                branches["chip revealed by four of a kind"] += 1
        for name, msg in check_step(before, game, events, step, deep_every, action=action):
            failure = (name, msg)
            break
        if failure is None:
            for inv, msg in violations(game):
                failure = (inv.name, msg)
                break
    return failure


def _play_batch(args: tuple[list[int], dict[str, str], int, str, float]) -> list[GameReport]:
    seeds, overrides, deep_every, policy, game_seconds = args
    return [play_checked(s, overrides, deep_every=deep_every, policy=policy, game_seconds=game_seconds)
            for s in seeds]


@attrs.define
class CampaignReport:
    games: list[GameReport]
    overrides: dict[str, str]
    policy: str = "uniform"
    unplayed: int = 0                 # games not started because the run's time budget ran out
    budget_seconds: float | None = None
    skipped: int = 0                  # games not started because `max_failures` games had failed

    @property
    def failures(self) -> list[GameReport]:
        return [g for g in self.games if g.failure is not None]

    @property
    def out_of_time(self) -> bool:
        return self.unplayed > 0

    def totals(self, attr: str) -> Counter[Any]:
        out: Counter[Any] = Counter()
        for g in self.games:
            out.update(getattr(g, attr))
        return out


def run_campaign(games: int, seed: int = 0, overrides: Mapping[str, str] | None = None, jobs: int = 1,
                 deep_every: int = 25, progress: Any = None, policy: str = "uniform",
                 game_seconds: float = DEFAULT_GAME_SECONDS, budget_seconds: float | None = None,
                 max_failures: int | None = None) -> CampaignReport:
    """`games` checked games from `seed` on. Each game has `game_seconds`; the whole run has
    `budget_seconds` (None: no limit beyond the games' own): games not started when it runs out
    are counted in `unplayed`. With `max_failures`, the run stops once that many games have failed
    (games not started are counted in `skipped`). Worker processes run under the memory limit
    (limit_memory); on Ctrl-C the games not started are cancelled instead of waited for."""
    seeds = list(range(seed, seed + games))
    overrides = dict(overrides or {})
    reports: list[GameReport] = []
    deadline = time.monotonic() + budget_seconds if budget_seconds else None
    unplayed = 0
    skipped = 0

    def enough() -> bool:
        return max_failures is not None and sum(r.failure is not None for r in reports) >= max_failures
    if jobs <= 1:
        for n, s in enumerate(seeds):
            if deadline is not None and time.monotonic() > deadline:
                unplayed = len(seeds) - n
                break
            if enough():
                skipped = len(seeds) - n
                break
            reports.append(play_checked(s, overrides, deep_every=deep_every, policy=policy,
                                        game_seconds=game_seconds))
            if progress:
                progress(1)
    else:
        chunk = max(1, min(25, games // (jobs * 4) or 1))
        batches = [(seeds[i:i + chunk], overrides, deep_every, policy, game_seconds)
                   for i in range(0, len(seeds), chunk)]
        pool = ProcessPoolExecutor(max_workers=jobs, initializer=limit_memory)
        try:
            futures = [pool.submit(_play_batch, b) for b in batches]
            for future, batch in zip(futures, batches):
                if deadline is not None and time.monotonic() > deadline and not future.running() \
                        and not future.done() and future.cancel():
                    unplayed += len(batch[0])
                    continue
                if enough() and future.cancel():
                    skipped += len(batch[0])
                    continue
                done = future.result()
                reports.extend(done)
                if progress:
                    progress(len(done))
        except BaseException:                 # Ctrl-C: stop now, not after the queued games
            workers = list((getattr(pool, "_processes", None) or {}).values())
            pool.shutdown(wait=False, cancel_futures=True)
            for worker in workers:
                worker.terminate()
            raise
        finally:
            pool.shutdown(wait=True)
    reports.sort(key=lambda r: r.seed)
    if max_failures is not None:          # the same games whatever `jobs`: up to the max_failures-th failure
        failed = [n for n, r in enumerate(reports) if r.failure is not None]
        if len(failed) >= max_failures:
            keep = failed[max_failures - 1] + 1
            skipped += len(reports) - keep
            reports = reports[:keep]
    return CampaignReport(reports, overrides, policy, unplayed, budget_seconds, skipped)


def group_failures(failures: Iterable[GameReport]) -> list[tuple[str, list[GameReport]]]:
    """Failed games by what broke (invariant or watchdog), most frequent first."""
    groups: dict[str, list[GameReport]] = {}
    for g in failures:
        if g.failure is not None:
            groups.setdefault(g.failure[0], []).append(g)
    return sorted(groups.items(), key=lambda item: (-len(item[1]), item[0]))


def write_failure(report: GameReport, overrides: Mapping[str, str], directory: Path | None = None,
                  policy: str = "uniform") -> Path:
    from properties.steps import invariant_clauses

    assert report.failure is not None
    name, msg = report.failure
    if name in WATCHDOG_FAILURES:
        clauses = report.failure_clauses or WATCHDOG_FAILURES[name] or ("duel.round.structure",)
    else:
        clauses = invariant_clauses(name)
    alt = "-".join(f"{k.split('.')[-1]}-{v}" for k, v in sorted(overrides.items())) or "defaults"
    where = f", phase {report.phase}" if report.phase else ""
    text = scenario_text(
        scenario_id=f"counterexample.{name}.{alt}.seed-{report.seed}",
        description=(f"simulate found: {name}: {msg}\n"
                     f"(seed {report.seed}, step {report.failure_step}{where}, policy {policy})"),
        clauses=clauses, overrides=overrides, actions=report.actions_log, seed=report.seed)
    return write_counterexample(text, f"{name}-{alt}-seed-{report.seed}", directory)
