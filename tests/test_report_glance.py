"""The report reads at a glance: a verdict banner naming what failed, red cards below threshold,
gaps first, a filterable catalogue, the matrix as a heatmap, charts, sub-step diagram, board pictures,
and a failed run's failure visible in the first 1280x800 of a real browser."""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from harness import browser
from harness.coverage import compute
from harness.duel.board_svg import board_svg
from harness.report import ReportInputs, build_report
from model.duel import new_game
from properties.simulate import play_checked
from spec import default_catalogue

pytestmark = pytest.mark.output          # the output tier: `make test` leaves it out (pyproject.toml)

ROOT = Path(__file__).resolve().parents[1]
KNOWN = "duel.acquire.moon.top-tile-only"
TESTS = {"tests/x.py::test_top": {"outcome": "passed", "declared": [KNOWN], "fired": {KNOWN: 2}}}
FAILING = {**TESTS, "tests/x.py::test_broken": {"outcome": "failed", "declared": [], "fired": {}},
           "fixtures/duel/rulebook/r.toml::r": {"outcome": "failed", "declared": [], "fired": {},
                                                "scenario": {"id": "rulebook.r", "file": "fixtures/duel/rulebook/r.toml"}}}
STAGES_OK = [{"name": n, "ok": True, "detail": "", "failures": []} for n in ("spec lint", "scenarios", "tests and properties")]
STAGES_FAILED = STAGES_OK[:2] + [{"name": "tests and properties", "ok": False, "detail": "1 failed",
                                  "failures": ["tests/x.py::test_broken"]}]


@pytest.fixture(autouse=True, scope="module")
def _charts_drawn_once_per_input() -> Iterator[None]:
    """The report's charts are pure drawings of their data (harness/plots.py), and matplotlib is most
    of a report build's CPU: this module's reports draw each distinct chart once (issue 13)."""
    import harness.plots as plots

    with pytest.MonkeyPatch.context() as mp:
        for name in ("score_distributions", "decided_counts"):
            draw, drawn = getattr(plots, name), {}

            def once(data, title, draw=draw, drawn=drawn):  # type: ignore[no-untyped-def]
                key = (repr([(k, v if isinstance(v, int) else tuple(v)) for k, v in data.items()]), title)  # in order
                if key not in drawn:
                    drawn[key] = draw(data, title)
                return drawn[key]
            mp.setattr(plots, name, once)
        yield


def _matrix(broken: bool, tmp: Path) -> list[dict]:
    rows = [{"label": "defaults", "overrides": {}, "games": 2, "broken": {}, "messages": {}, "stalled": 0,
             "decided": 0, "scores": [30, 40, 35, 20]}]
    if broken:
        cx = tmp / "cx.toml"
        cx.write_text("not a scenario")
        rows.append({"label": "duel.score.start=zero", "overrides": {"duel.score.start": "zero"}, "games": 2,
                     "broken": {"score-floor": str(cx)}, "messages": {"score-floor": "score -1"}, "stalled": 0,
                     "decided": 3, "scores": [10, 12]})
    return rows


def _inputs(tests: dict, stages: list, tmp: Path, broken: bool = False, thresholds: dict | None = None,
            fixtures: Path | None = None) -> ReportInputs:
    catalogue = default_catalogue()
    rows = compute(catalogue, tests, {KNOWN: 5}, {})
    return ReportInputs(catalogue, rows, tests, _matrix(broken, tmp), 2, {("setup", "acquisition"): 3},
                        {"games": 2}, 2, "ci", 1, stages=stages,
                        thresholds=thresholds if thresholds is not None else {"asserted": 0.0, "guarded": 0.0},
                        policy_scores={"greedy": [40, 50, 45]},
                        substep_visits={("acquisition/turn", "acquisition/line"): 9}, fixtures=fixtures)


def _banner(html: str) -> str:
    return html[html.index('id="verdict"'):html.index('<nav class="toc"')]


