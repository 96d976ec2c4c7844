"""Simulation campaigns: random legal games checked at every step, with designer statistics.

Each game g of a campaign with seed S uses `SeededChance(S + g)` and a policy seeded the same way, so
any game can be replayed alone (and is written as a scenario file when it fails). The game is any
registered one (`game="duel"`, `"azul"`, ...): its start, invariants, step bound and statistics come
from its registry entry (properties/registry.py); nothing here names a game.
"""

from __future__ import annotations

import hashlib
import random
import re
import time
from collections import Counter
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

import attrs

from model.clauses import RECORDER, recording
from model.errors import RuleLoopError
from model.protocol import Game
from properties.cluster import Workers, executor, map_ordered, workers_of
from properties.counterexample import scenario_text, write_counterexample
from properties.failure import InvariantBroken
from properties.registry import DEFAULT_GAME, GameEntry, get_game
from properties.watchdog import DEFAULT_GAME_SECONDS, GameWatchdog, Livelock, StepCounter, limit_memory

# Failures that are not invariants of a game: a game that never ends (its clauses: the entry's
# `progress_clauses`), a rule loop past its bound (the clause comes from the error), a crash.
WATCHDOG_FAILURES: tuple[str, ...] = ("livelock", "rule-loop", "model-error")

# A game neither over nor stalled (the model's `is_stalled`) that offers no legal action: the model
# contradicts itself. A game may name one of its own invariants so (then its clauses are the
# invariant's); otherwise the counterexample names the entry's `progress_clauses`.
NO_ACTION = "progress"

# Checked play runs a game's full state invariants every FULL_EVERY steps, at every phase end and at
# the game's end, when the game has incremental invariants (checked after every step where it
# changed the table); a broken state is then reported at most FULL_EVERY - 1 steps late.
FULL_EVERY = 20


def watchdog_clauses(entry: GameEntry, name: str) -> tuple[str, ...]:
    """The clauses a watchdog failure's counterexample names."""
    return entry.progress_clauses if name == "livelock" else ()


def policies(game: str = DEFAULT_GAME) -> dict[str, Any]:
    """The policies a game can be played with (uniform for every game)."""
    from properties.policies import BASE_POLICIES

    entry = get_game(game)
    return {**BASE_POLICIES, **(entry.load("policies") if entry.has("policies") else {})}


@attrs.define
class GameReport:
    seed: int
    rounds: int
    actions: int
    scores: tuple[int, ...]
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
    game: str = DEFAULT_GAME
    players: int = 2
    actions_digest: str = ""                  # a campaign's passing game keeps this instead of its log

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
                      directory: Path | None = None, deep_every: int = 1, policy: str = "uniform",
                      game: str = DEFAULT_GAME, players: int | None = None, full_every: int = 1) -> None:
    """Play checked games; raise InvariantBroken for the first one that breaks (for tests: every
    invariant after every step unless `full_every` says otherwise)."""
    for seed in seeds:
        report = play_checked(seed, overrides, deep_every=deep_every, record=False, policy=policy,
                              game=game, players=players, full_every=full_every)
        problem = report.broken(overrides, directory, policy)
        if problem is not None:
            raise problem


