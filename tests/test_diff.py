"""`azul-rules diff`: every section from two synthetic coverage.json documents, the exit status,
the statistics that keep noise out, and git-revision mode on a throwaway repository."""

from __future__ import annotations

import copy
import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from harness.diff import build_revision, compare, mann_whitney_u, rate_test, render_markdown, render_text, word_diff
from harness.errors import UserError


def clause(cid: str, text: str = "Take every tile of one colour.", revision: int = 1, **status: bool) -> dict[str, Any]:
    flags = {s: status.get(s, True) for s in ("implemented", "exercised", "asserted", "guarded")}
    return {"id": cid, "title": cid.rsplit(".", 1)[-1], "text": text, "revision": revision, **flags}


def document() -> dict[str, Any]:
    rng = random.Random(0)
    return {
        "clauses": [clause("rule.a.one"), clause("rule.a.two"), clause("rule.a.gone")],
        "summary": {"total": {"total": 3, "implemented": 3, "exercised": 3, "asserted": 3, "guarded": 3}},
        "suspects": [],
        "matrix": [{"label": "defaults", "overrides": {}, "broken": {}, "stalled": 0,
                    "scores": [rng.randint(20, 40) for _ in range(80)]},
                   {"label": "point.p=alt", "overrides": {"point.p": "alt"}, "broken": {"tokens": "x.toml"}, "stalled": 0}],
        "defaults_in_play": [{"id": "point.p", "default": "std", "hits": 0}, {"id": "point.q", "default": "std", "hits": 5}],
        "campaign": {"games": 200, "failures": 0, "forced pass": 40, "tie broken by the Starting player tile": 10},
        "policy_scores": {"greedy": [rng.randint(30, 60) for _ in range(400)]},
    }


def changed(base: dict[str, Any]) -> dict[str, Any]:
    head = copy.deepcopy(base)
    head["clauses"] = [clause("rule.a.one", "Take every tile of one colour and the start tile.", revision=2),
                       clause("rule.a.two", asserted=False), clause("rule.a.new")]
    head["suspects"] = [{"kind": "scenario", "where": "fixtures/x.toml:3", "clause": "rule.a.one", "pinned": 1,
                         "revision": 2}]
    head["matrix"][0]["broken"] = {"chips": "y.toml"}
    head["matrix"][1]["broken"] = {}
    head["defaults_in_play"][0]["hits"] = 12
    head["defaults_in_play"][1]["hits"] = 0
    head["campaign"]["forced pass"] = 90
    head["policy_scores"]["greedy"] = [s + 8 for s in base["policy_scores"]["greedy"]]
    return head


def kinds(report: Any, section: str) -> list[tuple[str, str]]:
    return [(f.kind, f.text) for f in report.findings if f.section == section]


def test_identical_documents_move_nothing() -> None:
    base = document()
    report = compare(base, copy.deepcopy(base))
    assert report.findings == [] and report.exit_status() == 0 and report.exit_status("moved") == 0
    assert "nothing moved" in render_text(report)


def test_every_section_of_a_change() -> None:
    report = compare(document(), changed(document()))
    clauses = kinds(report, "clauses")
    assert ("moved", "added rule.a.new (revision 1): new") in clauses
    assert ("worse", "removed rule.a.gone: gone") in clauses
    revised = next(f for f in report.findings if f.text.startswith("revised rule.a.one"))
    assert "revision 1 -> 2" in revised.text and "[-colour.-] {+colour and the start tile.+}" in revised.detail
    assert kinds(report, "suspects") == [("worse", "scenario fixtures/x.toml:3: rule.a.one pinned @1, spec/ holds @2")]
    assert ("worse", "rule.a.two: no longer asserted") in kinds(report, "status")
    assert ("worse", "defaults x chips: pass -> FAIL") in kinds(report, "matrix")
    assert ("better", "point.p=alt x tokens: FAIL -> pass") in kinds(report, "matrix")
    defaults = [t for _, t in kinds(report, "defaults")]
    assert any("point.p=std started deciding" in t for t in defaults)
    assert any("point.q=std stopped deciding" in t for t in defaults)
    campaign = [t for _, t in kinds(report, "campaign")]
    assert any(t.startswith("forced pass: 40 in 200 games -> 90 in 200 games") for t in campaign)
    assert any(t.startswith("campaign scores (greedy policy)") for t in campaign)
    assert report.exit_status() == 1
    md = render_markdown(report)
    for title in ("Clauses added", "Suspect links", "Clause status", "Interpretation-matrix", "Defaults", "campaign"):
        assert title in md
    assert ":x: worse" in md


