"""Mutation results stored with the code (tests/mutants.json), keyed by a hash of what decides
them: the clause's code (the text of its extents), the operators, and its tests (ids and file
contents). A clean clone re-runs only the clauses whose hash changed; a stale entry is reported
as stale, never trusted. Reviewed equivalent mutants live in tests/equivalent-mutants.toml, each
with its reason, matched by clause and diff."""

from __future__ import annotations

import hashlib
import json
import tomllib
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

import attrs

from harness.mutation.extents import Extent
from harness.mutation.operators import OPERATOR_NAMES

RESULTS = Path("tests") / "mutants.json"
EQUIVALENTS = Path("tests") / "equivalent-mutants.toml"
FORMAT = 1


def _sha(parts: Iterable[str]) -> str:
    h = hashlib.sha256()
    for p in parts:
        h.update(p.encode())
        h.update(b"\0")
    return h.hexdigest()[:16]


def clause_hash(root: Path, extents: Sequence[Extent], tests: Sequence[str], settings: Sequence[str] = ()) -> str:
    """What a clause's mutation verdict depends on (`settings`: how the tests run, e.g. the
    Hypothesis profile). Not the tests' order or clocks: those follow measured durations."""
    parts = [f"format {FORMAT}", *OPERATOR_NAMES, *settings]
    texts: dict[str, list[str]] = {}
    for e in extents:
        lines = texts.setdefault(e.file, (root / e.file).read_text().splitlines())
        parts.append(e.file)
        parts.extend(lines[e.first - 1:e.last])
    files = sorted({t.split("::", 1)[0] for t in tests})
    parts.extend(sorted(tests))
    for f in files:
        path = root / f
        found = sorted(p for p in path.rglob("*") if p.is_file() and "__pycache__" not in p.parts) \
            if path.is_dir() else [path]
        for p in found:
            parts.append(p.relative_to(root).as_posix() + ":" +
                         (hashlib.sha256(p.read_bytes()).hexdigest() if p.exists() else "missing"))
    return _sha(parts)


def diff_key(clause: str, diff: str) -> str:
    """A mutant's identity for the equivalents file: its clause and its change, not its line number."""
    changed = [ln for ln in diff.splitlines() if ln[:1] in "+-" and not ln.startswith(("+++", "---"))]
    return _sha([clause, *changed])


@attrs.frozen
class Equivalent:
    clause: str
    key: str
    reason: str


def load_equivalents(root: Path) -> dict[tuple[str, str], Equivalent]:
    path = root / EQUIVALENTS
    if not path.exists():
        return {}
    data = tomllib.loads(path.read_text())
    out: dict[tuple[str, str], Equivalent] = {}
    for k, entry in enumerate(data.get("equivalent", [])):
        missing = [f for f in ("clause", "key", "reason") if not entry.get(f)]
        if missing:
            raise ValueError(f"{path}: equivalent[{k}] lacks {', '.join(missing)}")
        out[(entry["clause"], entry["key"])] = Equivalent(entry["clause"], entry["key"], entry["reason"])
    return out


def load_results(root: Path) -> dict[str, Any]:
    path = root / RESULTS
    if not path.exists():
        return {"format": FORMAT, "clauses": {}}
    data = json.loads(path.read_text())
    if data.get("format") != FORMAT:
        return {"format": FORMAT, "clauses": {}}
    return data


def save_results(root: Path, data: Mapping[str, Any]) -> None:
    path = root / RESULTS
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n")
    tmp.replace(path)
