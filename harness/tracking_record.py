"""Writing the clause tracking record (.azul-rules/tests.json) safely when pytest runs overlap.

Two pytest runs that finish at about the same time (two helpers, an editor's test runner and
`make test`) each read the record, add their tests and write it back: without a lock the later
writer drops what the earlier one added between its read and its write (mutation analysis then
selects without those tests). Here the whole read-merge-write holds an exclusive `fcntl.flock` on a
lock file beside the record, and the new content goes to a private temporary file in the same folder
that replaces the record in one `os.replace`: a reader sees the old record or the new one, never half
of one, and no writer's entries are lost.
"""

from __future__ import annotations

import fcntl
import json
import os
import tempfile
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

# How long a writer waits for another one before giving up on the lock (every loop is bounded).
LOCK_SECONDS = 60.0


def lock_path(record: Path) -> Path:
    return record.with_name(record.name + ".lock")


def read_tests(record: Path) -> dict[str, dict[str, Any]]:
    """The record's tests; {} when it is missing or unreadable (it is rebuilt by the next run)."""
    try:
        data = json.loads(record.read_text())
    except (OSError, ValueError):
        return {}
    tests = data.get("tests") if isinstance(data, dict) else None
    return dict(tests) if isinstance(tests, dict) else {}


def _lock(fd: int, seconds: float) -> None:
    """An exclusive flock on `fd`, waiting at most `seconds` (polling: flock itself has no timeout)."""
    import time

    deadline = time.monotonic() + seconds
    while True:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return
        except BlockingIOError:
            if time.monotonic() >= deadline:
                raise TimeoutError(f"{seconds:.0f} s waiting for the lock on the tracking record") from None
            time.sleep(0.05)


def _write_atomically(record: Path, tests: Mapping[str, Any]) -> None:
    fd, tmp = tempfile.mkstemp(prefix=record.name + ".", suffix=".tmp", dir=record.parent)
    try:
        with os.fdopen(fd, "w") as out:
            out.write(json.dumps({"tests": dict(sorted(tests.items()))}, indent=1, sort_keys=True))
        os.replace(tmp, record)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def merge_into_record(record: Path, results: Mapping[str, dict[str, Any]],
                      keep: Callable[[str], bool] = lambda nodeid: True,
                      lock_seconds: float = LOCK_SECONDS) -> None:
    """Under the record's lock: the tests on disk that `keep` accepts, updated with `results`,
    written atomically."""
    record.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(lock_path(record), os.O_RDWR | os.O_CREAT, 0o644)
    try:
        _lock(fd, lock_seconds)
        merged = {k: v for k, v in read_tests(record).items() if keep(k)}
        merged.update(results)
        _write_atomically(record, merged)
    finally:
        os.close(fd)                      # closing the only descriptor releases the flock
