"""Build the rule-coverage report (index.html, coverage.md, coverage.json) with jinja2, atomically."""

from __future__ import annotations

import datetime as dt
import json
import shutil
import tempfile
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import attrs
import jinja2

from harness.coverage import ClauseCoverage, summary
from harness.diagram import has_dot, phase_dot
from model.phases import phase_graph
from spec import Catalogue

_ENV = jinja2.Environment(loader=jinja2.PackageLoader("harness", "templates"),
                          autoescape=jinja2.select_autoescape(["html", "j2"]), trim_blocks=True,
                          lstrip_blocks=True, undefined=jinja2.StrictUndefined)


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


def _gaps(catalogue: Catalogue) -> list[dict[str, Any]]:
    return [{"id": i.id, "clause": i.clause_id, "question": i.question, "reason": i.reason,
             "default": i.default, "alternatives": [attrs.asdict(a) for a in i.alternatives]}
            for i in catalogue.interpretations]


def build_report(inputs: ReportInputs, out: Path) -> Path:
    """Write the report into `out` (replaced whole: a failed build never leaves a half report)."""
    columns = _matrix_columns()
    edges = [{"source": a, "target": b, "guard": d["guard"], "clauses": list(d["clauses"]),
              "visits": int(inputs.edge_visits.get((a, b), 0))} for a, b, d in sorted(phase_graph().edges(data=True))]
    svg = phase_dot(inputs.edge_visits).pipe(format="svg").decode() if has_dot() else \
        "<pre>" + jinja2.filters.escape(phase_dot(inputs.edge_visits).source) + "</pre>"
    if "<svg" in svg:
        svg = svg[svg.index("<svg"):]
    tests_passed = sum(e.get("outcome") == "passed" for e in inputs.tests.values())
    clauses_json = [c.to_json() for c in inputs.clauses]
    defaults_in_play = [
        {"id": i.id, "default": i.default, "hits": int(inputs.alternative_hits.get(f"{i.id}={i.default}", 0))}
        for i in inputs.catalogue.interpretations]
    context = {
        "defaults_in_play": defaults_in_play,
        "generated": dt.datetime.now(dt.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
        "profile": inputs.profile, "summary": summary(inputs.clauses), "clauses": clauses_json,
        "matrix": inputs.matrix, "matrix_games": inputs.matrix_games, "columns": columns, "edges": edges,
        "svg": svg, "gaps": _gaps(inputs.catalogue), "campaign": dict(inputs.campaign), "games": inputs.games,
        "tests_total": len(inputs.tests), "tests_passed": tests_passed, "scenarios_total": inputs.scenario_count,
    }
    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{out.name}-", dir=out.parent))
    try:
        (tmp / "counterexamples").mkdir()
        matrix = []
        for row in inputs.matrix:
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
        (tmp / "index.html").write_text(_ENV.get_template("report.html.j2").render(**context))
        (tmp / "coverage.md").write_text(_ENV.get_template("coverage.md.j2").render(**context))
        data = {k: context[k] for k in ("generated", "profile", "summary", "clauses", "matrix", "edges", "gaps",
                                        "campaign", "games", "tests_total", "tests_passed", "defaults_in_play")}
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
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    return out


def _matrix_columns() -> tuple[str, ...]:
    from properties.matrix import COLUMNS
    return COLUMNS
