"""Run pytest in a child process and follow it line by line: a live count of finished tests, each
failing test named as it fails, pytest's closing line ("2 failed, 400 passed in 95.1s"), and the
child stopped cleanly when we are interrupted."""

from __future__ import annotations

import os
import re
import signal
import subprocess
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TextIO

import attrs

# `pytest -v` ends each test's line with its outcome: "tests/test_x.py::test_y PASSED   [ 12%]".
_RESULT = re.compile(r"^(?P<id>\S.*?) (?P<outcome>PASSED|FAILED|ERROR|SKIPPED|XFAIL|XPASS)\b")
# Under pytest-xdist (`-n N`) the outcome comes first: "[gw0] [ 12%] PASSED tests/test_x.py::test_y".
_XDIST_RESULT = re.compile(r"^\[gw\d+\] \[\s*\d+%\] (?P<outcome>PASSED|FAILED|ERROR|SKIPPED|XFAIL|XPASS) "
                           r"(?P<id>\S.*?)\s*$")
_COLLECTED = re.compile(r"^(collecting \.\.\. )?collected (?P<n>\d+) items?|^\d+ workers? \[(?P<items>\d+) items?\]")
# The short summary at the end ("FAILED tests/x.py::test_y - AssertionError ..."), and collection errors.
_SUMMARY = re.compile(r"^(?P<outcome>FAILED|ERROR) (?P<id>\S+)")
_CLOSING = re.compile(r"^=+ (?P<text>.*\d+ (passed|failed|error|errors|skipped|deselected|xfailed|xpassed|"
                      r"warnings?|no tests ran).*?) =+$|^=+ (?P<none>no tests ran.*?) =+$")
FAILING = ("FAILED", "ERROR")


@attrs.define
class PytestRun:
    """What the child has told us so far (complete once `returncode` is set)."""
    collected: int | None = None
    counts: dict[str, int] = attrs.field(factory=dict)       # outcome -> tests
    failed: list[str] = attrs.field(factory=list)           # node ids, in the order they failed
    closing: str = ""                                       # pytest's last "N passed, ..." line
    returncode: int | None = None
    interrupted: bool = False

    @property
    def done(self) -> int:
        return sum(self.counts.values())

    def progress_text(self) -> str:
        total = f"/{self.collected}" if self.collected is not None else ""
        failed = sum(self.counts.get(o, 0) for o in FAILING)
        return f"{self.done}{total} tests finished, {failed} failed"

    def follow(self, line: str) -> str | None:
        """Update from one output line; the node id of a test that has just failed, else None."""
        line = line.rstrip("\n")
        if m := _COLLECTED.match(line):
            self.collected = int(m["n"] or m["items"])
        elif (m := _XDIST_RESULT.match(line)) or (m := _RESULT.match(line)):
            outcome = m["outcome"]
            self.counts[outcome] = self.counts.get(outcome, 0) + 1
            if outcome in FAILING and m["id"] not in self.failed:
                self.failed.append(m["id"])
                return m["id"]
        elif m := _CLOSING.match(line):
            self.closing = (m["text"] or m["none"]).strip()
        elif (m := _SUMMARY.match(line)) and m["id"] not in self.failed:
            self.failed.append(m["id"])           # e.g. a collection error, which has no result line
            return m["id"]
        return None


def run_pytest(args: Sequence[str], *, cwd: Path, env: Mapping[str, str], log: Path,
               on_line: Callable[[str, PytestRun, str | None], None], python: str,
               stop_seconds: float = 10.0) -> PytestRun:
    """`python -m pytest -v ARGS` in `cwd`; every output line goes to `log` and to
    `on_line(line, run so far, id of the test that just failed or None)` as it comes.
    On KeyboardInterrupt (or any error) the child is interrupted too, given `stop_seconds` to print
    its own summary, then killed; the exception propagates with the run so far in `exc.pytest_run`."""
    run = PytestRun()
    command = [python, "-m", "pytest", "-v", "--color=no", *args]
    with log.open("w") as sink:
        env = {**env, "PYTHONUNBUFFERED": "1"}          # each line as it is printed, not in 8 KiB blocks
        # Its own process group: pytest-xdist's workers hold the output pipe too, so stopping the run
        # signals the whole group (a killed controller alone left its workers and a pipe never closed).
        proc = subprocess.Popen(command, cwd=cwd, env=env, stdout=subprocess.PIPE,
                                stderr=subprocess.STDOUT, text=True, bufsize=1, start_new_session=True)
        try:
            assert proc.stdout is not None
            for line in proc.stdout:
                sink.write(line)
                sink.flush()
                on_line(line, run, run.follow(line))
            run.returncode = proc.wait()
        except BaseException as exc:
            run.interrupted = True
            _stop(proc, sink, run, stop_seconds)
            # the run so far, for harness.verify; typeshed declares no extra attributes on exceptions
            exc.pytest_run = run          # type: ignore[attr-defined]
            raise
    return run


def _signal_group(proc: subprocess.Popen[str], sig: int) -> None:
    try:
        os.killpg(proc.pid, sig)
    except (ProcessLookupError, PermissionError):
        pass


def _stop(proc: subprocess.Popen[str], sink: TextIO, run: PytestRun, seconds: float) -> None:
    """Interrupt the child and its workers (pytest then prints what it ran), read what it says, kill
    the group if it lingers."""
    if proc.poll() is None:
        _signal_group(proc, signal.SIGINT)
    try:
        out, _ = proc.communicate(timeout=seconds)
    except subprocess.TimeoutExpired:
        _signal_group(proc, signal.SIGKILL)
        proc.kill()
        try:
            out, _ = proc.communicate(timeout=seconds)
        except subprocess.TimeoutExpired:
            out = ""
    except (ValueError, OSError):      # the pipe was already being read when we were interrupted
        _signal_group(proc, signal.SIGKILL)
        proc.kill()
        proc.wait()
        out = ""
    for line in (out or "").splitlines():
        sink.write(line + "\n")
        run.follow(line)
    run.returncode = proc.returncode



def parallel_args(jobs: int | None) -> list[str]:
    """pytest arguments spreading the tests over `jobs` pytest-xdist workers (none for one job).
    Work stealing: the suite's durations range from milliseconds to a minute, so a worker that runs
    dry takes tests queued for another instead of idling behind a fixed split."""
    return ["-n", str(jobs), "--dist", "worksteal"] if jobs and jobs > 1 else []
