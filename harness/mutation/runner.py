"""Running a clause's tests against its mutants, in throw-away copies of the project.

Mutants are never written into the tree the user edits: each worker copies the project into a
temporary folder (removed on exit, also when the run is interrupted), writes one mutant at a time
into its copy, runs the selected tests there with pytest stage by stage (`-x`: the first failure
kills the mutant; the slow stage runs only when the quick one passed, harness.mutation.selection)
and puts the original file back.
"""

from __future__ import annotations

import atexit
import json
import os
import queue
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any

import attrs

from harness.mutation.mutants import Mutant, Unmutated
from harness.mutation.selection import Stage
from properties.cluster import Workers, executor, map_ordered, workers_of

# Python's bytecode caches (__pycache__) are copied (issue 13): the worker and every forked test run
# import the project from them instead of compiling it again in each copy (about 0.5 CPU s a copy);
# a cache is used only while its source's size and time match, and the worker drops the cache of each
# file it mutates (harness.mutation.worker), so a mutant is always compiled from its own text.
IGNORED = (".git", ".venv", "report", ".hypothesis", "counterexamples", ".azul-rules",
           "*.egg-info", ".pytest_cache", ".mutation-*", "*.pyc.*",   # "*.pyc.*": a cache being written
           ".mypy_cache", ".ruff_cache")                                 # make lint's caches


def _copy_file(src: str, dst: str) -> None:
    """Copy one file; one that vanished meanwhile (a cache or temporary file another process, e.g.
    an xdist worker, replaced or removed while the tree was copied) is left out."""
    try:
        shutil.copy2(src, dst)
    except FileNotFoundError:
        if os.path.exists(src):
            raise


# One mutant's run: the mutant (or the unmutated code), its tests (test ids, or stages with their own
# clocks), the timeout.
Work = tuple[Mutant | Unmutated, Sequence[str] | Sequence[Stage], float]


@attrs.frozen
class MutantResult:
    mutant: str
    status: str                  # killed | survived | timeout | error
    killer: str | None           # the first failing test, or what stopped the run
    tests: int                   # how many tests were selected
    seconds: float
    durations: dict[str, float] = attrs.field(factory=dict)   # seconds by test that ran (all of them: unmutated)


def as_stages(tests: Sequence[str] | Sequence[Stage], timeout: float) -> tuple[Stage, ...]:
    """Stages as given, or plain test ids as one stage cut at `timeout`."""
    if all(isinstance(t, Stage) for t in tests) and tests:
        return tuple(t for t in tests if isinstance(t, Stage))
    return (Stage(tuple(str(t) for t in tests), timeout),)


@contextmanager
def sandbox(root: Path) -> Iterator[Path]:
    """A private copy of the project, removed afterwards whatever happens."""
    with tempfile.TemporaryDirectory(prefix="azul-mutate-") as tmp:
        copy = Path(tmp) / "project"
        shutil.copytree(root, copy, ignore=shutil.ignore_patterns(*IGNORED), symlinks=True,
                        copy_function=_copy_file, ignore_dangling_symlinks=True)
        yield copy


