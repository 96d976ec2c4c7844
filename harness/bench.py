"""Benchmark: full random legal games per second, with clause recording off and on, for any game,
and checked play (`checked`: the games `azul-rules simulate` plays, every step checked, per policy).

Each measurement is repeated (`repeat`, default 5) and reported as its median with the spread
(min-max), with the CPU time of this process (time.process_time) beside the wall time; the cost
of recording is the ratio of the medians. The process's peak memory is read with
resource.getrusage."""

from __future__ import annotations

import itertools
import random
import resource
import statistics
import sys
import time
from contextlib import nullcontext
from operator import is_
from typing import Any

import attrs

from model.clauses import recording
from properties.registry import DEFAULT_GAME, get_game

REPEAT = 5


class Rates:
    """Games and actions per second of a bench row with `games`, `actions` and `seconds` (ours or a
    peer engine's)."""

    games: int
    actions: int
    seconds: float

    @property
    def games_per_s(self) -> float:
        return rate(self.games, self.seconds)

    @property
    def actions_per_s(self) -> float:
        return rate(self.actions, self.seconds)


@attrs.frozen
class BenchResult(Rates):
    games: int
    actions: int
    seconds: float
    cpu_seconds: float = 0.0
    offers: int = 0              # legal actions offered, summed over the steps (the mean branching)


def rate(count: int, seconds: float) -> float:
    """Per second, for any bench row (ours or a peer engine's)."""
    return count / seconds


@attrs.frozen
class Repeated:
    """One measurement taken `len(runs)` times: medians and spreads."""
    runs: tuple[BenchResult, ...]

    def _median(self, values: list[float]) -> float:
        return statistics.median(values)

    @property
    def seconds(self) -> float:
        return self._median([r.seconds for r in self.runs])

    @property
    def cpu_seconds(self) -> float:
        return self._median([r.cpu_seconds for r in self.runs])

    @property
    def games_per_s(self) -> float:
        return self._median([r.games_per_s for r in self.runs])

    @property
    def actions_per_s(self) -> float:
        return self._median([r.actions_per_s for r in self.runs])

    def spread(self, attr: str) -> tuple[float, float]:
        values = [getattr(r, attr) for r in self.runs]
        return min(values), max(values)


def play_random(seed: int, game: str = DEFAULT_GAME, players: int | None = None) -> tuple[int, int]:
    """One full game, uniform over legal actions (each checked by `apply`); returns the number of
    actions and the number of legal actions offered over its steps."""
    entry = get_game(game)
    played = entry.load("new_game")(seed=seed, players=players)
    return play_out(played, random.Random(seed), entry.load("step_bound")(played), seed)


def play_out(played: Any, rng: random.Random, bound: int, seed: int) -> tuple[int, int]:
    """The bench's loop through the public API: legal_actions(), a uniform choice, apply()."""
    n = offered = 0
    while not played.is_over:
        if n >= bound:
            raise RuntimeError(f"seed {seed}: no end after {bound} actions "
                               f"(livelock in phase {getattr(played.state, 'phase', '?')})")
        actions = played.legal_actions()
        if not actions:
            raise RuntimeError(f"seed {seed}: stalled")
        offered += len(actions)
        played.apply(rng.choice(actions))
        n += 1
    return n, offered


class NullGame:
    """The loop floor: a game with the public API whose rules do nothing. It offers `branching`
    fresh action objects per step for `length` steps and, like a game trusting its offer, `apply`
    checks that the action is one of the list just offered, then moves one counter. What a real
    game costs beyond this is the cost of its rules."""

    __slots__ = ("state", "_left", "_pool", "_offered")

    def __init__(self, length: int, branching: int) -> None:
        self.state = [0] * 8
        self._left = length
        self._pool = [object() for _ in range(max(1, branching))]
        self._offered: list[object] | None = None

    @property
    def is_over(self) -> bool:
        return self._left <= 0

    def legal_actions(self) -> list[object]:
        self._offered = out = self._pool[:]
        return out

    def apply(self, action: object) -> list[object]:
        offered, self._offered = self._offered, None
        if offered is None or not any(map(is_, offered, itertools.repeat(action))):
            raise ValueError("not an offered action")
        self._left -= 1
        self.state[self._left & 7] += 1
        return []


def floor_run(games: int, length: int, branching: int, seed: int = 0) -> BenchResult:
    """`games` NullGames of `length` steps with `branching` actions each, through `play_out`."""
    start, cpu = time.perf_counter(), time.process_time()
    actions = offers = 0
    for i in range(games):
        n, o = play_out(NullGame(length, branching), random.Random(seed + i), length + 1, seed + i)
        actions += n
        offers += o
    return BenchResult(games, actions, time.perf_counter() - start, time.process_time() - cpu, offers)


