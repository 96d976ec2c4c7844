"""Clause coverage: for every clause, where it is implemented, how often it fires, which passing
tests assert it; plus the lint that CI treats as fatal."""

from __future__ import annotations

import ast
import json
import re
from collections import Counter
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import attrs

from spec import Catalogue

ROOT = Path(__file__).resolve().parents[1]
ID_LITERAL = re.compile(r"^duel\.[a-z0-9-]+(\.[a-z0-9-]+)+(@\d+)?$")


def string_sites(folder: Path, known: set[str]) -> dict[str, list[str]]:
    """Clause ids written as string literals in the Python files of `folder` -> ['file:line', ...]."""
    sites: dict[str, list[str]] = {}
    for path in sorted(folder.rglob("*.py")):
        rel = path.relative_to(ROOT).as_posix() if path.is_relative_to(ROOT) else str(path)
        for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and ID_LITERAL.match(node.value):
                cid = node.value.partition("@")[0]
                sites.setdefault(cid, []).append(f"{rel}:{node.lineno}")
    return {k: sorted(set(v), key=lambda s: (s.split(":")[0], int(s.split(":")[1]))) for k, v in sites.items()}


@attrs.frozen
class ClauseCoverage:
    id: str
    title: str
    chapter: str
    kind: str
    text: str
    revision: int
    sources: list[dict[str, str]]
    model_sites: list[str]
    property_sites: list[str]
    tests: list[str]               # passing tests that declare it
    scenarios: list[str]           # passing scenarios that declare it
    failing_tests: list[str]
    hits_tests: int
    hits_simulation: int
    interpretations: list[str]
    assumption: str | None
    declared_unfired: list[str] = attrs.field(factory=list)   # passing tests declaring it that never fired it
    guard: dict[str, Any] = attrs.field(factory=dict)          # mutation verdict (harness.mutation)

    @property
    def implemented(self) -> bool:
        return bool(self.model_sites) or (self.kind == "invariant" and bool(self.property_sites))

    @property
    def exercised(self) -> bool:
        return self.hits_tests + self.hits_simulation > 0 or (self.kind == "invariant" and bool(self.tests))

    @property
    def asserted(self) -> bool:
        """A passing test or scenario declares it and (except invariants, which properties/ checks
        rather than the model firing them) actually fired it."""
        return bool(self.tests or self.scenarios)

    @property
    def guarded(self) -> bool:
        """Every non-equivalent mutant of its code was killed by its tests (harness.mutation)."""
        return self.guard.get("status") == "guarded"

    @property
    def missing(self) -> list[str]:
        return [m for m, ok in (("-impl", self.implemented), ("-exercised", self.exercised),
                                ("-asserted", self.asserted), ("-guarded", self.guarded)) if not ok]

    def to_json(self) -> dict[str, Any]:
        data = attrs.asdict(self)
        data.update(implemented=self.implemented, exercised=self.exercised, asserted=self.asserted,
                    guarded=self.guarded, missing=self.missing)
        return data


def load_test_results(path: Path) -> dict[str, Any]:
    if not path.exists():
        return {}
    return json.loads(path.read_text())["tests"]


def compute(catalogue: Catalogue, tests: Mapping[str, Any], sim_hits: Mapping[str, int],
            guard: Mapping[str, Mapping[str, Any]] | None = None) -> list[ClauseCoverage]:
    known = set(catalogue.ids)
    model_sites = string_sites(ROOT / "model", known)
    property_sites = string_sites(ROOT / "properties", known)
    asserting: dict[str, list[str]] = {}
    scenarios: dict[str, list[str]] = {}
    failing: dict[str, list[str]] = {}
    unfired: dict[str, list[str]] = {}
    test_hits: Counter[str] = Counter()
    kinds = {c.id: c.kind for c in catalogue}
    for nodeid, entry in sorted(tests.items()):
        fired = entry.get("fired", {})
        test_hits.update(fired)
        for declared in entry.get("declared", []):
            cid = declared.partition("@")[0]
            if entry.get("outcome") != "passed":
                failing.setdefault(cid, []).append(nodeid)
            elif cid not in fired and kinds.get(cid) != "invariant":
                unfired.setdefault(cid, []).append(nodeid)      # a declaration is a promise, not a measurement
            elif "scenario" in entry:
                scenarios.setdefault(cid, []).append(entry["scenario"]["id"])
            else:
                asserting.setdefault(cid, []).append(nodeid)
    out = []
    for c in catalogue:
        out.append(ClauseCoverage(
            id=c.id, title=c.title, chapter=c.chapter, kind=c.kind, text=c.text, revision=c.revision,
            sources=[{"doc": s.doc, "where": s.where} for s in c.sources],
            model_sites=model_sites.get(c.id, []), property_sites=property_sites.get(c.id, []),
            tests=asserting.get(c.id, []), scenarios=sorted(set(scenarios.get(c.id, []))),
            failing_tests=failing.get(c.id, []), hits_tests=test_hits.get(c.id, 0),
            hits_simulation=int(sim_hits.get(c.id, 0)),
            interpretations=[i.id for i in c.interpretations], assumption=c.assumption,
            declared_unfired=unfired.get(c.id, []), guard=dict((guard or {}).get(c.id, {})),
        ))
    return out


