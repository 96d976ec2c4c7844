"""Which reading of the rules a scenario runs: interpretation alternatives and tablet sides, checked
against what the model can run (spec/'s interpretation points, `model.duel.ruleset.IMPLEMENTED`, the
tablet tables), with "did you mean" for near misses."""

from __future__ import annotations

import difflib
from collections.abc import Iterable

from model.duel.components import build_tables
from model.duel.ruleset import IMPLEMENTED
from spec import default_catalogue


class ReadingError(ValueError):
    """An interpretation or tablet the model cannot run (the message is one line)."""


def _suggest(word: str, choices: Iterable[str]) -> str:
    close = difflib.get_close_matches(word, sorted(choices), n=1, cutoff=0.6)
    return f" (did you mean {close[0]!r}?)" if close else ""


def alternatives() -> dict[str, tuple[str, ...]]:
    """Every interpretation point the model runs, with its alternatives (spec/ order)."""
    catalogue = default_catalogue()
    out = {i.id: tuple(i.names) for i in catalogue.interpretations}
    for interp_id, names in IMPLEMENTED.items():
        out.setdefault(interp_id, tuple(names))
    return dict(sorted(out.items()))


def tablet_sides() -> tuple[str, ...]:
    tables = build_tables(default_catalogue().components)
    return tuple(side for pair in tables.tablet_pairs for side in pair)


def check_reading(interp_id: object, alternative: object) -> None:
    known = alternatives()
    if not isinstance(interp_id, str) or interp_id not in known:
        raise ReadingError(f"unknown interpretation point {interp_id!r}{_suggest(str(interp_id), known)}")
    names = known[interp_id]
    if not isinstance(alternative, str) or alternative not in names:
        hint = _suggest(str(alternative), names)
        raise ReadingError(f"{interp_id} has no alternative {alternative!r}{hint} "
                           f"(alternatives: {', '.join(names)})")


def check_tablet(side: object) -> None:
    sides = tablet_sides()
    if not isinstance(side, str) or side not in sides:
        raise ReadingError(f"unknown tablet side {side!r}{_suggest(str(side), sides)} (sides: {', '.join(sides)})")


def parse_readings(items: Iterable[str]) -> dict[str, str]:
    """`ID=ALT` options (as given on the command line) -> overrides, each checked."""
    out: dict[str, str] = {}
    for text in items:
        if "=" not in text:
            raise ReadingError(f"expected INTERPRETATION=ALTERNATIVE, got {text!r}")
        key, _, value = (part.strip() for part in text.partition("="))
        check_reading(key, value)
        out[key] = value
    return out
