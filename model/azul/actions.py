"""Classic Azul actions and their notation.

    take F2 red line 3      all red tiles of factory 2 to pattern line 3
    take C blue floor       all blue tiles of the centre straight to the floor line
    wall r2 c4              gray side: the completed line of row 2 goes to column 4
    take F2 red line 3 x1   azul.lines.voluntary-split=voluntary-split: 1 tile to line 3, the rest
                            to the floor (x below what would fit; without x the line takes all it can)

An action is a frozen value ordered by its key: takes (factories 1..n, then the centre; colours in
COLOURS order; lines 1..5, then the floor) before wall placements.
"""

from __future__ import annotations

import enum
import re
from functools import lru_cache

import attrs

from model.azul.colours import COLOURS, NUM_COLOURS, colour_index
from model.base import KeyedAction
from model.errors import NotationError
from spec.suggest import did_you_mean

__all__ = ["CENTRE_SOURCE", "FLOOR", "TAKES", "Action", "Kind", "NotationError", "format_action",
           "parse_action", "take", "wall"]

CENTRE_SOURCE = 9      # source index of the centre (factories are 0..8)
FLOOR = 5              # destination index of the floor line (pattern lines are 0..4)


class Kind(enum.IntEnum):
    TAKE = 1           # args: (source, colour, destination) or (source, colour, line, tiles on the line)
    WALL = 2           # args: (row, column), 0-based


@attrs.frozen(slots=True, cache_hash=True)
class Action(KeyedAction):
    """A classic Azul action (ordering and the key: model.base.KeyedAction)."""

    kind: Kind
    args: tuple[int, ...]
    text: str = attrs.field(init=False, eq=False, repr=False)     # the notation, formatted once

    def __attrs_post_init__(self) -> None:
        KeyedAction.__attrs_post_init__(self)
        object.__setattr__(self, "text", format_action(self))

    def __str__(self) -> str:
        return self.text


def take(source: int, colour: int, dest: int, split: int = 0) -> Action:
    """Take every `colour` tile from `source` (0-8 a factory, CENTRE_SOURCE) to `dest` (0-4 a line,
    FLOOR); `split` > 0: only that many go on the line, the rest to the floor. The actions of the
    real table are made once (TAKES); the same arguments give the same object."""
    if not split and 0 <= source <= CENTRE_SOURCE and 0 <= colour < NUM_COLOURS and 0 <= dest <= FLOOR:
        return TAKES[source][colour][dest]
    return _made(Kind.TAKE, (source, colour, dest, split) if split else (source, colour, dest))


def wall(row: int, col: int) -> Action:
    return _made(Kind.WALL, (row, col))


@lru_cache(maxsize=4096)
def _made(kind: Kind, args: tuple[int, ...]) -> Action:
    return Action(kind, args)


def format_action(a: Action) -> str:
    if a.kind is Kind.WALL:
        return f"wall r{a.args[0] + 1} c{a.args[1] + 1}"
    source, colour, dest = a.args[:3]
    src = "C" if source == CENTRE_SOURCE else f"F{source + 1}"
    where = "floor" if dest == FLOOR else f"line {dest + 1}"
    if len(a.args) > 3:
        where += f" x{a.args[3]}"
    name = COLOURS[colour] if 0 <= colour < len(COLOURS) else f"colour{colour}"
    return f"take {src} {name} {where}"


_TAKE = re.compile(r"take (\S+) (\S+) (.+)$")
_WALL = re.compile(r"wall (\S+) (\S+)$")
_EXAMPLES = "e.g. 'take F2 red line 3', 'take C blue floor', 'wall r2 c4'"


def _source(word: str, text: str) -> int:
    if word.upper() == "C":
        return CENTRE_SOURCE
    m = re.fullmatch(r"[Ff](\d+)", word)
    if not m or not 1 <= int(m[1]) <= 9:
        raise NotationError(f"{text!r}: source {word!r} is not a factory F1-F9 or the centre C")
    return int(m[1]) - 1


def _destination(words: str, text: str) -> tuple[int, int]:
    if words == "floor":
        return FLOOR, 0
    m = re.fullmatch(r"line (\d+)(?: x(\d+))?", words)
    if not m:
        raise NotationError(f"{text!r}: destination {words!r}{did_you_mean(words, ('floor',))} is not "
                            "'line 1'-'line 5' (optionally 'x<n>') or 'floor'")
    if not 1 <= int(m[1]) <= 5:
        raise NotationError(f"{text!r}: pattern line {m[1]} does not exist (lines 1-5)")
    if m[2] is not None and not 1 <= int(m[2]) <= int(m[1]) - 1:
        raise NotationError(f"{text!r}: x{m[2]} must leave line {m[1]} tiles short: x1-x{int(m[1]) - 1}"
                            if int(m[1]) > 1 else f"{text!r}: line 1 cannot be split")
    return int(m[1]) - 1, int(m[2] or 0)


def _index(word: str, prefix: str, what: str, text: str) -> int:
    m = re.fullmatch(prefix + r"(\d+)", word)
    if not m:
        raise NotationError(f"{text!r}: {what} {word!r} is not {prefix}1-{prefix}5")
    if not 1 <= int(m[1]) <= 5:
        raise NotationError(f"{text!r}: {what} {m[1]} does not exist ({prefix}1-{prefix}5)")
    return int(m[1]) - 1


def parse_action(text: str) -> Action:
    """Parse one action; NotationError names the part that is wrong."""
    t = " ".join(text.strip().lower().split())
    m = _TAKE.match(t)
    if m:
        source = _source(m[1], text)
        try:
            colour = colour_index(m[2])
        except ValueError as exc:
            raise NotationError(f"{text!r}: {exc}") from None
        return take(source, colour, *_destination(m[3], text))
    m = _WALL.match(t)
    if m:
        return wall(_index(m[1], "r", "row", text), _index(m[2], "c", "column", text))
    verb = t.split(" ", 1)[0]
    raise NotationError(f"{text!r} is not an action{did_you_mean(verb, _VERBS)} ({_EXAMPLES})")


_VERBS = ("take", "wall")


# Every plain take, made once: TAKES[source][colour][destination] (source 0-8 a factory, CENTRE_SOURCE;
# destination 0-4 a pattern line, FLOOR). The generator hands out these objects.
TAKES: tuple[tuple[tuple[Action, ...], ...], ...] = tuple(
    tuple(tuple(Action(Kind.TAKE, (source, colour, dest)) for dest in range(FLOOR + 1))
          for colour in range(NUM_COLOURS))
    for source in range(CENTRE_SOURCE + 1))
