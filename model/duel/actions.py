"""Actions and their readable notation.

A turn's decisions are separate actions (OpenSpiel style), so legal-action lists stay small:
a sun pick is `sun 2 red`, then (if the leftovers can be stacked several ways) `stack yellow,black`,
then `line 3` or `broken`.

Notation (factories: `L` large, `1`-`4` small; plate spaces 1-9 row by row; rotations r0-r3 in
clockwise quarter turns; plates P01-P18 and chips C01-C20 in components.toml order):

    plate 2 | draw | keep P07 | place 5 r1 | return P03
    sun L red | sun 3 black | stack yellow,black (bottom to top) | moon red
    line 3 | line 3 x2 (any-split: 2 to the line, rest broken) | broken
    chip 4 | pass | bonus C03+C07 | no-bonus | tile 4 (Dome column)
"""

from __future__ import annotations

import enum
import re
from functools import lru_cache
from operator import attrgetter

import attrs

from model.base import KeyedAction
from model.duel.colours import COLOURS, colour_index
from model.errors import NotationError
from spec.suggest import did_you_mean


class Kind(enum.IntEnum):
    TAKE_PLATE = 1
    DRAW_PLATE = 2
    KEEP_PLATE = 3
    PLACE_PLATE = 4
    RETURN_PLATE = 5
    SUN = 6
    STACK = 7
    MOON = 8
    LINE = 9
    CHIP = 10
    BONUS = 11
    NO_BONUS = 12
    TILE = 13
    PASS = 14


@attrs.frozen(slots=True, cache_hash=True)
class Action(KeyedAction):
    """An Azul Duel action (ordering and the key: model.base.KeyedAction)."""

    kind: Kind
    args: tuple[int, ...] = ()
    text: str | None = attrs.field(init=False, default=None, eq=False, repr=False)   # the notation, once read

    def __str__(self) -> str:
        if self.text is not None:
            return self.text
        try:
            text = format_action(self)
            object.__setattr__(self, "text", text)       # actions are shared (act): formatted once
            return text
        except (IndexError, ValueError, KeyError):       # built by hand with the wrong arguments
            return f"<{self.kind.name.lower()} {list(self.args)}>"


sort_key = attrgetter("key")


# The actions of a state are few (about 2,000 distinct ones) except Bonus-chip sets: up to 2^20
# chip combinations, so the cache is bounded; an evicted action is rebuilt (actions are values).
ACTION_CACHE_SIZE = 8192


@lru_cache(maxsize=ACTION_CACHE_SIZE)
def act(kind: Kind, *args: int) -> Action:
    """A shared instance of an action (actions are values; sharing saves allocations)."""
    return Action(kind, tuple(args))


def _factory_label(f: int) -> str:
    return "L" if f == 0 else str(f)


def format_action(a: Action) -> str:
    k, x = a.kind, a.args
    if k is Kind.TAKE_PLATE:
        return f"plate {x[0] + 1}"
    if k is Kind.DRAW_PLATE:
        return "draw"
    if k is Kind.KEEP_PLATE:
        return f"keep P{x[0]:02d}"
    if k is Kind.PLACE_PLATE:
        return f"place {x[0] + 1} r{x[1]}"
    if k is Kind.RETURN_PLATE:
        return f"return P{x[0]:02d}"
    if k is Kind.SUN:
        return f"sun {_factory_label(x[0])} {COLOURS[x[1]]}"
    if k is Kind.STACK:
        return "stack " + ",".join(COLOURS[c] for c in x)
    if k is Kind.MOON:
        return f"moon {COLOURS[x[0]]}"
    if k is Kind.LINE:
        if x[0] == 0:
            return "broken"
        return f"line {x[0]}" + (f" x{x[1]}" if len(x) > 1 else "")
    if k is Kind.CHIP:
        return f"chip {x[0]}"
    if k is Kind.BONUS:
        return "bonus " + "+".join(f"C{c:02d}" for c in x)
    if k is Kind.NO_BONUS:
        return "no-bonus"
    if k is Kind.TILE:
        return f"tile {x[0] + 1}"
    return "pass"


