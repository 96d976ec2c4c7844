"""What a `--where` condition sees: a read-only view of the position after a step and of the step.

Names every game offers (a game's hooks may add more, properties/<game>/predicates.py):

    state     the position (read-only: lists read as tuples, nothing can be assigned)
    events    the step's events as the scenario notation prints them (tuple of str)
    kinds     the step's event kinds ("score", "pass", ...), in order
    clauses   the clause ids the step's events name
    points    {seat: points the step's events gave that seat} (score, bonus, penalty, pay)
    action    the action just played, in the scenario notation ("" at set-up)
    player    the seat that played it (0-based; -1 at set-up)
    round, phase, step    where play stands (step: actions played so far)
    scores    the score of each seat (tuple)
    over      the game has ended; `winner` its winner seat (None: a draw, or not over)

A view is a `View`: a read-only mapping whose costly names (a game's own, such as what an end-of-game
bonus would score now) are worked out when a condition first reads them and kept for the step, so a search whose
goals never read them never pays for them. It holds for its step only (the game plays on).

Expressions are Python expressions over these names and a few built-ins (len, sum, min, max, any,
all, sorted, abs, set, tuple, range, str, int); no attribute starting with `_`, no import, no
assignment. A bad expression is one line naming the problem (`check_expression`).
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterator, Mapping, Sequence
from functools import cache
from types import MappingProxyType
from typing import Any

from model.errors import UserError
from model.events import Event
from model.protocol import Game
from spec.python_ast import parse as parse_python

BUILTINS: dict[str, Any] = {f.__name__: f for f in (len, sum, min, max, any, all, sorted, abs, set, tuple,
                                                    range, str, int)}
BUILTINS.update({"True": True, "False": False, "None": None})
VIEW_NAMES = ("state", "events", "kinds", "clauses", "points", "action", "player", "round", "phase", "step",
              "scores", "over", "winner")


class ReadOnly:
    """An object seen through glass: attributes read, lists as tuples, nothing assignable. An
    attribute is copied once, when first read, and kept (a view's glass holds for its step only):
    a distance reading a Dome cell by cell would otherwise copy the whole Dome at every cell."""

    def __init__(self, target: Any) -> None:
        object.__setattr__(self, "_target", target)

    def __getattr__(self, name: str) -> Any:          # the first read of `name` only: then it is kept
        if name.startswith("_"):
            raise AttributeError(f"no attribute {name!r} (names starting with '_' are hidden)")
        value = read_only(getattr(self._target, name))
        object.__setattr__(self, name, value)
        return value

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("the position is read-only")

    def __repr__(self) -> str:
        return repr(self._target)


_PLAIN = (int, float, str, bool, type(None))
_PLAIN_TYPES = frozenset(_PLAIN)


def read_only(value: Any) -> Any:
    if isinstance(value, _PLAIN):
        return value
    if isinstance(value, (list, tuple)):
        if _PLAIN_TYPES.issuperset(map(type, value)):
            return tuple(value)
        return tuple(read_only(v) for v in value)
    if isinstance(value, dict):
        return MappingProxyType({k: read_only(v) for k, v in value.items()})
    return ReadOnly(value)


class View(Mapping[str, Any]):
    """A step's names: `values` as given, and `later` ones (name -> how to work it out) worked out
    on first reading and then kept; a `later` name hides a value of the same name."""

    __slots__ = ("_values", "_later", "_names")

    def __init__(self, values: Mapping[str, Any], later: Mapping[str, Callable[[], Any]] | None = None) -> None:
        self._later = dict(later or {})
        self._values = {k: v for k, v in values.items() if k not in self._later}
        self._names = (*self._values, *self._later)

    def __getitem__(self, name: str) -> Any:
        if name in self._values:
            return self._values[name]
        work = self._later[name]                    # KeyError: no such name
        value = self._values[name] = work()         # an error inside `work` leaves the name to read again
        del self._later[name]
        return value

    def __contains__(self, name: object) -> bool:
        return name in self._values or name in self._later

    def __iter__(self) -> Iterator[str]:
        return iter(self._names)

    def __len__(self) -> int:
        return len(self._names)

    def joined(self, first: Mapping[str, Any]) -> View:
        """These names over `first` (mine hide its); none of my later names is worked out."""
        return View({**first, **self._values}, self._later)


def step_view(game: Game, events: Sequence[Event], action: str, player: int, step: int,
              scores: Sequence[int], extra: Mapping[str, Any]) -> View:
    """The names a condition sees after one step (`extra`: the game's, a View or a plain mapping)."""
    points: dict[int, int] = {}
    for e in events:
        if e.points and e.player is not None:
            points[e.player] = points.get(e.player, 0) + e.points
    outcome = game.outcome() if game.is_over else None
    names = {"state": ReadOnly(game.state), "events": tuple(str(e) for e in events),
             "kinds": tuple(e.kind for e in events), "clauses": tuple(e.clause for e in events),
             "points": MappingProxyType(points), "action": action, "player": player,
             "round": getattr(game.state, "round", 0), "phase": str(getattr(game.state, "phase", "")),
             "step": step, "scores": tuple(scores), "over": outcome is not None,
             "winner": outcome.winner if outcome else None}
    return extra.joined(names) if isinstance(extra, View) else View({**names, **extra})


_ALLOWED = (ast.Expression, ast.BoolOp, ast.BinOp, ast.UnaryOp, ast.Compare, ast.IfExp, ast.Call, ast.Name,
            ast.Load, ast.Constant, ast.Attribute, ast.Subscript, ast.Slice, ast.Tuple, ast.List, ast.Set,
            ast.Dict, ast.GeneratorExp, ast.ListComp, ast.SetComp, ast.comprehension, ast.Store,
            ast.operator, ast.boolop, ast.unaryop, ast.cmpop, ast.keyword, ast.Starred)


def check_expression(text: str, names: Sequence[str]) -> Any:
    """Compile a `--where` expression, or UserError (one line) naming what is wrong with it."""
    try:
        tree = parse_python(text, mode="eval")
    except SyntaxError as exc:
        col = f" at column {exc.offset}" if exc.offset else ""
        raise UserError(f"--where {text!r}: not a Python expression{col}: {exc.msg}") from None
    bound = {n.id for node in ast.walk(tree) if isinstance(node, ast.comprehension)
             for n in ast.walk(node.target) if isinstance(n, ast.Name)}
    known = set(names) | set(BUILTINS) | bound
    for node in ast.walk(tree):
        if not isinstance(node, _ALLOWED):
            raise UserError(f"--where {text!r}: {type(node).__name__.lower()} is not allowed in a condition "
                            "(an expression over the view's names only)")
        if isinstance(node, ast.Attribute) and node.attr.startswith("_"):
            raise UserError(f"--where {text!r}: attribute {node.attr!r} is hidden (names starting with '_')")
        if isinstance(node, ast.Name) and node.id not in known:
            from spec.suggest import did_you_mean
            raise UserError(f"--where {text!r}: unknown name {node.id!r}{did_you_mean(node.id, sorted(known))} "
                            f"(names: {', '.join(sorted(set(names)))})")
    return compile(tree, "<--where>", "eval")


def evaluate(code: Any, text: str, view: Mapping[str, Any]) -> bool:
    """The condition's truth on one view; UserError (one line) when evaluating it fails. Only the
    names the expression mentions are read from the view (a costly one is worked out when named)."""
    scope = {name: view[name] for name in _names_in(code) if name in view}
    try:
        return bool(eval(code, {**scope, "__builtins__": BUILTINS}))
    except Exception as exc:  # noqa: BLE001 -- the designer's expression failed, not the model: one line
        raise UserError(f"--where {text!r}: {type(exc).__name__}: {exc} (at step {view.get('step')}, "
                        f"action {view.get('action')!r})") from None


@cache
def _names_in(code: Any) -> frozenset[str]:
    """The names a compiled expression mentions, its comprehensions' included (attribute names too:
    a view name among them is read for nothing, which is harmless)."""
    names = set(code.co_names)
    for const in code.co_consts:
        if hasattr(const, "co_names"):
            names |= _names_in(const)
    return frozenset(names)
