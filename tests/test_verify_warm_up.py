"""`azul-rules verify` warms its later stages' caches while pytest runs (issue 13): after the warm-up,
coverage, lint and the suspect pins parse no Python file again, and their results are the same
as from a cold start; verify starts the warm-up before the test stage, not after it."""

from __future__ import annotations

import ast
import threading
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console

import harness.coverage as coverage
import harness.pytest_run as pytest_run
import harness.verify as verify
from spec import default_catalogue

pytestmark = pytest.mark.output          # the output tier: `make test` leaves it out (pyproject.toml)


def _coverage_results() -> tuple[Any, ...]:
    catalogue = default_catalogue()
    rows = coverage.compute(catalogue, {}, {})
    return (tuple(r.to_json()["model_sites"] for r in rows), tuple(coverage.lint(catalogue, {})),
            tuple(coverage.pins()))


def test_after_the_warm_up_coverage_and_lint_parse_nothing_and_agree(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(coverage, "_LITERALS", {})
    cold = _coverage_results()
    monkeypatch.setattr(coverage, "_LITERALS", {})
    verify.warm_up()
    warmed = set(coverage._LITERALS)
    parsed: list[str] = []
    real_parse = ast.parse

    def counting_parse(source: Any, filename: str = "<unknown>", *args: Any, **kwargs: Any) -> Any:
        parsed.append(filename)
        return real_parse(source, filename, *args, **kwargs)
    monkeypatch.setattr(coverage.ast, "parse", counting_parse)
    warm = _coverage_results()
    missed = [f for f in parsed if Path(f) not in warmed]     # a warmed file parses again only when edited meanwhile
    assert missed == [], f"not warmed: {missed[:3]}"
    assert warm == cold


def test_verify_starts_the_warm_up_before_the_test_stage(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    started = threading.Event()
    monkeypatch.setattr(verify, "warm_up", started.set)
    seen: list[bool] = []

    def fake_run_pytest(*args: Any, **kwargs: Any) -> Any:
        seen.append(started.wait(10.0))
        raise KeyboardInterrupt              # stop verify here: the later stages are not this test's
    monkeypatch.setattr(pytest_run, "run_pytest", fake_run_pytest)
    status = verify.verify("ci", tmp_path / "report", jobs=1, console=Console(file=open("/dev/null", "w")))
    assert status == verify.INTERRUPTED
    assert seen == [True], "the test stage began without the warm-up running"
