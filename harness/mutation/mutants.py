"""Mutants of a clause: every position of every operator inside the clause's extents."""

from __future__ import annotations

import difflib
import functools
from collections.abc import Iterable, Mapping
from pathlib import Path

import attrs
from cosmic_ray.ast import ast_nodes, get_ast
from cosmic_ray.mutating import mutate_code

from harness.mutation.extents import Extent
from harness.mutation.operators import OPERATOR_NAMES, game_of_file, operator


@attrs.frozen
class Mutant:
    """One planted bug: `operator`'s `occurrence`-th position in `file` (at `line`)."""

    file: str
    line: int
    operator: str
    occurrence: int

    @property
    def id(self) -> str:
        return f"{self.file}:{self.line}:{self.operator}#{self.occurrence}"

    def source(self, root: Path) -> str:
        """The mutated module's text (never written into the user's tree)."""
        code = mutate_code((root / self.file).read_text(), operator(self.operator, game_of_file(self.file)),
                           self.occurrence)
        if code is None:
            raise ValueError(f"mutant {self.id} no longer applies")
        return code

    def diff(self, root: Path) -> str:
        before = (root / self.file).read_text().splitlines()
        after = self.source(root).splitlines()
        return "\n".join(difflib.unified_diff(before, after, f"a/{self.file}", f"b/{self.file}", n=1, lineterm=""))


@attrs.frozen
class Unmutated:
    """A clause's code as it is, run like a mutant before its mutants: its tests must pass so."""

    clause: str
    file: str

    @property
    def id(self) -> str:
        return f"{self.clause} unmutated"

    def source(self, root: Path) -> str:
        return (root / self.file).read_text()

    def diff(self, root: Path) -> str:
        return ""


@functools.lru_cache(maxsize=64)
def _positions(text: str, game: str) -> tuple[tuple[str, int, int], ...]:
    """(operator, occurrence, line) of every mutation position in a module's text (`game`'s operators)."""
    tree = get_ast(text)
    nodes = list(ast_nodes(tree))
    out: list[tuple[str, int, int]] = []
    for name in OPERATOR_NAMES:
        op = operator(name, game)
        k = 0
        for node in nodes:
            for start, _ in op.mutation_positions(node):
                out.append((name, k, start[0]))
                k += 1
    return tuple(out)


def mutants_of(root: Path, extents: Iterable[Extent]) -> list[Mutant]:
    """Every mutant whose position starts inside one of the extents."""
    by_file: dict[str, list[Extent]] = {}
    for e in extents:
        by_file.setdefault(e.file, []).append(e)
    out: list[Mutant] = []
    for file, exts in sorted(by_file.items()):
        for name, k, line in _positions((root / file).read_text(), game_of_file(file)):
            if any(e.first <= line <= e.last for e in exts):
                out.append(Mutant(file, line, name, k))
    return sorted(out, key=lambda m: (m.file, m.line, m.operator, m.occurrence))


def mutants_by_clause(root: Path, extents: Mapping[str, list[Extent]]) -> dict[str, list[Mutant]]:
    return {cid: mutants_of(root, exts) for cid, exts in sorted(extents.items())}
