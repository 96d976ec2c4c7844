"""What a change touched, read from git: the files and lines that differ from a revision, the
clauses they belong to (a clause's text in spec/, a clause's code in model/ by its extents), and the
tests that bear on those clauses.

Tests are tied to clauses in two ways, both used: a test's own declaration (`@pytest.mark.clause`,
read from the test files without running anything, so it works on a fresh clone), and, when the
suite's tracking record exists (.azul-rules/tests.json, written by any pytest run), the tests that
declared or fired the clause in that run (the cheapest few that fired it without declaring it)."""

from __future__ import annotations

import ast
import re
import subprocess
import tomllib
from collections.abc import Iterable, Mapping
from functools import lru_cache
from pathlib import Path
from typing import Any

import attrs

from harness.declared import NOT_SELECTED, declared_index
from harness.errors import UserError
from spec.python_ast import parse as parse_python

# A unified diff's hunk header, new side: "@@ -12,3 +12,4 @@" (a count of 0: lines removed there).
_HUNK = re.compile(r"^@@ -\d+(?:,\d+)? \+(?P<start>\d+)(?:,(?P<count>\d+))? @@")
FIRING_TESTS = 8                # tests that fired a clause without declaring it, cheapest first


@attrs.frozen
class Changes:
    """Files that differ from `ref` in the working tree: path -> the changed lines (new numbering),
    or None for a file that is new, removed or untracked (all of it changed)."""

    ref: str
    files: Mapping[str, frozenset[int] | None]

    def touches(self, file: str, first: int, last: int) -> bool:
        if file not in self.files:
            return False
        lines = self.files[file]
        return lines is None or any(first <= n <= last for n in lines)


def _git(root: Path, *args: str) -> str:
    try:
        run = subprocess.run(["git", *args], cwd=root, capture_output=True, text=True)
    except OSError as exc:
        raise UserError(f"git is needed to see what changed: {exc}") from None
    if run.returncode:
        raise UserError(f"git {' '.join(args)}: {run.stderr.strip().splitlines()[-1] if run.stderr.strip() else 'failed'}")
    return run.stdout


def changes(root: Path, ref: str = "HEAD") -> Changes:
    """The working tree against git revision `ref` (committed, staged and unstaged changes, and
    untracked files that git does not ignore). One clear line when `ref` is not a revision."""
    try:
        _git(root, "rev-parse", "--verify", "--quiet", f"{ref}^{{commit}}")
    except UserError:
        raise UserError(f"--changed-since {ref}: not a git revision of {root} (a commit, branch or tag; "
                        "e.g. HEAD, main, HEAD~3)") from None
    files: dict[str, frozenset[int] | None] = {}
    lines: dict[str, set[int]] = {}
    whole: set[str] = set()
    current = ""
    for line in _git(root, "diff", "-U0", "--no-color", "--no-ext-diff", "--no-renames", ref, "--").splitlines():
        if line.startswith("diff --git "):
            current = line.rsplit(" b/", 1)[-1]               # also a binary file, which has no hunks
            lines.setdefault(current, set())
        elif line in ("--- /dev/null", "+++ /dev/null"):
            whole.add(current)                                 # new or removed: all of it changed
        elif (m := _HUNK.match(line)) and current:
            start, count = int(m["start"]), int(m["count"] if m["count"] is not None else 1)
            lines[current].update(range(start, start + count) if count else (start, start + 1))
    for path, changed in lines.items():
        files[path] = None if path in whole or not changed else frozenset(changed)
    for path in _git(root, "ls-files", "--others", "--exclude-standard").splitlines():
        files[path] = None
    return Changes(ref, files)


# --- clauses -----------------------------------------------------------------------------------

@attrs.frozen
class ClauseChange:
    clause: str
    game: str
    where: tuple[str, ...]          # "spec: revision 1 -> 2", "model/duel/tiling.py:236-237"


def _clause_tables(text: str | None) -> dict[str, dict[str, Any]]:
    if text is None:
        return {}
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError:
        return {}                       # spec lint names the problem with file and line
    clauses = data.get("clause", [])
    return {c["id"]: c for c in clauses if isinstance(c, dict) and isinstance(c.get("id"), str)} \
        if isinstance(clauses, list) else {}


