"""Shared fixtures for the suite."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from spec import SPEC_ROOT


@pytest.fixture
def spec_copy(tmp_path: Path) -> Path:
    """A writable copy of the spec tree, for tests that break it on purpose."""
    dest = tmp_path / "spec"
    shutil.copytree(SPEC_ROOT, dest, ignore=shutil.ignore_patterns("*.py", "__pycache__"))
    return dest


@pytest.fixture(scope="session")
def untracked_duel_plans(tmp_path_factory: pytest.TempPathFactory) -> dict:
    """Every Duel clause's mutation plan without a tracking record (each clause falls back to the
    whole suite), made once per test process: planning parses the model and builds every mutant,
    2-3 CPU s each time (issue 13). Plans are frozen; tests narrow copies of them."""
    from harness.mutation.analysis import plan
    from spec import default_catalogue

    return plan(SPEC_ROOT.parent, default_catalogue(), tmp_path_factory.mktemp("plans") / "absent.json")
