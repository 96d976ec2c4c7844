"""Build the rule-coverage report (index.html, coverage.md, coverage.json) with jinja2, atomically."""

from __future__ import annotations

import contextlib
import datetime as dt
import json
import shutil
import tempfile
from collections.abc import Mapping
from concurrent.futures import Future, ProcessPoolExecutor
from pathlib import Path
from typing import Any

import attrs
import jinja2

from harness.coverage import ClauseCoverage, summary
from harness.diagram import phase_dot, phase_graph, substep_dot, svg_of
from spec import Catalogue

_ENV = jinja2.Environment(loader=jinja2.PackageLoader("harness", "templates"),
                          autoescape=jinja2.select_autoescape(["html", "j2"]), trim_blocks=True,
                          lstrip_blocks=True, undefined=jinja2.StrictUndefined)


_ENV.tests["contains"] = lambda seq, item: item in seq
_ENV.tests["endswith"] = lambda text, suffix: str(text).endswith(suffix)


@attrs.frozen
class ReportInputs:
    catalogue: Catalogue
    clauses: list[ClauseCoverage]
    tests: Mapping[str, Any]
    matrix: list[dict[str, Any]]
    matrix_games: int
    edge_visits: Mapping[tuple[str, str], int]
    campaign: Mapping[str, Any]
    games: int
    profile: str
    scenario_count: int
    alternative_hits: Mapping[str, int] = attrs.field(factory=dict)   # "point=alternative" -> decisions
    stages: list[dict[str, Any]] = attrs.field(factory=list)          # verify's stages: name, ok, detail, failures
    thresholds: Mapping[str, float] = attrs.field(factory=dict)       # "asserted", "guarded": shares required
    policy_scores: Mapping[str, list[int]] = attrs.field(factory=dict)  # policy -> final scores of its games
    substep_visits: Mapping[tuple[str, str], int] = attrs.field(factory=dict)  # properties.simulate.substep
    fixtures: Path | None = None                                      # scenario folder to draw pictures of
    suspects: list[Any] = attrs.field(factory=list)                   # tests/scenarios pinned to an older revision
    other_games: list[dict[str, Any]] = attrs.field(factory=list)     # verify's sections for the other games
    searched: Mapping[str, Mapping[str, Any]] = attrs.field(factory=dict)  # game -> verify's search stage result


def _verdict(inputs: ReportInputs, totals: Mapping[str, Any]) -> dict[str, Any]:
    """What failed, for the banner: stages, tests, scenarios, thresholds. A report is green only when
    nothing did."""
    failed_tests = sorted(k for k, e in inputs.tests.items() if e.get("outcome") not in ("passed", "skipped")
                          and "scenario" not in e)
    failed_scenarios = sorted(e["scenario"].get("file") or e["scenario"]["id"] for e in inputs.tests.values()
                              if e.get("outcome") not in ("passed", "skipped") and "scenario" in e)
    for st in inputs.stages:
        if st["name"] == "scenarios" and not st["ok"]:
            failed_scenarios = sorted(set(failed_scenarios) | set(st.get("failures", [])))
    below = []
    for key in ("asserted", "guarded"):
        need = float(inputs.thresholds.get(key, 0.0))
        if totals[f"{key}_share"] < need:
            below.append(f"{key} {totals[f'{key}_share']:.0%} is below the threshold {need:.0%}")
    failed_stages = [{**st, "failures": [_short(f) for f in st.get("failures", [])]}
                     for st in inputs.stages if not st["ok"]]
    failed_scenarios = sorted({_short(f) for f in failed_scenarios})
    ok = not failed_stages and not failed_tests and not failed_scenarios and not below and not inputs.suspects
    return {"ok": ok, "stages": failed_stages, "tests": failed_tests, "scenarios": failed_scenarios,
            "below": below, "all_stages": list(inputs.stages)}


