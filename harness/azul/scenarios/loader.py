"""Load classic Azul scenario files strictly: every problem names the file, the line and the field
(and the clause where a rule is broken); unknown keys and colours get "did you mean". The shared
parts (tables, clauses, readings, steps) come from harness.scenarios.schema."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import attrs

from harness.azul.scenarios.notation import NotationError, parse_counts
from harness.azul.scenarios.stops import STOPS
from harness.scenarios.locate import Locator
from harness.scenarios.problems import LocatedInFile, Problems
from harness.scenarios.reading import check_identity, read_toml
from harness.scenarios.readings import Reading, merged_then, read_readings
from harness.scenarios.schema import check_clauses, check_readings, read_steps, reading_problem, table, typed
from harness.scenarios.steps import Step
from model.azul.actions import NotationError as ActionNotationError
from model.azul.actions import parse_action
from model.azul.ruleset import IMPLEMENTED, WALL_SIDES
from spec import default_catalogue

GAME = "azul"
TOP_KEYS = {"game", "id", "description", "clauses", "interpretations", "seed", "given", "chance", "when", "then",
            "readings", "stop"}
MERGED = ("p1", "p2", "p3", "p4", "factories")     # `then` tables a reading merges key by key
REQUIRED = ("id", "description", "clauses")
GIVEN_KEYS = {"players", "wall", "round", "phase", "starter", "to_move", "marker", "factories", "centre", "bag",
              "lid", "p1", "p2", "p3", "p4"}
PLAYER_KEYS = {"score", "lines", "wall", "floor"}
CHANCE_KEYS = {"tiles", "first", "strict"}
THEN_KEYS = {"scores", "events", "no_events", "legal", "legal_count", "legal_includes", "legal_excludes",
             "phase", "round", "to_move", "starter", "stalled", "winner", "winners", "reason", "p1", "p2", "p3",
             "p4", "factories", "centre", "marker", "bag", "lid", "invariants"}
GIVEN_PHASES = ("offer", "tiling")          # tiling: the offer is over, wall-tiling runs when the file loads
PHASES = ("offer", "tiling", "over")
SEATS = ("P1", "P2", "P3", "P4")
# the fields building the position reads (a problem there means the position is not built)
POSITION_FIELDS = ("given", "chance", "interpretations", "seed", "readings", "stop")


@attrs.frozen
class Scenario(LocatedInFile):
    id: str
    description: str
    clauses: tuple[str, ...]
    interpretations: dict[str, str]
    seed: int
    given: dict[str, Any]
    chance: dict[str, Any]
    steps: tuple[Step, ...]
    then: dict[str, Any]
    file: str
    locator: Locator = attrs.field(eq=False, repr=False)
    game: str = GAME
    readings: tuple[Reading, ...] = ()
    stop: str | None = None            # harness/azul/scenarios/stops.py: where the run halts

    def under(self, reading: Reading) -> Scenario:
        """This scenario under one of its `readings`: those interpretations, `then` merged over."""
        return attrs.evolve(self, interpretations={**self.interpretations, **reading.interpretations},
                            then=merged_then(self.then, reading, MERGED), readings=())


def alternatives() -> dict[str, tuple[str, ...]]:
    """Every interpretation point of classic Azul the model runs (spec/azul's and the model's)."""
    out = {i.id: tuple(i.names) for i in default_catalogue(GAME).interpretations}
    for interp_id, names in IMPLEMENTED.items():
        out.setdefault(interp_id, tuple(names))
    return dict(sorted(out.items()))


class ReadingError(ValueError):
    """An interpretation choice the model cannot run (one line)."""


def parse_readings(items: tuple[str, ...] | list[str]) -> dict[str, str]:
    """`ID=ALT` options (as given on the command line) -> overrides, each checked."""
    out: dict[str, str] = {}
    for text in items:
        if "=" not in text:
            raise ReadingError(f"expected INTERPRETATION=ALTERNATIVE, got {text!r}")
        key, _, value = (part.strip() for part in text.partition("="))
        problem = reading_problem(key, value, alternatives())
        if problem:
            raise ReadingError(problem)
        out[key] = value
    return out


def with_readings(scenario: Scenario, flips: dict[str, str]) -> Scenario:
    """The scenario under other interpretation alternatives (command-line flips win over the file and
    over its `readings`, which are dropped: the flip is the one reading asked for)."""
    return attrs.evolve(scenario, interpretations={**scenario.interpretations, **flips}, readings=()) \
        if flips else scenario


def _count(then: dict[str, Any], key: str, field: str, problems: Problems) -> None:
    if key in then and (not isinstance(then[key], int) or isinstance(then[key], bool) or then[key] < 0):
        problems.add(f"{field}.{key}", "expected a count (an integer >= 0)")


def check_then(then: dict[str, Any], field: str, problems: Problems) -> None:
    """Keys and values of expectations that can never match are errors when the file loads."""
    for who in ("p1", "p2", "p3", "p4"):
        if who in then:
            table(then[who], PLAYER_KEYS, f"{field}.{who}", problems)
    for key in ("round", "legal_count"):
        _count(then, key, field, problems)
    for key, choices in (("phase", PHASES), ("to_move", (*SEATS, "nobody")), ("starter", SEATS),
                         ("winner", (*SEATS, "shared")), ("marker", ("centre", *SEATS))):
        if key in then and then[key] not in choices:
            from harness.scenarios.schema import suggest
            problems.add(f"{field}.{key}", f"expected one of {', '.join(choices)}{suggest(then[key], choices)}")
    if "winners" in then and not (isinstance(then["winners"], list) and all(w in SEATS for w in then["winners"])):
        problems.add(f"{field}.winners", "expected a list of players (P1-P4)")
    if "factories" in then:
        table(then["factories"], {f"F{n}" for n in range(1, 10)}, f"{field}.factories", problems)
    for key in ("bag", "lid"):                  # colour counts, a tile string, or a number of tiles
        if key in then and not (isinstance(then[key], int) and not isinstance(then[key], bool) and then[key] >= 0):
            try:
                parse_counts(then[key])
            except NotationError as exc:
                problems.add(f"{field}.{key}", str(exc))
    if "invariants" in then and then["invariants"] != "all":
        problems.add(f"{field}.invariants", 'the only value is "all"')


def _check_given(given: dict[str, Any], problems: Problems) -> None:
    for who in ("p1", "p2", "p3", "p4"):
        if who in given:
            table(given[who], PLAYER_KEYS, f"given.{who}", problems)
    if "phase" in given and given["phase"] not in GIVEN_PHASES:
        problems.add("given.phase", f"expected one of {', '.join(GIVEN_PHASES)} (a game ends by play)")
    if "wall" in given and given["wall"] not in WALL_SIDES:
        from harness.scenarios.schema import suggest
        problems.add("given.wall", f"unknown wall side {given['wall']!r}{suggest(given['wall'], WALL_SIDES)} "
                                   f"(sides: {', '.join(WALL_SIDES)}) [azul.setup.wall-side]")
    if "players" in given and given["players"] not in (2, 3, 4):
        problems.add("given.players", "classic Azul is for 2, 3 or 4 players [azul.component.players]")


def load_scenario(path: Path | str) -> Scenario:
    file, loc, problems, data = read_toml(path)
    table(data, TOP_KEYS, "", problems)
    sid, description = check_identity(data, problems, REQUIRED)
    catalogue = default_catalogue(GAME)
    clauses = check_clauses(data, catalogue, problems)
    interps = check_readings(data, alternatives(), problems)
    given = table(data.get("given", {}), GIVEN_KEYS, "given", problems)
    _check_given(given, problems)
    chance = table(data.get("chance", {}), CHANCE_KEYS, "chance", problems)
    steps = read_steps(data, problems, parse=parse_action, parse_errors=(ActionNotationError,), catalogue=catalogue,
                       then_keys=THEN_KEYS, check_then=check_then)
    then = table(data.get("then", {}), THEN_KEYS, "then", problems)
    check_then(then, "then", problems)
    readings = read_readings(data, problems, known=alternatives(), then_keys=THEN_KEYS, check_then=check_then)
    stop = data.get("stop")
    if stop is not None and stop not in STOPS:
        from harness.scenarios.schema import suggest
        problems.add("stop", f"expected one of {', '.join(STOPS)}{suggest(str(stop), STOPS)}")
        stop = None
    scenario = Scenario(
        id=sid, description=description, clauses=clauses, interpretations=interps,
        seed=typed(data.get("seed", 0), int, "seed", problems, 0), given=given, chance=chance,
        steps=tuple(Step(*s) for s in steps), then=then, file=file, locator=loc, readings=readings, stop=stop,
    )
    if not problems.in_fields(*POSITION_FIELDS, but_unknown_keys=True):
        from harness.azul.scenarios.position import build_game  # building the position validates it
        problems.attempt(build_game, scenario)
        for reading in readings:
            problems.attempt(build_game, scenario.under(reading))
    problems.raise_if_any()
    return scenario
