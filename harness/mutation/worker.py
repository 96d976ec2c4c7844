"""A fork server for mutation runs: started once inside a private copy of the project, it imports
pytest and the libraries the suite needs, then for each mutant forks a child that writes the
mutant into the copy, forgets the project's modules, and runs the selected tests with pytest.main.
Starting a fresh interpreter and pytest for every mutant would cost more than most test runs.

Protocol: one JSON request per line on stdin ({"file", "source", "original", "stages": [{"tests",
"timeout"}, ...]}; or "tests" and "timeout" for one stage), one JSON reply per line on stdout
({"status", "killer", "seconds"}). Stages run in order, each in its own child cut at its own clock;
the first stage that does not pass gives the verdict (a mutant the quick tests kill never runs the
slow ones).
"""

from __future__ import annotations

import importlib
import importlib.util
import json
import os
import pkgutil
import signal
import sys
import time
from pathlib import Path
from typing import Any

from harness.mutation import profile
from harness.mutation.hotswap import ImportCalls, hot_swap

TIME_MARKS = ("TimeBudgetExceeded", "Timeout >", "Failed: Timeout")
PROJECT_PACKAGES = ("spec", "model", "properties", "harness", "tests", "conftest")
# No cache, no tracking record, and plain asserts: a failing assert fails the test either way, and
# rewriting the test modules' asserts (recompiling them in every child) cost more than most tests.
CHILD_OPTIONS = ("-p", "no:cacheprovider", "--clause-json=", "--assert=plain")


class FirstFailure:
    """A pytest plugin that remembers the first failing test."""

    def __init__(self) -> None:
        self.nodeid: str | None = None
        self.out_of_time = False
        self.durations: dict[str, float] = {}     # seconds by test (setup, call and teardown)

    def pytest_runtest_logreport(self, report: Any) -> None:
        self.durations[report.nodeid] = round(self.durations.get(report.nodeid, 0.0) + getattr(report, "duration", 0.0), 4)
        if report.failed and self.nodeid is None:
            self.nodeid = report.nodeid
            text = getattr(report, "longreprtext", "") or ""
            # A test stopped by a clock (the watchdog's time budget, pytest-timeout) says nothing about
            # the mutant on a busy machine: that is a timeout, not a kill. The step bound (Livelock)
            # is deterministic and does count.
            self.out_of_time = any(mark in text for mark in TIME_MARKS)

    def pytest_collectreport(self, report: Any) -> None:
        if report.failed and self.nodeid is None:
            self.nodeid = f"collection of {report.nodeid or 'the suite'}"


PREIMPORT = ("model", "properties", "spec", "harness")
# Not imported up front: this module, and the report's charts (matplotlib, about 1.3 CPU s a worker
# start; no rule runs there and the mutation children's tests seldom draw: one that does imports it).
NOT_PREIMPORTED = ("harness.mutation.worker", "harness.plots")


def _module_name(file: Path, copy: Path) -> str:
    parts = list(file.relative_to(copy).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _preimport(copy: Path) -> ImportCalls:
    """Import the project once, recording which of its functions ran meanwhile (harness.mutation.hotswap)."""
    calls = ImportCalls((str(copy) + os.sep,))
    with calls:
        for package in PREIMPORT:
            root = importlib.import_module(package)
            for info in pkgutil.walk_packages(root.__path__, prefix=f"{package}."):
                if info.name.startswith(NOT_PREIMPORTED):
                    continue
                try:
                    importlib.import_module(info.name)
                except Exception:          # a module that cannot be imported here is imported by the tests
                    pass
    return calls


def _use_mutation_profile() -> None:
    """Make the suite's profile loader (properties.profiles.load_profile) load the mutation profile in
    this child. Not through HYPOTHESIS_PROFILE: a test's own subprocess (tests/test_watchdog.py starts
    pytest in one) would inherit it and fail to find a profile registered only here."""
    import properties.profiles as profiles

    profiles.PROFILE = profile.NAME


def _child(request: dict[str, Any], result_fd: int, calls: ImportCalls | None) -> None:
    import pytest

    signal.signal(signal.SIGINT, signal.default_int_handler)    # the tests see Python's own handlers
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    copy = Path.cwd()
    target = Path(request["file"])
    unmutated = request["source"] == request["original"]     # the baseline run: the project as imported
    swapped = None if calls is None or unmutated else \
        hot_swap(_module_name(target, copy), str(target), request["original"], request["source"], calls)
    if swapped is None and not unmutated:  # import the mutated project afresh
        for name in list(sys.modules):
            if name.split(".")[0] in PROJECT_PACKAGES:
                del sys.modules[name]
    _use_mutation_profile()
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 1)
    os.dup2(devnull, 2)
    plugin = FirstFailure()
    code = pytest.main(["-x", "-q", *CHILD_OPTIONS, *request["tests"]], plugins=[plugin])
    os.write(result_fd, json.dumps({"code": int(code), "killer": plugin.nodeid, "swapped": swapped,
                                    "out_of_time": plugin.out_of_time, "durations": plugin.durations}).encode())
    os._exit(0)


def _warm_up(calls: ImportCalls | None) -> None:
    """Do once, before forking, what every test run would otherwise repeat: import pytest's plugins
    (entry points: anyio's alone costs a second per run), load each game's clause catalogue (the
    plugin checks every marker against it), and move what exists now out of the garbage
    collector's sight (pytest collects at exit; each child would scan the whole parent heap).
    Project functions that run meanwhile are recorded like those run at import (not hot-swapped)."""
    import gc
    from contextlib import nullcontext
    from importlib.metadata import entry_points

    for point in entry_points(group="pytest11"):
        if point.value.split(".")[0] in PROJECT_PACKAGES:
            continue
        try:
            importlib.import_module(point.value.split(":")[0])
        except Exception:                  # pytest reports a plugin that cannot load, in the child
            pass
    with calls if calls is not None else nullcontext():
        try:
            from properties.registry import game_names
            from spec import default_catalogue

            for name in game_names():
                default_catalogue(name)
        except Exception:                  # the child loads what it needs itself
            pass
    gc.freeze()


