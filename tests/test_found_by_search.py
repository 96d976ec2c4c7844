"""Search in the pipeline: `search --exhaustive` is perft; the report's "Found by search" section
(a witness row with its file and pictures, a not-found row with what was explored); the matrix's
"decided" counting a committed witness; verify's search stage (a node budget, only for what has no
committed witness, found witnesses into the report folder, never into fixtures/)."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from harness.cli import cli as main
from harness.coverage import ROOT, compute
from harness.report import ReportInputs, build_report
from spec import default_catalogue

WITNESSES = ROOT / "fixtures" / "duel" / "witnesses"


def _decide_witness() -> tuple[Path, str]:
    """A committed Duel --decide witness (the smallest) and its matrix row label."""
    files = [p for p in WITNESSES.glob("decide-*.toml") if not p.name.endswith(".default.toml")]
    path = min(files, key=lambda p: (len(p.read_text()), p.name))
    text = path.read_text()
    interp, alt = re.search(r'interpretations = \{ "([^"]+)" = "([^"]+)" \}', text).groups()   # type: ignore[union-attr]
    return path, f"{interp}={alt}"


def _row(label: str, overrides: dict, decided: int) -> dict:
    return {"label": label, "overrides": overrides, "games": 2, "broken": {}, "messages": {}, "stalled": 0,
            "decided": decided, "scores": [], "policy": "uniform", "players": None}


def _report(tmp_path: Path, searched: dict | None = None, matrix: list[dict] | None = None) -> str:
    witness, _ = _decide_witness()
    folder = tmp_path / "fixtures" / "duel" / "witnesses"
    folder.mkdir(parents=True)
    twin = witness.with_name(witness.name.replace(".toml", ".default.toml"))
    for p in (witness, twin) if twin.is_file() else (witness,):    # a twin only without [[readings]]
        shutil.copy(p, folder / p.name)
    catalogue = default_catalogue()
    inputs = ReportInputs(catalogue, compute(catalogue, {}, {}, {}), {}, matrix or [_row("defaults", {}, 0)], 2,
                          {}, {"games": 0, "failures": 0}, 0, "ci", 0, fixtures=tmp_path / "fixtures",
                          searched=searched or {})
    return (build_report(inputs, tmp_path / "r") / "index.html").read_text()


def _section(html: str) -> str:
    start = html.index('id="search"')
    return html[start:html.index("</table>", start)]


@pytest.mark.output
def test_the_report_shows_a_witness_and_a_not_found_row(tmp_path: Path) -> None:
    witness, label = _decide_witness()
    missing = "clause duel.tiling.wait"
    html = _report(tmp_path, {"duel": {"found": {}, "missing": [missing],
                                       "explored": "1,234 nodes, 99 distinct positions, deepest round 2"}})
    nav = html[html.index('<nav class="toc"'):html.index("</nav>")]
    assert 'href="#search"' in nav, "the contents link to the section"
    section = _section(html)
    row = re.search(rf'<tr id="search-decide-{re.escape(label)}">(.*?)</tr>', section, re.S)
    assert row, f"a row for decide {label}"
    assert witness.name in row[1], "the witness file is linked"
    assert f"boards/{witness.stem}/index.html" in row[1], "its pictures are linked"
    row = re.search(rf'<tr id="search-{re.escape(missing.replace(" ", "-"))}">(.*?)</tr>', section, re.S)
    assert row and "not found within budget" in row[1] and "1,234 nodes" in row[1], "not found, and what was explored"


@pytest.mark.output
def test_the_matrix_counts_a_committed_witness_as_deciding(tmp_path: Path) -> None:
    witness, label = _decide_witness()
    interp, alt = label.split("=")
    html = _report(tmp_path, matrix=[_row("defaults", {}, 0), _row(label, {interp: alt}, 0),
                                     _row("duel.score.start=zero", {"duel.score.start": "zero"}, 3)])
    grid = html[html.index('id="matrix-grid"'):html.index("</table>", html.index('id="matrix-grid"'))]
    row = re.search(rf'<td class="mono lbl">{re.escape(label)}</td>(.*?)</tr>', grid, re.S)
    assert row and "decided by a witness" in row[1] and witness.name in row[1], row and row[1]
    if label != "duel.score.start=zero":
        other = re.search(r'<td class="mono lbl">duel.score.start=zero</td><td class="num ">3</td>', grid)
        assert other, "a row that decided in play shows its count"


def test_search_exhaustive_is_perft() -> None:
    runner = CliRunner()
    ours = runner.invoke(main, ["search", "--game", "duel", "--exhaustive", "--depth", "2"])
    perft = runner.invoke(main, ["perft", "--game", "duel", "--depth", "2"])
    assert ours.exit_code == perft.exit_code == 0, ours.output
    verdict = [line for line in perft.output.splitlines() if line.startswith("holds in all")]
    assert verdict and verdict[0] in ours.output, ours.output
    table = [line for line in perft.output.splitlines() if re.match(r"\W+\d+\W+[\d,]+\W+[\d,]+\W+[\d,]+", line)]
    assert table and all(line in ours.output for line in table), "the same counts per depth"


def test_search_exhaustive_with_chance_branches_on_chance() -> None:
    runner = CliRunner()
    plain = runner.invoke(main, ["search", "--game", "duel", "--exhaustive", "--depth", "1", "--json", "-"])
    chance = runner.invoke(main, ["search", "--game", "duel", "--exhaustive", "--depth", "1", "--chance",
                                  "--json", "-"])
    import json
    a, b = (json.loads(r.output[r.output.index("{"):]) for r in (plain, chance))
    assert a != b, "--chance reaches the explorer"


@pytest.mark.output
def test_verify_search_stage_spends_a_node_budget_on_what_has_no_witness(tmp_path: Path) -> None:
    from harness.verify import PROFILES, search_stage

    assert all(isinstance(p["search_nodes"], int) for p in PROFILES.values())
    assert PROFILES["ci"]["search_nodes"] < PROFILES["dev"]["search_nodes"] <= PROFILES["deep"]["search_nodes"]
    # Every Duel question has a committed witness: a copy of the fixtures without one leaves the
    # stage something to search (duel.prep.rare-empty, which its node budget does not reach).
    import shutil

    root = tmp_path / "root"
    witnesses = root / "fixtures" / "duel" / "witnesses"
    shutil.copytree(ROOT / "fixtures" / "duel" / "witnesses", witnesses)
    (witnesses / "clause-duel.prep.rare-empty.toml").unlink()
    before = sorted(p.name for p in witnesses.iterdir())
    first = search_stage("duel", root, nodes=400, seed=0, out=tmp_path / "a")
    again = search_stage("duel", root, nodes=400, seed=0, out=tmp_path / "b", jobs=2)
    assert sorted(p.name for p in witnesses.iterdir()) == before, "verify never writes into fixtures/"
    assert first["nodes"] <= 400 and first["nodes"] > 0, first["explored"]
    assert (sorted(first["found"]), first["missing"]) == (sorted(again["found"]), again["missing"]), \
        "same seed, same answer, whatever the jobs"
    assert first["nodes"] == again["nodes"]
    committed, _ = _decide_witness()
    asked = set(first["missing"]) | set(first["found"])
    _, label = _decide_witness()
    assert f"decide {label}" not in asked, "a goal with a committed witness is not searched again"
    assert asked, "something had no witness and was searched"
    for files in first["found"].values():
        for f in files:
            assert (tmp_path / "a" / f).is_file() or Path(f).is_file(), f
    assert "nodes" in first["explored"]


@pytest.mark.output
def test_verify_searches_with_its_jobs(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """verify's search stage spreads each game's search over verify's --jobs."""
    import io

    from rich.console import Console

    import harness.pytest_run as pytest_run
    import harness.scenarios as scenarios
    import harness.verify as verify

    seen: list[tuple[str, int]] = []

    def searching(game: str, root: Path, nodes: int, seed: int, out: Path, jobs: int = 1) -> dict:
        seen.append((game, jobs))
        raise KeyboardInterrupt                  # stop verify here: the later stages are not this test's
    monkeypatch.setattr(verify, "search_stage", searching)
    monkeypatch.setattr(verify, "warm_up", lambda: None)
    passing = ROOT / "fixtures" / "duel" / "rulebook" / "plate-draw-pays-two.toml"
    monkeypatch.setattr(scenarios, "scenario_files", lambda folders: iter([passing]))
    monkeypatch.setattr(pytest_run, "run_pytest", lambda args, **kwargs: pytest_run.PytestRun(
        returncode=0, closing="9 passed"))
    status = verify.verify("ci", tmp_path / "report", jobs=3, console=Console(file=io.StringIO()))
    assert status == verify.INTERRUPTED and seen == [("duel", 3)]


