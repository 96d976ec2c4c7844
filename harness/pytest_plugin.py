"""Our pytest plugin (registered by the project, on whenever pytest runs here):

- `@pytest.mark.clause("id", "id@2", ...)` declares the clauses a test asserts (optionally pinned to
  the clause revision it was written against); unknown ids are a collection error;
- scenario files are collected as tests, declaring their scenario's clauses: under fixtures/, or
  named on the command line (a file, or scenario-looking files in a folder), wherever they are;
- per test it records which clauses fired at run time (the model's recorder), the declared clauses
  and the outcome, and writes them as JSON (`--clause-json`, default .azul-rules/tests.json) for the
  coverage report.

Under pytest-xdist (`-n N`) each worker records its own tests and sends each test's clause record
to the controller with the test's teardown report (`report.user_properties`, taken off again before
JUnit XML sees it), and the files it collected with its closing output (`workeroutput`); only the
controller writes the JSON, with the same content as a serial run.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from harness.tracking_record import merge_into_record
from model.clauses import RECORDER
from properties.registry import DEFAULT_GAME, game_of_clause
from spec import default_catalogue

if TYPE_CHECKING:                   # pytest's own names for these, not exported by `pytest`
    from _pytest._code.code import TerminalRepr, TracebackStyle

DEFAULT_JSON = Path(".azul-rules") / "tests.json"

# Start-up (issue 13): on its first import Hypothesis loads every installed "hypothesis" entry point;
# trio's imports all of trio, about 0.5 CPU s in every pytest process (each xdist worker, each pytest a
# test starts). No test here uses trio or HypoFuzz's provider, so a pytest run skips them (its child
# processes too), unless the user set the variable or Hypothesis is already imported: a `hypothesis
# fuzz` run, which needs HypoFuzz's plugin.
if "hypothesis" not in sys.modules:
    os.environ.setdefault("HYPOTHESIS_NO_PLUGINS", "1")


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("azul-rules")
    group.addoption("--clause-json", default=os.environ.get("AZUL_CLAUSE_JSON", str(DEFAULT_JSON)),
                    help="where to write per-test clause tracking (JSON); '' to disable")
    group.addoption("--memory-limit", default=None, metavar="SIZE",
                    help="memory cap (RLIMIT_DATA) of the test session, e.g. 4GiB (default $AZUL_RULES_MEMORY_LIMIT "
                         "or 4GiB; 0 = off): a runaway fails with MemoryError instead of eating the machine")


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "clause(*ids): the rulebook clause ids this test asserts")
    config.addinivalue_line("markers", "clock_bound: the test's work is cut by a clock, so what it fires "
                            "depends on the machine's speed; mutation analysis never picks it for a "
                            "clause it only fired")
    # Watchdogs (docs/design.md): memory here; time per test and per session by pytest-timeout
    # (`timeout` and `session_timeout` in pyproject.toml); scenario files load in runtest, not at
    # collection, so model code never runs outside a timed test.
    from properties.watchdog import limit_memory, memory_limit_setting

    try:
        limit_memory(memory_limit_setting(config.getoption("--memory-limit")))
    except ValueError as exc:
        raise pytest.UsageError(str(exc)) from None


def split_pin(declared: str) -> tuple[str, int | None]:
    cid, _, rev = declared.partition("@")
    return cid, int(rev) if rev.isdigit() else None


def declared_clauses(item: pytest.Item) -> tuple[str, ...]:
    ids: list[str] = []
    for mark in item.iter_markers(name="clause"):
        ids.extend(mark.args)
    return tuple(sorted(set(ids)))


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(session: pytest.Session, config: pytest.Config,
                                  items: list[pytest.Item]) -> None:
    # Every test collected from each file (before -k/-m deselect): a test of such a file that is not
    # among them was renamed or removed, and its old record must not be selected any more.
    _COLLECTED["ids"] = {item.nodeid for item in items}
    _COLLECTED["files"] = {item.nodeid.split("::", 1)[0] for item in items}
    bad = []
    for item in items:
        for declared in declared_clauses(item):
            cid, rev = split_pin(declared)
            game = game_of_clause(cid)                  # each game's ids are checked against its catalogue
            catalogue = default_catalogue(game.name if game else DEFAULT_GAME)
            if cid not in catalogue:
                bad.append((item.nodeid, f"unknown clause id {cid!r}"))
            elif rev is not None and rev > catalogue.clause(cid).revision:
                bad.append((item.nodeid, f"{cid} has no revision {rev} (spec/ holds {catalogue.clause(cid).revision})"))
    if bad and is_xdist_worker(config):
        # A usage error on an xdist worker reaches the user as a worker crash without its message:
        # there, each test with such a marker fails at setup, saying why.
        by_id = {item.nodeid: item for item in items}
        for nodeid, msg in bad:
            by_id[nodeid].stash[_BAD_MARKER] = by_id[nodeid].stash.get(_BAD_MARKER, ()) + (msg,)
    elif bad:
        lines = "\n".join(f"  {nodeid}: {msg}" for nodeid, msg in sorted(set(bad)))
        raise pytest.UsageError(f"clause markers that spec/ cannot honour:\n{lines}")


_BAD_MARKER = pytest.StashKey[tuple[str, ...]]()


def test_timeout(item: pytest.Item) -> float | None:
    """The item's pytest-timeout budget in seconds (marker, --timeout, env or ini), or None."""
    try:
        from pytest_timeout import _get_item_settings

        return _get_item_settings(item).timeout or None
    except (ImportError, AttributeError, ValueError):
        return None


