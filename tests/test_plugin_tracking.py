"""The clause tracking record (.azul-rules/tests.json) that mutation analysis selects tests from."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path


def _run(folder: Path, record: Path, *args: str) -> None:
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                           f"--clause-json={record}", *args], cwd=folder, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr


def test_a_renamed_test_leaves_the_record_and_a_partial_run_keeps_the_others(tmp_path: Path) -> None:
    record = tmp_path / "tests.json"
    (tmp_path / "test_a.py").write_text("def test_old():\n    pass\n\ndef test_kept():\n    pass\n")
    (tmp_path / "test_b.py").write_text("def test_other():\n    pass\n")
    _run(tmp_path, record, str(tmp_path))
    assert set(json.loads(record.read_text())["tests"]) == {"test_a.py::test_old", "test_a.py::test_kept",
                                                            "test_b.py::test_other"}
    (tmp_path / "test_a.py").write_text("def test_new():\n    pass\n\ndef test_kept():\n    pass\n")
    _run(tmp_path, record, "test_a.py", "-k", "new")        # a partial run of one file, one test selected
    assert set(json.loads(record.read_text())["tests"]) == {"test_a.py::test_new", "test_a.py::test_kept",
                                                            "test_b.py::test_other"}
