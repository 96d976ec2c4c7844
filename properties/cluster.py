"""Where a campaign's work runs: in this process, in local worker processes, or on a Dask cluster.

One dispatch for every command that farms out independent pieces of work (simulate, the
interpretation matrix, differential): `Workers(jobs, cluster)` names the place, `executor(...)`
opens a `concurrent.futures.Executor` there, and `map_ordered` submits every item and hands the
results back in the order of the items (never in the order they finish), so a run gives the same
result whatever the number of workers, processes or machines.

- `jobs <= 1`, no cluster: in this process (no executor at all).
- `jobs = N`, no cluster: N local worker processes (a process pool, quick to start).
- `cluster = "local"`: an embedded Dask LocalCluster of `jobs` worker processes.
- `cluster = "tcp://host:8786"`: a running `dask scheduler` with `dask worker`s on any machines
  (each worker must import this project, at the same commit: see docs/scaling.md).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Executor, Future, InvalidStateError, ProcessPoolExecutor
from contextlib import contextmanager
from typing import Any, TypeVar

import attrs

from model.errors import UserError

T = TypeVar("T")
R = TypeVar("R")

LOCAL = "local"                      # --cluster local: an embedded LocalCluster of --jobs workers
CONNECT_SECONDS = 10.0               # how long to wait for a scheduler before giving up


@attrs.frozen
class Workers:
    """Where work runs: `jobs` local processes, or the Dask scheduler at `cluster` ("local": an
    embedded one of `jobs` workers)."""
    jobs: int = 1
    cluster: str | None = None
    pool: Executor | None = attrs.field(default=None, eq=False, repr=False)   # opened once by `opened`

    @property
    def serial(self) -> bool:
        return self.cluster is None and self.jobs <= 1

    def describe(self) -> str:
        if self.cluster == LOCAL:
            return f"embedded Dask cluster of {self.jobs} worker(s)"
        if self.cluster:
            return f"Dask scheduler {self.cluster}"
        return f"{self.jobs} local process(es)" if self.jobs > 1 else "this process"


def cluster_option(command: Callable[..., Any]) -> Callable[..., Any]:
    """`--cluster ADDRESS`: the option every dispatching command shares."""
    import click

    return click.option(
        "--cluster", default=None, metavar="ADDRESS",
        help="Send the work to the Dask scheduler at ADDRESS (tcp://host:8786), or `local` for an embedded "
             "Dask cluster of --jobs workers; results are the same as on one process.")(command)


def workers_of(jobs: int | Workers | None, cluster: str | None = None) -> Workers:
    """A `Workers` from the old `jobs=` argument or a `Workers` (for callers of either kind)."""
    if isinstance(jobs, Workers):
        return jobs
    return Workers(jobs or 1, cluster)


def _quiet_broken_pool() -> None:
    """While an interrupted pool is torn down, CPython 3.11's executor thread may try to set an
    exception on a future we just cancelled (`terminate_broken` -> InvalidStateError) and print a
    thread traceback after the one-line Ctrl-C message; that one error, in that thread, is dropped."""
    previous = threading.excepthook

    def hook(args: Any) -> None:
        if args.exc_type is not None and issubclass(args.exc_type, InvalidStateError):
            return
        previous(args)

    threading.excepthook = hook


@contextmanager
def executor(workers: Workers, initializer: Callable[[], Any] | None = None) -> Iterator[Executor | None]:
    """An executor on `workers` (None: run in this process). `initializer` runs in each local worker
    process (a Dask worker has its own limits: `dask worker --memory-limit`). Workers `opened`
    already give their executor (left open for the next piece of work)."""
    if workers.pool is not None:
        yield workers.pool
        return
    if workers.serial:
        yield None
        return
    if workers.cluster is None:
        pool = ProcessPoolExecutor(max_workers=workers.jobs, initializer=initializer)
        try:
            yield pool
        except BaseException:             # Ctrl-C: stop now, not after the queued work
            processes = list((getattr(pool, "_processes", None) or {}).values())
            _quiet_broken_pool()
            pool.shutdown(wait=False, cancel_futures=True)
            for process in processes:
                process.terminate()
            raise                         # no join here: a pool whose workers were just killed can hang it
        pool.shutdown(wait=True)
        return
    with _dask_client(workers) as client:
        pool = client.get_executor(pure=False)
        try:
            yield pool
        finally:
            pool.shutdown(wait=False)


@contextmanager
def opened(workers: Workers, initializer: Callable[[], Any] | None = None) -> Iterator[Workers]:
    """`workers` with their executor open for several campaigns (the matrix's rows): a cluster is
    started or reached once, not once per row."""
    with executor(workers, initializer) as pool:
        yield attrs.evolve(workers, pool=pool)


@contextmanager
def _dask_client(workers: Workers) -> Iterator[Any]:
    try:
        from distributed import Client, LocalCluster
    except ImportError as exc:          # the dependency is locked; a broken install still says so in one line
        raise UserError(f"--cluster needs dask.distributed: {exc}") from None
    if workers.cluster == LOCAL:
        with LocalCluster(n_workers=workers.jobs, threads_per_worker=1, processes=True,
                          dashboard_address=None) as local, Client(local) as client:
            yield client
        return
    try:
        client = Client(workers.cluster, timeout=CONNECT_SECONDS)
    except (OSError, TimeoutError, ValueError, TypeError) as exc:
        raise UserError(f"--cluster {workers.cluster}: cannot reach a Dask scheduler there "
                        f"({type(exc).__name__}: {exc}); start one with `dask scheduler`") from None
    with client:
        yield client


@attrs.frozen
class Outcome:
    """One item's result, or why it was never run (`stopped`: the caller's reason)."""
    item: Any
    result: Any = None
    stopped: str | None = None


def map_ordered(pool: Executor | None, function: Callable[[T], R], items: Sequence[T], *,
                stop: Callable[[T], str | None] = lambda item: None,
                on_result: Callable[[T, R], None] | None = None) -> list[Outcome]:
    """Every item's outcome, in the order of `items` (never in the order they finish). Before an
    item's result is awaited, `stop(item)` may give a reason not to: when the item has not started
    it is cancelled and comes back with that reason (a started one is waited for). `on_result`
    sees each result as it is collected (in order)."""
    out: list[Outcome] = []
    if pool is None:
        for item in items:
            reason = stop(item)
            if reason is not None:
                out.append(Outcome(item, stopped=reason))
                continue
            result = function(item)
            if on_result:
                on_result(item, result)
            out.append(Outcome(item, result))
        return out
    futures: list[Future[R]] = [pool.submit(function, item) for item in items]
    try:
        for item, future in zip(items, futures, strict=True):
            if not future.done() and not future.running():
                reason = stop(item)
                if reason is not None and future.cancel():
                    out.append(Outcome(item, stopped=reason))
                    continue
            result = future.result()
            if on_result:
                on_result(item, result)
            out.append(Outcome(item, result))
    except BaseException:
        for future in futures:
            future.cancel()
        raise
    return out
