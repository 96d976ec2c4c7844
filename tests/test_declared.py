"""harness.declared: which tests declare a clause, read from the files, one reader for both
`azul-rules check` (harness.changes.declared_tests) and mutation selection
(harness.mutation.selection.declared_index / declared_tests)."""

from __future__ import annotations

from pathlib import Path

from harness.changes import declared_tests as check_declared
from harness.declared import declared_index
from harness.mutation.selection import declared_tests as selection_declared

MODULE = '''import pytest
pytestmark = pytest.mark.clause("duel.m")
def test_first(): pass
def test_second(): pass
'''
TESTS = '''import pytest
SHARED = pytest.mark.clause("duel.shared")          # outside any test: the whole module
def clause(cid): return cid                          # a helper named clause: no declaration
@pytest.mark.clause("duel.a@2", "duel.point")
def test_one(catalogue):
    catalogue.clause("duel.data")                    # a lookup in a test's body: data, no declaration
@pytest.mark.parametrize("x", [pytest.param(1, marks=pytest.mark.clause("duel.param"))])
def test_param(x): clause("duel.data")
@pytest.mark.clause("duel.cls")
class TestGroup:
    @pytest.mark.clause("duel.a")
    def test_inner(self): pass
    def test_plain(self): pass
@pytest.mark.clause(*["duel.star"], *COMPUTED)
def test_star(): pass
'''


def _project(tmp_path: Path) -> Path:
    for folder in ("tests", "fixtures/duel"):
        (tmp_path / folder).mkdir(parents=True)
    (tmp_path / "tests" / "test_m.py").write_text(MODULE)
    (tmp_path / "tests" / "test_x.py").write_text(TESTS)
    (tmp_path / "tests" / "test_mutation.py").write_text('import pytest\n@pytest.mark.clause("duel.a")\ndef test_z(): pass\n')
    (tmp_path / "fixtures" / "duel" / "s.toml").write_text('id = "rulebook.s"\nclauses = ["duel.a@1"]\n')
    return tmp_path


def test_each_mark_counts_for_the_test_holding_it(tmp_path: Path) -> None:
    index = declared_index(_project(tmp_path))
    assert index["duel.m"] == ("tests/test_m.py::test_first", "tests/test_m.py::test_second")
    assert index["duel.a"] == ("tests/test_x.py::test_one", "tests/test_x.py::TestGroup::test_inner",
                               "fixtures/duel/s.toml::rulebook.s")       # revisions dropped, file order
    assert index["duel.param"] == ("tests/test_x.py::test_param",)
    assert index["duel.cls"] == ("tests/test_x.py::TestGroup",)
    assert index["duel.shared"] == ("tests/test_x.py",)
    assert index["duel.star"] == ("tests/test_x.py::test_star",)
    assert "duel.data" not in index                                       # lookups and helpers are data


def test_the_mutation_analysis_own_tests_are_never_selected(tmp_path: Path) -> None:
    index = declared_index(_project(tmp_path))
    assert not any(t.startswith("tests/test_mutation.py") for ids in index.values() for t in ids)


def test_check_resolves_interpretation_points_and_leaves_the_scenarios_to_their_stage(tmp_path: Path) -> None:
    root = _project(tmp_path)
    resolve = {"duel.a": "duel.a", "duel.point": "duel.a", "duel.m": "duel.m"}
    declared = check_declared(root, resolve)
    assert declared == declared_index(root, resolve, scenarios=False)
    assert declared["duel.a"] == ("tests/test_x.py::test_one", "tests/test_x.py::TestGroup::test_inner")
    assert set(declared) == {"duel.a", "duel.m"}                            # ids it does not know: left out


def test_mutation_selection_reads_the_same_index(tmp_path: Path) -> None:
    root = _project(tmp_path)
    assert selection_declared(root, "duel.a") == declared_index(root)["duel.a"]
    assert selection_declared(root, "duel.nothing") == ()
