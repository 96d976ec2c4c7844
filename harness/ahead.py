"""Work started ahead of the stage that shows it.

verify's stages that play games share one pool of worker processes, and each campaign submits its
games from a thread of its own, started when verify's game stages begin (a matrix row by row, the
other game one player count at a time), that only submits and waits: the pool never idles at a
stage's end while the next stage has not submitted yet (the last batches of one campaign run beside
the first of the next). A stage then shows its work's result (`Ahead.result`). Results do not depend on
the order the pool runs the games in: every game has its own seed and every campaign collects its
games in seed order.

Work on no pool (one job: games play in this process) is not started ahead: it runs when its stage
asks, in the calling thread, as the games' time limits need (SIGALRM works on the main thread only)."""

from __future__ import annotations

import threading
from collections.abc import Callable
from concurrent.futures import Future
from typing import Generic, TypeVar

T = TypeVar("T")

POLL_SECONDS = 0.5              # how often a waiting stage shows the games done so far


class Ahead(Generic[T]):
    """`compute(progress)` started now in a daemon thread (`start`), or when its result is asked
    for. `progress(n)` is called as n more games are done."""

    def __init__(self, compute: Callable[[Callable[[int], None]], T], start: bool) -> None:
        self.done = 0                       # games done so far
        self._compute = compute
        self._future: Future[T] | None = None
        if start:
            self._future = Future()
            threading.Thread(target=self._run, name="verify-ahead", daemon=True).start()

    @property
    def started(self) -> bool:
        return self._future is not None

    def _count(self, n: int) -> None:
        self.done += n

    def _run(self) -> None:
        assert self._future is not None
        self._future.set_running_or_notify_cancel()
        try:
            self._future.set_result(self._compute(self._count))
        except BaseException as exc:        # noqa: BLE001  (re-raised by `result`, in the stage)
            self._future.set_exception(exc)

    def result(self, progress: Callable[[int], None] = lambda done: None) -> T:
        """The work's result (its exception raised here); `progress(games done)` while waiting."""
        if self._future is None:
            def count(n: int) -> None:
                self._count(n)
                progress(self.done)
            return self._compute(count)
        while True:
            try:
                return self._future.result(timeout=POLL_SECONDS)
            except TimeoutError:
                if self._future.done():     # done since the wait gave up: its value, or its own error
                    return self._future.result()
                progress(self.done)
