"""Load scenario files strictly: an unknown key, a bad value or an impossible position is an error
naming the file, the line and the field. Nothing is silently defaulted."""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import attrs

from model.actions import NotationError as ActionNotationError
from model.actions import parse_action
from model.ruleset import IMPLEMENTED
from spec import default_catalogue

TOP_KEYS = {"id", "description", "clauses", "interpretations", "tablets", "seed", "given", "chance",
            "when", "then"}
GIVEN_KEYS = {"round", "phase", "starter", "to_move", "display", "pile", "bag", "tower", "factories",
              "p1", "p2"}
PLAYER_KEYS = {"score", "lines", "broken", "plates", "dome", "chips", "used_chips", "tokens_used",
               "chips_this_round", "start_tile", "passed"}
FACTORY_KEYS = {"sun", "moon", "chip", "revealed", "start_tile"}
FACTORY_NAMES = ("L", "1", "2", "3", "4")
CHANCE_KEYS = {"tiles", "plates", "chips", "first", "scope", "strict"}
THEN_KEYS = {"scores", "events", "no_events", "legal", "legal_count", "legal_includes", "legal_excludes",
             "phase", "round", "to_move", "winner", "reason", "stalled", "p1", "p2", "factories", "bag",
             "tower", "display", "pile_bottom", "invariants"}
STEP_KEYS = {"do", "error", "then"}
PHASES = ("setup", "acquisition", "dome_tiling")


class ScenarioError(Exception):
    def __init__(self, file: str, field: str, message: str, line: int | None = None) -> None:
        self.file, self.field, self.message, self.line = file, field, message, line
        super().__init__(f"{file}{':' + str(line) if line else ''}: field '{field}': {message}")


class Locator:
    """Line numbers for dotted field paths in a TOML text (tomllib reports none)."""

    def __init__(self, text: str) -> None:
        self.lines = text.splitlines()

    def line(self, path: str) -> int | None:
        parts = [p for p in re.split(r"\.|\[\d+\]", path) if p]
        if not parts:
            return None
        # the deepest [table] header that is a prefix of the path
        start, depth = 0, 0
        for n, text in enumerate(self.lines):
            m = re.match(r"^\s*\[\[?\s*([A-Za-z0-9_.\-\" ]+?)\s*\]\]?\s*$", text)
            if m:
                header = [h.strip('"') for h in m[1].split(".")]
                if header == parts[:len(header)] and len(header) >= depth:
                    start, depth = n, len(header)
        rest = parts[depth:] or parts[-1:]
        key_pat = re.compile(r'(^|[{,\s])"?' + re.escape(rest[0]) + r'"?\s*=')
        for n in range(start, len(self.lines)):
            if key_pat.search(self.lines[n]):
                return n + 1
        return start + 1 if depth else None


@attrs.frozen
class Step:
    action: str
    error: str | None
    then: dict[str, Any] | None
    field: str


@attrs.frozen
class Scenario:
    id: str
    description: str
    clauses: tuple[str, ...]
    interpretations: dict[str, str]
    tablets: tuple[str, ...] | None
    seed: int
    given: dict[str, Any]
    chance: dict[str, Any]
    steps: tuple[Step, ...]
    then: dict[str, Any]
    file: str
    locator: Locator = attrs.field(eq=False, repr=False)

    def error(self, field: str, message: str) -> ScenarioError:
        return ScenarioError(self.file, field, message, self.locator.line(field))


def _check_keys(table: Any, allowed: set[str], field: str, err) -> dict[str, Any]:
    if not isinstance(table, dict):
        raise err(field, "expected a table")
    for key in sorted(table):
        if key not in allowed:
            raise err(f"{field}.{key}" if field else key, f"unknown key (allowed: {', '.join(sorted(allowed))})")
    return table


def _type(value: Any, kind: type, field: str, err) -> Any:
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise err(field, f"expected {kind.__name__}")
    return value