def _old_text(root: Path, ref: str, path: str) -> str | None:
    run = subprocess.run(["git", "show", f"{ref}:{path}"], cwd=root, capture_output=True, text=True)
    return run.stdout if run.returncode == 0 else None


def spec_changes(root: Path, change: Changes) -> dict[str, str]:
    """Clause id -> what changed in its spec/ table ("revision 1 -> 2", "new", "removed", "edited")."""
    out: dict[str, str] = {}
    for path in sorted(change.files):
        if not (path.startswith("spec/") and path.endswith(".toml")):
            continue
        new_path = root / path
        old = _clause_tables(_old_text(root, change.ref, path))
        new = _clause_tables(new_path.read_text(encoding="utf-8") if new_path.is_file() else None)
        for cid in sorted(old.keys() | new.keys()):
            before, after = old.get(cid), new.get(cid)
            if before == after:
                continue
            if before is None:
                out[cid] = "new in spec/"
            elif after is None:
                out[cid] = "removed from spec/"
            elif before.get("revision") != after.get("revision"):
                out[cid] = f"spec/ revision {before.get('revision')} -> {after.get('revision')}"
            elif before.get("text") != after.get("text"):
                out[cid] = "spec/ text changed, revision not bumped (bump it if the meaning changed)"
            else:
                out[cid] = "spec/ table edited, revision unchanged"
    return out


def model_changes(root: Path, change: Changes, game: str) -> tuple[dict[str, list[str]], list[str]]:
    """One game's clauses whose code (their extents, harness.mutation.extents) changed -> 'file:a-b',
    and the changed spans of its model folder that lie in no clause's extent."""
    from harness.mutation.analysis import model_folders
    from harness.mutation.clauses import id_resolver
    from harness.mutation.extents import extents
    from spec import default_catalogue

    catalogue = default_catalogue(game)
    folders = model_folders(root, catalogue)
    mine = {f for f in change.files if f.endswith(".py") and any(f.startswith(folder + "/") for folder in folders)}
    if not mine:
        return {}, []
    found: dict[str, list[str]] = {}
    covered: dict[str, set[int]] = {}
    for cid, exts in extents(root, folders, id_resolver(catalogue)).items():
        for e in exts:
            if e.file in mine:
                covered.setdefault(e.file, set()).update(range(e.first, e.last + 1))
                if change.touches(e.file, e.first, e.last):
                    found.setdefault(cid, []).append(f"{e.file}:{e.first}-{e.last}")
    outside = []
    for f in sorted(mine):
        lines = change.files[f]
        if lines is None:
            continue
        loose = sorted(n for n in lines if n not in covered.get(f, set()) and (root / f).is_file()
                       and n <= len((root / f).read_text().splitlines()))
        if loose:
            outside.append(f"{f}:{','.join(map(str, _runs(loose)))}")
    return found, outside


def _runs(lines: list[int]) -> list[str]:
    out: list[str] = []
    start = prev = lines[0]
    for n in [*lines[1:], None]:            # None: the last run ends
        if n is not None and n == prev + 1:
            prev = n
            continue
        out.append(str(start) if start == prev else f"{start}-{prev}")
        if n is not None:
            start = prev = n
    return out


def changed_clauses(root: Path, change: Changes) -> tuple[list[ClauseChange], list[str]]:
    """Every game's changed clauses (spec text and model code), and model spans tied to no clause."""
    from properties.registry import game_names, game_of_clause

    where: dict[str, list[str]] = {}
    games: dict[str, str] = {}
    for cid, what in spec_changes(root, change).items():
        entry = game_of_clause(cid)
        if entry is not None:
            where.setdefault(cid, []).append(what)
            games[cid] = entry.name
    loose: list[str] = []
    for game in game_names():
        found, outside = model_changes(root, change, game)
        loose += outside
        for cid, spans in found.items():
            where.setdefault(cid, []).extend(spans)
            games[cid] = game
    return [ClauseChange(cid, games[cid], tuple(where[cid])) for cid in sorted(where)], loose


# --- tests bearing on clauses ------------------------------------------------------------------

def declared_tests(root: Path, resolve: Mapping[str, str]) -> dict[str, tuple[str, ...]]:
    """Clause id -> the tests whose `clause` marks name it (harness.declared: read from the files,
    nothing run; interpretation-point ids count for their clause). Scenario files are left out: the
    scenarios stage runs every one of them."""
    return declared_index(root, resolve, scenarios=False)


