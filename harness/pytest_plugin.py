"""Our pytest plugin: `@pytest.mark.clause(...)` ids are checked against spec/ at collection.

An unknown clause id in a marker is a collection error, so a test can never claim to assert a
clause the catalogue does not have.
"""

from __future__ import annotations

import pytest

from spec import default_catalogue


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "clause(*ids): the rulebook clause ids this test asserts")


def declared_clauses(item: pytest.Item) -> tuple[str, ...]:
    ids: list[str] = []
    for mark in item.iter_markers(name="clause"):
        ids.extend(mark.args)
    return tuple(sorted(set(ids)))


def pytest_collection_modifyitems(session: pytest.Session, config: pytest.Config,
                                  items: list[pytest.Item]) -> None:
    catalogue = default_catalogue()
    bad = sorted({(item.nodeid, cid) for item in items for cid in declared_clauses(item)
                  if cid not in catalogue})
    if bad:
        lines = "\n".join(f"  {nodeid}: unknown clause id {cid!r}" for nodeid, cid in bad)
        raise pytest.UsageError(f"clause markers name ids that spec/ lacks:\n{lines}")