def _short(text: str) -> str:
    """A path inside the checkout, relative to it (ids and paths are never cut otherwise)."""
    from harness.coverage import ROOT
    prefix = str(ROOT) + "/"
    return text.replace(prefix, "")


def _pictures(fixtures: Path | None, tmp: Path, extra: list[Path]) -> dict[str, str]:
    """Board pictures, step by step, of every scenario under `fixtures` and of the `extra`
    counterexample files: scenario id (and file name) -> link to its picture page."""
    from harness.scenarios import ScenarioError, scenario_api, scenario_files, scenario_game

    files = list(scenario_files([fixtures])) if fixtures and fixtures.exists() else []
    links: dict[str, str] = {}
    for path in files + [p for p in extra if p.exists()]:
        try:
            api = scenario_api(scenario_game(path), str(path))
        except ScenarioError:
            continue                    # the scenarios stage reports it; the report still builds
        if not hasattr(api, "scenario_pictures"):
            continue                    # a game without pictures: its scenarios are listed, not drawn
        try:
            scenario = api.load_scenario(path)
            folder = tmp / "boards" / path.stem
            pictures = api.scenario_pictures(scenario, folder)
        except (ScenarioError, api.PictureError, OSError):
            continue                    # the scenarios stage reports it; the report still builds
        (folder / "index.html").write_text(api.pictures_page(scenario.id, scenario.description.strip(), pictures))
        link = f"boards/{path.stem}/index.html"
        links[scenario.id] = link
        links[path.name] = link
        try:
            links[str(path.relative_to(fixtures.parent.parent if fixtures else path.parent))] = link
        except ValueError:
            pass
        links[str(path)] = link
    return links


def _gaps(catalogue: Catalogue) -> list[dict[str, Any]]:
    return [{"id": i.id, "clause": i.clause_id, "question": i.question, "reason": i.reason,
             "default": i.default, "alternatives": [attrs.asdict(a) for a in i.alternatives]}
            for i in catalogue.interpretations]


def build_report(inputs: ReportInputs, out: Path) -> Path:
    """Write the report into `out` (replaced whole: a failed build never leaves a half report). The
    scenarios' board pictures are drawn in a process of their own while this one draws the charts
    and diagrams (the report's two biggest costs, neither waiting for the other)."""
    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{out.name}-", dir=out.parent))
    extra = [Path(p) for row in inputs.matrix for p in row["broken"].values()]
    extra += [Path(p) for s in inputs.searched.values() for files in s.get("found", {}).values() for p in files]
    try:
        with _drawing(inputs.fixtures or extra) as drawer:
            pictures = drawer.submit(_pictures, inputs.fixtures, tmp, extra) if drawer else None
            return _build(inputs, out, tmp, pictures)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise


def _drawing(anything: Any) -> Any:
    """A one-process pool for the board pictures (a no-op context when there is nothing to draw)."""
    return ProcessPoolExecutor(1) if anything else contextlib.nullcontext()