def play_checked(seed: int, overrides: Mapping[str, str] | None = None, *, deep_every: int = 25,
                 record: bool = True, max_steps: int | None = None, policy: str = "uniform",
                 game_seconds: float = DEFAULT_GAME_SECONDS, game: str = DEFAULT_GAME,
                 players: int | None = None, full_every: int = FULL_EVERY) -> GameReport:
    """One random legal game, checked after every step: its step invariants, and its state invariants
    (for a game with incremental invariants: those after every step, the full state invariants every
    `full_every` steps and whenever a phase ends, `full_every` 1 = every step). The game is watched:
    past `max_steps` (default: the longest game the components allow) or `game_seconds` it fails
    as `livelock` naming the phase; a rule loop past its bound fails as `rule-loop`."""
    ctx = recording() if record else None
    if ctx:
        ctx.__enter__()
    entry = get_game(game)
    players = players or entry.players[0]
    name = game
    try:
        start = entry.load("new_game")
        counter = StepCounter()
        watchdog = GameWatchdog(max_steps or 1, game_seconds)
        phase_hint = "setup"
        log: list[str] = []
        try:
            with watchdog.guard(None, counter):
                played: Game = start(seed=seed, overrides=dict(overrides or {}), players=players)
        except (Livelock, RuleLoopError, Exception) as exc:
            crash, clauses = _watchdog_failure(exc, phase_hint, entry)
            return GameReport(seed=seed, rounds=0, actions=0, scores=(0,) * players, winner=None, reason="unfinished",
                              stalled=False, failure=crash, failure_step=0, branches=Counter(), draws=Counter(),
                              clause_hits=Counter(RECORDER.clauses) if record else Counter(),
                              alt_hits=Counter(RECORDER.alternatives) if record else Counter(),
                              edge_hits=Counter(RECORDER.edges) if record else Counter(), actions_log=log,
                              phase=phase_hint, failure_clauses=clauses, game=name, players=players)
        watchdog.max_steps = max_steps if max_steps is not None else entry.load("step_bound")(played)
        rng = random.Random(seed)
        choose = policies(game)[policy]
        branches: Counter[str] = Counter()
        draws: Counter[int] = Counter()
        failure: tuple[str, str] | None = None
        failure_clauses: tuple[str, ...] = ()
        substeps: Counter[tuple[str, str]] = Counter()
        try:
            with watchdog.guard(played, counter):
                failure = _play(entry, played, rng, choose, watchdog, counter, log, branches, draws, deep_every,
                                substeps, full_every)
        except (Livelock, RuleLoopError, Exception) as exc:
            failure, failure_clauses = _watchdog_failure(exc, _phase(played), entry)
        ran = failure is None or failure[0] not in WATCHDOG_FAILURES     # the game's state can be asked
        outcome = played.outcome() if ran else None
        stalled = ran and played.is_stalled
        return GameReport(
            seed=seed, rounds=int(getattr(played.state, "round", 0)), actions=len(log),
            scores=tuple(entry.load("scores")(played)),
            winner=outcome.winner if outcome else None,
            reason=outcome.reason if outcome else "stalled" if stalled else "unfinished",
            stalled=stalled,
            failure=failure, failure_step=len(log), branches=branches, draws=draws,
            clause_hits=Counter(RECORDER.clauses) if record else Counter(),
            alt_hits=Counter(RECORDER.alternatives) if record else Counter(),
            edge_hits=Counter(RECORDER.edges) if record else Counter(), actions_log=log,
            phase=_phase(played), failure_clauses=failure_clauses, substep_hits=substeps, game=name,
            players=players,
        )
    finally:
        if ctx:
            ctx.__exit__(None, None, None)


def _phase(game: Game) -> str:
    return str(getattr(game.state, "phase", ""))


def _watchdog_failure(exc: BaseException, phase: str,
                      entry: GameEntry) -> tuple[tuple[str, str], tuple[str, ...]]:
    """(failure, clauses) for a game that did not run to its end."""
    if isinstance(exc, Livelock):
        return ("livelock", str(exc)), entry.progress_clauses
    if isinstance(exc, RuleLoopError):
        return ("rule-loop", f"in phase {phase}: {exc}"), (exc.clause,)
    return ("model-error", f"in phase {phase}: {type(exc).__name__}: {exc}"), ()


def substep(game: Game, entry: GameEntry | None = None) -> str:
    """Where play stands, finer than the phase (the game's `substep`, else the phase), for the
    phase diagram's sub-steps."""
    entry = entry or get_game(DEFAULT_GAME)
    return entry.load("substep")(game) if entry.has("substep") else _phase(game)


def _play(entry: GameEntry, game: Game, rng: random.Random, choose: Any, watchdog: GameWatchdog,
          counter: StepCounter, log: list[str], branches: Counter[str], draws: Counter[int], deep_every: int,
          substeps: Counter[tuple[str, str]] | None = None, full_every: int = FULL_EVERY) -> tuple[str, str] | None:
    """Play `game` to its end, or until the model says it is stalled (nobody can act: a legitimate
    outcome of some readings, which the game's full state invariants then judge); the first failure
    (invariant, message), or None. A game neither over nor stalled without a legal action fails as
    NO_ACTION. `substeps` counts the transitions between sub-steps (substep) the actions made. The
    full state invariants run after every step, or (a game with incremental invariants,
    `full_every` > 1) after every `full_every`-th step, every step that ends a phase and the last
    step, the incremental ones after each step."""
    state_invariants = entry.load("invariants")
    step_invariants = entry.load("step_invariants") if entry.has("step_invariants") else None
    incremental = entry.load("incremental_invariants") if entry.has("incremental_invariants") else None
    every = max(1, full_every) if incremental is not None else 1
    statistics = entry.load("statistics") if entry.has("statistics") else None
    where_now = entry.load("substep") if entry.has("substep") else _phase
    scratch: dict[str, int] = {}
    for name, _, msg in state_invariants(game):
        return (name, msg)
    step = 0
    here = where_now(game) if substeps is not None else ""      # the sub-step play stands in
    while not game.is_over:
        watchdog.tick(game, step)
        actions = game.legal_actions()
        if not actions:
            where = f"round {getattr(game.state, 'round', '?')}, phase {_phase(game)}"
            if not game.is_stalled:
                return (NO_ACTION, f"no legal action in {where}, yet the game is neither over nor stalled")
            problem = next(iter(state_invariants(game)), None)    # is this stall one the readings allow?
            return None if problem is None else (problem[0], problem[2])
        action = choose(game, actions, rng)
        before = game.snapshot()
        log.append(str(action))
        step += 1
        counter.value = step             # the action being played, should it never return
        events = game.apply(action)
        if substeps is not None:
            where, here = here, where_now(game)
            substeps[(where, here)] += 1
        if statistics is not None:
            statistics(game, action, events, branches, draws, scratch)
        if step_invariants is not None:
            for name, _, msg in step_invariants(before, game, events, step, action, deep_every):
                return (name, msg)
        if incremental is not None and every > 1 and step % every and not game.is_over \
                and _stage(before) == _stage(game):
            for name, _, msg in incremental(before, game, events):
                return (name, msg)
            continue
        for name, _, msg in state_invariants(game):
            return (name, msg)
    return None


