"""A test renamed or removed since the tracking record was written is never selected against a mutant
(it would end the mutant's run with pytest's 'not found', exit 4, counted as an error)."""

from __future__ import annotations

import json
from pathlib import Path

from harness.mutation.analysis import plan
from harness.mutation.selection import missing_tests, stale_tracking_note
from spec import default_catalogue

ROOT = Path(__file__).resolve().parents[1]
CLAUSE = "duel.score.horizontal"

MODULE = '''
import pytest
from helpers import test_imported as test_reexported

@pytest.mark.parametrize("n", [1, 2])
def test_kept(n):
    pass

class TestPlain:
    def test_method(self):
        pass

TestMachine = object()          # e.g. a Hypothesis state machine's TestCase

class TestInherits(Base):
    pass

if True:
    def test_defined_in_a_block():
        pass
'''


def test_tests_that_are_gone_are_told_from_those_that_exist(tmp_path: Path) -> None:
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "test_m.py").write_text(MODULE)
    (tmp_path / "tests" / "broken.py").write_text("def test_x(:\n")
    (tmp_path / "fixtures").mkdir()
    (tmp_path / "fixtures" / "s.toml").write_text('id = "scenario-now"\n')
    (tmp_path / "fixtures" / "no-id.toml").write_text('clauses = []\n')
    present = ["tests/test_m.py::test_kept[1]", "tests/test_m.py::test_kept[a::b]",
               "tests/test_m.py::TestPlain::test_method",
               "tests/test_m.py::TestMachine::runTest", "tests/test_m.py::TestInherits::test_from_base",
               "tests/test_m.py::test_reexported", "tests/test_m.py::test_defined_in_a_block",
               "tests/broken.py::test_anything", "fixtures/s.toml::scenario-now", "fixtures/no-id.toml::no-id"]
    gone = ["tests/test_m.py::test_renamed[1]", "tests/test_m.py::TestPlain::test_renamed",
            "tests/test_m.py::TestGone::test_method", "tests/test_removed.py::test_x",
            "fixtures/s.toml::scenario-before", "fixtures/removed.toml::x"]
    assert missing_tests(tmp_path, present + gone) == gone


def _tracking(path: Path, nodeids: list[str]) -> Path:
    tests = {n: {"outcome": "passed", "duration": 0.01, "declared": [CLAUSE], "fired": {CLAUSE: 1}} for n in nodeids}
    path.write_text(json.dumps({"tests": tests}))
    return path


def test_the_plan_selects_only_tests_that_still_exist_and_the_command_says_which_are_stale(tmp_path: Path) -> None:
    real = "tests/test_model_setup.py::test_setup_lays_out_the_table"
    renamed = "tests/test_model_setup.py::test_setup_lays_out_the_table_old_name"
    removed = "tests/test_file_removed_since.py::test_anything"
    tracking = _tracking(tmp_path / "tests.json", [real, renamed, removed])
    chosen = plan(ROOT, default_catalogue(), tracking)[CLAUSE]
    assert chosen.tests == (real,) and [st.tests for st in chosen.stages] == [(real,)]
    note = stale_tracking_note(ROOT, tracking)
    assert note is not None and note.startswith(f"2 test(s) in {tracking} no longer exist and are not selected")
    assert removed in note and renamed in note
    assert stale_tracking_note(ROOT, _tracking(tmp_path / "fresh.json", [real])) is None

