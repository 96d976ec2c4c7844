"""Clause citations at rule sites, and the recorder that counts which clauses fired.

Every rule site calls `cite("clause.id")`. With recording off (the default) a cite is one attribute
test; with recording on it counts hits per clause, per interpretation alternative in force and per
phase-graph edge. `harness` reads the static sites from the source (file:line) for the report.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager

import attrs


@attrs.define
class Recorder:
    enabled: bool = False
    clauses: Counter[str] = attrs.field(factory=Counter)
    edges: Counter[tuple[str, str]] = attrs.field(factory=Counter)
    alternatives: Counter[tuple[str, str]] = attrs.field(factory=Counter)

    def reset(self) -> None:
        self.clauses.clear()
        self.edges.clear()
        self.alternatives.clear()



RECORDER = Recorder()


def cite(clause_id: str) -> None:
    """Mark that the rule `clause_id` fired here (counted only while recording)."""
    if RECORDER.enabled:
        RECORDER.clauses[clause_id] += 1


def cite_alternative(interp_id: str, alternative: str) -> None:
    """Mark that the interpretation point decided an outcome under `alternative`."""
    if RECORDER.enabled:
        RECORDER.alternatives[(interp_id, alternative)] += 1


def cite_edge(source: str, target: str) -> None:
    if RECORDER.enabled:
        RECORDER.edges[(source, target)] += 1


@contextmanager
def recording(reset: bool = True) -> Iterator[Recorder]:
    """Record clause hits inside the block; yields the recorder."""
    was = RECORDER.enabled
    if reset:
        RECORDER.reset()
    RECORDER.enabled = True
    try:
        yield RECORDER
    finally:
        RECORDER.enabled = was
