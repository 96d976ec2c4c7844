"""Load scenario files strictly: an unknown key, a bad value or an impossible position is an error
naming the file, the line and the field. Nothing is silently defaulted, and every problem of a file
is reported at once."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import attrs

from harness.duel.scenarios.readings import ReadingError, alternatives, check_reading, check_tablet
from harness.duel.scenarios.stops import stop_names
from harness.scenarios.files import is_scenario_file, looks_like_scenario, scenario_files
from harness.scenarios.locate import Locator
from harness.scenarios.problems import UNKNOWN_KEY, LocatedInFile, Problem, Problems, ScenarioError
from harness.scenarios.reading import check_identity, read_toml
from harness.scenarios.readings import Reading, merged_then, read_readings
from harness.scenarios.schema import check_clauses
from harness.scenarios.steps import Step
from model.duel.actions import NotationError as ActionNotationError
from model.duel.actions import parse_action
from model.duel.phases import PHASES as ALL_PHASES
from spec import default_catalogue
from spec.suggest import did_you_mean

__all__ = ["FACTORY_NAMES", "Locator", "Problem", "Reading", "Scenario", "ScenarioError", "Step", "load_scenario",
           "is_scenario_file", "looks_like_scenario", "scenario_files", "with_readings"]

TOP_KEYS = {"game", "id", "description", "clauses", "interpretations", "tablets", "seed", "given", "chance",
            "when", "then", "stop", "readings"}
REQUIRED = ("id", "description", "clauses")
GIVEN_KEYS = {"round", "phase", "starter", "to_move", "display", "pile", "bag", "tower", "factories",
              "p1", "p2"}
PLAYER_KEYS = {"score", "lines", "broken", "plates", "dome", "chips", "used_chips", "tokens_used",
               "chips_this_round", "start_tile", "passed"}
FACTORY_KEYS = {"sun", "moon", "chip", "revealed", "start_tile"}
FACTORY_NAMES = ("L", "1", "2", "3", "4")
CHANCE_KEYS = {"tiles", "plates", "chips", "first", "scope", "strict"}
THEN_KEYS = {"scores", "events", "no_events", "legal", "legal_count", "legal_includes", "legal_excludes",
             "phase", "round", "to_move", "winner", "reason", "stalled", "p1", "p2", "factories", "bag",
             "tower", "display", "pile_bottom", "pile_size", "chip_supply", "special_supply", "hand",
             "pending", "invariants"}
STEP_KEYS = {"do", "error", "then"}
PHASES = ("setup", "acquisition", "dome_tiling")
PENDING_KINDS = ("none", "opening", "draw", "place", "return", "stack", "line", "bonus", "tile")
# the fields building the position reads (a problem there means the position is not built)
POSITION_FIELDS = ("given", "chance", "interpretations", "tablets", "seed", "stop", "readings")
MERGED = ("p1", "p2", "factories")         # `then` tables a reading merges key by key


@attrs.frozen
class Scenario(LocatedInFile):
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
    stop: str | None = None
    readings: tuple[Reading, ...] = ()

    def under(self, reading: Reading) -> Scenario:
        """This scenario under one of its `readings`: those interpretations, `then` merged over."""
        return attrs.evolve(self, interpretations={**self.interpretations, **reading.interpretations},
                            then=merged_then(self.then, reading, MERGED), readings=())


def _table(value: Any, allowed: set[str], field: str, problems: Problems) -> dict[str, Any]:
    """The table's known keys (unknown ones are problems)."""
    if not isinstance(value, dict):
        problems.add(field, "expected a table")
        return {}
    for key in sorted(value):
        if key not in allowed:
            problems.add(f"{field}.{key}" if field else key, f"{UNKNOWN_KEY} (allowed: {', '.join(sorted(allowed))})")
    return value


def _typed(value: Any, kind: type, field: str, problems: Problems, default: Any) -> Any:
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        problems.add(field, "expected " + {list: "a list", dict: "a table", int: "an integer", str: "a string"}[kind])
        return default
    return value


def _labels(value: Any, prefix: str, high: int, field: str, problems: Problems, alternative: str = "") -> None:
    items = value if isinstance(value, list) else None
    if items is None or not all(isinstance(x, str) and re.fullmatch(prefix + r"\d\d", x)
                                and 1 <= int(x[1:]) <= high for x in items):
        problems.add(field, f"expected {alternative}a list of {prefix}01-{prefix}{high:02d}")


def _check_then(then: dict[str, Any], field: str, problems: Problems) -> None:
    """Types of the expectations that need one (the others are compared as written)."""
    for who in ("p1", "p2"):
        if who in then:
            _table(then[who], PLAYER_KEYS, f"{field}.{who}", problems)
    for key in ("pile_size", "special_supply", "legal_count", "round"):
        if key in then and (not isinstance(then[key], int) or isinstance(then[key], bool) or then[key] < 0):
            problems.add(f"{field}.{key}", "expected a count (an integer >= 0)")
    if "chip_supply" in then and not (isinstance(then["chip_supply"], int)
                                      and not isinstance(then["chip_supply"], bool)):
        _labels(then["chip_supply"], "C", 20, f"{field}.chip_supply", problems, "a count or ")
    for key in ("hand", "pile_bottom"):
        if key in then:
            _labels(then[key], "P", 18, f"{field}.{key}", problems)
    for key, choices in (("pending", PENDING_KINDS), ("phase", ALL_PHASES), ("to_move", ("P1", "P2", "nobody")),
                         ("winner", ("P1", "P2", "draw"))):
        if key in then and then[key] not in choices:
            problems.add(f"{field}.{key}", f"expected one of {', '.join(choices)}")
    if "invariants" in then and then["invariants"] != "all":
        problems.add(f"{field}.invariants", 'the only value is "all"')