def test_a_failed_run_names_its_stage_tests_and_scenarios(tmp_path: Path) -> None:
    html = (build_report(_inputs(FAILING, STAGES_FAILED, tmp_path), tmp_path / "r") / "index.html").read_text()
    banner = _banner(html)
    assert "banner fail" in banner and "FAILED" in banner and "PASS" not in banner
    assert "stage tests and properties failed" in banner
    assert "tests/x.py::test_broken" in banner and "fixtures/duel/rulebook/r.toml" in banner
    assert html.index('id="verdict"') < html.index('id="summary"'), "the verdict comes first"
    data = json.loads((tmp_path / "r" / "coverage.json").read_text())
    assert data["verdict"]["ok"] is False


def test_a_passing_run_is_green(tmp_path: Path) -> None:
    html = (build_report(_inputs(TESTS, STAGES_OK, tmp_path), tmp_path / "r") / "index.html").read_text()
    assert "banner pass" in _banner(html) and "FAILED" not in _banner(html)


def test_cards_turn_red_below_threshold(tmp_path: Path) -> None:
    html = (build_report(_inputs(TESTS, STAGES_OK, tmp_path, thresholds={"asserted": 1.0, "guarded": 0.0}),
                         tmp_path / "r") / "index.html").read_text()
    assert re.search(r'class="card red" id="card-asserted"', html)
    assert re.search(r'class="card green" id="card-guarded"', html)
    assert "banner fail" in html and "below the threshold" in _banner(html), "a missed threshold is a failed run"


def test_gaps_come_first_and_matrix_failures_are_red(tmp_path: Path) -> None:
    html = (build_report(_inputs(TESTS, STAGES_OK, tmp_path, broken=True), tmp_path / "r") / "index.html").read_text()
    assert html.index('id="gaps-first"') < html.index('id="clauses"')
    gaps = html[html.index('id="gaps-first"'):html.index('id="clauses"')]
    assert "duel.tablet.diagonals" in gaps and "score-floor" in gaps and "counterexample" in gaps
    assert 'class="cell failc"' in html and 'href="counterexamples/cx.toml"' in html
    assert 'id="f-chapter"' in html and 'class="clause"' in html and "<details class=\"text\">" in html
    for chart in ("chart-policy", "chart-decided"):            # chart-rows: greedy rows only (test_report_games)
        block = html[html.index(f'id="{chart}"'):]
        assert block.index("<svg") < 200, f"{chart} is an inline SVG"
    assert "acquisition/line" in html or "line\n" in html or "pattern line" in html
    assert "http://" not in html.replace("http://www.w3.org", "").replace("http://purl.org", "") \
        .replace("http://creativecommons.org", "").replace("http://matplotlib.org", ""), "no CDN: works offline"


def test_scenarios_link_to_their_pictures(tmp_path: Path) -> None:
    fixtures = tmp_path / "fx"
    (fixtures / "rulebook").mkdir(parents=True)
    src = next((ROOT / "fixtures" / "duel" / "rulebook").glob("*.toml"))
    (fixtures / "rulebook" / src.name).write_text(src.read_text())
    out = build_report(_inputs(TESTS, STAGES_OK, tmp_path, fixtures=fixtures), tmp_path / "r")
    page = out / "boards" / src.stem / "index.html"
    assert page.exists() and (out / "boards" / src.stem / "00-given.svg").exists()
    assert f'href="boards/{src.stem}/index.html"' in (out / "index.html").read_text()


def test_board_picture_is_a_pure_drawing_of_the_position() -> None:
    game = new_game(seed=3)
    before = game.state.copy()
    svg = board_svg(game.state, game.rules.tables)
    assert game.state == before, "drawing never changes the position"
    assert svg.startswith("<svg") and svg.count('class="small-factory"') == 4
    assert 'id="player-1"' in svg and 'id="player-2"' in svg and "Large Factory" in svg
    assert svg.count('class="slot"') == 18 and f"score {game.state.players[0].score}" in svg
    game.state.players[0].dome_tile[0] = 2
    game.state.players[0].dome_space[0] = 2
    assert board_svg(game.state, game.rules.tables).count("red tile") == svg.count("red tile") + 1


