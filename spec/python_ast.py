"""`ast.parse` that survives a CPython 3.11 race: the AST converter keeps its recursion counter in
module state shared by every thread, so a parse while another thread converts an AST (seen in the
suite's xdist workers after the Dask cluster tests) can fail with "SystemError: AST constructor
recursion depth mismatch". The parse itself is sound; trying again once the other thread is done
gives the same tree. Any other error, or the same one after a few tries, is raised as it is."""

from __future__ import annotations

import ast
import time
from typing import Any

TRIES = 6


def parse(source: str, filename: str = "<unknown>", mode: str = "exec") -> Any:
    for attempt in range(TRIES):
        try:
            return ast.parse(source, filename=filename, mode=mode)
        except SystemError as exc:
            if "recursion depth mismatch" not in str(exc) or attempt == TRIES - 1:
                raise
            time.sleep(0.01 * 2 ** attempt)
    raise AssertionError("unreachable")