def _build(inputs: ReportInputs, out: Path, tmp: Path, pictures: Future[dict[str, str]] | None) -> Path:
    columns = _matrix_columns()
    edges = [{"source": a, "target": b, "guard": d["guard"], "clauses": list(d["clauses"]),
              "visits": int(inputs.edge_visits.get((a, b), 0))} for a, b, d in sorted(phase_graph().edges(data=True))]
    svg = svg_of(phase_dot(inputs.edge_visits))
    substeps_svg = svg_of(substep_dot(inputs.substep_visits, inputs.edge_visits))
    tests_passed = sum(e.get("outcome") == "passed" for e in inputs.tests.values())
    clauses_json = [c.to_json() for c in inputs.clauses]
    defaults_in_play: list[dict[str, Any]] = [          # id, default (text), hits (int)
        {"id": i.id, "default": i.default, "hits": int(inputs.alternative_hits.get(f"{i.id}={i.default}", 0))}
        for i in inputs.catalogue.interpretations]
    totals = summary(inputs.clauses)["total"]
    verdict = _verdict(inputs, totals)
    from harness.plots import decided_counts, score_distributions
    # score charts: games played by a policy that scores (uniform play in the matrix scores next to nothing)
    row_scores = {r["label"]: list(r.get("scores", ())) for r in inputs.matrix
                  if r.get("policy", "uniform") in SCORING_POLICIES}
    unscored = [sc for r in inputs.matrix if r.get("policy", "uniform") not in SCORING_POLICIES
                for sc in r.get("scores", ())]
    plots = {
        "policy": score_distributions({k: v for k, v in inputs.policy_scores.items() if k in SCORING_POLICIES},
                                      "Final scores per policy (defaults)")
        if any(k in SCORING_POLICIES for k in inputs.policy_scores) else "",
        "rows": score_distributions(row_scores, "Final scores per interpretation row (greedy policy)")
        if any(row_scores.values()) else "",
        "unscored": {"scores": len(unscored), "mean": sum(unscored) / len(unscored) if unscored else 0.0,
                     "top": max(unscored, default=0)},
        "decided": decided_counts({r["label"]: int(r.get("decided", 0)) for r in inputs.matrix if r.get("overrides")},
                                  "How often each alternative decided something in its row's games"),
        "defaults": decided_counts({f'{d["id"]}={d["default"]}': d["hits"] for d in defaults_in_play},
                                   "How often each default decided something in the campaign"),
    }
    thresholds = {"asserted": float(inputs.thresholds.get("asserted", 0.0)),
                  "guarded": float(inputs.thresholds.get("guarded", 0.0))}
    context = {
        "verdict": verdict, "plots": plots, "substeps_svg": substeps_svg, "thresholds": thresholds,
        "suspects": list(inputs.suspects), "pictures": {},
        "policy_scores": {k: list(v) for k, v in inputs.policy_scores.items()},   # azul-rules diff
        "chapters": sorted({c.chapter for c in inputs.clauses}), "kinds": sorted({c.kind for c in inputs.clauses}),
        "defaults_in_play": defaults_in_play,
        "generated": dt.datetime.now(dt.UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "profile": inputs.profile, "summary": summary(inputs.clauses), "clauses": clauses_json,
        "matrix": inputs.matrix, "matrix_games": inputs.matrix_games, "columns": columns, "edges": edges,
        "svg": svg, "gaps": _gaps(inputs.catalogue), "campaign": dict(inputs.campaign), "games": inputs.games,
        "tests_total": len(inputs.tests), "tests_passed": tests_passed, "scenarios_total": inputs.scenario_count,
    }
    context["other_games"] = [_game_section(g) for g in inputs.other_games]
    default = inputs.catalogue.game or "duel"
    context["default_game"] = {"name": default, "title": inputs.catalogue.title}
    _found_by_search(inputs, context, tmp)
    context["title"] = "Rule coverage: " + " and ".join([inputs.catalogue.title] +
                                                        [g["title"] for g in context["other_games"]])
    context["overview"] = _overview(inputs, context, verdict)
    context["md_games"] = [{"name": default, "title": inputs.catalogue.title, "summary": context["summary"],
                            "clauses": clauses_json, "matrix": context["matrix"], "search": context["search"]},
                           *({"name": g["name"], "title": g["title"], "summary": g["summary"], "clauses": g["clauses"],
                              "matrix": g["matrix"], "search": g["search"]} for g in context["other_games"])]
    context["games_json"] = {
        inputs.catalogue.game or "duel": {"title": inputs.catalogue.title, "summary": context["summary"],
                                          "thresholds": thresholds, "campaign": dict(inputs.campaign),
                                          "matrix_rows": len(inputs.matrix), "search": context["search"]},
        **{g["name"]: {"title": g["title"], "summary": g["summary"], "thresholds": g["thresholds"],
                       "campaign": g["campaign"], "matrix_rows": len(g["matrix"]), "clauses": g["clauses"],
                       "matrix": g["matrix"], "edges": g["edges"], "search": g["search"]}
           for g in context["other_games"]}}
    (tmp / "counterexamples").mkdir()
    matrix = []
    for row in context["matrix"]:
        row = dict(row)
        broken = {}
        for name, path in row["broken"].items():
            src = Path(path)
            if src.exists():
                shutil.copy(src, tmp / "counterexamples" / src.name)
                broken[name] = f"counterexamples/{src.name}"
            else:
                broken[name] = path
        row["broken"] = broken
        matrix.append(row)
    context["matrix"] = matrix
    context["pictures"] = pictures.result() if pictures else {}
    (tmp / "index.html").write_text(_ENV.get_template("report.html.j2").render(**context))
    (tmp / "coverage.md").write_text(_ENV.get_template("coverage.md.j2").render(**context))
    data = {k: context[k] for k in ("generated", "profile", "summary", "clauses", "matrix", "edges", "gaps",
                                    "campaign", "games", "tests_total", "tests_passed", "defaults_in_play",
                                    "verdict", "suspects", "thresholds", "policy_scores")}
    data["games"] = context["games_json"]        # every game by name; the top level stays the default game's
    (tmp / "coverage.json").write_text(json.dumps(data, indent=1, sort_keys=True))
    (tmp / "phases.svg").write_text(svg)
    old = None
    if out.exists():
        old = out.with_name(f".{out.name}-old")
        if old.exists():
            shutil.rmtree(old)
        out.rename(old)
    tmp.rename(out)
    if old is not None:
        shutil.rmtree(old)
    return out


SCORING_POLICIES = ("greedy",)     # the policies whose final scores are charted (they play for points)


def _overview(inputs: ReportInputs, context: Mapping[str, Any], verdict: Mapping[str, Any]) -> list[dict[str, Any]]:
    """One line per game for the top of the report: its coverage against its thresholds, its games
    and matrix, the failed stages that name it, and where its sections are."""
    default = context["default_game"]
    # the default game's own stages are those the other games have under their name ("azul: coverage");
    # the others (spec lint, scenarios, tests) are shared: their failing tests and scenarios are put to
    # the game whose clauses they declare
    names = [st["name"] for st in inputs.stages]
    per_game = {n for n in names if any(m.endswith(f": {n}") for m in names)}
    failing = [e for k, e in inputs.tests.items() if e.get("outcome") not in ("passed", "skipped")]
    prefixes = [inputs.catalogue.id_prefix, *(g["catalogue"].id_prefix for g in inputs.other_games)]
    games = [{"name": default["name"], "title": default["title"], "anchor": "summary", "totals": context["summary"]["total"],
              "thresholds": context["thresholds"], "below": list(verdict["below"]), "games": inputs.games,
              "failures": int(inputs.campaign.get("failures", 0)), "policy": ", ".join(inputs.policy_scores) or "-",
              "rows": len(inputs.matrix), "broken_rows": sum(bool(r["broken"]) for r in inputs.matrix),
              "stages": [st["name"] for st in verdict["stages"] if st["name"] in per_game],
              "sections": [("summary", "summary"), ("gaps-first", "gaps"), ("matrix", "interpretation matrix"),
                           ("charts", "charts"), ("phases", "phase diagram"), ("scenarios", "scenarios and pictures"),
                           ("clauses", "clause catalogue"), ("survivors", "surviving mutants"),
                           ("gaps", "interpretation points"), ("simulation", "simulation"),
                           ("search", "found by search")]}]
    for g in context["other_games"]:
        name = g["name"]
        games.append({"name": name, "title": g["title"], "anchor": f"game-{name}", "totals": g["summary"]["total"],
                      "thresholds": g["thresholds"], "below": g["below"], "games": g["campaign"].get("games", 0),
                      "failures": g["campaign"].get("failures", 0), "policy": g["campaign"].get("policy", "-"),
                      "rows": len(g["matrix"]), "broken_rows": sum(bool(r["broken"]) for r in g["matrix"]),
                      "stages": [st["name"] for st in verdict["stages"] if st["name"].startswith(f"{name}: ")],
                      "sections": [(f"game-{name}", "summary"), (f"game-{name}-gaps", "gaps"),
                                   (f"game-{name}-matrix", "interpretation matrix"),
                                   (f"game-{name}-phases", "phase diagram"), (f"game-{name}-clauses", "clauses"),
                                   (f"game-{name}-points", "interpretation points"),
                                   (f"game-{name}-search", "found by search")]})
    matrices = [inputs.matrix, *(g["matrix"] for g in context["other_games"])]
    for g, rows, prefix in zip(games, matrices, prefixes, strict=True):
        g["defaults_broken"] = any(r["broken"] for r in rows if not r.get("overrides"))
        g["failing"] = sum(any(str(c).startswith(prefix) for c in e.get("declared", ())) for e in failing)
        if g["failing"]:
            g["stages"].append(f"{g['failing']} test(s) or scenario(s) of its clauses")
        g["ok"] = not g["below"] and not g["stages"] and not g["defaults_broken"]
    return games


def _found_by_search(inputs: ReportInputs, context: dict[str, Any], tmp: Path) -> None:
    """Each game's "Found by search" section (`search`) and its matrix rows' committed `--decide`
    witnesses (harness.found_by_search); every witness file linked is copied into the report
    (witnesses/<game>/), so the report stands alone."""
    from harness.coverage import ROOT
    from harness.found_by_search import decided_by_witness, section

    root = inputs.fixtures.parent if inputs.fixtures is not None else ROOT

    def copied(game: str, path: str) -> str:
        src = Path(path)
        folder = tmp / "witnesses" / game
        folder.mkdir(parents=True, exist_ok=True)
        if src.is_file() and not (folder / src.name).exists():
            shutil.copy(src, folder / src.name)
        return f"witnesses/{game}/{src.name}"

    games = [(context["default_game"]["name"], context)] + [(g["name"], g) for g in context["other_games"]]
    for name, where in games:
        found = section(name, root, inputs.searched.get(name))
        for row in found["rows"]:
            row["links"] = [{"shown": shown, "href": copied(name, f), "name": Path(f).name}
                            for f, shown in zip(row["files"], row["shown"], strict=True)]
        where["search"] = found
        rows = decided_by_witness(where["matrix"], name, root)
        for row in rows:
            if "witness" in row:
                row["witness_name"] = Path(row["witness"]).name
                row["witness"] = copied(name, row["witness"])
        where["matrix"] = rows


def _matrix_columns(game: str = "duel") -> tuple[str, ...]:
    from properties.matrix import columns
    return columns(game)


def _game_section(game: Mapping[str, Any]) -> dict[str, Any]:
    """A game's section of the report: its coverage, matrix and phase diagram."""
    name = game["name"]
    visits = game.get("edge_visits", {})
    edges = [{"source": a, "target": b, "guard": d["guard"], "clauses": list(d["clauses"]),
              "visits": int(visits.get((a, b), 0))} for a, b, d in sorted(phase_graph(name).edges(data=True))]
    summ = summary(game["clauses"])
    totals = summ["total"]
    need = game["thresholds"]
    below = [f"{k} {totals[f'{k}_share']:.0%} is below the threshold {float(need.get(k, 0)):.0%}"
             for k in ("asserted", "guarded") if totals[f"{k}_share"] < float(need.get(k, 0))]
    return {"name": name, "title": game["title"], "summary": summ, "thresholds": dict(need), "below": below,
            "clauses": [c.to_json() for c in game["clauses"]], "matrix": list(game["matrix"]),
            "columns": list(game["matrix_columns"]), "edges": edges,
            "svg": svg_of(phase_dot(visits, name)), "campaign": dict(game["campaign"]),
            "gaps": _gaps(game["catalogue"])}
