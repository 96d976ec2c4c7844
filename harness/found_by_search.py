"""What the search answered, for the report and verify: for every goal `azul-rules search --all`
asks about (each non-default alternative, each clause with a model site), the committed witness
under fixtures/<game>/witnesses/ that answers it, a witness verify's search stage found (written into
the report folder, never into fixtures/), "shown unreachable" with the game's reason (its search
hooks' `unreachable` table: never searched for), or "not found within budget" with what was explored.

A `--decide` goal is answered by its own file (`decide-ID-ALT[-Np].toml`, with its `.default` twin);
a clause goal by its own file (`clause-ID[-Np].toml`) or by any committed witness whose `clauses`
declare it (the scenario run checks that the replay fires them)."""

from __future__ import annotations

import re
import tomllib
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from properties.registry import get_game


def asked_goals(game: str) -> list[Any]:
    """The goals of `azul-rules search --all --game GAME`."""
    from properties.search.run import all_goals, hooks_of

    entry = get_game(game)
    return all_goals(entry, hooks_of(entry))


def witness_folder(game: str, root: Path) -> Path:
    return root / "fixtures" / get_game(game).fixtures_dir / "witnesses"


def _own(slug: str, name: str) -> bool:
    """`name` is the goal's own witness file (any player count), not a `.default` twin."""
    return re.fullmatch(re.escape(slug) + r"(-\d+p)?\.toml", name) is not None


def witnesses_for(goals: Sequence[Any], folder: Path) -> dict[str, list[Path]]:
    """goal key -> the witness files in `folder` that answer it (own files first)."""
    from properties.search.goals import ClauseGoal

    files = sorted(folder.glob("*.toml")) if folder.is_dir() else []
    declared: dict[Path, set[str]] = {}
    for path in files:
        try:
            declared[path] = set(tomllib.loads(path.read_text(encoding="utf-8")).get("clauses", ()))
        except (tomllib.TOMLDecodeError, OSError):
            declared[path] = set()       # the scenarios stage reports a broken file
    out: dict[str, list[Path]] = {}
    for goal in goals:
        own = [p for p in files if _own(goal.slug, p.name)]
        if own:
            twins = [p.with_name(p.name[:-len(".toml")] + ".default.toml") for p in own]
            out[goal.key] = own + [t for t in twins if t.exists()]
        elif isinstance(goal, ClauseGoal):
            firing = [p for p in files if goal.clause in declared[p] and not p.name.endswith(".default.toml")]
            if firing:
                out[goal.key] = firing[:1]
    return out


def unreachable(game: str) -> dict[str, str]:
    """goal key -> why no game reaches it (the game's search hooks say so, and where it is argued)."""
    from properties.search.run import hooks_of

    return dict(hooks_of(get_game(game)).unreachable)


def unanswered(game: str, root: Path) -> list[Any]:
    """The asked goals no committed witness answers yet and none shown unreachable (what verify's
    search stage looks for)."""
    goals = asked_goals(game)
    have = witnesses_for(goals, witness_folder(game, root))
    shown = unreachable(game)
    return [g for g in goals if g.key not in have and g.key not in shown]


def decided_by_witness(rows: Sequence[Mapping[str, Any]], game: str, root: Path) -> list[dict[str, Any]]:
    """The matrix rows, each single-alternative row that never decided in its games but has a
    committed `--decide` witness marked with it (`witness`: the file; `witness_shown`: relative to `root`)."""
    from properties.search.goals import DecideGoal

    goals = [g for g in asked_goals(game) if isinstance(g, DecideGoal)]
    have = witnesses_for(goals, witness_folder(game, root))
    by_label = {f"{g.interp}={g.alternative}": have[g.key][0] for g in goals if g.key in have}
    out = []
    for row in rows:
        row = dict(row)
        own = row.get("overrides") or {}
        label = next((f"{k}={v}" for k, v in own.items() if f"{k}={v}" in by_label
                      and row["label"].startswith(f"{k}={v}")), None)
        if label and not row.get("decided"):
            row["witness"], row["witness_shown"] = str(by_label[label]), _relative(by_label[label], root)
        out.append(row)
    return out


def _relative(path: Path, root: Path) -> str:
    try:
        return str(path.relative_to(root))
    except ValueError:
        return str(path)


def section(game: str, root: Path, searched: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """A game's "Found by search" rows: goal, kind, status, its witness files (`files`: absolute
    paths; `shown`: as the user types them) or, not found, what was explored. `searched`: verify's
    search stage's result for the game (`found`: goal key -> files, `missing`: goal keys,
    `explored`: what the search looked at); None when the report was built without one. A goal shown
    unreachable has status "shown unreachable" and its reason (`reason`), unless a witness answers
    it all the same (then the witness stands, and the reason is kept to be corrected)."""
    goals = asked_goals(game)
    shown_unreachable = unreachable(game)
    committed = witnesses_for(goals, witness_folder(game, root))
    searched = searched or {}
    found: Mapping[str, Sequence[str]] = searched.get("found", {})
    missing = set(searched.get("missing", ()))
    rows = []
    for g in goals:
        kind = "decide" if g.key.startswith("decide ") else "clause"
        row = {"goal": g.key, "kind": kind, "files": [], "shown": [], "status": "not found within budget",
               "explored": "", "reason": shown_unreachable.get(g.key, "")}
        if g.key in committed:
            row.update(files=[str(p) for p in committed[g.key]], shown=[_relative(p, root) for p in committed[g.key]],
                       status="committed")
        elif g.key in found:
            row.update(files=[str(p) for p in found[g.key]], shown=[Path(p).name for p in found[g.key]],
                       status="found by verify (not committed)")
        elif row["reason"]:
            row["status"] = "shown unreachable"
        else:
            row["explored"] = searched.get("explored", "") if g.key in missing else "not searched in this run"
        rows.append(row)
    return {"rows": rows, "explored": searched.get("explored", ""),
            "answered": sum(bool(r["files"]) for r in rows),
            "unreachable": sum(r["status"] == "shown unreachable" for r in rows), "total": len(rows)}