def _check_clauses(data: dict[str, Any], problems: Problems) -> tuple[str, ...]:
    return check_clauses(data, default_catalogue(), problems, hint=did_you_mean)


def _check_readings(data: dict[str, Any], problems: Problems) -> tuple[dict[str, str], tuple[str, ...] | None]:
    interps = _typed(data.get("interpretations", {}), dict, "interpretations", problems, {})
    for key, alt in interps.items():
        try:
            check_reading(key, alt)
        except ReadingError as exc:
            problems.add(f"interpretations.{key}", str(exc))
    tablets = data.get("tablets")
    if tablets is not None:
        tablets = _typed(tablets, list, "tablets", problems, None)
        for n, side in enumerate(tablets or []):
            try:
                check_tablet(side)
            except ReadingError as exc:
                problems.add(f"tablets[{n}]", str(exc))
    return dict(interps), tuple(tablets) if tablets is not None else None


def _check_steps(data: dict[str, Any], problems: Problems) -> tuple[Step, ...]:
    catalogue = default_catalogue()
    steps = []
    for n, raw in enumerate(_typed(data.get("when", []), list, "when", problems, [])):
        field = f"when[{n}]"
        if isinstance(raw, str):
            raw = {"do": raw}
        raw = _table(raw, STEP_KEYS, field, problems)
        if "do" not in raw:
            if raw:
                problems.add(field, "a step needs 'do'")
            continue
        try:
            parse_action(raw["do"])
        except (ActionNotationError, AttributeError) as exc:
            problems.add(field, str(exc) if isinstance(exc, ActionNotationError) else "expected an action")
            continue
        if "error" in raw and raw["error"] not in catalogue:
            problems.add(f"{field}.error", f"unknown clause id {raw['error']!r}{did_you_mean(str(raw['error']), catalogue.ids)}")
        if "then" in raw:
            raw["then"] = _table(raw["then"], THEN_KEYS, f"{field}.then", problems)
            _check_then(raw["then"], f"{field}.then", problems)
        steps.append(Step(raw["do"], raw.get("error"), raw.get("then"), field))
    return tuple(steps)


def load_scenario(path: Path | str) -> Scenario:
    file, loc, problems, data = read_toml(path)
    _table(data, TOP_KEYS, "", problems)
    sid, description = check_identity(data, problems, REQUIRED)
    clauses = _check_clauses(data, problems)
    interps, tablets = _check_readings(data, problems)
    given = _table(data.get("given", {}), GIVEN_KEYS, "given", problems)
    for who in ("p1", "p2"):
        if who in given:
            _table(given[who], PLAYER_KEYS, f"given.{who}", problems)
    if "factories" in given:
        factories = _table(given["factories"], set(FACTORY_NAMES), "given.factories", problems)
        for name, fac in factories.items():
            if name in FACTORY_NAMES:
                _table(fac, FACTORY_KEYS, f"given.factories.{name}", problems)
    if "phase" in given and given["phase"] not in PHASES:
        problems.add("given.phase", f"expected one of {', '.join(PHASES)}")
    chance = _table(data.get("chance", {}), CHANCE_KEYS, "chance", problems)
    if chance.get("scope", "steps") not in ("steps", "game"):
        problems.add("chance.scope", "expected 'steps' or 'game'")
    stop = data.get("stop")
    if stop is not None and stop not in stop_names():
        problems.add("stop", f"expected one of {', '.join(stop_names())}")
    steps = _check_steps(data, problems)
    then = _table(data.get("then", {}), THEN_KEYS, "then", problems)
    _check_then(then, "then", problems)
    readings = read_readings(data, problems, known=alternatives(), then_keys=THEN_KEYS, check_then=_check_then)
    scenario = Scenario(
        id=sid, description=description, clauses=clauses, interpretations=interps, tablets=tablets,
        seed=_typed(data.get("seed", 0), int, "seed", problems, 0), given=given, chance=chance, steps=steps,
        then=then, file=file, locator=loc, stop=stop, readings=readings,
    )
    if not problems.in_fields(*POSITION_FIELDS, but_unknown_keys=True):
        # Building the position validates it (impossible positions are errors naming the field).
        from harness.duel.scenarios.position import build_game
        problems.attempt(build_game, scenario)
        for reading in readings:
            problems.attempt(build_game, scenario.under(reading))
    problems.raise_if_any()
    return scenario


def with_readings(scenario: Scenario, flips: dict[str, str]) -> Scenario:
    """The scenario under other interpretation alternatives (command-line flips win over the file and
    over its `readings`, which are dropped: the flip is the one reading asked for)."""
    return attrs.evolve(scenario, interpretations={**scenario.interpretations, **flips}, readings=()) \
        if flips else scenario
