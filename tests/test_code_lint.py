"""verify's "code lint" stage (harness/code_lint.py): ruff's and mypy's findings become the stage's
failures, one line each with file and line; a tool that is missing fails the stage naming it."""

from __future__ import annotations

from pathlib import Path

import pytest

from harness import code_lint, verify
from harness.code_lint import ToolResult, run_tool


def _project(tmp_path: Path, source: str) -> Path:
    tmp_path.mkdir(parents=True, exist_ok=True)
    (tmp_path / "pyproject.toml").write_text('[tool.ruff.lint]\nselect = ["F"]\n\n'
                                             '[tool.mypy]\nfiles = ["pkg"]\nwarn_unused_ignores = true\n')
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text(source)
    return tmp_path


def test_ruff_findings_are_named_by_file_and_line(tmp_path: Path) -> None:
    root = _project(tmp_path, "import os\n")
    result = run_tool("ruff", code_lint.COMMANDS[0][1], root)
    assert not result.ok and result.summary == "Found 1 error."
    assert [f.split(" ", 1)[0] for f in result.findings] == ["pkg/__init__.py:1:8:"], result.findings
    clean = run_tool("ruff", code_lint.COMMANDS[0][1], _project(tmp_path / "clean", "import os\n\nprint(os.sep)\n"))
    assert clean.ok and clean.findings == () and clean.summary == "All checks passed!"


def test_mypy_findings_are_named_by_file_and_line(tmp_path: Path) -> None:
    root = _project(tmp_path, "def label() -> str:\n    return 1\n")
    result = run_tool("mypy", code_lint.COMMANDS[1][1], root)
    assert not result.ok and result.summary.startswith("Found 1 error in 1 file")
    assert len(result.findings) == 1 and result.findings[0].startswith("pkg/__init__.py:2: error:"), result.findings


def test_a_missing_tool_fails_naming_it(tmp_path: Path) -> None:
    result = run_tool("no_such_linter_installed", (), tmp_path)
    assert not result.ok and result.findings[0].startswith("no_such_linter_installed is not installed")


def test_the_stage_fails_with_every_finding(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(code_lint, "code_lint", lambda root: [
        ToolResult("ruff", False, ("a.py:1:8: F401 [*] `os` imported but unused",), "Found 1 error."),
        ToolResult("mypy", True, (), "Success: no issues found in 1 source file")])
    stage = verify.Stage(verify.CODE_LINT)
    verify._code_lint(stage)
    assert not stage.ok and stage.failures == ["a.py:1:8: F401 [*] `os` imported but unused"]
    assert stage.detail == "ruff: Found 1 error.; mypy: Success: no issues found in 1 source file"
