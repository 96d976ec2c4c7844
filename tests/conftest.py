"""Shared fixtures for the suite."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from spec import SPEC_ROOT

# Under pytest-xdist (`make test`, verify's test stage) the costliest files run first (issue 13):
# work stealing hands each worker a contiguous share of the collection and steals from the end of
# the busier one, so a costly file collected late can leave one worker alone with it at the end of
# the run. Measured CPU per file (user + sys with the file's subprocesses, 2026-12-01, most first);
# the files sharing the session's mutation plans (`untracked_duel_plans`, 2-3 CPU s in each worker
# that builds them) stay together. A serial run (mutation analysis: its stages run cheapest first)
# keeps pytest's order.
COSTLY_FIRST = (
    "tests/test_cluster.py", "tests/test_mutation.py", "tests/test_mutation_selection.py",
    "tests/test_plugin_tracking.py", "tests/test_watchdog.py", "tests/test_properties.py",
    "tests/azul/test_azul_play.py", "tests/test_property_commands.py", "tests/azul/test_azul_stall_row.py",
    "tests/test_invariants_catch.py", "tests/test_spec_loader.py", "tests/test_verify_warm_up.py",
    "tests/test_verify_console.py", "tests/test_scenarios.py", "tests/test_report_glance.py",
)


def costly_first(items: list[pytest.Item]) -> list[pytest.Item]:
    """`items` with those of COSTLY_FIRST's files first, in its order; otherwise pytest's order."""
    rank = {path: i for i, path in enumerate(COSTLY_FIRST)}
    return sorted(items, key=lambda item: rank.get(item.nodeid.split("::", 1)[0], len(rank)))


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if hasattr(config, "workerinput"):                  # an xdist worker (each collects the same order)
        items[:] = costly_first(items)


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


# The committed mutation store is written only by `azul-rules mutate` and verify's mutation stage,
# never by a test: verify runs the suite before its mutation stage reads the store, so a test that
# rewrote it would change what verify judges (a test once did: `mutate --budget` saved the store).
STORE = Path(__file__).resolve().parents[1] / "tests" / "mutants.json"


@pytest.fixture(scope="session", autouse=True)
def the_mutation_store_is_left_as_it_was() -> Iterator[None]:
    before = STORE.read_bytes() if STORE.exists() else None
    yield
    after = STORE.read_bytes() if STORE.exists() else None
    assert after == before, "a test rewrote tests/mutants.json (a test must use a copy of the tree)"
