"""spec.python_ast.parse tries again after CPython 3.11's "AST constructor recursion depth mismatch"
(a race on the converter's shared counter) and raises anything else at once."""

from __future__ import annotations

import ast

import pytest

from spec import python_ast


def test_a_parse_that_lost_the_race_is_tried_again(monkeypatch: pytest.MonkeyPatch) -> None:
    real, calls = ast.parse, []

    def racy(*args, **kwargs):  # type: ignore[no-untyped-def]
        calls.append(1)
        if len(calls) == 1:
            raise SystemError("AST constructor recursion depth mismatch (before=165, after=95)")
        return real(*args, **kwargs)

    monkeypatch.setattr(python_ast.time, "sleep", lambda s: None)
    monkeypatch.setattr(ast, "parse", racy)
    tree = python_ast.parse("x = 1")
    assert isinstance(tree, ast.Module) and len(calls) == 2


def test_other_errors_and_a_lasting_mismatch_are_raised(monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(SyntaxError):
        python_ast.parse("x = (")

    def always(*args, **kwargs):  # type: ignore[no-untyped-def]
        raise SystemError("AST constructor recursion depth mismatch (before=1, after=2)")

    monkeypatch.setattr(python_ast.time, "sleep", lambda s: None)
    monkeypatch.setattr(ast, "parse", always)
    with pytest.raises(SystemError):
        python_ast.parse("x = 1")