def _stage(game: Game) -> tuple[str, object]:
    """The phase and round: a step that changes either ends a phase (the full check is due)."""
    return (_phase(game), getattr(game.state, "round", None))


def _play_batch(args: tuple[list[int], dict[str, str], int, str, float, str, int | None, int]) -> list[GameReport]:
    seeds, overrides, deep_every, policy, game_seconds, game, players, full_every = args
    return [play_checked(s, overrides, deep_every=deep_every, policy=policy, game_seconds=game_seconds,
                         game=game, players=players, full_every=full_every) for s in seeds]


@attrs.define
class CampaignReport:
    games: list[GameReport]
    overrides: dict[str, str]
    policy: str = "uniform"
    unplayed: int = 0                 # games not started because the run's time budget ran out
    budget_seconds: float | None = None
    skipped: int = 0                  # games not started because `max_failures` games had failed
    game: str = DEFAULT_GAME
    players: int | None = None

    folded: dict[str, Counter[Any]] = attrs.field(factory=dict)   # counters moved out of the games

    @property
    def failures(self) -> list[GameReport]:
        return [g for g in self.games if g.failure is not None]

    @property
    def out_of_time(self) -> bool:
        return self.unplayed > 0

    def totals(self, attr: str) -> Counter[Any]:
        out: Counter[Any] = Counter(self.folded.get(attr, ()))
        for g in self.games:
            out.update(getattr(g, attr))
        return out


# A campaign's per-game counters, summed into the campaign as each game arrives (CampaignReport.totals).
GAME_COUNTERS: tuple[str, ...] = ("branches", "draws", "clause_hits", "alt_hits", "edge_hits", "substep_hits")


def slim(report: GameReport, folded: dict[str, Counter[Any]]) -> None:
    """Keep a campaign's memory to a few scalars per game: the game's counters go into `folded`, and a
    passing game's action log (needed only to replay a failure) becomes its digest."""
    for attr in GAME_COUNTERS:
        folded.setdefault(attr, Counter()).update(getattr(report, attr))
        setattr(report, attr, Counter())
    report.actions_digest = hashlib.blake2b("\n".join(report.actions_log).encode(), digest_size=16).hexdigest()
    if report.failure is None:
        report.actions_log = []


