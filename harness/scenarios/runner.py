"""Run a scenario: build the position, play the steps, compare every expectation."""

from __future__ import annotations

from typing import Any

import attrs

from harness.scenarios.loader import Scenario
from harness.scenarios.notation import (
    format_counts,
    format_dome_row,
    format_tiles,
    parse_colour_counts,
)
from harness.scenarios.position import build_game
from harness.scenarios.stops import PhaseEnded
from model import Game, IllegalAction, parse_action
from model.events import Event


@attrs.frozen
class ScenarioResult:
    id: str
    file: str
    passed: bool
    diffs: tuple[str, ...]
    steps_run: int
    clauses: tuple[str, ...]

    def to_json(self) -> dict[str, Any]:
        return attrs.asdict(self)


def _player_view(game: Game, who: int) -> dict[str, Any]:
    pl = game.state.players[who]
    return {
        "score": pl.score,
        "lines": [format_tiles([pl.line_colour[i]] * pl.line_count[i]) if pl.line_count[i] else ""
                  for i in range(6)],
        "broken": format_tiles(pl.broken),
        "plates": {str(i + 1): f"P{p:02d} r{pl.rotations[i]}" for i, p in enumerate(pl.plates) if p},
        "dome": [format_dome_row(pl.dome_tile[r * 6:r * 6 + 6]) for r in range(6)],
        "chips": [f"C{c:02d}" for c in pl.chips],
        "used_chips": [f"C{c:02d}" for c in pl.used_chips],
        "tokens_used": pl.tokens_used,
        "chips_this_round": pl.chips_this_round,
        "start_tile": pl.start_tile,
        "passed": pl.passed,
    }


def _factory_view(game: Game, name: str) -> dict[str, Any]:
    s = game.state
    if name == "L":
        return {"sun": format_counts(s.large.sun), "moon": format_counts(s.large.moon),
                "start_tile": s.large.start_tile}
    f = s.small[int(name) - 1]
    return {"sun": format_counts(f.sun), "moon": format_tiles(f.moon),
            "chip": f"C{f.chip:02d}" if f.chip else "", "revealed": f.chip_revealed}


LEGAL_KEYS = {"legal", "legal_count", "legal_includes", "legal_excludes"}


def _labels(ids: list[int], prefix: str) -> list[str]:
    return [f"{prefix}{i:02d}" for i in ids]


def _plates(n: int) -> str:
    return f"{n} plate{'' if n == 1 else 's'}"


def hand_plates(game: Game) -> list[int]:
    """The plates a player holds during a plate decision (drawn, kept and being placed, or to be
    returned under the pile)."""
    p = game.state.pending
    if p is None:
        return []
    if p.kind == "place":
        return [p.data[0], *p.extra]
    if p.kind in ("draw", "return"):
        return list(p.extra)
    return []


def _normalise_plate(v: str) -> str:
    return v if " " in v else v + " r0"


def check_then(game: Game, events: list[Event], then: dict[str, Any], prefix: str) -> list[str]:
    diffs: list[str] = []

    def differ(field: str, expected: Any, actual: Any) -> None:
        if expected != actual:
            diffs.append(f"{prefix}.{field}: expected {expected!r}, got {actual!r}")

    s = game.state
    event_texts = [str(e) for e in events]
    if "scores" in then:
        differ("scores", list(then["scores"]), [p.score for p in s.players])
    if "events" in then:
        pos = 0
        for want in then["events"]:
            hit = next((i for i in range(pos, len(event_texts)) if want in event_texts[i]), None)
            if hit is None:
                diffs.append(f"{prefix}.events: no event containing {want!r} (in order) among:\n    "
                             + "\n    ".join(event_texts or ["(no events)"]))
                break
            pos = hit + 1
    for unwanted in then.get("no_events", []):
        if any(unwanted in t for t in event_texts):
            diffs.append(f"{prefix}.no_events: an event contains {unwanted!r}")
    legal = [str(a) for a in game.legal_actions()] if LEGAL_KEYS & then.keys() else []
    if "legal" in then:
        differ("legal", list(then["legal"]), legal)
    if "legal_count" in then:
        differ("legal_count", then["legal_count"], len(legal))
    for a in then.get("legal_includes", []):
        if a not in legal:
            diffs.append(f"{prefix}.legal_includes: {a!r} is not legal; legal: {legal}")
    for a in then.get("legal_excludes", []):
        if a in legal:
            diffs.append(f"{prefix}.legal_excludes: {a!r} is legal")
    if "phase" in then:
        differ("phase", then["phase"], s.phase)
    if "round" in then:
        differ("round", then["round"], s.round)
    if "to_move" in then:
        cur = game.current_player
        differ("to_move", then["to_move"], f"P{cur + 1}" if cur >= 0 else "nobody")
    if "stalled" in then:
        differ("stalled", then["stalled"], game.is_stalled)
    if "winner" in then or "reason" in then:
        out = game.outcome()
        if out is None:
            diffs.append(f"{prefix}.winner: the game is not over")
        else:
            if "winner" in then:
                differ("winner", then["winner"], "draw" if out.winner is None else f"P{out.winner + 1}")
            if "reason" in then and then["reason"] not in out.reason:
                diffs.append(f"{prefix}.reason: expected {then['reason']!r} in {out.reason!r}")
    for who in (0, 1):
        key = f"p{who + 1}"
        if key not in then:
            continue
        view = _player_view(game, who)
        for field, expected in then[key].items():
            if field == "lines":
                expected = list(expected) + [""] * (6 - len(expected))
            if field == "plates":
                expected = {k: _normalise_plate(v) for k, v in expected.items()}
            if field in ("chips", "used_chips"):
                expected = sorted(expected)
            differ(f"{key}.{field}", expected, view[field])
    for name, spec in then.get("factories", {}).items():
        view = _factory_view(game, name)
        for field, expected in spec.items():
            actual = view.get(field)
            if field in ("sun",) or (field == "moon" and name == "L"):
                expected = "".join(sorted(expected, key="BYRKT".index))
            differ(f"factories.{name}.{field}", expected, actual)
    for key in ("bag", "tower"):
        if key in then:
            differ(key, parse_colour_counts(then[key]), getattr(s, key))
    if "pile_bottom" in then:
        want = list(then["pile_bottom"])
        if len(want) > len(s.pile):
            diffs.append(f"{prefix}.pile_bottom: the pile has {_plates(len(s.pile))}, pile_bottom lists "
                         f"{len(want)}; the pile is {_labels(s.pile, 'P')}")
        else:
            differ("pile_bottom", want, _labels(s.pile[len(s.pile) - len(want):], "P") if want else [])
    if "pile_size" in then:
        differ("pile_size", then["pile_size"], len(s.pile))
    if "chip_supply" in then:
        want = then["chip_supply"]
        if isinstance(want, int):
            differ("chip_supply", want, len(s.chip_supply))
        else:
            differ("chip_supply", sorted(want), _labels(sorted(s.chip_supply), "C"))
    if "special_supply" in then:
        differ("special_supply", then["special_supply"], s.special_supply)
    if "hand" in then:
        differ("hand", sorted(then["hand"]), _labels(sorted(hand_plates(game)), "P"))
    if "pending" in then:
        differ("pending", then["pending"], s.pending.kind if s.pending is not None else "none")
    if "display" in then:
        differ("display", list(then["display"]), [f"P{p:02d}" if p else "-" for p in s.display])
    return diffs


