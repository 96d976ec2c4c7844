"""Clause coverage: for every clause, where it is implemented, how often it fires, which passing
tests assert it; plus the lint that CI treats as fatal."""

from __future__ import annotations

import ast
import json
import re
from collections import Counter
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import attrs

from properties.registry import game_names, get_game
from spec import Catalogue
from spec.python_ast import parse as parse_python

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
    found = tuple((node.value, node.lineno) for node in ast.walk(parse_python(text, filename=str(path)))
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
    def guardable(self) -> bool:
        """It has code a mutant can be planted in (or, an invariant, a test that breaks the model to
        show it caught): a clause with no model site cannot be guarded, and is no gap for it."""
        return self.guard.get("status", NOT_MEASURED) not in UNGUARDABLE

    @property
    def missing(self) -> list[str]:
        return [m for m, ok in (("-impl", self.implemented), ("-exercised", self.exercised),
                                ("-asserted", self.asserted), ("-guarded", self.guarded or not self.guardable))
                if not ok]

    def to_json(self) -> dict[str, Any]:
        data = attrs.asdict(self)
        data.update(implemented=self.implemented, exercised=self.exercised, asserted=self.asserted,
                    guarded=self.guarded, guardable=self.guardable, missing=self.missing,
                    guard_status=guard_words(self.guard))
        return data


# --- a clause's guard status: one function, from the stored mutation results -------------------
# `explain`, verify's coverage (the report, coverage.json and .md) and so `diff` all take a clause's
# status from `guard_statuses`, which reads the same data: tests/mutants.json, judged against the
# clause's code and tests as they are in the tree (a result whose hash no longer matches is stale).

GUARDED, SURVIVOR, NOT_MEASURED, NO_SITE, NO_MUTANTS = "guarded", "survivor", "not-measured", "no-site", "no-mutants"
UNGUARDABLE = (NO_SITE, NO_MUTANTS)
GUARD_WORDS = {GUARDED: "guarded", SURVIVOR: "not guarded: survivor", NOT_MEASURED: "not guarded: not measured",
               NO_SITE: "no model site (cannot be guarded)", NO_MUTANTS: "no mutants (cannot be guarded)"}


def guard_words(guard: Mapping[str, Any]) -> str:
    """A guard status for people: 'not guarded: survivor (2 of 14 mutants survived)', ..."""
    status = str(guard.get("status", NOT_MEASURED))
    words = GUARD_WORDS.get(status, status)
    reason = guard.get("reason")
    return f"{words} ({reason})" if reason else words


def _caught_invariants(root: Path, catalogue: Catalogue, files: Sequence[str]) -> dict[str, set[str]]:
    """Catch-test file -> the invariant clauses it breaks the model for: those it names, by clause id
    or by the name of an invariant that checks them (the game's invariant table). Read from the file,
    nothing run: the tests themselves show, when they run, that each break is caught."""
    from properties.registry import get_game

    entry = get_game(catalogue.game or "duel")
    table: Mapping[str, Sequence[str]] = entry.load("invariant_table") if entry.has("invariant_table") else {}
    out: dict[str, set[str]] = {}
    for f in files:
        path = root / f
        if not path.is_file():
            continue
        try:
            named = {n.value for n in ast.walk(parse_python(path.read_text(encoding="utf-8")))
                     if isinstance(n, ast.Constant) and isinstance(n.value, str)}
        except (OSError, SyntaxError, ValueError):
            continue
        ids = {c for c in named if c in catalogue}
        ids |= {c for name, clauses in table.items() if name in named for c in clauses if c in catalogue}
        if ids:
            out[f] = ids
    return out


# Results read from files, kept while none of the files changed (by modification time and size):
# `explain` for every clause, or verify's games, judge the same tree many times over.
_MEMO: dict[tuple[Any, ...], tuple[tuple[tuple[str, int, int], ...], Any]] = {}


def _memo(key: tuple[Any, ...], files: Sequence[Path], compute: Any) -> Any:
    stamp = []
    for path in files:
        try:
            st = path.stat()
        except OSError:
            stamp.append((str(path), -1, -1))
            continue
        stamp.append((str(path), st.st_mtime_ns, st.st_size))
    stamped = tuple(sorted(stamp))
    cached = _MEMO.get(key)
    if cached is not None and cached[0] == stamped:
        return cached[1]
    value = compute()
    _MEMO[key] = (stamped, value)
    return value


def guard_statuses(catalogue: Catalogue, root: Path = ROOT,
                   stored: Mapping[str, Any] | None = None) -> dict[str, dict[str, Any]]:
    """Every clause's guard status from the stored mutation results (`stored`, default: the
    tree's tests/mutants.json): guarded | survivor | not-measured | no-site | no-mutants, with the
    killed/total counts, the survivors and the tests of the stored run."""
    from harness.mutation import profile
    from harness.mutation.analysis import CATCH_TESTS, model_folders
    from harness.mutation.clauses import id_resolver
    from harness.mutation.extents import extents
    from harness.mutation.store import clause_hash, diff_key, load_equivalents, load_results

    resolve = id_resolver(catalogue)
    folders = model_folders(root, catalogue)
    sites = _memo(("extents", root, folders, tuple(sorted(resolve.items()))),
                  [p for f in folders for p in (root / f).rglob("*.py")], lambda: extents(root, folders, resolve))
    entries = (stored if stored is not None else load_results(root)).get("clauses", {})
    equivalents = load_equivalents(root)
    caught = _memo(("caught", root, catalogue.game, CATCH_TESTS), [root / f for f in CATCH_TESTS],
                   lambda: _caught_invariants(root, catalogue, CATCH_TESTS))
    settings = (profile.key(),)

    def stored_hash(exts: tuple[Any, ...], tests: list[str]) -> str:
        files = [root / e.file for e in exts]
        for t in {t.split("::", 1)[0] for t in tests}:
            path = root / t
            files += sorted(path.rglob("*")) if path.is_dir() else [path]
        return _memo(("hash", root, exts, tuple(tests), settings), files,
                     lambda: clause_hash(root, exts, tests, settings))
    out: dict[str, dict[str, Any]] = {}
    for clause in catalogue.clauses:
        cid = clause.id
        exts = tuple(sites.get(cid, ()))
        base: dict[str, Any] = {"killed": 0, "total": 0, "equivalent": 0, "survivors": [], "tests": []}
        if not exts:
            catchers = sorted(f for f, named in caught.items() if cid in named) if clause.kind == "invariant" else []
            if catchers:
                out[cid] = {**base, "status": GUARDED, "killed": len(catchers), "total": len(catchers),
                            "tests": catchers, "reason": "a test breaks the model and the invariant catches it"}
            else:
                out[cid] = {**base, "status": NO_SITE}
            continue
        entry = entries.get(cid)
        if entry is None:
            out[cid] = {**base, "status": NOT_MEASURED, "reason": "never run: `azul-rules mutate --clause " + cid + "`"}
            continue
        tests = list(entry.get("tests", ()))
        if str(entry.get("status", "")).startswith("not measured"):        # the run refused a red baseline
            out[cid] = {**base, "status": NOT_MEASURED, "reason": str(entry["status"]).removeprefix("not measured: "),
                        "tests": tests}
            continue
        if entry.get("hash") != stored_hash(exts, tests):
            out[cid] = {**base, "status": NOT_MEASURED, "tests": tests,
                        "reason": "stale: its code or its tests changed since the stored run"}
            continue
        rows = entry.get("mutants", [])
        if not rows:
            out[cid] = {**base, "status": NO_MUTANTS, "tests": tests}
            continue
        equivalent = [r for r in rows if (cid, diff_key(cid, r["diff"])) in equivalents]
        counted = [r for r in rows if r not in equivalent]
        killed = [r for r in counted if r["status"] == "killed"]          # a clock's verdict is no kill
        survivors = [dict(r, key=diff_key(cid, r["diff"])) for r in counted if r not in killed]
        out[cid] = {"status": SURVIVOR if survivors else GUARDED, "killed": len(killed), "total": len(counted),
                    "equivalent": len(equivalent), "survivors": survivors, "tests": tests}
        if survivors:
            out[cid]["reason"] = f"{len(survivors)} of {len(counted)} mutants survived"
    return out


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
                "guarded": sum(r.guarded for r in rs), "guardable": sum(r.guardable for r in rs),
                "survivor": sum(r.guard.get("status") == SURVIVOR for r in rs),
                "not_measured": sum(r.guard.get("status", NOT_MEASURED) == NOT_MEASURED for r in rs),
                "no_site": sum(not r.guardable for r in rs),
                "mutants_killed": sum(int(r.guard.get("killed", 0)) for r in rs),
                "mutants_total": sum(int(r.guard.get("total", 0)) for r in rs)}
    chapters: dict[str, list[ClauseCoverage]] = {}
    for r in rows:
        chapters.setdefault(r.chapter, []).append(r)
    total: dict[str, float] = dict(counts(rows))       # with the shares below
    total["asserted_share"] = round(total["asserted"] / total["total"], 4) if rows else 0.0
    # guarded among the clauses that can be guarded (a clause with no model site cannot)
    total["guarded_share"] = round(total["guarded"] / total["guardable"], 4) if total["guardable"] else 0.0
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
