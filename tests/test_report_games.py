"""Both games are first-class in the report: the title, the contents and the summary at the top name
every game, each game's sections are linked, and coverage.md (the CI job summary) covers both and
renders its failures as a list. Score charts chart a policy that scores; "never decided" is no error."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from markdown_it import MarkdownIt

from harness.coverage import compute
from harness.report import ReportInputs, build_report
from properties.matrix import columns
from spec import default_catalogue

pytestmark = pytest.mark.output          # the output tier: `make test` leaves it out (pyproject.toml)

DUEL_KNOWN = "duel.acquire.moon.top-tile-only"
TESTS = {"tests/x.py::test_top": {"outcome": "passed", "declared": [DUEL_KNOWN], "fired": {DUEL_KNOWN: 2}}}
FAILING = {**TESTS, "tests/x.py::test_broken": {"outcome": "failed", "declared": [], "fired": {}}}
STAGES_OK = [{"name": n, "ok": True, "detail": "", "failures": []} for n in ("spec lint", "tests and properties")]
STAGES_FAILED = [STAGES_OK[0], {"name": "tests and properties", "ok": False, "detail": "2 failed",
                                "failures": ["tests/x.py::test_broken", "tests/y.py::test_other"]},
                 {"name": "azul: coverage", "ok": False, "detail": "lint", "failures": []}]
CLASSIC_VISITS = {("offer", "tiling"): 41, ("tiling", "offer"): 37, ("tiling", "over"): 4}


def _row(label: str, overrides: dict, decided: int, scores: list[int], policy: str = "uniform") -> dict:
    return {"label": label, "overrides": overrides, "games": 2, "broken": {}, "messages": {}, "stalled": 0,
            "decided": decided, "scores": scores, "policy": policy, "players": None}


def _classic() -> dict:
    catalogue = default_catalogue("azul")
    return {"name": "azul", "title": catalogue.title, "catalogue": catalogue,
            "clauses": compute(catalogue, {}, {"azul.offer.end": 3}, {}),
            "matrix": [_row("defaults", {}, 0, [3, 0]), _row("azul.prep.empty-round=stall",
                                                             {"azul.prep.empty-round": "stall"}, 0, [0, 1])],
            "matrix_columns": list(columns("azul")), "edge_visits": CLASSIC_VISITS,
            "campaign": {"games": 12, "failures": 0, "players": [2, 3, 4], "policy": "uniform"},
            "thresholds": {"asserted": 0.0, "guarded": 0.0}}


def _inputs(tests: dict, stages: list, rows: list[dict] | None = None) -> ReportInputs:
    catalogue = default_catalogue()
    matrix = rows or [_row("defaults", {}, 0, [0, 0, 0, 0]),
                      _row("duel.score.start=zero", {"duel.score.start": "zero"}, 0, [0, 0])]
    return ReportInputs(catalogue, compute(catalogue, tests, {DUEL_KNOWN: 5}, {}), tests, matrix, 2,
                        {("setup", "acquisition"): 3}, {"games": 2, "failures": 0}, 2, "ci", 0, stages=stages,
                        thresholds={"asserted": 0.0, "guarded": 0.0}, policy_scores={"greedy": [40, 50, 45, 31]},
                        other_games=[_classic()])


def test_the_top_of_the_report_names_both_games_and_links_their_sections(tmp_path: Path) -> None:
    html = (build_report(_inputs(TESTS, STAGES_OK), tmp_path / "r") / "index.html").read_text()
    duel, classic = default_catalogue().title, default_catalogue("azul").title
    title = re.search(r"<title>(.*?)</title>", html, re.DOTALL).group(1)     # type: ignore[union-attr]
    assert duel in title and classic in title, title
    nav = html[html.index('<nav class="toc"'):html.index("</nav>")]
    for game in ("duel", "azul"):
        assert f"--game {game}" in nav, f"the contents name {game}"
    links = re.findall(r'href="#([^"]+)"', nav)
    for anchor in ("game-azul", "game-azul-phases", "game-azul-matrix", "game-azul-clauses", "summary", "phases"):
        assert anchor in links, f"the contents link to {anchor}: {links}"
    for anchor in links:
        assert f'id="{anchor}"' in html, f"the contents link to #{anchor}, which is nowhere"
    summary_top = html.index('id="games"')
    assert summary_top < html.index('id="summary"') < html.index('id="game-azul"'), "one summary for all games, first"
    glance = html[summary_top:html.index('id="game-duel"')]
    assert 'id="glance-duel"' in glance and 'id="glance-azul"' in glance and classic in glance
    assert re.search(r"12 \(uniform\)", glance), "the classic campaign's games are in the summary"


def test_the_classic_phase_diagram_shows_its_visits(tmp_path: Path) -> None:
    html = (build_report(_inputs(TESTS, STAGES_OK), tmp_path / "r") / "index.html").read_text()
    section = html[html.index('id="game-azul-phases"'):html.index('id="game-azul-clauses"')]
    for (a, b), n in CLASSIC_VISITS.items():
        assert re.search(rf"<td>{a}</td><td>{b}</td>.*?<td class=\"num \">{n}</td>", section, re.DOTALL), f"{a} -> {b}: {n}"
    assert "visits: 41" in section or "<pre>" in section, "the diagram's edge label carries the count"


def _markdown(md: str) -> list:
    return MarkdownIt("commonmark").enable("table").parse(md)


def test_coverage_md_covers_both_games_and_lists_a_failed_run(tmp_path: Path) -> None:
    md = (build_report(_inputs(FAILING, STAGES_FAILED), tmp_path / "r") / "coverage.md").read_text()
    duel, classic = default_catalogue().title, default_catalogue("azul").title
    assert duel in md.splitlines()[0] and classic in md.splitlines()[0], "the heading names both games"
    tokens = _markdown(md)
    items = ["".join(t.content for t in tokens[i + 1:i + 3] if t.type == "inline")
             for i, t in enumerate(tokens) if t.type == "list_item_open"]
    assert any(i.startswith("stage **tests and properties** failed") for i in items), items
    assert "`tests/x.py::test_broken`" in items and "`tests/y.py::test_other`" in items, "each failure is an item"
    assert any(i.startswith("stage **azul: coverage** failed") for i in items), items
    assert any(i.startswith("failing tests:") for i in items), items
    headings = [tokens[i + 1].content for i, t in enumerate(tokens) if t.type == "heading_open"]
    assert f"{duel} (--game duel)" in [h.replace("`", "") for h in headings], headings
    assert f"{classic} (--game azul)" in [h.replace("`", "") for h in headings], headings
    tables = sum(t.type == "table_open" for t in tokens)
    assert tables >= 5, f"the summary, and each game's chapters and matrix render as tables ({tables})"
    assert "azul.offer.end" in md and DUEL_KNOWN in md


def test_coverage_md_of_a_passing_run(tmp_path: Path) -> None:
    md = (build_report(_inputs(TESTS, STAGES_OK), tmp_path / "r") / "coverage.md").read_text()
    tokens = _markdown(md)
    assert "**PASS**" in md.split("| game |")[0]
    assert not any(t.type == "bullet_list_open" for t in tokens), "no failure list on a pass"
    rows = [t.content for t in tokens if t.type == "inline" and t.content in (default_catalogue().title,
                                                                               default_catalogue("azul").title)]
    assert len(rows) >= 2, "the games table has a row per game"


def test_score_charts_chart_greedy_games_only(tmp_path: Path) -> None:
    html = (build_report(_inputs(TESTS, STAGES_OK), tmp_path / "r") / "index.html").read_text()
    rows = html[html.index('id="chart-rows"'):html.index('id="chart-decided"')]
    assert "<svg" not in rows and "uniform policy" in rows and "6 final scores, mean 0.00" in rows
    policy = html[html.index('id="chart-policy"'):html.index('id="chart-rows"')]
    assert "<svg" in policy and "greedy" in policy
    greedy = [_row("defaults", {}, 0, [30, 41], "greedy"), _row("duel.score.start=zero", {"duel.score.start": "zero"},
                                                                 2, [20, 25], "greedy")]
    html = (build_report(_inputs(TESTS, STAGES_OK, greedy), tmp_path / "r2") / "index.html").read_text()
    rows = html[html.index('id="chart-rows"'):html.index('id="chart-decided"')]
    assert "<svg" in rows and "greedy policy" in rows


def test_the_glance_puts_each_failure_to_its_game(tmp_path: Path) -> None:
    tests = {**TESTS, "tests/azul/x.py::test_offer": {"outcome": "failed", "declared": ["azul.offer.end"], "fired": {}}}
    stages = STAGES_FAILED + [{"name": "coverage", "ok": True, "detail": "", "failures": []}]
    html = (build_report(_inputs(tests, stages), tmp_path / "r") / "index.html").read_text()
    duel = html[html.index('id="glance-duel"'):html.index('id="glance-azul"')]
    classic = html[html.index('id="glance-azul"'):html.index("</table>", html.index('id="glance-azul"'))]
    assert ">ok<" in duel and "tests and properties" not in duel, "a shared stage's classic failure is not Duel's"
    assert "1 test(s) or scenario(s) of its clauses" in classic and "azul: coverage" in classic
    assert "tests and properties" in html[html.index('id="verdict"'):html.index('id="contents"')], "the banner has it"
