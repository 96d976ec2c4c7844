"""`[[readings]]`: one scenario file run again under other interpretation alternatives, each with the
expectations that change. Every game's loader reads the list here and its runner checks the file's
own reading and then each of these, every failure naming its reading."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any, Protocol, TypeVar

import attrs

from harness.scenarios.problems import Problems
from harness.scenarios.result import ScenarioResult
from harness.scenarios.schema import reading_problem, table, typed

READING_KEYS = ("interpretations", "then")


@attrs.frozen
class Reading:
    """The same position and steps under other interpretation alternatives, with the expectations
    that change (`then`, merged over the file's)."""

    interpretations: dict[str, str]
    then: dict[str, Any]
    field: str

    @property
    def label(self) -> str:
        return ", ".join(f"{k}={v}" for k, v in self.interpretations.items())


def read_readings(data: Mapping[str, Any], problems: Problems, *, known: Mapping[str, Iterable[str]],
                  then_keys: Iterable[str], check_then: Callable[[dict[str, Any], str, Problems], None]
                  ) -> tuple[Reading, ...]:
    """The file's `readings`: each names at least one alternative the model runs, and its `then` has
    the game's expectation keys."""
    out = []
    for n, raw in enumerate(typed(data.get("readings", []), list, "readings", problems, [])):
        field = f"readings[{n}]"
        raw = table(raw, READING_KEYS, field, problems)
        interps = typed(raw.get("interpretations", {}), dict, f"{field}.interpretations", problems, {})
        if not interps:
            problems.add(field, "a reading names at least one interpretation alternative")
        for key, value in interps.items():
            problem = reading_problem(key, value, known)
            if problem:
                problems.add(f"{field}.interpretations", problem)
        then = table(raw.get("then", {}), then_keys, f"{field}.then", problems)
        check_then(then, f"{field}.then", problems)
        out.append(Reading(dict(interps), then, field))
    return tuple(out)


def merged_then(then: Mapping[str, Any], reading: Reading, merged: Iterable[str]) -> dict[str, Any]:
    """The file's `then` with the reading's over it: tables named in `merged` (a player's, the
    factories) key by key, every other key replaced."""
    out = dict(then)
    merged = set(merged)
    for key, value in reading.then.items():
        out[key] = {**out.get(key, {}), **value} if key in merged and isinstance(value, dict) else value
    return out


class WithReadings(Protocol):
    @property
    def readings(self) -> tuple[Reading, ...]: ...


S = TypeVar("S", bound=WithReadings)


def run_every_reading(scenario: S, run_one: Callable[[S], ScenarioResult],
                      under: Callable[[S, Reading], S]) -> ScenarioResult:
    """The file's own reading, then each of its `readings` (their diffs say which reading)."""
    result = run_one(scenario)
    diffs, ran = list(result.diffs), result.steps_run
    for reading in scenario.readings:
        other = run_one(under(scenario, reading))
        diffs += [f"{reading.field} ({reading.label}): {d}" for d in other.diffs]
        ran += other.steps_run
    return attrs.evolve(result, passed=not diffs, diffs=tuple(diffs), steps_run=ran)