def _invariant_diffs(before, game: Game, step_events: list[Event], n: int, field: str, action) -> list[str]:
    import inspect

    from properties.steps import check_step

    out = _state_invariant_diffs(game, field)
    extra = {"action": action} if "action" in inspect.signature(check_step).parameters else {}
    out += [f"{field}: invariant {name} broken: {msg}"
            for name, msg in check_step(before, game, step_events, n, 1, **extra)]
    return out


# Invariants that describe a position between turns, not one where a phase has just ended: at a
# stop nobody is to act (`progress`), and Preparation may already count the next round while the
# phase still reads `preparation` (`plates-per-round`).
NOT_AT_A_STOP = ("progress", "plates-per-round")


def _state_invariant_diffs(game: Game, field: str, *, physical_only: bool = False) -> list[str]:
    """The invariants that apply to one position (see NOT_AT_A_STOP for a stopped game)."""
    from properties.invariants import violations

    stopped = getattr(game, "stopped", None) is not None
    return [f"{field}: invariant {inv.name} broken: {msg} [{inv.clauses[0]}]"
            for inv, msg in violations(game, physical_only=physical_only)
            if not (stopped and inv.name in NOT_AT_A_STOP)]


def _stop_diffs(scenario: Scenario, game: Game, unplayed: int) -> list[str]:
    stopped = getattr(game, "stopped", None)
    if scenario.stop is None:
        return []
    if stopped is None:
        s = game.state
        return [f"stop: expected the run to stop at {scenario.stop}, but it ended in {s.phase} of round {s.round}"]
    if unplayed:
        return [f"stop: the run stopped at {scenario.stop} with {unplayed} step(s) of 'when' left unplayed"]
    return []


def run_scenario(scenario: Scenario) -> ScenarioResult:
    game, events = build_game(scenario)
    diffs: list[str] = []
    ran = 0
    watch = scenario.then.get("invariants") == "all"
    seen: set[str] = set()

    def note(found: list[str]) -> None:
        for d in found:
            key = d.split(": invariant ", 1)[-1]
            if key not in seen:
                seen.add(key)
                diffs.append(d)

    if watch:
        note(_state_invariant_diffs(game, "given", physical_only=True))
    aborted = False
    for step in scenario.steps:
        if getattr(game, "stopped", None) is not None:
            break
        before = game.state.copy() if watch else None
        action = parse_action(step.action)
        if step.error:
            before = game.state.copy()
            try:
                game.apply(action)
            except IllegalAction as exc:
                if exc.clause != step.error:
                    diffs.append(f"{step.field}: '{step.action}' was refused under {exc.clause}, "
                                 f"expected {step.error}")
                if game.state != before:
                    diffs.append(f"{step.field}: a refused action changed the state")
            except PhaseEnded as stop:
                events.extend(stop.events)
                diffs.append(f"{step.field}: '{step.action}' was accepted, expected refusal under {step.error}")
                aborted = True
                break
            else:
                diffs.append(f"{step.field}: '{step.action}' was accepted, expected refusal under {step.error}")
                aborted = True
                break
        else:
            try:
                step_events = game.apply(action)
            except IllegalAction as exc:
                diffs.append(f"{step.field}: '{step.action}' refused: {exc.reason} [{exc.clause}]; "
                             f"legal: {[str(a) for a in game.legal_actions()]}")
                aborted = True
                break
            except PhaseEnded as stop:
                step_events = stop.events
            events.extend(step_events)
            if watch:
                note(_invariant_diffs(before, game, step_events, ran + 1, step.field, action))
        ran += 1
        if step.then:
            diffs.extend(check_then(game, events, step.then, f"{step.field}.then"))
    if not aborted:
        diffs.extend(_stop_diffs(scenario, game, len(scenario.steps) - ran))
        if watch:
            note(_state_invariant_diffs(game, "then"))
        diffs.extend(check_then(game, events, scenario.then, "then"))
    return ScenarioResult(scenario.id, scenario.file, not diffs, tuple(diffs), ran, scenario.clauses)
