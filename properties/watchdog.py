"""Watchdogs: no game, campaign or test may run (or grow) without bound.

- Steps: a game's step bound is the longest game its components allow; each game derives it
  (registry field `step_bound`, e.g. properties/duel/bounds.py), and a game that needs more is livelocked.
- Time: `GameWatchdog` gives one game a wall-clock budget. It checks between steps and, on the main
  thread, arms SIGALRM so a loop *inside* a step is interrupted too (`TimeBudgetExceeded`). It nests
  under pytest-timeout's own SIGALRM: the earlier deadline wins and the outer timer is restored.
- Memory: `limit_memory()` caps the process's data (RLIMIT_DATA; RLIMIT_AS where that is missing),
  so a runaway raises MemoryError instead of eating the machine. `AZUL_RULES_MEMORY_LIMIT` sets it ("4GiB", "512MiB", "0" = off).

A tripped watchdog is reported by the caller as a failure named `livelock`, with the phase, the
step and the actions so far written as a replayable scenario (properties/counterexample.py).
"""

from __future__ import annotations

import os
import re
import signal
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from types import FrameType
from typing import Any

# --- time --------------------------------------------------------------------------------------

DEFAULT_GAME_SECONDS = 60.0     # a checked game takes about 25 ms; 60 s is generous on a loaded machine


class Livelock(RuntimeError):
    """A game ran past its step or time budget. `phase` is where it was stuck."""

    def __init__(self, what: str, phase: str, step: int, round_: int) -> None:
        self.what = what
        self.phase = phase
        self.step = step
        self.round = round_
        super().__init__(f"stuck in phase {phase} (round {round_}) at step {step}: {what}")


