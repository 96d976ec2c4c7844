"""Reading the parts every game's scenario schema shares: tables with known keys, typed values,
the declared clauses, interpretation choices and the `when` steps. Each game's loader supplies its
own key sets, action parser and `then` checker; problems name file, line and field (problems.py)."""

from __future__ import annotations

import difflib
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from harness.scenarios.problems import UNKNOWN_KEY, Problems
from spec import Catalogue

_KIND_WORDS = {list: "a list", dict: "a table", int: "an integer", str: "a string", bool: "true or false"}


def suggest(word: object, choices: Iterable[str]) -> str:
    """` (did you mean 'x'?)` for the nearest choice, or ""."""
    close = difflib.get_close_matches(str(word), sorted(choices), n=1, cutoff=0.6)
    return f" (did you mean {close[0]!r}?)" if close else ""


def table(value: Any, allowed: Iterable[str], field: str, problems: Problems) -> dict[str, Any]:
    """The table (its unknown keys are problems, with the nearest known key)."""
    allowed = set(allowed)
    if not isinstance(value, dict):
        problems.add(field or "-", "expected a table")
        return {}
    for key in sorted(value):
        if key not in allowed:
            problems.add(f"{field}.{key}" if field else key,
                         f"{UNKNOWN_KEY}{suggest(key, allowed)} (allowed: {', '.join(sorted(allowed))})")
    return value


def typed(value: Any, kind: type, field: str, problems: Problems, default: Any) -> Any:
    """`value` when it has type `kind` (bools are not integers), else a problem and `default`."""
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        problems.add(field, "expected " + _KIND_WORDS.get(kind, kind.__name__))
        return default
    return value


def check_clauses(data: Mapping[str, Any], catalogue: Catalogue, problems: Problems,
                  hint: Callable[[str, Iterable[str]], str] = suggest) -> tuple[str, ...]:
    """The declared clause ids: known to the game's catalogue, no repeats, at least one ("id@N" pins
    the clause revision the scenario was written against). `hint` words the "did you mean"."""
    clauses = typed(data.get("clauses", []), list, "clauses", problems, [])
    if "clauses" in data and not clauses and isinstance(data["clauses"], list):
        problems.add("clauses", "a scenario checks at least one clause")
    first_at: dict[str, int] = {}
    for n, declared in enumerate(clauses):
        cid, _, rev = declared.partition("@") if isinstance(declared, str) else (str(declared), "", "")
        if cid not in catalogue or (rev and not rev.isdigit()):
            problems.add(f"clauses[{n}]", f"unknown clause id {declared!r}{hint(cid, catalogue.ids)}")
        elif rev and not 1 <= int(rev) <= catalogue.clause(cid).revision:
            problems.add(f"clauses[{n}]", f"{cid} has no revision {rev} (spec/ holds {catalogue.clause(cid).revision})")
        elif cid in first_at:
            problems.add(f"clauses[{n}]", f"duplicate clause id {cid!r} (already clauses[{first_at[cid]}])")
        else:
            first_at[cid] = n
    return tuple(c for c in clauses if isinstance(c, str))


def reading_problem(interp_id: object, alternative: object, known: Mapping[str, Iterable[str]]) -> str | None:
    """Why `interp_id = alternative` is not a reading the model runs (one line), or None."""
    if not isinstance(interp_id, str) or interp_id not in known:
        return f"unknown interpretation point {interp_id!r}{suggest(interp_id, known)}"
    names = tuple(known[interp_id])
    if not isinstance(alternative, str) or alternative not in names:
        return (f"{interp_id} has no alternative {alternative!r}{suggest(alternative, names)} "
                f"(alternatives: {', '.join(names)})")
    return None


def check_readings(data: Mapping[str, Any], known: Mapping[str, Iterable[str]], problems: Problems) -> dict[str, str]:
    """`interpretations = { ID = "ALT" }`, each one a reading the model runs."""
    interps = typed(data.get("interpretations", {}), dict, "interpretations", problems, {})
    for key, value in interps.items():
        problem = reading_problem(key, value, known)
        if problem:
            problems.add(f'interpretations."{key}"' if "." in key else f"interpretations.{key}", problem)
    return dict(interps)


def read_steps(data: Mapping[str, Any], problems: Problems, *, parse: Callable[[str], object],
               parse_errors: tuple[type[Exception], ...], catalogue: Catalogue, then_keys: Iterable[str],
               check_then: Callable[[dict[str, Any], str, Problems], None]) -> list[tuple[str, str | None, dict | None, str]]:
    """`when`: steps as (action text, refusal clause or None, step expectations or None, field)."""
    steps = []
    for n, raw in enumerate(typed(data.get("when", []), list, "when", problems, [])):
        field = f"when[{n}]"
        if isinstance(raw, str):
            raw = {"do": raw}
        raw = table(raw, {"do", "error", "then"}, field, problems)
        if "do" not in raw:
            if raw:
                problems.add(field, "a step needs 'do'")
            continue
        try:
            if not isinstance(raw["do"], str):
                raise TypeError
            parse(raw["do"])
        except parse_errors as exc:
            problems.add(field, str(exc))
            continue
        except TypeError:
            problems.add(field, "expected an action")
            continue
        if "error" in raw and raw["error"] not in catalogue:
            problems.add(f"{field}.error", f"unknown clause id {raw['error']!r}{suggest(raw['error'], catalogue.ids)}")
        then = None
        if "then" in raw:
            then = table(raw["then"], then_keys, f"{field}.then", problems)
            check_then(then, f"{field}.then", problems)
        steps.append((raw["do"], raw.get("error"), then, field))
    return steps


def event_diffs(event_texts: list[str], then: Mapping[str, Any], prefix: str) -> list[str]:
    """`events` (substrings, in order) and `no_events` (substrings that must not occur)."""
    diffs: list[str] = []
    pos = 0
    for want in then.get("events", []):
        hit = next((i for i in range(pos, len(event_texts)) if want in event_texts[i]), None)
        if hit is None:
            diffs.append(f"{prefix}.events: no event containing {want!r} (in order) among:\n    "
                         + "\n    ".join(event_texts or ["(no events)"]))
            break
        pos = hit + 1
    for unwanted in then.get("no_events", []):
        if any(unwanted in t for t in event_texts):
            diffs.append(f"{prefix}.no_events: an event contains {unwanted!r}")
    return diffs