class Worker:
    """A fork server (harness.mutation.worker) running inside one private copy of the project."""

    def __init__(self, copy: Path) -> None:
        self.copy = copy
        self.closed = False
        self.proc = self._start()

    def _start(self) -> subprocess.Popen[str]:
        copy = self.copy
        env = dict(os.environ, PYTHONPATH=str(copy), PYTHONHASHSEED="0", AZUL_CLAUSE_JSON="",
                   PYTHONDONTWRITEBYTECODE="1")
        env.setdefault("HYPOTHESIS_PROFILE", "ci")    # what subprocesses of the tests see; the tests
        # themselves run under the mutation profile (harness.mutation.profile, set in each child)
        return subprocess.Popen([sys.executable, "-m", "harness.mutation.worker"], cwd=copy, env=env,
                                stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                                start_new_session=True)

    def run(self, root: Path, mutant: Mutant | Unmutated, tests: Sequence[str] | Sequence[Stage], timeout: float) -> MutantResult:
        """Run `tests` (test ids cut at `timeout`, or stages with their own clocks) against `mutant`."""
        return self.run_request(request_for(root, mutant, tests, timeout))

    def run_request(self, request: dict[str, Any]) -> MutantResult:
        """Run one `request_for` in this copy (the file path is relative to the project)."""
        assert self.proc.stdin is not None and self.proc.stdout is not None
        own = dict(request, file=str(self.copy / request["file"]))
        own.pop("mutant")
        tests = sum(len(st["tests"]) for st in request["stages"])
        try:
            self.proc.stdin.write(json.dumps(own) + "\n")
            self.proc.stdin.flush()
            line = self.proc.stdout.readline()
        except (BrokenPipeError, OSError):
            line = ""
        if not line:                   # the worker died (killed by a signal, out of memory): no traceback
            why = self._died()
            if not self.closed:        # a new fork server for the next mutant (the copy may hold this one)
                (self.copy / request["file"]).write_text(request["original"])
                self.proc = self._start()
            return MutantResult(request["mutant"], "error", f"the mutation worker {why}", tests, 0.0)
        reply = json.loads(line)
        return MutantResult(request["mutant"], reply["status"], reply["killer"], tests, reply["seconds"],
                            dict(reply.get("durations") or {}))

    def _died(self) -> str:
        """Why the fork server stopped answering, once it has stopped."""
        try:
            os.killpg(self.proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        code = self.proc.wait()
        return f"was stopped by signal {-code}" if code < 0 else f"exited with status {code}"

    def close(self) -> None:
        self.closed = True
        try:
            os.killpg(self.proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        self.proc.wait()


def request_for(root: Path, mutant: Mutant | Unmutated, tests: Sequence[str] | Sequence[Stage], timeout: float) -> dict[str, Any]:
    """What a worker needs to run one mutant: the mutated and the original text of its file, the stages."""
    stages = as_stages(tests, timeout)
    return {"mutant": mutant.id, "file": mutant.file, "source": mutant.source(root),
            "original": (root / mutant.file).read_text(),
            "stages": [{"tests": list(st.tests), "timeout": st.timeout} for st in stages]}


class LocalPool:
    """Private copies with their fork servers, started when first needed and kept for the next batch
    of the same run (a clause's unmutated runs, then its mutants: one worker start each, not two)."""

    def __init__(self, root: Path, stack: ExitStack) -> None:
        self.root, self.stack = root, stack
        self.workers: list[Worker] = []

    def take(self, n: int) -> list[Worker]:
        while len(self.workers) < n:
            worker = Worker(self.stack.enter_context(sandbox(self.root)))
            self.stack.callback(worker.close)
            self.workers.append(worker)
        return self.workers[:n]


@contextmanager
def local_pool(root: Path) -> Iterator[LocalPool]:
    """A LocalPool whose copies and workers are removed on leaving, whatever happens."""
    with ExitStack() as stack:
        yield LocalPool(root, stack)


def run_all(root: Path, work: Sequence[Work], jobs: int | Workers,
            on_result: Callable[[MutantResult], None], deadline: float | None = None,
            pool: LocalPool | None = None) -> list[MutantResult | None]:
    """Run every (mutant, tests, timeout) on `jobs` private copies (from `pool` when given; or on a
    Dask cluster's workers, properties.cluster); results in the order of `work`. Work not started by
    `deadline` (time.monotonic()) is skipped and comes back as None."""
    if not work:
        return []
    if deadline is not None and time.monotonic() > deadline:
        return [None] * len(work)          # a budget spent already: no private copy, no worker start
    workers = workers_of(jobs)
    if workers.cluster is not None:
        return _run_on_cluster(root, work, workers, on_result, deadline)
    jobs = max(1, min(workers.jobs, len(work)))
    results: dict[int, MutantResult] = {}
    with ExitStack() as stack:
        copies: queue.Queue[Worker] = queue.Queue()
        for worker in (pool or LocalPool(root, stack)).take(jobs):
            copies.put(worker)

        def task(index: int) -> None:
            if deadline is not None and time.monotonic() > deadline:
                return
            copy = copies.get()
            try:
                mutant, tests, timeout = work[index]
                results[index] = copy.run(root, mutant, tests, timeout)
                on_result(results[index])
            finally:
                copies.put(copy)

        with ThreadPoolExecutor(max_workers=jobs) as threads:
            for future in [threads.submit(task, i) for i in range(len(work))]:
                future.result()
    return [results.get(i) for i in range(len(work))]


def _run_on_cluster(root: Path, work: Sequence[Work], workers: Workers,
                    on_result: Callable[[MutantResult], None], deadline: float | None) -> list[MutantResult | None]:
    """Each mutant is a task; a Dask worker runs it in its own private copy of ITS checkout (which
    must be at the submitter's commit: a file that differs is reported as an error, never run)."""
    requests = [request_for(root, mutant, tests, timeout) for mutant, tests, timeout in work]

    def past_deadline(request: dict[str, Any]) -> str | None:
        return "deadline" if deadline is not None and time.monotonic() > deadline else None

    with executor(workers) as pool:
        outcomes = map_ordered(pool, run_remote, requests, stop=past_deadline,
                               on_result=lambda request, result: on_result(result))
    return [o.result for o in outcomes]


_REMOTE: dict[str, Any] = {}          # in a Dask worker process: its private copy and fork server
_REMOTE_LOCK = threading.Lock()


def run_remote(request: dict[str, Any]) -> MutantResult:
    """Run one request in this process's private copy of the project it imports (made once; removed
    when the process exits)."""
    with _REMOTE_LOCK:                 # one fork server per worker process: requests take turns
        if "worker" not in _REMOTE:
            stack = ExitStack()
            atexit.register(stack.close)
            worker = Worker(stack.enter_context(sandbox(Path(__file__).resolve().parents[2])))
            stack.callback(worker.close)
            _REMOTE["worker"] = worker
        worker = _REMOTE["worker"]
        here = (worker.copy / request["file"])
        if not here.is_file() or here.read_text() != request["original"]:
            return MutantResult(request["mutant"], "error",
                                f"the worker's checkout differs from the submitter's at {request['file']}", 0, 0.0)
        return worker.run_request(request)
