"""Overlapping pytest runs both land in the clause tracking record (.azul-rules/tests.json)."""

from __future__ import annotations

import json
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from harness import tracking_record
from harness.tracking_record import merge_into_record, read_tests

ROOT = Path(__file__).resolve().parents[1]


def _entry(n: int) -> dict[str, object]:
    return {"outcome": "passed", "declared": [], "fired": {"duel.score.horizontal": n}}


def test_a_writer_that_reads_while_another_is_between_read_and_write_loses_nothing(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The lost update made deterministic: writer A has read the record and pauses before writing;
    writer B starts then. Under the lock B waits for A and merges A's entry; without it B writes a
    record without A's entry, or A overwrites B's."""
    record = tmp_path / "tests.json"
    merge_into_record(record, {"tests/test_x.py::test_old": _entry(1)})
    a_has_read = threading.Event()
    real_read = tracking_record.read_tests

    def slow_read(path: Path) -> dict[str, dict]:
        tests = real_read(path)
        if threading.current_thread().name == "A":
            a_has_read.set()
            threading.Event().wait(0.6)      # B runs meanwhile (or waits for the lock)
        return tests

    monkeypatch.setattr(tracking_record, "read_tests", slow_read)
    a = threading.Thread(name="A", target=merge_into_record, args=(record, {"tests/test_a.py::test_a": _entry(2)}))
    b = threading.Thread(name="B", target=merge_into_record, args=(record, {"tests/test_b.py::test_b": _entry(3)}))
    a.start()
    assert a_has_read.wait(10)
    b.start()
    a.join(30)
    b.join(30)
    assert set(read_tests(record)) == {"tests/test_x.py::test_old", "tests/test_a.py::test_a",
                                       "tests/test_b.py::test_b"}


WRITER = """
import sys
from pathlib import Path
from harness.tracking_record import merge_into_record
record, name = Path(sys.argv[1]), sys.argv[2]
for i in range(40):
    merge_into_record(record, {f"tests/test_{name}.py::test_{i}": {"outcome": "passed", "fired": {}}})
"""


def test_two_processes_writing_at_once_keep_every_entry(tmp_path: Path) -> None:
    record = tmp_path / "tests.json"
    writers = [subprocess.Popen([sys.executable, "-c", WRITER, str(record), name], cwd=ROOT)
               for name in ("one", "two")]
    assert [w.wait(timeout=120) for w in writers] == [0, 0]
    assert len(read_tests(record)) == 80
    assert sorted(p.name for p in tmp_path.iterdir()) == ["tests.json", "tests.json.lock"]   # no temp file left


def test_the_filter_applies_to_what_is_on_disk_and_the_new_results_win(tmp_path: Path) -> None:
    record = tmp_path / "tests.json"
    record.write_text(json.dumps({"tests": {"a::gone": _entry(1), "a::kept": _entry(1), "b::t": _entry(1)}}))
    merge_into_record(record, {"b::t": _entry(9)}, keep=lambda nodeid: nodeid != "a::gone")
    assert read_tests(record) == {"a::kept": _entry(1), "b::t": _entry(9)}


def test_an_unreadable_record_is_rebuilt_and_a_held_lock_times_out(tmp_path: Path) -> None:
    record = tmp_path / "tests.json"
    record.write_text("{not json")
    merge_into_record(record, {"a::t": _entry(1)})
    assert read_tests(record) == {"a::t": _entry(1)}
    import fcntl
    import os

    fd = os.open(tracking_record.lock_path(record), os.O_RDWR)
    fcntl.flock(fd, fcntl.LOCK_EX)
    try:
        with pytest.raises(TimeoutError, match="waiting for the lock on the tracking record"):
            merge_into_record(record, {"a::u": _entry(2)}, lock_seconds=0.2)
    finally:
        os.close(fd)
    assert read_tests(record) == {"a::t": _entry(1)}           # unchanged