def test_a_move_alone_is_not_worse() -> None:
    base = document()
    head = copy.deepcopy(base)
    head["policy_scores"]["greedy"] = [s + 8 for s in base["policy_scores"]["greedy"]]
    head["defaults_in_play"][0]["hits"] = 3
    report = compare(base, head)
    assert report.findings and not report.worse
    assert report.exit_status() == 0 and report.exit_status("moved") == 1


def test_a_row_that_stalls_more_has_moved_not_got_worse() -> None:
    """Stalls a row's readings allow are outcomes (classic azul.prep.empty-round=stall); one they do
    not allow fails a cell, which is worse on its own."""
    base = document()
    head = copy.deepcopy(base)
    head["matrix"][1]["stalled"] = 3
    report = compare(base, head)
    assert kinds(report, "matrix") == [("moved", "point.p=alt: stalled games 0 -> 3")]
    assert report.exit_status() == 0
    assert kinds(compare(head, base), "matrix") == [("moved", "point.p=alt: stalled games 3 -> 0")]


def test_noise_is_not_reported_as_change() -> None:
    base = document()
    head = copy.deepcopy(base)
    head["campaign"]["forced pass"] = 43                              # 40 -> 43 in 200 games: noise
    rng = random.Random(1)
    head["policy_scores"]["greedy"] = [rng.randint(30, 60) for _ in range(400)]   # same distribution, new draw
    report = compare(base, head)
    assert report.findings == [], render_text(report)
    assert any("within noise" in n for n in report.notes)


def test_more_failed_games_is_worse() -> None:
    base = document()
    head = copy.deepcopy(base)
    head["campaign"]["failures"] = 1
    assert ("worse", "failures: 0 in 200 games -> 1 in 200 games (p=1)") in kinds(compare(base, head), "campaign")


def test_statistics() -> None:
    same = list(range(50))
    assert mann_whitney_u(same, same)[1] == pytest.approx(1.0, abs=0.02)
    assert mann_whitney_u(same, [x + 25 for x in same])[1] < 1e-4
    assert mann_whitney_u([], same)[1] == 1.0
    assert rate_test(40, 200, 40, 200) == pytest.approx(1.0)
    assert rate_test(40, 200, 90, 200) < 1e-4
    assert rate_test(40, 200, 43, 200) > 0.5


def test_word_diff() -> None:
    assert word_diff("take all tiles", "take the tiles") == "take [-all-] {+the+} tiles"


def _git(repo: Path, *args: str) -> None:
    subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True)


@pytest.fixture
def throwaway_repo(tmp_path: Path) -> Path:
    repo = tmp_path / "repo"
    repo.mkdir()
    _git(repo, "init", "-q")
    _git(repo, "config", "user.email", "t@example.com")
    _git(repo, "config", "user.name", "t")
    base = document()
    (repo / "cov.json").write_text(json.dumps(base))
    _git(repo, "add", "cov.json")
    _git(repo, "commit", "-q", "-m", "base")
    (repo / "cov.json").write_text(json.dumps(changed(base)))
    _git(repo, "commit", "-q", "-am", "head")
    return repo


COPY = [sys.executable, "-c", "import pathlib, shutil, sys; pathlib.Path(sys.argv[1]).mkdir(); "
        "shutil.copy('cov.json', sys.argv[1] + '/coverage.json')", "{out}"]


def _worktrees(repo: Path) -> int:
    out = subprocess.run(["git", "-C", str(repo), "worktree", "list"], capture_output=True, text=True).stdout
    return len(out.strip().splitlines())