def pytest_runtest_setup(item: pytest.Item) -> None:
    # Game code guarded by a watchdog ends the test at its budget even inside Hypothesis, which
    # otherwise takes pytest-timeout's failure as a bug to shrink and replays for minutes.
    from properties.watchdog import set_test_deadline

    bad = item.stash.get(_BAD_MARKER, ())
    if bad:
        pytest.fail("clause marker that spec/ cannot honour: " + "; ".join(bad), pytrace=False)
    set_test_deadline(test_timeout(item))


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_call(item: pytest.Item) -> Iterator[None]:
    was = RECORDER.enabled
    RECORDER.reset()
    RECORDER.enabled = True
    try:
        yield
    finally:
        RECORDER.enabled = was
        item.stash[_FIRED] = dict(RECORDER.clauses)


_FIRED = pytest.StashKey[dict]()
_COLLECTED: dict[str, set[str]] = {}


# The user property that carries one test's clause record from an xdist worker to the controller.
RECORD_PROPERTY = "azul-rules-clause-record"


def is_xdist_worker(config: pytest.Config) -> bool:
    return hasattr(config, "workerinput")


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    # On the controller, first of all plugins: the record a worker attached is taken off before JUnit
    # XML writes the test's user properties (it is ours, not a property of the test). A worker's own
    # reports keep it: xdist sends them on after this hook.
    carried = [] if _CONFIG_RESULTS.get("worker") else \
        [value for name, value in report.user_properties if name == RECORD_PROPERTY]
    if carried:
        report.user_properties = [(n, v) for n, v in report.user_properties if n != RECORD_PROPERTY]
    results = _CONFIG_RESULTS.get("results")
    if results is None:
        return
    entry = results.setdefault(report.nodeid, {"outcome": "passed"})
    for record in carried:
        entry.update(record)
    if report.when == "call":
        entry["duration"] = round(report.duration, 4)      # mutation analysis runs fast tests first
    if report.failed:
        entry["outcome"] = "failed"
    elif report.skipped and report.when in ("setup", "call"):
        entry["outcome"] = "skipped"


_CONFIG_RESULTS: dict[str, Any] = {}         # "results": node id -> entry; "worker": an xdist worker?


def pytest_sessionstart(session: pytest.Session) -> None:
    _CONFIG_RESULTS["results"] = {}
    _CONFIG_RESULTS["worker"] = is_xdist_worker(session.config)


@pytest.hookimpl(trylast=True)
def pytest_runtest_teardown(item: pytest.Item) -> None:
    results = _CONFIG_RESULTS.setdefault("results", {})
    entry = results.setdefault(item.nodeid, {"outcome": "passed"})
    record: dict[str, object] = {"declared": list(declared_clauses(item)), "fired": item.stash.get(_FIRED, {})}
    if item.get_closest_marker("clock_bound") is not None:
        record["clock_bound"] = True
    if isinstance(item, ScenarioItem):
        record["scenario"] = {"id": item.scenario_id, "file": str(item.path)}
    entry.update(record)
    if is_xdist_worker(item.config):
        item.user_properties.append((RECORD_PROPERTY, record))     # travels with the teardown report


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node: Any, error: object | None) -> None:
    """xdist controller: a worker has finished; what it collected prunes the record like a serial run."""
    collected = getattr(node, "workeroutput", {}).get(RECORD_PROPERTY)
    if collected:
        _COLLECTED.setdefault("ids", set()).update(collected["ids"])
        _COLLECTED.setdefault("files", set()).update(collected["files"])


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    if is_xdist_worker(session.config):      # the controller writes the record, from all workers' reports
        # pytest-xdist sets `workeroutput` on a worker's config without declaring it
        session.config.workeroutput[RECORD_PROPERTY] = {  # type: ignore[attr-defined]
            key: sorted(_COLLECTED.get(key, set())) for key in ("ids", "files")}
        return
    path = session.config.getoption("--clause-json")
    results = _CONFIG_RESULTS.get("results")
    if not path or results is None or not results:
        return
    # A partial run updates the record of the tests it ran and keeps the others (mutation analysis
    # selects tests from this record), dropping tests whose file is gone and those of a file it
    # collected that it no longer holds (renamed); under a lock, merged with what is on disk then.
    root = Path(str(session.config.rootpath))
    ids, files = _COLLECTED.get("ids", set()), _COLLECTED.get("files", set())

    def keep(nodeid: str) -> bool:
        file = nodeid.split("::", 1)[0]
        return (root / file).exists() and (file not in files or nodeid in ids)

    try:
        merge_into_record(Path(path), results, keep)
    except (OSError, TimeoutError) as exc:       # the tests' verdicts stand; only the record is not updated
        sys.stderr.write(f"azul-rules: clause tracking record {path} not updated: {exc}\n")


