"""Speed of the clause-link lint (issue 13): each Python file is parsed once per run, not once per pass."""

from __future__ import annotations

import ast
from collections import Counter
from pathlib import Path

import pytest

from harness import coverage
from spec import default_catalogue


@pytest.fixture
def parses(monkeypatch: pytest.MonkeyPatch) -> Counter[tuple[str, int]]:
    """Counts ast.parse calls per (file, hash of the text) made by harness.coverage, from an empty
    cache (a file someone edits meanwhile is a new text, rightly parsed again)."""
    counts: Counter[tuple[str, int]] = Counter()
    real = ast.parse

    def counting(source: str, filename: str = "<unknown>", *args: object, **kwargs: object) -> ast.AST:
        counts[filename, hash(source)] += 1
        return real(source, filename, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(coverage, "_LITERALS", {})
    monkeypatch.setattr(coverage.ast, "parse", counting)
    return counts


def test_two_lints_parse_each_file_once(parses: Counter[tuple[str, int]]) -> None:
    catalogue = default_catalogue()
    first = coverage.lint(catalogue)
    second = coverage.lint(catalogue)
    assert first == second
    assert parses, "lint parsed no file"
    assert max(parses.values()) == 1, parses.most_common(3)


def test_a_changed_file_is_parsed_again(parses: Counter[tuple[str, int]], tmp_path: Path) -> None:
    module = tmp_path / "rules.py"
    module.write_text('cite("duel.setup.tablets")\n')
    assert coverage.string_sites(tmp_path, set()) == {"duel.setup.tablets": [f"{module}:1"]}
    assert coverage.string_sites(tmp_path, set()) == {"duel.setup.tablets": [f"{module}:1"]}
    assert sum(n for (name, _), n in parses.items() if name == str(module)) == 1
    module.write_text('\ncite("duel.score.start@2")\n')
    assert coverage.string_sites(tmp_path, set()) == {"duel.score.start": [f"{module}:2"]}
    assert sum(n for (name, _), n in parses.items() if name == str(module)) == 2
