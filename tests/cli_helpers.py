"""`azul-rules` run inside the test process (issue 13).

A `python -m harness.cli` subprocess pays an interpreter start-up and the project's imports, about
1 CPU s, for each call. Where the subprocess itself is not what a test checks, `run_cli` calls the
same entry point (`harness.cli.main`: its one-line errors and exit codes) under click's CliRunner
isolation and returns what the subprocess would: exit status, stdout and stderr as text. Each test
file that checks the command line keeps at least one real subprocess for the installed path.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

from click.testing import CliRunner

# A pytest the suite starts in a folder of its own (tmp_path) does not read the project's pytest
# settings; the project's addopts switch anyio's plugin off (pyproject.toml), and so does this: its
# import pulls in anyio and trio, about 0.4 CPU s in each such process (issue 13).
PYTEST_OUTSIDE = (sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:anyio")


def _status(code: object) -> int:
    """The process exit status `sys.exit(code)` would give."""
    if code is None:
        return 0
    if isinstance(code, int):
        return code
    print(code, file=sys.stderr)      # sys.exit("message"): Python prints it and exits 1
    return 1


def run_cli(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    """`azul-rules ARGS` in this process: exit status, stdout, stderr (as a finished subprocess).
    A crash (an exception main() does not turn into a message) propagates to the test."""
    from harness.cli import main

    argv, here, sigint = sys.argv, os.getcwd(), signal.getsignal(signal.SIGINT)
    with CliRunner().isolation() as (out, err, _):
        sys.argv = ["azul-rules", *args]
        try:
            if cwd is not None:
                os.chdir(cwd)
            main()
            status = 0
        except SystemExit as exc:
            status = _status(exc.code)
        finally:
            sys.argv = argv
            os.chdir(here)
            signal.signal(signal.SIGINT, sigint)
        sys.stdout.flush()
        sys.stderr.flush()
        stdout, stderr = out.getvalue().decode(), err.getvalue().decode()
    return subprocess.CompletedProcess(["azul-rules", *args], status, stdout, stderr)