# --- scenario files are collected as tests (test id = scenario id) ---------------------------

class ScenarioFailure(Exception):
    pass


class ScenarioItem(pytest.Item):
    """One scenario file. Collection only peeks at its id and clauses; loading it (which builds
    the position, i.e. runs model code) happens in `runtest`, under the per-test timeout, so a model
    that hangs fails this test instead of hanging collection."""

    def __init__(self, *, scenario_id: str, clauses: tuple[str, ...], **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.scenario_id = scenario_id
        self.scenario: Any = None            # any game's scenario, loaded by `runtest`
        for cid in clauses:
            self.add_marker(pytest.mark.clause(cid))

    def runtest(self) -> None:
        from harness.scenarios import load_scenario, run_scenario

        self.scenario = load_scenario(self.path)
        result = run_scenario(self.scenario)
        if not result.passed:
            raise ScenarioFailure("\n".join(result.diffs))

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException],
                     style: TracebackStyle | None = None) -> str | TerminalRepr:
        from harness.scenarios import ScenarioError

        if isinstance(excinfo.value, ScenarioFailure):
            return f"scenario {self.scenario_id} ({self.path}):\n{excinfo.value}"
        if isinstance(excinfo.value, ScenarioError):
            return f"scenario file {self.path} does not load:\n{excinfo.value}"
        return super().repr_failure(excinfo)

    def reportinfo(self) -> tuple[Path, int, str]:
        return self.path, 0, f"scenario {self.scenario_id}"


def peek_scenario(path: Path) -> tuple[str, tuple[str, ...]]:
    """A scenario file's id and declared clauses, read without loading it (no model code runs).
    Unreadable files get their file name as id; unknown clause ids are left to `load_scenario`,
    which reports them, one line naming file and field, when the test runs."""
    import tomllib

    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        return path.stem, ()
    sid = data.get("id")
    clauses = data.get("clauses")
    from harness.scenarios import scenario_game
    catalogue = default_catalogue(scenario_game(path))      # the file's game (its `game` key)
    known = tuple(c for c in clauses if isinstance(c, str) and split_pin(c)[0] in catalogue) \
        if isinstance(clauses, list) else ()                # pins ("id@N") kept: coverage finds suspects
    return (sid if isinstance(sid, str) and sid else path.stem), known


class ScenarioFile(pytest.File):
    def collect(self) -> Iterator[ScenarioItem]:
        scenario_id, clauses = peek_scenario(self.path)
        yield ScenarioItem.from_parent(self, name=scenario_id, scenario_id=scenario_id, clauses=clauses)


def _named_on_command_line(config: pytest.Config) -> tuple[set[Path], list[Path]]:
    """The files and the folders given as pytest's arguments (resolved)."""
    files: set[Path] = set()
    folders: list[Path] = []
    for arg in config.args:
        path = (config.invocation_params.dir / arg.split("::")[0]).resolve()
        if path.is_dir():
            folders.append(path)
        else:
            files.add(path)
    return files, folders


def pytest_collect_file(file_path: Path, parent: pytest.Collector) -> ScenarioFile | None:
    """Scenario files become tests: any *.toml under a `fixtures` folder, a *.toml named on the
    command line, and scenario-looking *.toml (top-level `id` and a given/when/then part) in a
    folder named on the command line, wherever it is (not pyproject.toml or spec chapters)."""
    if file_path.suffix != ".toml":
        return None
    from harness.scenarios import is_scenario_file

    files, folders = _named_on_command_line(parent.config)
    path = file_path.resolve()
    if path in files or (any(path.is_relative_to(f) for f in folders) and is_scenario_file(path)):
        return ScenarioFile.from_parent(parent, path=file_path)
    return None
