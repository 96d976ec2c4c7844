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


# --- scenario files are collected as tests (test id = scenario id) ---------------------------

class ScenarioFailure(Exception):
    pass


class ScenarioItem(pytest.Item):
    def __init__(self, *, scenario, **kwargs) -> None:
        super().__init__(**kwargs)
        self.scenario = scenario
        for cid in scenario.clauses:
            self.add_marker(pytest.mark.clause(cid))

    def runtest(self) -> None:
        from harness.scenarios import run_scenario

        result = run_scenario(self.scenario)
        if not result.passed:
            raise ScenarioFailure("\n".join(result.diffs))

    def repr_failure(self, excinfo, style=None):  # type: ignore[override]
        if isinstance(excinfo.value, ScenarioFailure):
            return f"scenario {self.scenario.id} ({self.scenario.file}):\n{excinfo.value}"
        return super().repr_failure(excinfo)

    def reportinfo(self):  # type: ignore[override]
        return self.path, 0, f"scenario {self.scenario.id}"


class ScenarioFile(pytest.File):
    def collect(self):
        from harness.scenarios import load_scenario

        scenario = load_scenario(self.path)
        yield ScenarioItem.from_parent(self, name=scenario.id, scenario=scenario)


def pytest_collect_file(file_path, parent):  # type: ignore[no-untyped-def]
    if file_path.suffix == ".toml" and "fixtures" in file_path.parts:
        return ScenarioFile.from_parent(parent, path=file_path)
    return None
