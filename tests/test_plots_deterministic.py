"""The report's charts are the same SVG for the same data, in any process: no timestamp, no random
clip-path ids (a report diff between two runs shows only what changed)."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

DRAW = ("from harness.plots import score_distributions, decided_counts; "
        "print(score_distributions({'greedy': [3, 9, 12, 30, 31], 'uniform': [1, 2, 8]}, 'scores') "
        "+ decided_counts({'p.x=a': 4, 'p.x=b': 0}, 'decided'))")


def _draw(hash_seed: str) -> str:
    env = {**os.environ, "PYTHONHASHSEED": hash_seed}
    return subprocess.run([sys.executable, "-c", DRAW], capture_output=True, text=True, timeout=120, check=True,
                          env=env).stdout


@pytest.mark.process
def test_the_same_data_draws_the_same_svg_in_two_processes() -> None:
    from harness.plots import decided_counts, score_distributions

    first = _draw("1")
    second = (score_distributions({"greedy": [3, 9, 12, 30, 31], "uniform": [1, 2, 8]}, "scores")
              + decided_counts({"p.x=a": 4, "p.x=b": 0}, "decided") + "\n")      # this process, as print()
    assert "<svg" in first and "clip-path" in first
    assert "<dc:date>" not in first
    assert first == second


@pytest.mark.output
def test_never_decided_is_drawn_neutral_not_as_an_error() -> None:
    from harness.plots import decided_counts

    svg = decided_counts({"p.x=a": 4, "p.x=b": 0}, "decided")
    assert "#b3261e" not in svg.lower() and "b3261e" not in svg.lower(), "no error red in the chart"
    assert "8a93a3" in svg.lower(), "the alternative that never decided is drawn grey"
    assert "never decided in these games" in svg
