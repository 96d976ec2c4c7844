"""`azul-rules check`: the changed clauses read from git, the tests tied to them without a tracking
record, and the whole loop on a copy of the project with the Starting player tile's penalty edited."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from harness.changes import changed_clauses, changes, declared_tests, selected_tests
from harness.check_commands import example_says
from harness.coverage import ROOT
from harness.mutation.clauses import id_resolver
from spec import default_catalogue

CLAUSE = "duel.score.start-player-tile"
EDITED = ("model/duel/tiling.py", "spec/azul_duel/07-scoring.toml")
COPIED = ("model", "spec", "properties", "harness", "fixtures", "tests", "pyproject.toml", ".gitignore")


def _git(repo: Path, *args: str) -> None:
    subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@t", *args], cwd=repo, check=True,
                   capture_output=True)


def _project_copy(tmp_path: Path, folders: tuple[str, ...] = COPIED) -> Path:
    repo = tmp_path / "repo"
    repo.mkdir()
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc", "mutants.json")
    for name in folders:
        src = ROOT / name
        if src.is_dir():
            shutil.copytree(src, repo / name, ignore=ignore)
        else:
            shutil.copyfile(src, repo / name)
    for rule in EDITED:                 # the rule as committed, whatever the working tree holds now
        committed = subprocess.run(["git", "show", f"HEAD:{rule}"], cwd=ROOT, capture_output=True, text=True)
        if committed.returncode == 0 and (repo / rule).exists():
            (repo / rule).write_text(committed.stdout)
    _git(repo, "init", "-q")
    _git(repo, "add", "-A")
    _git(repo, "commit", "-q", "-m", "base")
    return repo


def _edit_penalty(repo: Path) -> None:
    """The issue's edit: the Starting player tile costs 3 (spec revision 2 and the model)."""
    spec = repo / "spec/azul_duel/07-scoring.toml"
    text = spec.read_text()
    old = 'id = "duel.score.start-player-tile"\nrevision = 1\n'
    assert old in text
    spec.write_text(text.replace(old, 'id = "duel.score.start-player-tile"\nrevision = 2\n')
                    .replace("board loses 2 points.", "board loses 3 points."))
    model = repo / "model/duel/tiling.py"
    code = model.read_text()
    assert 'lose(g, pl, 2, who, events, "duel.score.start-player-tile"' in code
    model.write_text(code.replace('lose(g, pl, 2, who, events, "duel.score.start-player-tile"',
                                  'lose(g, pl, 3, who, events, "duel.score.start-player-tile"'))


def test_the_edited_clause_is_found_in_spec_and_model(tmp_path: Path) -> None:
    repo = _project_copy(tmp_path, ("model", "spec", ".gitignore"))
    _edit_penalty(repo)
    change = changes(repo)
    assert set(change.files) == {"model/duel/tiling.py", "spec/azul_duel/07-scoring.toml"}
    clauses, loose = changed_clauses(repo, change)
    assert [c.clause for c in clauses] == [CLAUSE]
    where = clauses[0].where
    assert "spec/ revision 1 -> 2" in where and any(w.startswith("model/duel/tiling.py:") for w in where)
    assert loose == []
    # a change outside every clause's extent is named as such, tied to no clause
    model = repo / "model/duel/tiling.py"
    model.write_text(model.read_text() + "\n\nUNUSED = 1\n")
    _, loose = changed_clauses(repo, changes(repo))
    assert loose and loose[0].startswith("model/duel/tiling.py:")


def test_new_removed_and_binary_files_count_as_wholly_changed(tmp_path: Path) -> None:
    repo = _project_copy(tmp_path, ("spec",))
    (repo / "picture.bin").write_bytes(b"\x00\x01")
    _git(repo, "add", "-A")
    _git(repo, "commit", "-q", "-m", "binary")
    (repo / "picture.bin").write_bytes(b"\x00\x02")
    (repo / "spec/azul_duel/components.toml").unlink()
    (repo / "spec/new.toml").write_text("x = 1\n")
    _git(repo, "add", "spec/new.toml")
    (repo / "untracked.txt").write_text("y")
    files = changes(repo).files
    assert {f: files[f] for f in ("picture.bin", "spec/azul_duel/components.toml", "spec/new.toml",
                                  "untracked.txt")} == dict.fromkeys(
        ("picture.bin", "spec/azul_duel/components.toml", "spec/new.toml", "untracked.txt"))
    assert len(files) == 4


def test_an_unknown_revision_is_one_line(tmp_path: Path) -> None:
    import pytest

    from harness.errors import UserError

    repo = _project_copy(tmp_path, ("spec",))
    with pytest.raises(UserError, match="no-such-rev"):
        changes(repo, "no-such-rev")
    with pytest.raises(UserError, match="not a git revision"):
        changes(repo, "no-such-rev")


