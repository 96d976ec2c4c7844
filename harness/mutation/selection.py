"""Which tests bear on a clause: those that fired it (the recorder's per-test tracking) or declare
it (`@pytest.mark.clause`, a scenario's `clauses`). Fastest first, so a killed mutant costs little.
When no tracking exists for a clause, the whole suite runs."""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import attrs


@attrs.frozen
class TestRecord:
    nodeid: str
    duration: float
    fired: frozenset[str]
    declared: frozenset[str]
    passed: bool

    @property
    def file(self) -> str:
        return self.nodeid.split("::", 1)[0]


def load_tracking(path: Path, resolve: Mapping[str, str]) -> list[TestRecord]:
    """The suite's per-test record (written by the pytest plugin's --clause-json)."""
    if not path.exists():
        return []
    data: dict[str, Any] = json.loads(path.read_text())["tests"]
    out = []
    for nodeid, entry in sorted(data.items()):
        fired = frozenset(resolve.get(c, c) for c in entry.get("fired", {}))
        declared = frozenset(resolve.get(c.partition("@")[0], c.partition("@")[0]) for c in entry.get("declared", []))
        out.append(TestRecord(nodeid, float(entry.get("duration", 1.0)), fired, declared,
                              entry.get("outcome") == "passed"))
    return out


# The mutation analysis's own tests plant mutants themselves: never run them against a mutant.
NOT_SELECTED = ("tests/test_mutation.py",)


def tests_for(clause: str, records: list[TestRecord]) -> list[TestRecord]:
    """Passing tests that fired or declare `clause`, fastest first; [] when none."""
    chosen = [r for r in records if r.passed and r.file not in NOT_SELECTED
              and (clause in r.fired or clause in r.declared)]
    return sorted(chosen, key=lambda r: (r.duration, r.nodeid))


def whole_suite(records: list[TestRecord]) -> list[TestRecord]:
    return sorted((r for r in records if r.passed and r.file not in NOT_SELECTED), key=lambda r: (r.duration, r.nodeid))