def floor_of(measured: Repeated, repeat: int = REPEAT, seed: int = 0) -> Repeated:
    """The loop floor for games shaped like `measured` (its mean length and mean branching)."""
    first = measured.runs[0]
    length = max(1, round(first.actions / first.games))
    branching = max(1, round(first.offers / max(1, first.actions)))
    return Repeated(tuple(floor_run(first.games, length, branching, seed) for _ in range(max(1, repeat))))


def run(games: int, seed: int = 0, record: bool = False, game: str = DEFAULT_GAME,
        players: int | None = None) -> BenchResult:
    start, cpu = time.perf_counter(), time.process_time()
    actions = offers = 0
    with recording() if record else nullcontext():
        for i in range(games):
            n, o = play_random(seed + i, game, players)
            actions, offers = actions + n, offers + o
    return BenchResult(games, actions, time.perf_counter() - start, time.process_time() - cpu, offers)


def repeated(games: int, seed: int = 0, record: bool = False, game: str = DEFAULT_GAME,
             players: int | None = None, repeat: int = REPEAT) -> Repeated:
    """`run` taken `repeat` times (the same games each time)."""
    return Repeated(tuple(run(games, seed, record, game, players) for _ in range(max(1, repeat))))


def interleaved(games: int, seed: int = 0, game: str = DEFAULT_GAME, players: int | None = None,
                repeat: int = REPEAT) -> tuple[Repeated, Repeated]:
    """Recording off and on, taken in turn (off, on, off, on, ...) so a drift in the machine's speed
    falls on both alike."""
    off: list[BenchResult] = []
    on: list[BenchResult] = []
    for _ in range(max(1, repeat)):
        off.append(run(games, seed, False, game, players))
        on.append(run(games, seed, True, game, players))
    return Repeated(tuple(off)), Repeated(tuple(on))


def checked_run(games: int, seed: int = 0, game: str = DEFAULT_GAME, players: int | None = None,
                policy: str = "uniform") -> BenchResult:
    """`games` checked games as `azul-rules simulate --jobs 1` plays them (properties.simulate
    .play_checked with its defaults: recording on, every step's invariants, the deep check)."""
    from properties.simulate import play_checked

    start, cpu = time.perf_counter(), time.process_time()
    actions = 0
    for i in range(games):
        report = play_checked(seed + i, policy=policy, game=game, players=players)
        if report.failure is not None:
            raise RuntimeError(f"seed {seed + i}: checked play failed: {report.failure[0]}: {report.failure[1]}")
        actions += report.actions
    return BenchResult(games, actions, time.perf_counter() - start, time.process_time() - cpu)


def checked(games: int, seed: int = 0, game: str = DEFAULT_GAME, players: int | None = None,
            policies: tuple[str, ...] = ("uniform",), repeat: int = REPEAT) -> dict[str, Repeated]:
    """`checked_run` per policy, `repeat` times, the policies taken in turn (a drift in the
    machine's speed falls on all alike)."""
    runs: dict[str, list[BenchResult]] = {p: [] for p in policies}
    for _ in range(max(1, repeat)):
        for policy in policies:
            runs[policy].append(checked_run(games, seed, game, players, policy))
    return {p: Repeated(tuple(r)) for p, r in runs.items()}


def peak_rss_mib() -> float:
    """This process's peak resident memory so far, in MiB (ru_maxrss: KiB on Linux, bytes on macOS)."""
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak / (1024 * 1024) if sys.platform == "darwin" else peak / 1024


def row(name: str, r: Repeated) -> tuple[str, ...]:
    """One row of the table: games/s median (min-max), actions/s median, wall s median (min-max),
    CPU s median (min-max)."""
    lo, hi = r.spread("games_per_s")
    wlo, whi = r.spread("seconds")
    clo, chi = r.spread("cpu_seconds")
    return (name, f"{r.games_per_s:.1f} ({lo:.1f}-{hi:.1f})", f"{r.actions_per_s:.0f}",
            f"{r.seconds:.2f} ({wlo:.2f}-{whi:.2f})", f"{r.cpu_seconds:.2f} ({clo:.2f}-{chi:.2f})")


def rows(off: Repeated, on: Repeated) -> list[tuple[str, ...]]:
    """Our rows: recording off and on."""
    return [row("off", off), row("on", on)]


COLUMNS = ("recording", "games/s median (min-max)", "actions/s median", "wall s median (min-max)",
           "CPU s median (min-max)")
