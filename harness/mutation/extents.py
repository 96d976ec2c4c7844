"""Which lines of the model implement which clause.

A statement that names a clause id (a `cite("...")`, a `cite_alternative("point", ...)`, a refusal
`return ("clause", why)`, an event naming its clause) starts that clause's *segment*: it governs
the statements after it in the same block, until the next statement that names a clause, the end
of the block, or an explicit end marker comment `# end: CLAUSE-ID`; a comment `# rule: CLAUSE-ID` right
above a statement makes it name the clause (for code that implements a rule without citing it, such as
the loop that gives an order). Nested blocks inherit the
segment they sit in unless they name clauses of their own. An `if`/`while` whose block opens with a
citation also gives its condition to that clause (the condition decides whether the rule applies).

Interpretation-point ids count for the clause that owns the point.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterable, Mapping
from pathlib import Path

import attrs

from spec.python_ast import parse as parse_python

# A statement naming this many clauses or more is a lookup table (a dispatch from decisions to the
# clauses that refuse them, the registry of interpretation points), not the site of one rule.
TABLE_SIZE = 4
END_MARKER = re.compile(r"#\s*end:\s*([a-z0-9.-]+)")
# A comment `# rule: CLAUSE-ID` right above a statement makes the statement name that clause, for code
# that implements a rule without calling `cite` itself (a loop that gives the order of the rule).
RULE_MARKER = re.compile(r"^\s*#\s*rule:\s*([a-z0-9.-]+)\s*$")


@attrs.frozen
class Extent:
    """Lines `first`..`last` (1-based, inclusive) of `file` implement `clause`."""

    clause: str
    file: str
    first: int
    last: int


def _child_blocks(node: ast.stmt) -> list[list[ast.stmt]]:
    blocks: list[list[ast.stmt]] = []
    for name in ("body", "orelse", "finalbody"):
        block = getattr(node, name, None)
        if isinstance(block, list) and block and isinstance(block[0], ast.stmt):
            blocks.append(block)
    for handler in getattr(node, "handlers", []) or []:
        blocks.append(handler.body)
    for case in getattr(node, "cases", []) or []:
        blocks.append(case.body)
    return blocks


def _header_nodes(node: ast.stmt) -> list[ast.AST]:
    """The parts of a statement that are not nested blocks (the whole of a simple statement)."""
    if not _child_blocks(node):
        return [node]
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return []
    parts: list[ast.AST] = []
    for name in ("test", "iter", "target", "subject"):
        part = getattr(node, name, None)
        if isinstance(part, ast.AST):
            parts.append(part)
    for item in getattr(node, "items", []) or []:
        parts.append(item)
    return parts


def _header_lines(node: ast.stmt) -> tuple[int, int]:
    blocks = _child_blocks(node)
    if not blocks:
        return node.lineno, node.end_lineno or node.lineno
    return node.lineno, max(node.lineno, blocks[0][0].lineno - 1)


class _Walker:
    def __init__(self, resolve: Mapping[str, str], lines: list[str]) -> None:
        self.resolve = resolve
        self.lines = lines
        self.owner: dict[int, set[str]] = {}

    def named(self, nodes: Iterable[ast.AST]) -> set[str]:
        out: set[str] = set()
        for part in nodes:
            for sub in ast.walk(part):
                if isinstance(sub, ast.Constant) and isinstance(sub.value, str):
                    cid = self.resolve.get(sub.value.partition("@")[0])
                    if cid:
                        out.add(cid)
        return out

    def assign(self, first: int, last: int, clauses: set[str]) -> None:
        if not clauses:
            return
        for line in range(first, last + 1):
            self.owner.setdefault(line, set()).update(clauses)

    def marked(self, line: int) -> set[str]:
        """Clauses named by `# rule:` comments on the lines right above `line`."""
        out: set[str] = set()
        above = line - 1
        while 0 < above <= len(self.lines) and self.lines[above - 1].lstrip().startswith("#"):
            m = RULE_MARKER.match(self.lines[above - 1])
            if m and self.resolve.get(m[1]):
                out.add(self.resolve[m[1]])
            above -= 1
        return out

    def ended(self, after: int, before: int, current: set[str]) -> set[str]:
        """Clauses whose explicit end marker lies between two statements."""
        gone: set[str] = set()
        for line in range(after, before):
            m = END_MARKER.search(self.lines[line - 1]) if 0 < line <= len(self.lines) else None
            if m and m[1] in current:
                gone.add(m[1])
        return gone

    def block(self, stmts: list[ast.stmt], inherited: set[str]) -> None:
        current = set(inherited)
        previous_end = stmts[0].lineno
        for st in stmts:
            current -= self.ended(previous_end, st.lineno, current)
            if not current:
                current = set(inherited) - self.ended(stmts[0].lineno, st.lineno, inherited)
            direct = self.named(_header_nodes(st))
            if len(direct) >= TABLE_SIZE:       # a table naming many clauses routes, it is no rule site
                direct = set()
            direct |= self.marked(st.lineno)
            if direct:
                current = direct
            first, last = _header_lines(st)
            header = set(current)
            blocks = _child_blocks(st)
            if blocks and isinstance(st, (ast.If, ast.While)):
                for blk in blocks:
                    opening = self.named(_header_nodes(blk[0]))
                    header |= opening if len(opening) < TABLE_SIZE else set()
            if not isinstance(st, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                self.assign(first, last, header)
            for blk in blocks:
                inner = set() if isinstance(st, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) else current
                self.block(blk, inner)
            previous_end = st.end_lineno or st.lineno


def clause_lines(source: str, resolve: Mapping[str, str]) -> dict[int, set[str]]:
    """Line number -> clause ids governing it, for one module's source."""
    tree = parse_python(source)
    walker = _Walker(resolve, source.splitlines())
    walker.block(tree.body, set())
    return walker.owner


def extents(root: Path, folders: Iterable[str], resolve: Mapping[str, str]) -> dict[str, list[Extent]]:
    """Clause id -> its extents (runs of consecutive lines) in the Python files of `folders`."""
    out: dict[str, list[Extent]] = {}
    for folder in folders:
        for path in sorted((root / folder).rglob("*.py")):
            rel = path.relative_to(root).as_posix()
            owner = clause_lines(path.read_text(), resolve)
            by_clause: dict[str, list[int]] = {}
            for line, clauses in owner.items():
                for cid in clauses:
                    by_clause.setdefault(cid, []).append(line)
            for cid, lines in by_clause.items():
                lines.sort()
                start = prev = lines[0]
                for after in [*lines[1:], None]:     # None: the last run ends
                    if after is not None and after == prev + 1:
                        prev = after
                        continue
                    out.setdefault(cid, []).append(Extent(cid, rel, start, prev))
                    if after is not None:
                        start = prev = after
    return {k: sorted(v, key=lambda e: (e.file, e.first)) for k, v in sorted(out.items())}