def load_scenario(path: Path | str) -> Scenario:
    path = Path(path)
    file = str(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise ScenarioError(file, "-", f"cannot read: {exc.strerror}") from None
    loc = Locator(text)

    def err(field: str, message: str) -> ScenarioError:
        return ScenarioError(file, field, message, loc.line(field))

    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        m = re.search(r"line (\d+)", str(exc))
        raise ScenarioError(file, "-", f"malformed TOML: {exc}", int(m[1]) if m else None) from None
    _check_keys(data, TOP_KEYS, "", err)
    for key in ("id", "description", "clauses"):
        if key not in data:
            raise err(key, "required key is missing")
    sid = _type(data["id"], str, "id", err)
    if not re.fullmatch(r"[a-z0-9][a-z0-9.\-]*", sid):
        raise err("id", "ids are lower-case words with dots and dashes")
    catalogue = default_catalogue()
    clauses = _type(data["clauses"], list, "clauses", err)
    if not clauses:
        raise err("clauses", "a scenario checks at least one clause")
    for n, cid in enumerate(clauses):
        if cid not in catalogue:
            raise err(f"clauses[{n}]", f"unknown clause id {cid!r}")
    interps = _type(data.get("interpretations", {}), dict, "interpretations", err)
    for key, alt in interps.items():
        if key not in IMPLEMENTED:
            raise err(f"interpretations.{key}", "unknown interpretation point")
        if alt not in IMPLEMENTED[key]:
            raise err(f"interpretations.{key}", f"no alternative {alt!r} (alternatives: {', '.join(IMPLEMENTED[key])})")
    given = _check_keys(data.get("given", {}), GIVEN_KEYS, "given", err)
    for who in ("p1", "p2"):
        if who in given:
            _check_keys(given[who], PLAYER_KEYS, f"given.{who}", err)
    if "factories" in given:
        _check_keys(given["factories"], set(FACTORY_NAMES), "given.factories", err)
        for name, fac in given["factories"].items():
            _check_keys(fac, FACTORY_KEYS, f"given.factories.{name}", err)
    if "phase" in given and given["phase"] not in PHASES:
        raise err("given.phase", f"expected one of {', '.join(PHASES)}")
    chance = _check_keys(data.get("chance", {}), CHANCE_KEYS, "chance", err)
    if chance.get("scope", "steps") not in ("steps", "game"):
        raise err("chance.scope", "expected 'steps' or 'game'")
    steps = []
    for n, raw in enumerate(_type(data.get("when", []), list, "when", err)):
        field = f"when[{n}]"
        if isinstance(raw, str):
            raw = {"do": raw}
        _check_keys(raw, STEP_KEYS, field, err)
        if "do" not in raw:
            raise err(field, "a step needs 'do'")
        try:
            parse_action(raw["do"])
        except ActionNotationError as exc:
            raise err(field, str(exc)) from None
        if "error" in raw and raw["error"] not in catalogue:
            raise err(f"{field}.error", f"unknown clause id {raw['error']!r}")
        if "then" in raw:
            _check_keys(raw["then"], THEN_KEYS, f"{field}.then", err)
        steps.append(Step(raw["do"], raw.get("error"), raw.get("then"), field))
    then = _check_keys(data.get("then", {}), THEN_KEYS, "then", err)
    for who in ("p1", "p2"):
        if who in then:
            _check_keys(then[who], PLAYER_KEYS, f"then.{who}", err)
    tablets = data.get("tablets")
    scenario = Scenario(
        id=sid, description=_type(data["description"], str, "description", err), clauses=tuple(clauses),
        interpretations=dict(interps), tablets=tuple(tablets) if tablets is not None else None,
        seed=_type(data.get("seed", 0), int, "seed", err), given=given, chance=chance, steps=tuple(steps),
        then=then, file=file, locator=loc,
    )
    # Building the position validates it (impossible positions are errors naming the field).
    from harness.scenarios.position import build_game
    build_game(scenario)
    return scenario


def scenario_files(paths: list[Path]) -> Iterator[Path]:
    for path in paths:
        if path.is_dir():
            yield from sorted(path.rglob("*.toml"))
        else:
            yield path