@pytest.mark.output
def test_verify_search_stage_writes_what_it_finds_into_the_report_folder(tmp_path: Path, monkeypatch) -> None:
    import harness.found_by_search as found_by_search
    from harness.scenarios import load_scenario, run_scenario
    from harness.verify import search_stage
    from properties.search.goals import ClauseGoal

    goal = ClauseGoal("duel.prep.bag-restock")           # reached within a few thousand nodes from set-up
    monkeypatch.setattr(found_by_search, "unanswered", lambda game, root: [goal])
    result = search_stage("duel", ROOT, nodes=3000, seed=0, out=tmp_path / "w")
    assert result["missing"] == [] and list(result["found"]) == [goal.key], result["explored"]
    for f in result["found"][goal.key]:
        path = Path(f)
        assert path.parent == tmp_path / "w" / "duel", "into the report's folder, not fixtures/"
        assert run_scenario(load_scenario(path)).passed, f"the witness {path.name} replays"


def test_the_scenarios_stage_runs_every_committed_witness() -> None:
    from harness.scenarios import scenario_files

    run = set(scenario_files([ROOT / "fixtures"]))
    committed = {p for p in (ROOT / "fixtures").glob("*/witnesses/*.toml")}
    assert committed and committed <= run, sorted(p.name for p in committed - run)