def test_git_revisions_are_built_in_temporary_worktrees(throwaway_repo: Path) -> None:
    base = build_revision(throwaway_repo, "HEAD~1", COPY, seconds=60)
    head = build_revision(throwaway_repo, "HEAD", COPY, seconds=60)
    assert compare(base, head).worse
    assert _worktrees(throwaway_repo) == 1                         # only the main working tree is left


@pytest.mark.process
def test_a_build_out_of_time_or_interrupted_leaves_no_worktree(throwaway_repo: Path) -> None:
    slow = [sys.executable, "-c", "import time; time.sleep(60)"]
    with pytest.raises(UserError, match="took more than 1 s"):
        build_revision(throwaway_repo, "HEAD", slow, seconds=1)
    assert _worktrees(throwaway_repo) == 1
    with pytest.raises(UserError, match="wrote no coverage.json"):
        build_revision(throwaway_repo, "HEAD", [sys.executable, "-c", "pass"], seconds=30)
    assert _worktrees(throwaway_repo) == 1
    with pytest.raises(UserError, match="unknown-rev"):
        build_revision(throwaway_repo, "unknown-rev", COPY, seconds=30)


def test_the_command_line(tmp_path: Path) -> None:
    base, head = tmp_path / "base.json", tmp_path / "head.json"
    base.write_text(json.dumps(document()))
    head.write_text(json.dumps(changed(document())))
    cli = [sys.executable, "-m", "harness.cli", "diff"]
    same = subprocess.run([*cli, str(base), str(base)], capture_output=True, text=True)
    assert same.returncode == 0 and "verdict: nothing moved" in same.stdout
    worse = subprocess.run([*cli, "--markdown", "--out", str(tmp_path / "d.md"), str(base), str(head)],
                           capture_output=True, text=True)
    assert worse.returncode == 1 and (tmp_path / "d.md").read_text().startswith("## azul-rules diff")
    bad = subprocess.run([*cli, str(base), "no-such-revision-xyz"], capture_output=True, text=True,
                         cwd=tmp_path)
    assert bad.returncode == 2 and "azul-rules:" in bad.stderr


def test_the_default_build_runs_the_revisions_own_cli_with_stored_mutants() -> None:
    from harness.diff import default_build

    command = default_build()
    assert command[-5:] == ["verify", "--profile", "ci", "--out", "{out}"]
    assert "analysis.stale = lambda" in command[2]
    run = subprocess.run([*command[:3], "--version"], capture_output=True, text=True)
    assert run.returncode == 0 and "version" in run.stdout
    rerun = default_build(rerun_mutants=True)
    assert "AZUL_DIFF_RERUN_MUTANTS" in rerun[2] and rerun[-5:] == command[-5:]
    # no time budget decides a result inside a build: the mutation stage has none
    assert 'settings.pop("mutation_seconds", None)' in command[2] and 'settings.pop("mutation_seconds", None)' in rerun[2]


def _red(doc: dict[str, Any], tests: list[str], scenarios: list[str], clause_of: dict[str, str]) -> dict[str, Any]:
    """`doc` as a build whose tests failed: verify skipped its measuring stages."""
    doc["verdict"] = {"ok": False, "tests": tests, "scenarios": scenarios, "below": [],
                      "stages": [{"name": "tests and properties", "ok": False, "detail": f"{len(tests)} failed",
                                  "failures": tests, "ran": True},
                                 {"name": "coverage", "ok": False, "detail": "asserted 66%", "ran": True}],
                      "all_stages": [{"name": "simulation campaign", "ok": True, "ran": False,
                                      "detail": "not run: tests failed"}]}
    for c in doc["clauses"]:
        c["failing_tests"] = [t for t, cid in clause_of.items() if cid == c["id"]]
    return doc