def run_campaign(games: int, seed: int = 0, overrides: Mapping[str, str] | None = None,
                 jobs: int | Workers = 1, deep_every: int = 25, progress: Any = None, policy: str = "uniform",
                 game_seconds: float = DEFAULT_GAME_SECONDS, budget_seconds: float | None = None,
                 max_failures: int | None = None, game: str = DEFAULT_GAME,
                 players: int | None = None, full_every: int = FULL_EVERY) -> CampaignReport:
    """`games` checked games from `seed` on. Each game has `game_seconds`; the whole run has
    `budget_seconds` (None: no limit beyond the games' own): games not started when it runs out
    are counted in `unplayed`. With `max_failures`, the run stops once that many games have failed
    (games not started are counted in `skipped`). `jobs` is a worker count or a `Workers` (local
    processes or a Dask cluster, properties.cluster); the games are the same wherever they run. Local
    worker processes run under the memory limit (limit_memory); on Ctrl-C the games not started
    are cancelled instead of waited for."""
    workers = workers_of(jobs)
    seeds = list(range(seed, seed + games))
    overrides = dict(overrides or {})
    reports: list[GameReport] = []
    folded: dict[str, Counter[Any]] = {}
    deadline = time.monotonic() + budget_seconds if budget_seconds else None

    def enough() -> bool:
        return max_failures is not None and sum(r.failure is not None for r in reports) >= max_failures

    def stop(batch: Any) -> str | None:
        if deadline is not None and time.monotonic() > deadline:
            return "unplayed"
        return "skipped" if enough() else None

    def collect(batch: Any, done: list[GameReport]) -> None:
        if max_failures is None:          # otherwise slimmed once the games past the last failure are cut
            for report in done:
                slim(report, folded)
        reports.extend(done)
        if progress:
            progress(len(done))

    chunk = 1 if workers.serial else max(1, min(25, games // (workers.jobs * 4) or 1))
    batches = [(seeds[i:i + chunk], overrides, deep_every, policy, game_seconds, game, players, full_every)
               for i in range(0, len(seeds), chunk)]
    with executor(workers, initializer=limit_memory) as pool:
        outcomes = map_ordered(pool, _play_batch, batches, stop=stop, on_result=collect)
    unplayed = sum(len(o.item[0]) for o in outcomes if o.stopped == "unplayed")
    skipped = sum(len(o.item[0]) for o in outcomes if o.stopped == "skipped")
    reports.sort(key=lambda r: r.seed)
    if max_failures is not None:          # the same games whatever `jobs`: up to the max_failures-th failure
        failed = [n for n, r in enumerate(reports) if r.failure is not None]
        if len(failed) >= max_failures:
            keep = failed[max_failures - 1] + 1
            skipped += len(reports) - keep
            reports = reports[:keep]
        for report in reports:
            slim(report, folded)
    return CampaignReport(reports, overrides, policy, unplayed, budget_seconds, skipped, game, players, folded)


def group_failures(failures: Iterable[GameReport]) -> list[tuple[str, list[GameReport]]]:
    """Failed games by what broke (invariant or watchdog), most frequent first."""
    groups: dict[str, list[GameReport]] = {}
    for g in failures:
        if g.failure is not None:
            groups.setdefault(g.failure[0], []).append(g)
    return sorted(groups.items(), key=lambda item: (-len(item[1]), item[0]))


def write_failure(report: GameReport, overrides: Mapping[str, str], directory: Path | None = None,
                  policy: str = "uniform") -> Path:
    entry = get_game(report.game)
    assert report.failure is not None
    name, msg = report.failure
    table = entry.load("invariant_table")
    if name in table:
        clauses = tuple(table[name])
    else:                   # a watchdog's failure, or NO_ACTION in a game without such an invariant
        clauses = report.failure_clauses or watchdog_clauses(entry, name) or entry.progress_clauses
    alt = "-".join(f"{k.split('.')[-1]}-{v}" for k, v in sorted(overrides.items())) or "defaults"
    alt = re.sub(r"[^a-z0-9.\-]+", "-", alt.lower())        # a context's value may hold commas (tablets)
    if policy != "uniform":         # verify's greedy campaign and the matrix's uniform defaults row
        alt += f"-{policy}"         # play the same seeds: one file each, whichever writes first
    where = f", phase {report.phase}" if report.phase else ""
    # keys that are no interpretation (a matrix row's context: the tablets in play, the wall side) are
    # written as the game writes a search context, not as interpretations its scenarios would refuse
    points = entry.load("implemented")
    context = {k: v for k, v in overrides.items() if k not in points}
    # the player count and the context are written where the game's scenarios keep them (its search
    # hooks' context_lines, as a witness file), and the seed replays set-up as its hooks' replay says
    from properties.search.hooks import DEFAULT_SEARCH_HOOKS

    hooks = entry.load("search") if entry.has("search") else DEFAULT_SEARCH_HOOKS
    top_lines, given_lines = hooks.context_lines(
        report.players if report.players != entry.players[0] else None, context)
    text = scenario_text(
        scenario_id=f"counterexample.{name}.{alt}.seed-{report.seed}",
        description=(f"simulate found: {name}: {msg}\n"
                     f"(seed {report.seed}, step {report.failure_step}{where}, policy {policy})"),
        clauses=clauses, overrides={k: v for k, v in overrides.items() if k in points}, actions=report.actions_log,
        seed=report.seed, game=report.game if report.game != DEFAULT_GAME else None,
        top_lines=top_lines, given_lines=given_lines, seeded_scope=hooks.replay == "game")
    prefix = "" if report.game == DEFAULT_GAME else f"{report.game}-"
    return write_counterexample(text, f"{prefix}{name}-{alt}-seed-{report.seed}", directory)


def invariant_clauses(name: str, game: str = DEFAULT_GAME) -> tuple[str, ...]:
    """The clause ids an invariant (state or step) of `game` guards."""
    table = get_game(game).load("invariant_table")
    if name not in table:
        raise KeyError(f"unknown invariant {name!r} of game {game!r}")
    return tuple(table[name])
