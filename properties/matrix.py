"""The interpretation matrix: every invariant under every alternative of every interpretation point.

Rows are the spec's defaults, each non-default alternative alone, and a few combinations designers
ask about; columns are the invariants. A broken cell names the counterexample scenario."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import attrs

from model.ruleset import IMPLEMENTED
from properties.invariants import INVARIANTS
from properties.simulate import WATCHDOG_FAILURES, run_campaign, write_failure
from properties.steps import STEP_INVARIANTS
from properties.watchdog import DEFAULT_GAME_SECONDS
from spec import default_catalogue

# Invariants, then the watchdogs' failures (a game that never ends, a rule loop past its bound, a crash).
COLUMNS: tuple[str, ...] = (tuple(i.name for i in INVARIANTS) + tuple(i.name for i in STEP_INVARIANTS)
                            + tuple(WATCHDOG_FAILURES))

# Combinations whose interplay a designer asks about (each alternative alone is always a row).
COMBINATIONS: tuple[dict[str, str], ...] = (
    {"duel.plate.draw-at-zero": "must-pay", "duel.acquire.end.passed-tokens": "strict"},
    {"duel.score.start": "zero", "duel.plate.draw-at-zero": "must-pay"},
    {"duel.score.start": "zero", "duel.plate.draw-at-zero": "must-pay", "duel.acquire.end.passed-tokens": "strict"},
)


@attrs.frozen
class MatrixRow:
    label: str
    overrides: dict[str, str]
    games: int
    broken: dict[str, str]            # invariant -> counterexample path
    messages: dict[str, str]          # invariant -> first message
    stalled: int
    decided: int                      # times the row's alternatives decided an outcome in play

    def to_json(self) -> dict[str, Any]:
        return attrs.asdict(self)


def matrix_rows() -> list[tuple[str, dict[str, str]]]:
    rows: list[tuple[str, dict[str, str]]] = [("defaults", {})]
    for interp in default_catalogue().interpretations:
        for alt in IMPLEMENTED[interp.id]:
            if alt != interp.default:
                rows.append((f"{interp.id}={alt}", {interp.id: alt}))
    for combo in COMBINATIONS:
        rows.append((" + ".join(f"{k}={v}" for k, v in sorted(combo.items())), dict(combo)))
    return rows


def run_matrix(games: int, seed: int = 0, jobs: int = 1, out: Path | None = None,
               progress: Callable[[int], None] | None = None,
               game_seconds: float = DEFAULT_GAME_SECONDS) -> list[MatrixRow]:
    """Each row is a campaign of `games` checked games; each game is watched (`game_seconds`, and
    the step bound), so a row that livelocks shows `livelock` instead of hanging the matrix."""
    result = []
    for label, overrides in matrix_rows():
        campaign = run_campaign(games, seed, overrides, jobs=jobs, deep_every=50, progress=progress,
                                game_seconds=game_seconds)
        broken: dict[str, str] = {}
        messages: dict[str, str] = {}
        for report in campaign.failures:
            name = report.failure[0] if report.failure else ""
            if name not in broken:
                broken[name] = str(write_failure(report, overrides, out))
                messages[name] = report.failure[1] if report.failure else ""
        alt_hits = campaign.totals("alt_hits")
        decided = sum(n for (interp, alt), n in alt_hits.items() if overrides.get(interp) == alt) if overrides else 0
        result.append(MatrixRow(label, overrides, games, broken, messages,
                                sum(g.stalled for g in campaign.games), decided))
    return result


def shrink_row(overrides: dict[str, str], directory: Path, max_examples: int = 200) -> tuple[str, str] | None:
    """Let Hypothesis find and shrink a failing game under `overrides`; the machine writes the
    shrunk scenario. Returns (invariant, scenario path), or None when Hypothesis found no failure."""
    import re

    from hypothesis import HealthCheck, settings

    from properties.failure import InvariantBroken
    from properties.machine import machine_for

    machine = machine_for(overrides, directory)
    case = machine.TestCase
    case.settings = settings(max_examples=max_examples, stateful_step_count=300, deadline=None,
                             database=None, derandomize=True, suppress_health_check=list(HealthCheck))
    try:
        case().runTest()
    except BaseException as exc:        # InvariantBroken, or a group of them from Hypothesis
        if isinstance(exc, InvariantBroken) and exc.scenario:
            return exc.invariant, exc.scenario
        m = re.search(r"invariant (\S+) broken: .*?azul-rules scenario (\S+)", str(exc), re.S)
        if m:
            return m[1], m[2]
        raise
    return None
