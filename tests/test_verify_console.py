"""What `azul-rules verify` shows and leaves behind: test progress as it happens, failing tests named,
pytest's closing line, Ctrl-C (exit 130, a partial summary, nothing left over), 80 columns,
a report others can read; "did you mean" for mistyped ids; `graph` writes into the checkout."""

from __future__ import annotations

import io
import os
import signal
import stat
import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path

import pytest
from rich.console import Console

from harness.coverage import ROOT
from harness.pytest_run import PytestRun, run_pytest
from harness.verify import Stage, _finish, _publish, _tidy_interrupted_report
from tests.cli_helpers import run_cli


def _tiny_suite(tmp_path: Path) -> Path:
    suite = tmp_path / "suite"
    suite.mkdir()
    (suite / "test_tiny.py").write_text(textwrap.dedent("""
        import time

        def test_quick():
            pass

        def test_slow_then_broken():
            time.sleep(1.5)
            assert 1 == 2
    """))
    return suite


@pytest.mark.process
def test_pytest_output_streams_line_by_line_and_names_failures(tmp_path: Path) -> None:
    suite = _tiny_suite(tmp_path)
    arrivals: list[tuple[float, str, str | None]] = []
    run = run_pytest(["-p", "no:cacheprovider", "-p", "no:azul_rules", "-p", "no:anyio", str(suite)], cwd=suite,
                     env=os.environ,
                     log=tmp_path / "log.txt", python=sys.executable,
                     on_line=lambda line, r, failed: arrivals.append((time.monotonic(), line, failed)))
    ended = time.monotonic()
    quick = next(t for t, line, _ in arrivals if "test_quick PASSED" in line)
    assert ended - quick > 1.0, "the first result came only when pytest ended (output is not streamed)"
    assert run.failed == ["test_tiny.py::test_slow_then_broken"]
    assert [f for _, _, f in arrivals if f] == ["test_tiny.py::test_slow_then_broken"]   # named as it fails
    assert run.collected == 2 and run.counts == {"PASSED": 1, "FAILED": 1} and run.returncode == 1
    assert run.closing.startswith("1 failed, 1 passed in "), run.closing
    assert "test_quick PASSED" in (tmp_path / "log.txt").read_text()


def test_summary_names_every_failure_whole_at_80_columns() -> None:
    long_id = "tests/test_a_rather_long_module_name.py::test_an_even_longer_test_name_that_passes_eighty_columns[1]"
    out = io.StringIO()
    console = Console(file=out, width=80, color_system=None)
    code = _finish(console, [Stage("spec lint"), Stage("tests and properties", ok=False, failures=[long_id])])
    text = out.getvalue()
    assert code == 1 and long_id in text.splitlines()[-1].strip()          # on one line, not cut or folded
    assert all(len(line) <= 80 for line in text.splitlines() if long_id not in line)


def test_report_folder_is_readable_by_everyone(tmp_path: Path) -> None:
    out = Path(tempfile.mkdtemp(dir=tmp_path))            # as report.py makes it: mode 0700
    (out / "sub").mkdir(mode=0o700)
    (out / "index.html").write_text("x")
    os.chmod(out / "index.html", 0o600)
    log = tmp_path / "pytest.log"
    log.write_text("log")
    found = tmp_path / "found"
    found.mkdir()
    (found / "progress-seed-0.toml").write_text("id = 'x'")
    _publish(out, log, found)
    assert stat.S_IMODE(out.stat().st_mode) == 0o755 and stat.S_IMODE((out / "sub").stat().st_mode) == 0o755
    assert stat.S_IMODE((out / "index.html").stat().st_mode) == 0o644
    assert (out / "pytest.log").read_text() == "log" and (out / "counterexamples" / "progress-seed-0.toml").exists()


def test_an_interrupted_report_leaves_no_half_built_folder(tmp_path: Path) -> None:
    out = tmp_path / "report"
    old = tmp_path / ".report-old"           # the previous report, moved aside just before Ctrl-C
    old.mkdir()
    (old / "index.html").write_text("previous")
    (tmp_path / ".report-abc123").mkdir()    # the half-built new one
    _tidy_interrupted_report(out, time.time() - 5)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["report"]
    assert (out / "index.html").read_text() == "previous"


