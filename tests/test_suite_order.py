"""The suite's order under pytest-xdist (tests/conftest.py, issue 13): the costliest files first, so
work stealing does not leave one worker alone with a long file at the end; a serial run (mutation
analysis runs its stages cheapest first) keeps pytest's order."""

from __future__ import annotations

import types
from pathlib import Path

import pytest

from tests import conftest

ROOT = Path(__file__).resolve().parents[1]


def _items(*nodeids: str) -> list[pytest.Item]:
    return [types.SimpleNamespace(nodeid=n) for n in nodeids]  # type: ignore[misc]


ORDER = ("tests/test_layout.py::test_a", "fixtures/duel/x.toml::x", "tests/test_mutation.py::test_m1",
         "tests/test_cluster.py::test_c[1]", "tests/test_layout.py::test_b", "tests/test_mutation.py::test_m2")


def test_an_xdist_worker_runs_the_costly_files_first_each_file_in_its_own_order() -> None:
    items = _items(*ORDER)
    conftest.pytest_collection_modifyitems(types.SimpleNamespace(workerinput={}), items)  # type: ignore[arg-type]
    assert [i.nodeid for i in items] == [
        "tests/test_cluster.py::test_c[1]", "tests/test_mutation.py::test_m1", "tests/test_mutation.py::test_m2",
        "tests/test_layout.py::test_a", "fixtures/duel/x.toml::x", "tests/test_layout.py::test_b"]


def test_a_serial_run_keeps_pytests_order() -> None:
    items = _items(*ORDER)
    conftest.pytest_collection_modifyitems(types.SimpleNamespace(), items)  # type: ignore[arg-type]
    assert [i.nodeid for i in items] == list(ORDER)


def test_every_costly_file_exists() -> None:
    assert [f for f in conftest.COSTLY_FIRST if not (ROOT / f).is_file()] == []