def summary(rows: list[ClauseCoverage]) -> dict[str, Any]:
    def counts(rs: list[ClauseCoverage]) -> dict[str, int]:
        return {"total": len(rs), "implemented": sum(r.implemented for r in rs),
                "exercised": sum(r.exercised for r in rs), "asserted": sum(r.asserted for r in rs),
                "guarded": sum(r.guarded for r in rs),
                "mutants_killed": sum(int(r.guard.get("killed", 0)) for r in rs),
                "mutants_total": sum(int(r.guard.get("total", 0)) for r in rs)}
    chapters: dict[str, list[ClauseCoverage]] = {}
    for r in rows:
        chapters.setdefault(r.chapter, []).append(r)
    total = counts(rows)
    total["asserted_share"] = round(total["asserted"] / total["total"], 4) if rows else 0.0
    total["guarded_share"] = round(total["guarded"] / total["total"], 4) if rows else 0.0
    return {"total": total, "chapters": {k: counts(v) for k, v in chapters.items()}}


def lint(catalogue: Catalogue, tests: Mapping[str, Any] | None = None) -> list[str]:
    """Problems CI treats as fatal: clauses implemented nowhere, ids in code/tests that spec/ lacks,
    tests pinned to an older revision than spec/ holds."""
    problems = []
    known = set(catalogue.ids) | {i.id for i in catalogue.interpretations}
    model_sites = string_sites(ROOT / "model", known)
    prop_sites = string_sites(ROOT / "properties", known)
    for c in catalogue:
        if c.kind == "invariant":
            if c.id not in prop_sites and c.id not in model_sites:
                problems.append(f"{c.id}: invariant clause checked nowhere in properties/ ({c.file}:{c.line})")
        elif c.id not in model_sites:
            problems.append(f"{c.id}: cited nowhere in model/ ({c.file}:{c.line})")
    for folder in ("model", "properties", "harness", "tests"):
        for cid, where in sorted(string_sites(ROOT / folder, known).items()):
            if cid not in known:
                problems.append(f"{where[0]}: id {cid!r} is not in spec/")
    for folder in ("tests",):
        for path in sorted((ROOT / folder).rglob("*.py")):
            for node in ast.walk(ast.parse(path.read_text())):
                if isinstance(node, ast.Constant) and isinstance(node.value, str) and "@" in node.value \
                        and node.value.startswith("duel."):
                    cid, _, rev = node.value.partition("@")
                    if cid in catalogue and rev.isdigit() and int(rev) < catalogue.clause(cid).revision:
                        problems.append(f"{path.relative_to(ROOT)}:{node.lineno}: pinned to {cid} revision {rev}, "
                                        f"spec/ holds revision {catalogue.clause(cid).revision}: re-check the test")
    for nodeid, entry in sorted((tests or {}).items()):
        for declared in entry.get("declared", []):
            cid, _, rev = declared.partition("@")
            if cid in catalogue and rev.isdigit() and int(rev) < catalogue.clause(cid).revision:
                msg = (f"{nodeid}: pinned to {cid} revision {rev}, spec/ holds revision "
                       f"{catalogue.clause(cid).revision}: re-check the test")
                if msg not in problems:
                    problems.append(msg)
    return problems