@pytest.mark.process
def test_ctrl_c_exits_130_with_a_partial_summary_and_leaves_nothing_behind(tmp_path: Path) -> None:
    scratch = tmp_path / "tmp"
    scratch.mkdir()
    # A clean environment: under `make verify JUNIT=junit` (CI) the outer run's AZUL_* settings, such
    # as the JUnit folder, would make the inner verify write into the current folder.
    env = {**{k: v for k, v in os.environ.items() if not k.startswith("AZUL_")}, "TMPDIR": str(scratch),
           "COLUMNS": "80"}
    proc = subprocess.Popen([sys.executable, "-m", "harness.cli", "verify", "--out", str(tmp_path / "report")],
                            cwd=tmp_path, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    seen = []
    assert proc.stdout is not None
    for line in proc.stdout:               # the tests stage starts right after the scenarios stage
        seen.append(line)
        if line.startswith("ok scenarios") or line.startswith("FAILED scenarios"):
            break
    time.sleep(3)
    proc.send_signal(signal.SIGINT)
    try:
        rest, _ = proc.communicate(timeout=60)
    finally:
        proc.kill()
    text = "".join(seen) + rest
    assert proc.returncode == 130, text[-3000:]
    assert "interrupted" in text and "tests and properties" in text.split("interrupted (Ctrl-C)")[-1], text[-3000:]
    assert list(scratch.iterdir()) == [], list(scratch.iterdir())          # no azul-verify-*, no pytest-of-*
    assert sorted(p.name for p in tmp_path.iterdir()) == ["tmp"], list(tmp_path.iterdir())   # nothing in cwd


def _cli(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    """The command line in this process (tests/cli_helpers.py; issue 13); Ctrl-C above runs verify's own."""
    return run_cli(*args, cwd=cwd)


def test_did_you_mean_for_clause_ids_and_interpretations() -> None:
    run = _cli("explain", "duel.acquire." + "edn")          # split: the clause-link lint reads ids in tests
    assert run.returncode == 2 and "did you mean 'duel.acquire.end'?" in run.stderr, run.stderr
    run = _cli("simulate", "--games", "1", "--interpretation", "duel.score.strat=zero")
    assert run.returncode == 2 and "did you mean 'duel.score.start'?" in run.stderr, run.stderr
    run = _cli("simulate", "--games", "1", "--interpretation", "duel.score.start=zer")
    assert run.returncode == 2 and "did you mean 'zero'?" in run.stderr, run.stderr


def test_graph_writes_into_the_checkout_not_the_current_folder(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from click.testing import CliRunner

    import harness.diagram as diagram
    from harness.cli import cli

    written: list[Path] = []
    monkeypatch.setattr(diagram, "render_phases", lambda out, fmt, **kw: written.append(out) or out)
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(cli, ["graph", "--format", "dot"])
    assert result.exit_code == 0, result.output
    assert written == [ROOT / "docs" / "phases.dot"] and list(tmp_path.iterdir()) == []


def test_stage_line_keeps_ids_with_brackets_and_long_paths_whole() -> None:
    from harness.verify import _stage

    long_path = "fixtures/duel/a_folder_with_a_long_name/and_a_scenario_file_whose_name_is_long_too.toml"
    out = io.StringIO()
    console = Console(file=out, width=80, color_system=None)

    def failing(st: Stage) -> None:
        st.ok, st.detail = False, f"failed: tests/test_x.py::test_y[bold] and {long_path}"
    _stage(console, [], "scenarios", failing)
    text = out.getvalue()
    assert "tests/test_x.py::test_y[bold]" in text and long_path in text, text


def test_pytest_lines_of_a_parallel_run_are_followed() -> None:
    """pytest-xdist (`-n N`, verify's test stage) puts the worker and outcome before the test id."""
    run = PytestRun()
    lines = ["created: 2/2 workers", "2 workers [3 items]", "", "tests/test_a.py::test_one ",
             "[gw0] [ 33%] PASSED tests/test_a.py::test_one ", "[gw1] [ 66%] FAILED tests/test_a.py::test_two[x-y] ",
             "[gw1] [100%] SKIPPED tests/test_b.py::test_three ", "FAILED tests/test_a.py::test_two[x-y] - assert 0",
             "=================== 1 failed, 1 passed, 1 skipped in 3.18s ===================="]
    named = [run.follow(line) for line in lines]
    assert [n for n in named if n] == ["tests/test_a.py::test_two[x-y]"]
    assert run.collected == 3 and run.counts == {"PASSED": 1, "FAILED": 1, "SKIPPED": 1}
    assert run.failed == ["tests/test_a.py::test_two[x-y]"] and run.progress_text() == "3/3 tests finished, 1 failed"
    assert run.closing == "1 failed, 1 passed, 1 skipped in 3.18s"


def test_verify_spreads_its_test_stage_over_its_jobs() -> None:
    from harness.pytest_run import parallel_args

    assert parallel_args(2) == ["-n", "2", "--dist", "worksteal"] and parallel_args(1) == parallel_args(None) == []
