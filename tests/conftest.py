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
