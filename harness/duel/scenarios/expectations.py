"""What `then` compares: views of the game in the scenario notation, and the diffs between them and
a scenario's expectations (one readable line per difference)."""

from __future__ import annotations

from typing import Any

from harness.duel.scenarios.notation import (
    format_counts,
    format_dome_row,
    format_tiles,
    parse_colour_counts,
)
from harness.scenarios.schema import event_diffs
from model.duel import Game
from model.events import Event
from properties.duel.invariants import hand_plates


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
    diffs.extend(event_diffs(event_texts, then, prefix))
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