def test_a_question_shown_unreachable_is_answered_by_its_reason(tmp_path: Path, monkeypatch) -> None:
    """A goal in the game's `SearchHooks.unreachable` is never searched: `search` says "shown
    unreachable" with the reason (and exits 0 when that answers everything asked), verify's search
    stage leaves it out, the report's row shows the reason instead of "not found within budget"."""
    import attrs

    import harness.found_by_search as found_by_search
    from properties.duel import predicates
    from tests.cli_helpers import run_cli

    key, why = "clause duel.prep.rare-empty", "planted for this test (tests/test_found_by_search.py)"
    monkeypatch.setattr(predicates, "SEARCH", attrs.evolve(predicates.SEARCH, unreachable={key: why}))
    result = run_cli("search", "--game", "duel", "--clause", "duel.prep.rare-empty", "--nodes", "50",
                     "--out", str(tmp_path / "w"))
    assert result.returncode == 0, result.stderr
    assert f"shown unreachable: {key}: {why}" in result.stdout, result.stdout
    assert "not found within budget" not in result.stdout and "explored 0 nodes" in result.stdout, result.stdout
    assert key not in {g.key for g in found_by_search.unanswered("duel", ROOT)}, "verify does not search for it"
    section = _section(_report(tmp_path, {"duel": {"found": {}, "missing": [], "explored": "x"}}))
    row = re.search(rf'<tr id="search-{re.escape(key.replace(" ", "-"))}">(.*?)</tr>', section, re.S)
    assert row and "shown unreachable" in row[1] and why in row[1], row and row[1]
    assert "1 shown unreachable" in section