_PATTERNS: list[tuple[re.Pattern[str], Kind]] = [
    (re.compile(r"plate ([1-3])$"), Kind.TAKE_PLATE),
    (re.compile(r"draw$"), Kind.DRAW_PLATE),
    (re.compile(r"keep P(\d\d?)$"), Kind.KEEP_PLATE),
    (re.compile(r"place ([1-9]) r([0-3])$"), Kind.PLACE_PLATE),
    (re.compile(r"return P(\d\d?)$"), Kind.RETURN_PLATE),
    (re.compile(r"sun ([L1-4]) ([a-z]+)$"), Kind.SUN),
    (re.compile(r"stack ([a-z,]+)$"), Kind.STACK),
    (re.compile(r"moon ([a-z]+)$"), Kind.MOON),
    (re.compile(r"line ([1-6])(?: x(\d))?$"), Kind.LINE),
    (re.compile(r"broken$"), Kind.LINE),
    (re.compile(r"chip ([1-4])$"), Kind.CHIP),
    (re.compile(r"bonus (C\d\d?(?:\+C\d\d?)*)$"), Kind.BONUS),
    (re.compile(r"no-bonus$"), Kind.NO_BONUS),
    (re.compile(r"tile ([1-6])$"), Kind.TILE),
    (re.compile(r"pass$"), Kind.PASS),
]
# the first word of every action above, for "did you mean"
_VERBS: tuple[str, ...] = tuple(sorted({p.pattern.split(" ", 1)[0].rstrip("$") for p, _ in _PATTERNS}))
# words of other Azul notations (classic's `take F1 red line 1`, `floor`) and what Duel says instead:
# spelling them like a Duel verb would suggest an unrelated one ('take' is close to 'stack')
_OTHER_WORDS: dict[str, str] = {
    "take": "a Duel turn takes tiles with 'sun F colour', F being L or 1-4, or 'moon colour'",
    "pick": "a Duel turn takes tiles with 'sun F colour', F being L or 1-4, or 'moon colour'",
    "floor": "tiles go to the Broken tiles space with 'broken'",
}


def parse_action(text: str) -> Action:
    """Parse one action in our notation; NotationError says what was expected."""
    t = " ".join(text.strip().split())
    for pattern, kind in _PATTERNS:
        m = pattern.match(t)
        if not m:
            continue
        try:
            if kind is Kind.TAKE_PLATE:
                return act(kind, int(m[1]) - 1)
            if kind in (Kind.KEEP_PLATE, Kind.RETURN_PLATE):
                return act(kind, int(m[1]))
            if kind is Kind.PLACE_PLATE:
                return act(kind, int(m[1]) - 1, int(m[2]))
            if kind is Kind.SUN:
                return act(kind, 0 if m[1] == "L" else int(m[1]), colour_index(m[2]))
            if kind is Kind.STACK:
                return act(kind, *(colour_index(c) for c in m[1].split(",")))
            if kind is Kind.MOON:
                return act(kind, colour_index(m[1]))
            if kind is Kind.LINE:
                if t == "broken":
                    return act(kind, 0)
                return act(kind, int(m[1]), int(m[2])) if m[2] else act(kind, int(m[1]))
            if kind is Kind.CHIP:
                return act(kind, int(m[1]))
            if kind is Kind.BONUS:
                return act(kind, *sorted(int(c[1:]) for c in m[1].split("+")))
            if kind is Kind.TILE:
                return act(kind, int(m[1]) - 1)
            return act(kind)
        except ValueError as exc:
            raise NotationError(f"{text!r}: {exc}") from None
    verb = t.split(" ", 1)[0] if t else ""
    hint = (f" ({_OTHER_WORDS[verb]})" if verb in _OTHER_WORDS
            else did_you_mean(verb, _VERBS) if verb not in _VERBS else "")
    raise NotationError(f"{text!r} is not an action{hint} (e.g. 'sun L red', 'moon black', 'line 3', "
                        "'broken', 'plate 2', 'draw', 'keep P07', 'place 5 r1', 'chip 2', 'pass')")
