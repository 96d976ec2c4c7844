"""The coverage report: honest figures, atomic writing, and a real browser rendering it."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from harness.coverage import compute, lint, summary
from harness.report import ReportInputs, build_report
from spec import default_catalogue

pytestmark = pytest.mark.output          # the output tier: `make test` leaves it out (pyproject.toml)

KNOWN = "duel.acquire.moon.top-tile-only"


GUARD = {KNOWN: {"status": "guarded", "killed": 2, "total": 2, "equivalent": 0, "survivors": [], "tests": []},
         "duel.score.horizontal": {"status": "unguarded", "killed": 1, "total": 2, "equivalent": 0, "tests": ["t"],
                                   "survivors": [{"id": "model/duel/scoring.py:39:core/AddNot#2", "status": "survived",
                                                  "diff": "--- a/model/duel/scoring.py\n+++ b/model/duel/scoring.py\n-    if h > 1:\n+    if not h > 1:",
                                                  "key": "abc", "killer": None}]}}


def _inputs(tests: dict) -> ReportInputs:
    catalogue = default_catalogue()
    rows = compute(catalogue, tests, {KNOWN: 5}, GUARD)
    matrix = [{"label": "defaults", "overrides": {}, "games": 1, "broken": {}, "messages": {}, "stalled": 0,
               "decided": 0}]
    return ReportInputs(catalogue, rows, tests, matrix, 1, {("setup", "acquisition"): 3}, {"games": 1}, 1, "ci", 0)


FAKE_TESTS = {
    "tests/x.py::test_top": {"outcome": "passed", "declared": [KNOWN], "fired": {KNOWN: 2}},
    "tests/x.py::test_broken": {"outcome": "failed", "declared": ["duel.score.floor"], "fired": {}},
    "tests/x.py::test_promise": {"outcome": "passed", "declared": ["duel.score.vertical"], "fired": {}},
}


def test_figures_are_honest_for_an_unasserted_clause() -> None:
    rows = {r.id: r for r in compute(default_catalogue(), FAKE_TESTS, {})}
    assert rows[KNOWN].asserted and rows[KNOWN].tests == ["tests/x.py::test_top"]
    assert not rows["duel.score.floor"].asserted, "a failing test does not assert its clause"
    assert "-asserted" in rows["duel.score.floor"].missing
    assert rows["duel.score.floor"].failing_tests == ["tests/x.py::test_broken"]
    assert "-asserted" in rows["duel.tablet.diagonals"].missing
    assert summary(list(rows.values()))["total"]["asserted"] == 1


def test_a_declaration_counts_only_when_the_test_fired_the_clause() -> None:
    rows = {r.id: r for r in compute(default_catalogue(), FAKE_TESTS, {})}
    assert not rows["duel.score.vertical"].asserted, "declared, passed, but the clause never fired"
    assert rows["duel.score.vertical"].declared_unfired == ["tests/x.py::test_promise"]


def test_guarded_is_measured_by_the_mutation_verdict() -> None:
    rows = {r.id: r for r in compute(default_catalogue(), FAKE_TESTS, {}, GUARD)}
    assert rows[KNOWN].guarded and "-guarded" not in rows[KNOWN].missing
    assert not rows["duel.score.horizontal"].guarded and "-guarded" in rows["duel.score.horizontal"].missing
    assert not rows["duel.tablet.diagonals"].guarded, "no verdict is not guarded"
    total = summary(list(rows.values()))["total"]
    assert (total["guarded"], total["mutants_killed"], total["mutants_total"]) == (1, 3, 4)


def test_report_files_and_unasserted_status(tmp_path: Path) -> None:
    out = build_report(_inputs(FAKE_TESTS), tmp_path / "report")
    data = json.loads((out / "coverage.json").read_text())
    by_id = {c["id"]: c for c in data["clauses"]}
    assert by_id["duel.tablet.diagonals"]["missing"] == ["-exercised", "-asserted", "-guarded"]
    assert by_id[KNOWN]["missing"] == []
    html = (out / "index.html").read_text()
    assert KNOWN in html and "-asserted" in html and "<svg" in html
    assert 'id="survivors-duel.score.horizontal"' in html and "+    if not h &gt; 1:" in html, "a survivor shows its diff"
    assert "duel.tablet.diagonals" in (out / "coverage.md").read_text()


def test_a_failed_build_leaves_the_old_report(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    out = build_report(_inputs(FAKE_TESTS), tmp_path / "report")
    before = (out / "index.html").read_text()
    import harness.report as report

    def boom(*a, **k):
        raise RuntimeError("template exploded")
    monkeypatch.setattr(report, "summary", boom)
    with pytest.raises(RuntimeError):
        build_report(_inputs(FAKE_TESTS), out)
    assert (out / "index.html").read_text() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["report"], "no temporary folder left behind"


def test_lint_flags_a_test_pinned_to_an_older_revision(monkeypatch: pytest.MonkeyPatch) -> None:
    catalogue = default_catalogue()
    tests = {"tests/x.py::test_old": {"outcome": "passed", "declared": [f"{KNOWN}@0"]}}
    assert any("pinned to" in p for p in lint(catalogue, tests))
    assert lint(catalogue, {"t": {"declared": [f"{KNOWN}@1"]}}) == []


def _chromium() -> str | None:
    return shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")


def test_report_renders_in_headless_chromium(tmp_path: Path) -> None:
    browser = _chromium()
    if browser is None:
        if os.environ.get("CI"):
            pytest.fail("CI must install Debian's chromium for the browser test")
        pytest.skip("chromium is not installed (apt-get install chromium)")
    out = build_report(_inputs(FAKE_TESTS), tmp_path / "report")
    run = subprocess.run(
        [browser, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         f"--user-data-dir={tmp_path / 'profile'}", "--dump-dom", (out / "index.html").as_uri()],
        capture_output=True, text=True, timeout=120)
    dom = run.stdout
    assert "Rule coverage: Azul Duel" in dom and 'id="summary"' in dom
    assert f'id="{KNOWN}"' in dom and "clauses" in dom