def test_tests_are_tied_to_a_clause_without_a_tracking_record() -> None:
    declared = declared_tests(ROOT, id_resolver(default_catalogue("duel")))
    assert "tests/test_model_tiling.py::test_broken_penalties_and_starting_player_tile" in declared[CLAUSE]
    # this file names the clause as data, in no clause mark: it does not bear on the rule
    assert not any(t.startswith("tests/test_check.py") for t in declared[CLAUSE])
    from harness.changes import Changes, ClauseChange
    chosen, source = selected_tests(ROOT, [ClauseChange(CLAUSE, "duel", ())], Changes("HEAD", {}), None)
    assert "tests/test_model_tiling.py::test_broken_penalties_and_starting_player_tile" in chosen
    assert "no tracking record" in source
    # changed code no clause covers: the test modules importing it
    from harness.changes import untied_code
    touched = Changes("HEAD", {"properties/duel/oracle.py": frozenset({5})})
    untied = untied_code(touched, [])
    assert untied == ["properties/duel/oracle.py"]
    chosen, source = selected_tests(ROOT, [], touched, None, untied)
    assert "tests/test_oracle.py" in chosen and "tests/test_model_tiling.py" not in chosen
    assert "importing the changed code" in source


def test_an_example_says_what_it_expects_and_what_the_model_gives_now() -> None:
    diffs = ("then.events: no event containing 'P1 penalty -2: Starting player tile' (in order) among:\n"
             "    P1 penalty -6: 3 broken tiles [duel.score.broken-penalty]\n"
             "    P1 penalty -3: Starting player tile [duel.score.start-player-tile]",
             "then.p1.score: expected 11, got 10")
    assert example_says(diffs) == ["'P1 penalty -2: Starting player tile' (the model now: "
                                   "'P1 penalty -3: Starting player tile')", "p1.score = 11 (the model now: 10)"]


def test_an_example_names_where_the_primary_document_states_its_rule() -> None:
    from harness.check_commands import example_source

    assert example_source([f"{CLAUSE}@1", "duel.score.horizontal@1"], [CLAUSE], "duel") == \
        '"Scoring" (rulebook scoring/s12)'
    # classic Azul's examples (fixtures/azul/guide/) come from its primary document, the guide;
    # one section's sentences are named together
    where = example_source(["azul.end.bonus-row", "azul.end.winner"], ["azul.end.bonus-row"], "azul")
    assert where.startswith('"End of the game and bonuses" (azul-guide end-of-the-game-and-bonuses/s')
    assert where.count("End of the game and bonuses") == 1


@pytest.mark.process
def test_check_answers_the_starting_player_tile_edit(tmp_path: Path) -> None:
    """The issue's edit on a copy of the project with no tracking record: the clause is named, the
    rulebook's example and the oracle disagree, the declared test fails; --last-failed re-runs
    those alone."""
    repo = _project_copy(tmp_path)
    _edit_penalty(repo)
    env = {**os.environ, "PYTHONPATH": str(repo), "AZUL_JUNIT_DIR": ""}
    env.pop("AZUL_CLAUSE_JSON", None)
    run = subprocess.run([sys.executable, "-m", "harness.cli", "check"], cwd=repo, env=env,
                         capture_output=True, text=True, timeout=600)
    out = run.stdout
    assert run.returncode == 1, out + run.stderr
    assert f"{CLAUSE}: spec/ revision 1 -> 2; model/duel/tiling.py:" in out
    assert "FAILED fixtures/duel/rulebook/scoring-example-special-tile.toml" in out
    assert ("the rulebook's example in \"Scoring\" (rulebook scoring/s12) says: 'P1 penalty -2: Starting player "
            "tile' (the model now: 'P1 penalty -3: Starting player tile')") in out
    assert "FAILED duel: scoring-oracle" in out
    assert "FAILED tests/test_model_tiling.py::test_broken_penalties_and_starting_player_tile" in out
    assert "no tracking record" in out
    last = json.loads((repo / ".azul-rules/check-last.json").read_text())
    assert "fixtures/duel/rulebook/scoring-example-special-tile.toml" in last["scenarios"]
    again = subprocess.run([sys.executable, "-m", "harness.cli", "check", "--last-failed", "-x"], cwd=repo, env=env,
                           capture_output=True, text=True, timeout=600)
    assert again.returncode == 1
    assert f"FAILED scenarios: 0/1 passed ({len(last['scenarios']) - 1} not run: -x)" in again.stdout
    assert "not run (-x: stopped at the first failure)" in again.stdout
