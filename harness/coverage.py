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

from properties.registry import game_names, get_game
from spec import Catalogue

ROOT = Path(__file__).resolve().parents[1]


def _id_literal() -> re.Pattern[str]:
    """A clause id of any registered game, optionally pinned to a revision ("duel.x.y@2")."""
    prefixes = "|".join(re.escape(get_game(n).id_prefix) for n in game_names())
    return re.compile(rf"^(?:{prefixes})[a-z0-9-]+(\.[a-z0-9-]+)+(@\d+)?$")


ID_LITERAL = _id_literal()


# path -> (the text parsed, its clause-id string literals). One lint or coverage run reads the same
# files several times (model/ for sites, then every folder for unknown ids, tests/ for pins): each
# text is parsed once, and again only when it changed (the key is the text itself, not its mtime).
_LITERALS: dict[Path, tuple[str, tuple[tuple[str, int], ...]]] = {}


def id_literals(path: Path) -> tuple[tuple[str, int], ...]:
    """The string literals of one Python file that look like clause ids (pinned or not), with lines."""
    text = path.read_text()
    cached = _LITERALS.get(path)
    if cached is not None and cached[0] == text:
        return cached[1]
    found = tuple((node.value, node.lineno) for node in ast.walk(ast.parse(text, filename=str(path)))
                  if isinstance(node, ast.Constant) and isinstance(node.value, str) and ID_LITERAL.match(node.value))
    _LITERALS[path] = (text, found)
    return found


def string_sites(folder: Path, known: set[str]) -> dict[str, list[str]]:
    """Clause ids written as string literals in the Python files of `folder` -> ['file:line', ...]."""
    sites: dict[str, list[str]] = {}
    for path in sorted(folder.rglob("*.py")):
        rel = path.relative_to(ROOT).as_posix() if path.is_relative_to(ROOT) else str(path)
        for value, lineno in id_literals(path):
            sites.setdefault(value.partition("@")[0], []).append(f"{rel}:{lineno}")
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
    suspects (tests and scenarios pinned to an older revision than spec/ holds)."""
    problems = []
    known = set(catalogue.ids) | {i.id for i in catalogue.interpretations}
    mine = catalogue.id_prefix
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
            if cid.startswith(mine) and cid not in known:
                problems.append(f"{where[0]}: id {cid!r} is not in spec/")
    for suspect in suspects(catalogue, tests):
        problems.append(suspect.message())
    return problems


# --- suspect links (Doorstop-style) -------------------------------------------------------------
# A test opts in by pinning the revision it was written against: `@pytest.mark.clause("id@2")`, or
# `clauses = ["id@2"]` in a scenario file. When the clause's text changes its revision goes up, and
# every pin to an older revision is *suspect* until someone re-reads the test against the new text
# and bumps the pin (`azul-rules suspects --bump`). Unpinned declarations are never suspect.

@attrs.frozen
class Suspect:
    kind: str            # "test" or "scenario"
    where: str           # file:line (or a pytest node id when only the run recorded it)
    clause: str
    pinned: int
    revision: int        # what spec/ holds now

    def message(self) -> str:
        return (f"suspect {self.kind} {self.where}: pinned to {self.clause} revision {self.pinned}, spec/ holds "
                f"revision {self.revision}: re-read the {self.kind} against the clause, then "
                f"`azul-rules suspects --bump` (re-check the test)")

    def to_json(self) -> dict[str, Any]:
        return attrs.asdict(self)


def _pin(value: object) -> tuple[str, int] | None:
    if isinstance(value, str) and "@" in value and ID_LITERAL.match(value):
        cid, _, rev = value.partition("@")
        if rev.isdigit():
            return cid, int(rev)
    return None


def pins(root: Path = ROOT) -> list[tuple[str, str, str, int]]:
    """Every pin in tests/*.py and in scenario files under fixtures/: (kind, file:line, clause, rev)."""
    import tomllib

    found: list[tuple[str, str, str, int]] = []
    for path in sorted((root / "tests").rglob("*.py")):
        rel = path.relative_to(root).as_posix()
        for value, lineno in id_literals(path):
            if pin := _pin(value):
                found.append(("test", f"{rel}:{lineno}", *pin))
    for path in sorted((root / "fixtures").rglob("*.toml")):
        text = path.read_text(encoding="utf-8")
        try:
            clauses = tomllib.loads(text).get("clauses", [])
        except tomllib.TOMLDecodeError:
            continue                      # the scenario loader reports it, naming file and line
        rel = path.relative_to(root).as_posix()
        for value in clauses if isinstance(clauses, list) else []:
            if pin := _pin(value):
                line = next((n for n, ln in enumerate(text.splitlines(), 1) if f'"{value}"' in ln), 1)
                found.append(("scenario", f"{rel}:{line}", *pin))
    return found


def suspects(catalogue: Catalogue, tests: Mapping[str, Any] | None = None, root: Path = ROOT) -> list[Suspect]:
    """Pins to an older revision than spec/ holds: from the sources (tests/, fixtures/) and from a
    test run's record (declarations made elsewhere, e.g. a marker applied by a helper)."""
    out: dict[tuple[str, str, int], Suspect] = {}
    for kind, where, cid, rev in pins(root):
        if cid in catalogue and rev < catalogue.clause(cid).revision:
            out.setdefault((where.rsplit(":", 1)[0], cid, rev),
                           Suspect(kind, where, cid, rev, catalogue.clause(cid).revision))
    for nodeid, entry in sorted((tests or {}).items()):
        for declared in entry.get("declared", []):
            pin = _pin(declared)
            if pin is None:
                continue
            cid, rev = pin
            file = str(entry.get("scenario", {}).get("file", nodeid.split("::", 1)[0]))
            try:
                file = Path(file).resolve().relative_to(root).as_posix()
            except ValueError:
                pass
            if cid in catalogue and rev < catalogue.clause(cid).revision:
                out.setdefault((file, cid, rev), Suspect("scenario" if "scenario" in entry else "test", nodeid,
                                                         cid, rev, catalogue.clause(cid).revision))
    return sorted(out.values(), key=lambda s: (s.where, s.clause))
