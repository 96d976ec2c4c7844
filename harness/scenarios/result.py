"""The outcome of running one scenario, the same shape for every game (report and CLI read it)."""

from __future__ import annotations

from typing import Any

import attrs


@attrs.frozen
class ScenarioResult:
    id: str
    file: str
    passed: bool
    diffs: tuple[str, ...]
    steps_run: int
    clauses: tuple[str, ...]

    def to_json(self) -> dict[str, Any]:
        return attrs.asdict(self)
