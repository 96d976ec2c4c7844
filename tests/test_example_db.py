"""AZUL_HYPOTHESIS_DB: one example database for every fuzzing worker (properties/example_db.py).
What one worker found, the next worker replays first."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from hypothesis.database import DirectoryBasedExampleDatabase, MultiplexedDatabase

from properties.example_db import DB_ENV, LOCAL_DB_ENV, ExampleDatabaseError, example_database

ROOT = Path(__file__).resolve().parents[1]

# A "worker": loads the project's profile (as the fuzz targets do) and runs a property that fails
# for large numbers, printing the first number it tries.
WORKER = textwrap.dedent("""
    from hypothesis import given, strategies as st
    from properties.profiles import load_profile
    load_profile()
    seen = []

    @given(st.integers(0, 10**9))
    def test_small(n):
        seen.append(n)
        assert n < 123456

    try:
        test_small()
    except AssertionError:
        print("first", seen[0], "failed-on", seen[-1])
    else:
        print("first", seen[0], "passed")
""")


def _worker(db: Path | None, home: Path, profile: str = "fuzz") -> str:
    """One worker run from its own directory `home` (as on its own machine: Hypothesis's default
    database, .hypothesis/, is then not shared)."""
    env = {k: v for k, v in os.environ.items() if k not in (DB_ENV, LOCAL_DB_ENV)}
    env["HYPOTHESIS_PROFILE"] = profile
    env["PYTHONPATH"] = str(ROOT)
    if db is not None:
        env[DB_ENV] = str(db)
    home.mkdir(parents=True, exist_ok=True)
    out = subprocess.run([sys.executable, "-c", WORKER], cwd=home, env=env, capture_output=True, text=True,
                         timeout=300)
    assert out.returncode == 0, out.stderr[-2000:]
    return out.stdout.strip()


def test_a_failure_saved_by_one_worker_is_replayed_first_by_the_next(tmp_path: Path) -> None:
    shared = tmp_path / "shared-db"
    first = _worker(shared, tmp_path / "machine-a")
    assert "failed-on 123456" in first                      # found and shrunk to the boundary
    assert any(shared.rglob("*")), "nothing was saved in the shared database"
    second = _worker(shared, tmp_path / "machine-b")
    assert second.startswith("first 123456 "), second      # replayed from the database before anything new


def test_without_the_variable_workers_do_not_share(tmp_path: Path) -> None:
    assert example_database({}) is None
    assert "failed-on 123456" in _worker(None, tmp_path / "machine-a")
    assert not _worker(None, tmp_path / "machine-b").startswith("first 123456 ")


def test_a_local_copy_beside_the_shared_directory(tmp_path: Path) -> None:
    db = example_database({DB_ENV: str(tmp_path / "shared"), LOCAL_DB_ENV: str(tmp_path / "local")})
    assert isinstance(db, MultiplexedDatabase)
    db.save(b"key", b"value")
    for where in ("shared", "local"):
        assert list(DirectoryBasedExampleDatabase(str(tmp_path / where)).fetch(b"key")) == [b"value"]


@pytest.mark.parametrize("value, message", [("redis://host:6379", "only a directory path"),
                                            ("FILE", "not a directory")])
def test_an_unusable_setting_is_one_line_naming_the_variable(tmp_path: Path, value: str, message: str) -> None:
    if value == "FILE":
        value = str(tmp_path / "file")
        Path(value).write_text("x")
    with pytest.raises(ExampleDatabaseError, match=f"^{DB_ENV}=.*{message}"):
        example_database({DB_ENV: value})