def test_show_draws_svg_step_by_step(tmp_path: Path) -> None:
    from harness.cli import cli as main
    src = ROOT / "fixtures" / "duel" / "rulebook" / "bonus-chips-complete-lines.toml"
    run = CliRunner().invoke(main, ["show", str(src), "--steps", "--svg", str(tmp_path / "steps")])
    assert run.exit_code == 0, run.output
    assert sorted(p.name for p in (tmp_path / "steps").iterdir()) == ["00-given.svg", "01-step.svg", "02-step.svg"]
    run = CliRunner().invoke(main, ["show", str(src), "--svg", str(tmp_path / "one.svg")])
    assert run.exit_code == 0 and (tmp_path / "one.svg").read_text().startswith("<svg")


def test_simulation_records_substep_transitions() -> None:
    report = play_checked(1, policy="greedy")
    assert report.substep_hits[("setup/opening", "setup/place")] >= 1
    assert any(a == "acquisition/turn" for a, _ in report.substep_hits)


def _need_browser() -> None:
    if browser.chromium() is None:
        if os.environ.get("CI"):
            pytest.fail("CI must install Debian's chromium for the browser test")
        pytest.skip("chromium is not installed (apt-get install chromium)")


def test_a_failed_report_shows_the_failure_above_the_fold(tmp_path: Path) -> None:
    _need_browser()
    out = build_report(_inputs(FAILING, STAGES_FAILED, tmp_path, broken=True), tmp_path / "r")
    dom = browser.dump_dom(out / "index.html", 1280, 800)
    m = re.search(r'data-verdict-bottom="(\d+)"', dom)
    assert m, "the page's script ran and measured the banner"
    assert int(m.group(1)) <= 800, f"the verdict ends at {m.group(1)} px, below the first 1280x800 screen"
    assert "FAILED" in dom and "test_broken" in dom
    assert re.search(r'f-count[^>]*>\d+ of \d+ clauses<', dom), "the catalogue filter ran"


def test_png_of_a_position(tmp_path: Path) -> None:
    _need_browser()
    from harness.cli import cli as main
    src = ROOT / "fixtures" / "duel" / "rulebook" / "bonus-chips-complete-lines.toml"
    run = CliRunner().invoke(main, ["show", str(src), "--png", str(tmp_path / "b.png")])
    assert run.exit_code == 0, run.output
    assert (tmp_path / "b.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_plates_in_hand_are_drawn(tmp_path: Path) -> None:
    from harness.duel.pictures import scenario_pictures
    from harness.scenarios import load_scenario
    pictures = scenario_pictures(load_scenario(ROOT / "fixtures/duel/rulebook/plate-draw-pays-two.toml"), tmp_path)
    kept = next(p for p in pictures if "keep" in p.label)
    svg = (tmp_path / kept.file).read_text()
    assert 'class="hand"' in svg and "P09" in svg, "the kept plate is drawn in the player's hand"


def test_markdown_summary_leads_with_the_verdict(tmp_path: Path) -> None:
    md = (build_report(_inputs(FAILING, STAGES_FAILED, tmp_path), tmp_path / "r") / "coverage.md").read_text()
    head = md.split("| chapter |")[0]
    assert "**FAILED**" in head and "tests and properties" in head and "tests/x.py::test_broken" in head
    md = (build_report(_inputs(TESTS, STAGES_OK, tmp_path), tmp_path / "r2") / "coverage.md").read_text()
    assert "**PASS**" in md.split("| chapter |")[0]


def test_board_pages_show_each_steps_score_events(tmp_path: Path) -> None:
    from harness.duel.pictures import pictures_page, scenario_pictures
    from harness.scenarios import load_scenario
    scenario = load_scenario(ROOT / "fixtures/duel/rulebook/bonus-chips-complete-lines.toml")
    pictures = scenario_pictures(scenario, tmp_path)
    page = pictures_page(scenario.id, scenario.description, pictures)
    sections = page.split('<section id="p')[1:]
    assert len(sections) == len(pictures) == 3
    assert "no score events" in sections[1], "a step that scored nothing says so"
    assert "P1 score +1: red to row 4 column 2 [duel.tiling.move-rightmost]" in sections[2]
    assert "scores: P1 5, P2 5" in sections[0] and "scores: P1 6, P2 5" in sections[2], "the scores after each step"
