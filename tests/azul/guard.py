"""The clause record inside a block, for the classic guarding tests (tests/azul/test_guard_*.py)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager

from model.clauses import recording


class Record:
    """Clause hits and decisive alternatives counted inside a `record()` block."""

    def __init__(self) -> None:
        self.clauses: Counter[str] = Counter()
        self.alternatives: Counter[tuple[str, str]] = Counter()


@contextmanager
def record() -> Iterator[Record]:
    """What fired inside the block (on top of whatever the test plugin records around it)."""
    out = Record()
    with recording(reset=False) as rec:
        clauses, alternatives = rec.clauses.copy(), rec.alternatives.copy()
        yield out
        out.clauses = rec.clauses - clauses
        out.alternatives = rec.alternatives - alternatives