def test_one_cause_one_finding_with_its_consequences_folded() -> None:
    """The issue's shape: one clause revised, its tests and its rulebook example fail, and the rest
    (guard and assertion losses, matrix flips, campaign shifts) follows from that one cause."""
    base = document()
    head = changed(base)
    head["clauses"][0]["guarded"] = False                          # rule.a.one: its own failing tests
    head["clauses"].append(clause("rule.a.gone", guarded=False))   # guarded only by a test that now fails
    head["clauses"][-1]["guard"] = {"status": "survivor", "tests": ["tests/t.py::test_one"]}
    failing = {"tests/t.py::test_one": "rule.a.one", "fixtures/x/rulebook/ex.toml::ex": "rule.a.one"}
    head = _red(head, ["tests/t.py::test_one"], ["fixtures/x/rulebook/ex.toml"], failing)
    report = compare(base, head)
    assert len(report.causes) == 1
    cause = report.causes[0]
    assert cause.text == "rule.a.one revised (revision 1 -> 2): 1 test(s), 1 scenario(s) declaring it fail in HEAD"
    texts = [f.text for f in cause.consequences]
    assert "rule.a.one: no longer guarded" in texts and "rule.a.gone: no longer guarded" in texts
    assert "defaults x chips: pass -> FAIL" in texts and any(t.startswith("forced pass") for t in texts)
    assert "stage coverage: asserted 66%" in texts
    assert "revised rule.a.one: revision 1 -> 2" in texts and any("rule.a.one pinned @1" in t for t in texts)
    assert all(f.text not in texts for f in report.loose), "a consequence is also listed on its own"
    text = render_text(report)
    assert text.index("HEAD build failed") < text.index("Causes: 1") < text.index("Clauses added")
    assert "verdict: WORSE: 1 cause(s)" in text and "  cause: rule.a.one revised" in text
    md = render_markdown(report)
    assert md.count("<details><summary>:x: <b>cause</b>: rule.a.one revised") == 1
    assert report.exit_status() == 1


def test_a_failed_build_is_never_nothing_moved() -> None:
    base = document()
    both = _red(copy.deepcopy(base), ["tests/t.py::test_flaky"], [], {})
    report = compare(both, copy.deepcopy(both))
    assert report.findings == [] and [f.side for f in report.failed] == ["BASE", "HEAD"]
    text = render_text(report)
    assert "nothing moved" not in text
    assert text.index("BASE build failed: stages failed: tests and properties") < text.index("Clauses added")
    assert "(already failing in BASE)" in text and report.exit_status() == 1
    only_base = compare(both, base)
    assert "nothing moved" not in render_text(only_base) and "BASE's build failed" in _verdict_of(only_base)



def _verdict_of(report: Any) -> str:
    from harness.diff import verdict_lines
    return verdict_lines(report)[0]


def _matrix_not_run(doc: dict[str, Any]) -> dict[str, Any]:
    """`doc` red as verify leaves it: the interpretation matrix did not run, so it has no rows."""
    doc = _red(doc, ["tests/t.py::test_one"], [], {"tests/t.py::test_one": "rule.a.one"})
    doc["verdict"]["all_stages"].append({"name": "interpretation matrix", "ok": True, "ran": False,
                                         "detail": "not run: tests failed"})
    doc["matrix"] = []
    return doc


def test_matrix_rows_a_red_side_did_not_run_are_not_run_not_removed() -> None:
    """A red build's matrix did not run (verify skips it): its rows are "not run" on that side, not
    removed (nor new on the other side); a row a green HEAD no longer has is still removed."""
    base = document()
    texts = [f.text for f in compare(base, _matrix_not_run(copy.deepcopy(base))).findings if f.section == "matrix"]
    assert texts == ["defaults: not run in HEAD: tests failed", "point.p=alt: not run in HEAD: tests failed"]
    texts = [f.text for f in compare(_matrix_not_run(copy.deepcopy(base)), base).findings if f.section == "matrix"]
    assert texts == ["defaults: not run in BASE: tests failed", "point.p=alt: not run in BASE: tests failed"]
    fewer = copy.deepcopy(base)
    fewer["matrix"] = fewer["matrix"][:1]
    assert kinds(compare(base, fewer), "matrix") == [("moved", "point.p=alt: row removed")]
