"""Which tests declare a clause, read from their files (nothing is collected or run): the
`clause` marks of the test modules under tests/ and fixtures/ (`@pytest.mark.clause(...)` on a test
or a class, a parameter's `marks=`, a module's `pytestmark`), and the scenario files' `clauses`.
`azul-rules check` and the mutation analysis's selection both read it."""

from __future__ import annotations

import ast
import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import TypeGuard

from spec.python_ast import parse as parse_python

TEST_FOLDERS = ("tests", "fixtures")
# The mutation analysis's own tests plant mutants themselves: slow, about the harness, never selected.
NOT_SELECTED = ("tests/test_mutation.py",)


def declared_index(root: Path, resolve: Mapping[str, str] | None = None, *,
                   scenarios: bool = True) -> dict[str, tuple[str, ...]]:
    """Clause id -> the node ids of the tests (and, with `scenarios`, the scenario files) that
    declare it, in file order then line order. Each mark counts for the innermost test holding it
    (`Class::test` for a method's, `Class` for a class's), a module's `pytestmark` for every test of
    the module, any other mark outside a test for the whole module. Revisions (`id@2`) are dropped;
    with `resolve` (id -> clause), interpretation-point ids count for their clause and ids it does
    not know are left out."""

    def clause_of(declared: str) -> str | None:
        cid = declared.partition("@")[0]
        return cid if resolve is None else resolve.get(cid)

    out: dict[str, list[str]] = {}
    for folder in TEST_FOLDERS:
        for path in sorted((root / folder).rglob("*")):
            rel = path.relative_to(root).as_posix()
            if path.suffix == ".py" and path.name.startswith("test_") and rel not in NOT_SELECTED:
                found = [(clause_of(v), owner) for v, owner in _declarations(path, rel)]
            elif path.suffix == ".toml" and scenarios:
                sid, named = _scenario(path)
                found = [(clause_of(v), f"{rel}::{sid}") for v in named]
            else:
                continue
            for cid, owner in found:
                if cid is not None:
                    out.setdefault(cid, []).append(owner)
    return {cid: tuple(dict.fromkeys(ids)) for cid, ids in out.items()}


def _scenario(path: Path) -> tuple[str, list[str]]:
    """A scenario file's id (as the pytest plugin names it) and declared clauses."""
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        return path.stem, []
    sid = data.get("id")
    named = data.get("clauses", [])
    return (sid if isinstance(sid, str) and sid else path.stem,
            [c for c in named if isinstance(c, str)] if isinstance(named, list) else [])


def _is_mark(func: ast.expr) -> bool:
    """`pytest.mark.clause` or `mark.clause`: a mark, not some other `clause(...)` call (a
    catalogue's lookup, a test's helper)."""
    if not (isinstance(func, ast.Attribute) and func.attr == "clause"):
        return False
    owner = func.value
    return isinstance(owner, ast.Attribute) and owner.attr == "mark" or isinstance(owner, ast.Name) and owner.id == "mark"


def _literal_strings(arg: ast.expr) -> list[tuple[str, int]]:
    """The clause ids an argument spells out: a string, or `*[...]` / `*(...)` of strings (ids a test
    computes, `*CLAUSES`, are not read)."""
    if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
        return [(arg.value, arg.lineno)]
    if isinstance(arg, ast.Starred):
        arg = arg.value
    if isinstance(arg, (ast.List, ast.Tuple, ast.Set)):
        return [pair for e in arg.elts for pair in _literal_strings(e)]
    return []


def _marked(tree: ast.AST) -> list[tuple[str, int]]:
    """The strings inside `pytest.mark.clause(...)` calls, with their lines: what a test declares.
    A clause id used as data in a test (a harness test's sample, `catalogue.clause(id)`) is no
    declaration."""
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and _is_mark(node.func):
            for arg in node.args:
                out += _literal_strings(arg)
    return sorted(out, key=lambda m: m[1])


def _span(node: ast.stmt) -> tuple[int, int]:
    decorators = getattr(node, "decorator_list", [])
    return min([node.lineno, *(d.lineno for d in decorators)]), node.end_lineno or node.lineno


def _is_test(node: ast.stmt) -> TypeGuard[ast.FunctionDef | ast.AsyncFunctionDef]:
    return isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name.startswith("test")


def _tests(tree: ast.Module, rel: str) -> list[tuple[int, int, str, bool]]:
    """(first line, last line, node id, is a class) of the tests and test classes (decorators
    included), in source order, a class's methods after the class."""
    out = []
    for node in tree.body:
        if _is_test(node):
            out.append((*_span(node), f"{rel}::{node.name}", False))
        elif isinstance(node, ast.ClassDef) and node.name.startswith("Test"):
            out.append((*_span(node), f"{rel}::{node.name}", True))
            out += [(*_span(m), f"{rel}::{node.name}::{m.name}", False) for m in node.body if _is_test(m)]
    return out


def _declarations(path: Path, rel: str) -> list[tuple[str, str]]:
    """(declared id, node id) for every clause mark of a test module."""
    try:
        text = path.read_text(encoding="utf-8")
        if "clause" not in text:
            return []
        tree = parse_python(text)
    except (OSError, UnicodeDecodeError, SyntaxError, ValueError):
        return []
    tests = _tests(tree, rel)
    module_lines = {line for n in tree.body if isinstance(n, ast.Assign)
                    and any(isinstance(t, ast.Name) and t.id == "pytestmark" for t in n.targets)
                    for line in range(_span(n)[0], _span(n)[1] + 1)}
    every_test = [nodeid for _, _, nodeid, is_class in tests if not is_class]
    out: list[tuple[str, str]] = []
    for declared, line in _marked(tree):
        if line in module_lines:
            out += [(declared, nodeid) for nodeid in every_test or [rel]]
            continue
        holding = [(first, nodeid) for first, last, nodeid, _ in tests if first <= line <= last]
        out.append((declared, max(holding)[1] if holding else rel))    # the innermost: it starts last
    return out
