"""What a classic Azul scenario's `then` compares: views of the game in the scenario notation, and
one readable line per difference. Only the fields `then` names are compared."""

from __future__ import annotations

from typing import Any

from harness.azul.scenarios.notation import format_counts, format_tiles, parse_counts, sort_tiles
from harness.scenarios.schema import event_diffs
from model.azul.colours import ROWS
from model.azul.game import Game
from model.azul.state import CENTRE
from model.events import Event

LEGAL_KEYS = {"legal", "legal_count", "legal_includes", "legal_excludes"}


def player_view(game: Game, who: int) -> dict[str, Any]:
    b = game.state.boards[who]
    return {
        "score": b.score,
        "lines": [format_tiles([b.line_colour[i]] * b.line_count[i]) for i in range(ROWS)],
        "wall": [format_tiles(b.wall[r * ROWS:(r + 1) * ROWS]) for r in range(ROWS)],
        "floor": format_tiles(b.floor),
    }


def _is_count(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _seat(n: int) -> str:
    return f"P{n + 1}" if n >= 0 else "nobody"


def check_then(game: Game, events: list[Event], then: dict[str, Any], prefix: str) -> list[str]:
    diffs: list[str] = []
    s = game.state

    def differ(field: str, expected: Any, actual: Any) -> None:
        if expected != actual:
            diffs.append(f"{prefix}.{field}: expected {expected!r}, got {actual!r}")

    if "scores" in then:
        differ("scores", list(then["scores"]), [b.score for b in s.boards])
    diffs += event_diffs([str(e) for e in events], then, prefix)
    legal = [str(a) for a in game.legal_actions()] if LEGAL_KEYS & then.keys() else []
    if "legal" in then:
        differ("legal", list(then["legal"]), legal)
    if "legal_count" in then:
        differ("legal_count", then["legal_count"], len(legal))
    diffs += [f"{prefix}.legal_includes: {a!r} is not legal; legal: {legal}"
              for a in then.get("legal_includes", []) if a not in legal]
    diffs += [f"{prefix}.legal_excludes: {a!r} is legal" for a in then.get("legal_excludes", []) if a in legal]
    for key, actual in (("phase", s.phase), ("round", s.round), ("to_move", _seat(game.current_player)),
                        ("starter", _seat(s.starter)), ("stalled", game.is_stalled),
                        ("marker", "centre" if s.marker == CENTRE else _seat(s.marker))):
        if key in then:
            differ(key, then[key], actual)
    if {"winner", "winners", "reason"} & then.keys():
        out = game.outcome()
        if out is None:
            diffs.append(f"{prefix}.winner: the game is not over (phase {s.phase}, round {s.round})")
        else:
            if "winner" in then:
                differ("winner", then["winner"], "shared" if out.winner is None else _seat(out.winner))
            if "winners" in then:
                differ("winners", list(then["winners"]), [_seat(w) for w in out.winners])
            if "reason" in then and then["reason"] not in out.reason:
                diffs.append(f"{prefix}.reason: expected {then['reason']!r} in {out.reason!r}")
    for who in range(s.players):
        key = f"p{who + 1}"
        if key not in then:
            continue
        view = player_view(game, who)
        for field, expected in then[key].items():
            if field == "lines":
                expected = list(expected) + [""] * (ROWS - len(expected))
            differ(f"{key}.{field}", expected, view[field])
    diffs += [f"{prefix}.p{n}: the game has {s.players} players" for n in range(s.players + 1, 5) if f"p{n}" in then]
    for name, expected in then.get("factories", {}).items():
        n = int(name[1:]) - 1
        if n >= len(s.factories):
            diffs.append(f"{prefix}.factories.{name}: there is no {name} ({len(s.factories)} factories)")
        elif _is_count(expected):
            differ(f"factories.{name}", expected, sum(s.factories[n]))
        else:
            differ(f"factories.{name}", sort_tiles(str(expected)), format_counts(s.factories[n]))
    if "centre" in then:
        differ("centre", sort_tiles(str(then["centre"])), format_counts(s.centre))
    for key in ("bag", "lid"):
        if key in then:
            held = getattr(s, key)
            if _is_count(then[key]):                 # a number: how many tiles, any colours
                differ(key, then[key], sum(held))
            else:
                differ(key, format_counts(parse_counts(then[key])), format_counts(held))
    return diffs
