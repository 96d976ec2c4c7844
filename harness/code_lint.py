"""The code's lint and types: ruff and mypy as configured in pyproject.toml ([tool.ruff],
[tool.mypy]; docs/ci.md), the commands of `make lint`, run as `verify --lint`'s first stage."""

from __future__ import annotations

import importlib.util
import re
import subprocess
import sys
from pathlib import Path

import attrs

# (tool, its arguments after `python -m`): the same two commands as the Makefile's `lint` target.
COMMANDS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("ruff", ("check", "--output-format", "concise", ".")),
    ("mypy", ()),
)
CLOSING = ("Found ", "All checks passed", "Success: ")   # the tools' count lines (ruff, mypy)
FINDING = re.compile(r"^[^\s:][^:]*:\d+:(\d+:)? ")      # path:line[:col]: ... (ruff concise, mypy)


@attrs.frozen
class ToolResult:
    tool: str
    ok: bool
    findings: tuple[str, ...]           # one line each, path:line first
    summary: str                        # the tool's own closing line


def run_tool(tool: str, args: tuple[str, ...], root: Path) -> ToolResult:
    """One tool over the checkout at `root`, by this interpreter (the venv's ruff and mypy)."""
    if importlib.util.find_spec(tool) is None:
        why = f"{tool} is not installed (`make` installs it from requirements/lock.txt; or pip install -e '.[test]')"
        return ToolResult(tool, False, (why,), "not installed")
    run = subprocess.run([sys.executable, "-m", tool, *args], cwd=root, capture_output=True, text=True,
                         check=False)
    lines = [ln for ln in run.stdout.splitlines() if ln.strip()]
    findings = tuple(ln for ln in lines if FINDING.match(ln) and ": note: " not in ln)
    closing = [ln for ln in lines if ln.startswith(CLOSING)] or lines or run.stderr.strip().splitlines()
    summary = closing[-1] if closing else f"exit status {run.returncode}"
    if run.returncode != 0 and not findings:    # a crash or a bad configuration: its own words
        findings = tuple(f"{tool}: {ln}" for ln in (run.stderr.strip() or run.stdout.strip()).splitlines()[-5:])
    return ToolResult(tool, run.returncode == 0, findings, summary)


def code_lint(root: Path) -> list[ToolResult]:
    """Every tool of `make lint`, each whatever the other found."""
    return [run_tool(tool, args, root) for tool, args in COMMANDS]