# A stage's clock is stretched by how oversubscribed the machine is (run-queue length per core), at
# most this many times: a test measured on a quiet machine takes longer when ten processes share two
# cores, and a clock that cuts it there would turn a kill into a timeout.
MAX_SLOWDOWN = 8.0


def slowdown(load: float | None = None, cores: int | None = None) -> float:
    """How much slower than measured the tests may run now: the 1-minute load per core, 1 to
    MAX_SLOWDOWN; AZUL_MUTATE_SLOWDOWN=X fixes it at X instead (a dedicated machine: 1)."""
    fixed = os.environ.get("AZUL_MUTATE_SLOWDOWN")
    if fixed and load is None:
        return min(MAX_SLOWDOWN, max(1.0, float(fixed)))
    load = os.getloadavg()[0] if load is None else load
    cores = (os.cpu_count() or 1) if cores is None else cores
    return min(MAX_SLOWDOWN, max(1.0, load / max(1, cores)))


def _run_stage(request: dict[str, Any], tests: list[str], timeout: float, calls: ImportCalls | None) -> dict[str, Any]:
    """Fork a child that runs `tests` against the mutant already written into the copy; its reply.
    The child is cut at `timeout` seconds, stretched by the machine's current `slowdown()`."""
    timeout = timeout * slowdown()
    started = time.monotonic()
    read_fd, write_fd = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(read_fd)
        try:
            _child(dict(request, tests=tests), write_fd, calls)
        finally:
            os._exit(70)
    os.close(write_fd)
    deadline = started + timeout
    status: int | None = None
    while time.monotonic() < deadline:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            break
        time.sleep(0.02)
    else:
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
        status = None                      # out of time: a timeout, not a run that died
    raw = b""
    while chunk := os.read(read_fd, 65536):
        raw += chunk
    os.close(read_fd)
    seconds = time.monotonic() - started
    if status is None or not raw:
        return {"status": "timeout" if status is None else "error",
                "killer": f"no verdict within {timeout:.0f} s" if status is None
                else f"the test run died (status {status})", "seconds": seconds}
    result = json.loads(raw)
    code = result["code"]
    if code == 0:
        reply = {"status": "survived", "killer": None, "seconds": seconds}
    elif code in (1, 2, 3) and result.get("out_of_time"):
        reply = {"status": "timeout", "killer": f"time budget ran out in {result['killer']}", "seconds": seconds}
    elif code in (1, 2, 3):
        reply = {"status": "killed", "killer": result["killer"] or f"pytest exit {code}", "seconds": seconds}
    else:
        reply = {"status": "error", "killer": f"pytest exit {code}", "seconds": seconds}
    reply["swapped"] = result.get("swapped")
    reply["durations"] = result.get("durations", {})
    return reply


def _stages(request: dict[str, Any]) -> list[tuple[list[str], float]]:
    if "stages" in request:
        return [(list(st["tests"]), float(st["timeout"])) for st in request["stages"]]
    return [(list(request["tests"]), float(request["timeout"]))]


def forget_bytecode(source: Path) -> None:
    """Drop the copied bytecode cache of a file about to be mutated: the cache records the original
    source's time and size (the copy keeps both), so a mutant written within the same second with the
    same size would otherwise pass the cache's check and never run.
    Nothing writes it again (PYTHONDONTWRITEBYTECODE in the worker), so the file compiles from its text."""
    Path(importlib.util.cache_from_source(str(source))).unlink(missing_ok=True)


def serve() -> None:
    import attrs  # noqa: F401  (the suite's libraries, imported once before forking)
    import cattrs  # noqa: F401
    import hypothesis  # noqa: F401
    import jinja2  # noqa: F401
    import networkx  # noqa: F401
    import pytest  # noqa: F401
    import rich  # noqa: F401

    profile.register()
    calls = _preimport(Path.cwd()) if os.environ.get("AZUL_MUTATE_HOTSWAP", "1") == "1" else None
    _warm_up(calls)
    for line in sys.stdin:
        request = json.loads(line)
        target = Path(request["file"])
        forget_bytecode(target)
        target.write_text(request["source"])
        seconds = 0.0
        durations: dict[str, float] = {}
        reply: dict[str, Any] = {"status": "survived", "killer": None}
        try:
            # Stage after stage (quick tests first); the first stage that does not pass decides.
            for tests, timeout in _stages(request):
                reply = _run_stage(request, tests, timeout, calls)
                seconds += reply["seconds"]
                durations.update(reply.pop("durations", None) or {})
                if reply["status"] != "survived":
                    break
        finally:
            target.write_text(request["original"])
        reply["seconds"] = seconds
        reply["durations"] = durations
        sys.stdout.write(json.dumps(reply) + "\n")
        sys.stdout.flush()


def main() -> None:
    """Serve until stdin closes. Stopped by a signal (Ctrl-C, SIGTERM, the runner closing it) or by
    a runner that went away (a closed pipe), it exits quietly: no traceback for a stop it was asked for."""
    signal.signal(signal.SIGTERM, lambda signum, frame: os._exit(128 + signum))
    signal.signal(signal.SIGINT, lambda signum, frame: os._exit(128 + signum))
    try:
        serve()
    except BrokenPipeError:
        os._exit(0)


if __name__ == "__main__":
    main()
