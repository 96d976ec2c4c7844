"""The clause tracking record (.azul-rules/tests.json) that mutation analysis selects tests from."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from tests.cli_helpers import PYTEST_OUTSIDE

pytestmark = pytest.mark.process          # pytest inside pytest


def _run(folder: Path, record: Path, *args: str) -> None:
    done = subprocess.run([*PYTEST_OUTSIDE, f"--clause-json={record}", *args], cwd=folder, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr


def test_a_renamed_test_leaves_the_record_and_a_partial_run_keeps_the_others(tmp_path: Path) -> None:
    record = tmp_path / "tests.json"
    (tmp_path / "test_a.py").write_text("def test_old():\n    pass\n\ndef test_kept():\n    pass\n")
    # ... run outside the project, loading no more plugins than the project's own runs (cli_helpers)
    (tmp_path / "test_b.py").write_text("import sys\n\ndef test_other():\n"
                                        "    assert not {'anyio', 'trio'} & set(sys.modules)\n")
    _run(tmp_path, record, str(tmp_path))
    assert set(json.loads(record.read_text())["tests"]) == {"test_a.py::test_old", "test_a.py::test_kept",
                                                            "test_b.py::test_other"}
    (tmp_path / "test_a.py").write_text("def test_new():\n    pass\n\ndef test_kept():\n    pass\n")
    _run(tmp_path, record, "test_a.py", "-k", "new")        # a partial run of one file, one test selected
    assert set(json.loads(record.read_text())["tests"]) == {"test_a.py::test_new", "test_a.py::test_kept",
                                                            "test_b.py::test_other"}


ROOT = Path(__file__).resolve().parents[1]
# A small real subset: model tests and scenario files, so the records hold fired clauses.
SUBSET = ("tests/test_model_setup.py", "fixtures/duel/edge-cases/bag-restocked-mid-refill.toml",
          "fixtures/duel/edge-cases/broken-overflow-to-tower.toml")
STALE = {"tests/test_model_setup.py::test_renamed_long_ago": {"outcome": "passed", "declared": [], "fired": {}},
         "tests/test_layout.py::test_not_run_this_time": {"outcome": "passed", "declared": [], "fired": {}}}


def _without_durations(record: Path) -> dict[str, dict]:
    return {k: {f: v for f, v in entry.items() if f != "duration"}
            for k, entry in json.loads(record.read_text())["tests"].items()}


def test_a_parallel_run_writes_the_same_record_as_a_serial_one(tmp_path: Path) -> None:
    """Under xdist the workers send each test's clauses to the controller, which alone writes the
    record: the same record as a serial run, pruned the same way, and JUnit XML without it."""
    serial, parallel, junit = tmp_path / "serial.json", tmp_path / "parallel.json", tmp_path / "tests.xml"
    for record in (serial, parallel):
        record.write_text(json.dumps({"tests": STALE}))
    _run(ROOT, serial, *SUBSET)
    _run(ROOT, parallel, "-n", "2", f"--junitxml={junit}", *SUBSET)
    expected = _without_durations(serial)
    assert "tests/test_model_setup.py::test_renamed_long_ago" not in expected     # its file ran: pruned
    assert "tests/test_layout.py::test_not_run_this_time" in expected             # its file did not: kept
    scenarios = [entry for entry in expected.values() if "scenario" in entry]
    assert len(scenarios) == 2 and all(entry["fired"] and entry["declared"] for entry in scenarios)
    assert _without_durations(parallel) == expected
    xml = junit.read_text()
    assert xml.count("<testcase ") == len(expected) - 1 and "azul-rules-clause-record" not in xml


def test_a_parallel_run_without_tests_fails_with_status_5(tmp_path: Path) -> None:
    (tmp_path / "test_none.py").write_text("x = 1\n")
    # One xdist worker is a parallel run too (controller and worker): a second costs a start-up (issue 13).
    done = subprocess.run([*PYTEST_OUTSIDE, "-n", "1", f"--clause-json={tmp_path / 'tests.json'}", str(tmp_path)],
                          cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert done.returncode == 5, done.stdout + done.stderr


def test_an_unknown_clause_marker_in_a_parallel_run_is_named(tmp_path: Path) -> None:
    """On an xdist worker a usage error would surface as a worker crash without its message."""
    (tmp_path / "test_marks.py").write_text(
        "import pytest\n\n@pytest.mark.clause('azul.score.isolatd')\ndef test_typo():\n    pass\n")
    done = subprocess.run([*PYTEST_OUTSIDE, "-n", "1", "--clause-json=", str(tmp_path)], cwd=tmp_path,
                          capture_output=True, text=True, timeout=120)
    out = done.stdout + done.stderr
    assert done.returncode == 1 and "INTERNALERROR" not in out, out
    assert "ERROR test_marks.py::test_typo - Failed: clause marker" in out
    assert "clause marker that spec/ cannot honour: unknown clause id 'azul.score.isolatd'" in out