class TimeBudgetExceeded(BaseException):
    """Raised by the SIGALRM handler inside whatever code was running. A BaseException, so model
    code that catches Exception cannot swallow it; GameWatchdog turns it into a Livelock."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        super().__init__(f"no end within {seconds:g} s")


class TestTimeExpired(BaseException):
    """The running test's time budget (pytest-timeout's) is spent. A BaseException that Hypothesis
    does not catch: pytest-timeout's own failure is an ordinary test failure to Hypothesis, which then
    replays and shrinks for minutes; this one ends the test at once (see set_test_deadline)."""


_TEST_DEADLINE: list[float] = []        # monotonic deadline of the running test, when one is set


def set_test_deadline(seconds: float | None) -> None:
    """Set (seconds > 0) or clear (None / 0) the deadline of the running test; game code guarded by
    GameWatchdog past it raises TestTimeExpired. Set per test by the pytest plugin."""
    _TEST_DEADLINE.clear()
    if seconds:
        _TEST_DEADLINE.append(time.monotonic() + seconds)


def _test_time_left() -> float | None:
    return _TEST_DEADLINE[0] - time.monotonic() if _TEST_DEADLINE else None


def _check_test_deadline(where: str = "") -> None:
    left = _test_time_left()
    if left is not None and left <= 0:
        from properties.failure import InvariantBroken

        last = InvariantBroken.last
        found = f"; the last failure found was:\n{last}" if last is not None else ""
        raise TestTimeExpired(f"the test's time budget is spent (pytest-timeout){where}{found}")


def _on_main_thread() -> bool:
    return threading.current_thread() is threading.main_thread()


class Alarm:
    """SIGALRM after `seconds`, raising TimeBudgetExceeded in the main thread. Off the main thread,
    or when an outer SIGALRM timer (e.g. pytest-timeout) fires sooner, nothing is armed and the
    outer timer keeps running; `disarm` restores the outer handler and its remaining time."""

    def __init__(self, seconds: float, only_when: Callable[[], bool] | None = None) -> None:
        self.seconds = seconds
        self.armed = False
        self._outer: tuple[float, float, Any, float] | None = None
        # `only_when`: raise only while it holds (game code is running); fired outside, the alarm is
        # `missed` and the caller raises at its next guarded block (an interrupt inside Hypothesis's
        # own engine, between two steps, escaped as a bare TimeBudgetExceeded: issue 22).
        self.only_when = only_when
        self.missed = False

    def arm(self) -> None:
        if self.armed or self.seconds <= 0 or not _on_main_thread() or not hasattr(signal, "setitimer"):
            return
        outer_delay, outer_interval = signal.setitimer(signal.ITIMER_REAL, 0)
        if outer_delay and outer_delay <= self.seconds:
            signal.setitimer(signal.ITIMER_REAL, outer_delay, outer_interval)
            return
        seconds = self.seconds

        def fire(signum: int, frame: FrameType | None) -> None:
            if self.only_when is not None and not self.only_when():
                self.missed = True
                return
            raise TimeBudgetExceeded(seconds)

        handler = signal.signal(signal.SIGALRM, fire)
        self._outer = (outer_delay, outer_interval, handler, time.monotonic())
        signal.setitimer(signal.ITIMER_REAL, seconds)
        self.armed = True

    def disarm(self) -> None:
        if not self.armed or self._outer is None:
            return
        outer_delay, outer_interval, handler, started = self._outer
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, handler)
        if outer_delay:
            left = outer_delay - (time.monotonic() - started)
            signal.setitimer(signal.ITIMER_REAL, max(left, 0.001), outer_interval)
        self.armed, self._outer = False, None


@contextmanager
def alarm(seconds: float) -> Iterator[None]:
    """An Alarm armed for the duration of the block."""
    timer = Alarm(seconds)
    timer.arm()
    try:
        yield
    finally:
        timer.disarm()


class GameWatchdog:
    """Step and time budget of one game. `guard(game)` wraps code that plays it; `tick(game, step)`
    is called after each step. Both raise Livelock naming the phase the game is stuck in."""

    def __init__(self, max_steps: int, seconds: float = DEFAULT_GAME_SECONDS) -> None:
        self.max_steps = max_steps
        self.seconds = seconds
        self.started = time.monotonic()

    def remaining(self) -> float:
        return self.seconds - (time.monotonic() - self.started)

    def tick(self, game: object, step: int) -> None:
        if step >= self.max_steps:
            raise _livelock(game, step, f"no end after {self.max_steps} steps (the longest game the "
                                        f"components allow)")
        if self.seconds > 0 and self.remaining() <= 0:
            raise _livelock(game, step, f"no end within the time budget of {self.seconds:g} s")

    def alarm_seconds(self) -> float:
        """What is left of the game's budget, or of the running test's if that ends sooner."""
        seconds = max(self.remaining(), 0.001) if self.seconds > 0 else 0
        test_left = _test_time_left()
        if test_left is not None:
            seconds = min(seconds, max(test_left, 0.001)) if seconds else max(test_left, 0.001)
        return seconds

    @contextmanager
    def guard(self, game: object, step: StepCounter, *, arm: bool = True) -> Iterator[None]:
        """Run game code under the budgets: a Livelock when the game's is spent (also when SIGALRM
        interrupts the block), TestTimeExpired when the test's is. `arm=False` when an Alarm
        armed for the whole game is already running (the Hypothesis machine: cheaper per step)."""
        _check_test_deadline()
        if self.seconds > 0 and self.remaining() <= 0:
            raise _livelock(game, step.value, f"no end within the time budget of {self.seconds:g} s")
        try:
            if arm:
                with alarm(self.alarm_seconds()):
                    yield
            else:
                yield
        except TimeBudgetExceeded:
            stuck = _livelock(game, step.value, "interrupted inside a step")
            _check_test_deadline(f": a game was {stuck}")
            raise _livelock(game, step.value, f"no end within the time budget of {self.seconds:g} s "
                                              f"(interrupted inside a step)") from None


class StepCounter:
    """The step number, shared with the guard so an interrupt reports where it happened."""

    __slots__ = ("value",)

    def __init__(self) -> None:
        self.value = 0


def _livelock(game: object, step: int, what: str) -> Livelock:
    """A Livelock naming where `game` is stuck (no game yet: it is stuck setting up)."""
    state = getattr(game, "state", None)
    if state is None:
        return Livelock(what, "setup", step, 1)
    return Livelock(what, str(getattr(state, "phase", "?")), step, int(getattr(state, "round", 0)))


# --- memory ------------------------------------------------------------------------------------

MEMORY_ENV = "AZUL_RULES_MEMORY_LIMIT"
DEFAULT_MEMORY_LIMIT = "4GiB"
_UNITS = {"": 1, "k": 1 << 10, "kib": 1 << 10, "m": 1 << 20, "mib": 1 << 20, "g": 1 << 30, "gib": 1 << 30,
          "kb": 10**3, "mb": 10**6, "gb": 10**9}


def parse_size(text: str) -> int:
    """Bytes in '4GiB', '512MiB', '1000000' ('0', 'off' or 'none' = no limit, returned as 0)."""
    t = text.strip().lower()
    if t in ("", "0", "off", "none"):
        return 0
    m = re.fullmatch(r"(\d+(?:\.\d+)?)\s*([a-z]*)", t)
    if not m or m[2] not in _UNITS:
        raise ValueError(f"{MEMORY_ENV}: cannot read {text!r} as a size (e.g. 4GiB, 512MiB, 0 = off)")
    return int(float(m[1]) * _UNITS[m[2]])


def memory_limit_setting(explicit: str | None = None) -> int:
    """The configured limit in bytes: `explicit`, else $AZUL_RULES_MEMORY_LIMIT, else 4 GiB."""
    return parse_size(explicit if explicit is not None else os.environ.get(MEMORY_ENV, DEFAULT_MEMORY_LIMIT))


def memory_rlimit() -> int | None:
    """The resource limit used: RLIMIT_DATA (the heap and private writable mappings: what a runaway
    Python process grows) where the platform has it, else RLIMIT_AS. Not RLIMIT_AS on Linux: it
    counts address space merely reserved, and Chromium (the report's browser test) reserves far
    more than 4 GiB, so it would not start under the cap."""
    try:
        import resource
    except ImportError:                 # not POSIX
        return None
    for name in ("RLIMIT_DATA", "RLIMIT_AS"):
        if hasattr(resource, name):
            return int(getattr(resource, name))
    return None


def limit_memory(limit: int | None = None) -> int | None:
    """Cap this process's memory (children inherit it); never raises an existing lower cap.
    Returns the cap in force, or None when there is none (or the platform has no such limit)."""
    which = memory_rlimit()
    if which is None:
        return None
    import resource

    limit = memory_limit_setting() if limit is None else limit
    soft, hard = resource.getrlimit(which)
    if limit <= 0:
        return None if soft == resource.RLIM_INFINITY else soft
    if hard != resource.RLIM_INFINITY:
        limit = min(limit, hard)
    if soft == resource.RLIM_INFINITY or limit < soft:
        resource.setrlimit(which, (limit, hard))
        return limit
    return soft
