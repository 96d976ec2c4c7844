"""Putting a mutant into an already imported project without importing it again.

Re-importing the project and its test modules for every mutant costs about a second, more than
most killing tests take. When a mutant changes only the body of a function (or method), it is
enough to give the live function object the mutated code: every reference to the function
(`from model.duel.scoring import x`, bound methods, dispatch tables) then runs the mutant.

This is done only when it is certainly equivalent to a fresh import, otherwise the caller falls
back to re-importing:
- the changed lines lie inside the body of one function defined at module or class level
  (not in its decorators, defaults or signature, not in module or class level code);
- the function did not run while the project was imported (its result could be baked into a
  module-level table), which `ImportCalls` records;
- the mutated code keeps the function's free variables (a closure's cells cannot be re-bound).
"""

from __future__ import annotations

import ast
import difflib
import sys
import types
from collections.abc import Iterator
from typing import Any

from spec.python_ast import parse as parse_python


def changed_lines(original: str, mutated: str) -> set[int]:
    """The 1-based lines of `original` that the mutation replaced or removed."""
    a, b = original.splitlines(), mutated.splitlines()
    out: set[int] = set()
    for tag, i1, i2, _j1, _j2 in difflib.SequenceMatcher(a=a, b=b, autojunk=False).get_opcodes():
        if tag != "equal":
            out.update(range(i1 + 1, max(i2, i1 + 1) + 1))
    return out


def enclosing_function(source: str, lines: set[int]) -> str | None:
    """The qualified name of the module- or class-level function whose body holds every changed
    line, or None when some line lies outside such a body."""
    tree = parse_python(source)

    def search(body: list[ast.stmt], prefix: str) -> str | None:
        for node in body:
            if isinstance(node, ast.ClassDef):
                found = search(node.body, f"{prefix}{node.name}.")
                if found:
                    return found
            elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
                first = node.body[0].lineno
                last = node.end_lineno or first
                if all(first <= ln <= last for ln in lines):
                    return f"{prefix}{node.name}"
        return None

    return search(tree.body, "") if lines else None


def _code_objects(code: types.CodeType) -> Iterator[types.CodeType]:
    yield code
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            yield from _code_objects(const)


def _unwrap(obj: Any) -> Any:
    if isinstance(obj, (staticmethod, classmethod)):
        obj = obj.__func__
    elif isinstance(obj, property):
        obj = obj.fget
    while hasattr(obj, "__wrapped__") and not isinstance(obj, types.FunctionType):
        obj = obj.__wrapped__
    return obj


def live_function(module: types.ModuleType, qualname: str) -> types.FunctionType | None:
    """The function object the running program uses for `qualname` in `module`."""
    obj: Any = module
    for part in qualname.split("."):
        holder = obj.__dict__ if isinstance(obj, type) else vars(obj)
        if part not in holder:
            return None
        obj = holder[part]
    obj = _unwrap(obj)
    if isinstance(obj, types.FunctionType) and obj.__code__.co_qualname == qualname:
        return obj
    return None


class ImportCalls:
    """Records which project functions run while the project is being imported."""

    def __init__(self, prefixes: tuple[str, ...]) -> None:
        self.prefixes = prefixes
        self.called: set[tuple[str, str]] = set()

    def _profile(self, frame: types.FrameType, event: str, _arg: Any) -> None:
        if event == "call":
            code = frame.f_code
            if code.co_filename.startswith(self.prefixes):
                self.called.add((code.co_filename, code.co_qualname))

    def __enter__(self) -> ImportCalls:
        sys.setprofile(self._profile)
        return self

    def __exit__(self, *_exc: object) -> None:
        sys.setprofile(None)

    def ran(self, filename: str, qualname: str) -> bool:
        """Did `qualname` (or a function nested in it) run during import?"""
        return any(f == filename and (q == qualname or q.startswith(qualname + ".")) for f, q in self.called)


def hot_swap(module_name: str, filename: str, original: str, mutated: str, calls: ImportCalls) -> str | None:
    """Give the live function the mutated code. Returns the function's qualified name, or None when
    the mutant must be imported afresh instead (nothing was changed then)."""
    module = sys.modules.get(module_name)
    if module is None:
        return None
    qualname = enclosing_function(original, changed_lines(original, mutated))
    if qualname is None or calls.ran(filename, qualname):
        return None
    function = live_function(module, qualname)
    if function is None:
        return None
    try:
        compiled = compile(mutated, filename, "exec")
    except SyntaxError:
        return None
    new = [c for c in _code_objects(compiled) if c.co_qualname == qualname]
    if len(new) != 1 or new[0].co_freevars != function.__code__.co_freevars:
        return None
    function.__code__ = new[0]
    return qualname