def tracked_tests(root: Path, record: Path, resolve: Mapping[str, str], clause: str) -> list[str]:
    """From the tracking record: the tests that declared `clause` (passing or not), and the cheapest
    few that fired it without declaring it (never a clock-bound one: what it fires moves with load)."""
    records = [r for r in _records(root, record, tuple(sorted(resolve.items())))
               if r.file.endswith(".py") and r.file not in NOT_SELECTED]
    declared = [r.nodeid for r in records if clause in r.declared]
    firing = sorted((r for r in records if clause in r.fired and clause not in r.declared and not r.clock_bound),
                    key=lambda r: (r.cost, r.nodeid))[:FIRING_TESTS]
    return sorted({*declared, *(r.nodeid for r in firing)})


@lru_cache(maxsize=4)
def _records(root: Path, record: Path, resolve_items: tuple[tuple[str, str], ...]) -> list[Any]:
    from harness.mutation.selection import load_tracking

    return load_tracking(record, dict(resolve_items), root) if record.is_file() else []


CODE_FOLDERS = ("model", "properties", "harness", "spec")


def untied_code(change: Changes, loose: Iterable[str]) -> list[str]:
    """Changed Python files whose change no clause's extent covers: model/ files with loose spans
    ('file:lines' from `changed_clauses`), and any changed file of properties/, harness/, spec/."""
    files = {span.split(":", 1)[0] for span in loose}
    files |= {f for f in change.files if f.endswith(".py") and f.split("/", 1)[0] in CODE_FOLDERS[1:]}
    return sorted(files)


@lru_cache(maxsize=2)
def _imports(root: Path) -> dict[str, frozenset[str]]:
    """Test module -> the modules it imports by name (`import a.b`, `from a.b import c` gives a.b
    and a.b.c), read from the files."""
    out: dict[str, frozenset[str]] = {}
    for path in sorted((root / "tests").rglob("test_*.py")):
        try:
            tree = parse_python(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, SyntaxError, ValueError):
            continue
        names: set[str] = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names |= {a.name for a in node.names}
            elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                names.add(node.module)
                names |= {f"{node.module}.{a.name}" for a in node.names}
        out[path.relative_to(root).as_posix()] = frozenset(names)
    return out


def importing_tests(root: Path, files: Iterable[str]) -> set[str]:
    """The test modules that import one of `files` (paths like properties/duel/oracle.py) directly."""
    modules = {f.removesuffix(".py").removesuffix("/__init__").replace("/", ".") for f in files}
    return {t for t, names in _imports(root).items() if names & modules and t not in NOT_SELECTED}


def selected_tests(root: Path, clauses: Iterable[ClauseChange], change: Changes,
                   record: Path | None, untied: Iterable[str] = ()) -> tuple[list[str], str]:
    """The tests to run for `clauses`: their declared tests, those the tracking record ties to them
    (when `record` exists), every changed test module, and the test modules importing `untied`
    code (changed code no clause covers); with a word on where they came from."""
    from harness.mutation.clauses import id_resolver
    from spec import default_catalogue

    chosen: set[str] = set()
    tracked = record is not None and record.is_file()
    for game in sorted({c.game for c in clauses}):
        resolve = id_resolver(default_catalogue(game))
        declared = declared_tests(root, resolve)
        for c in clauses:
            if c.game != game:
                continue
            chosen |= set(declared.get(c.clause, ()))
            if tracked and record is not None:
                chosen |= set(tracked_tests(root, record, resolve, c.clause))
    for f in change.files:
        if f.startswith("tests/") and Path(f).name.startswith("test_") and f.endswith(".py") \
                and (root / f).is_file() and f not in NOT_SELECTED:
            chosen.add(f)
    untied = list(untied)
    importing = importing_tests(root, untied)
    chosen |= importing
    modules = {t for t in chosen if "::" not in t}
    chosen = {t for t in chosen if "::" not in t or t.split("::", 1)[0] not in modules}
    source = "the clauses' marks in tests/" + (" and the tracking record" if tracked else
                                               " (no tracking record yet: a pytest run writes one)")
    if untied:
        source += f", and {len(importing)} test module(s) importing the changed code no clause covers"
    return sorted(chosen), source
