"""Scenario-file helpers shared by every game's loader tests: write a scenario text, and load a
variant of a good one that must be refused."""

from __future__ import annotations

from pathlib import Path

import pytest

from harness.scenarios import ScenarioError, load_scenario


def write_scenario(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "s.toml"
    path.write_text(text)
    return path


def refusal(tmp_path: Path, good: str, old: str, new: str) -> ScenarioError:
    """The loader's error for `good` with its first `old` replaced by `new` (which must be refused)."""
    assert old in good
    with pytest.raises(ScenarioError) as err:
        load_scenario(write_scenario(tmp_path, good.replace(old, new, 1)))
    return err.value
