"""A fork server for mutation runs: started once inside a private copy of the project, it imports
pytest and the libraries the suite needs, then for each mutant forks a child that writes the
mutant into the copy, forgets the project's modules, and runs the selected tests with pytest.main.
Starting a fresh interpreter and pytest for every mutant would cost more than most test runs.

Protocol: one JSON request per line on stdin ({"file", "source", "original", "tests", "timeout"}),
one JSON reply per line on stdout ({"status", "killer", "seconds"}).
"""

from __future__ import annotations

import json
import os
import signal
import sys
import time
from pathlib import Path
from typing import Any

PROJECT_PACKAGES = ("spec", "model", "properties", "harness", "tests", "conftest")


class FirstFailure:
    """A pytest plugin that remembers the first failing test."""

    def __init__(self) -> None:
        self.nodeid: str | None = None

    def pytest_runtest_logreport(self, report: Any) -> None:
        if report.failed and self.nodeid is None:
            self.nodeid = report.nodeid

    def pytest_collectreport(self, report: Any) -> None:
        if report.failed and self.nodeid is None:
            self.nodeid = f"collection of {report.nodeid or 'the suite'}"


def _child(request: dict[str, Any], result_fd: int) -> None:
    import pytest

    for name in list(sys.modules):
        if name.split(".")[0] in PROJECT_PACKAGES:
            del sys.modules[name]
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 1)
    os.dup2(devnull, 2)
    plugin = FirstFailure()
    code = pytest.main(["-x", "-q", "-p", "no:cacheprovider", "--clause-json=", *request["tests"]],
                       plugins=[plugin])
    os.write(result_fd, json.dumps({"code": int(code), "killer": plugin.nodeid}).encode())
    os._exit(0)


def serve() -> None:
    import attrs  # noqa: F401  (the suite's libraries, imported once before forking)
    import cattrs  # noqa: F401
    import hypothesis  # noqa: F401
    import jinja2  # noqa: F401
    import networkx  # noqa: F401
    import pytest  # noqa: F401
    import rich  # noqa: F401

    for line in sys.stdin:
        request = json.loads(line)
        target = Path(request["file"])
        target.write_text(request["source"])
        started = time.monotonic()
        read_fd, write_fd = os.pipe()
        pid = os.fork()
        if pid == 0:
            os.close(read_fd)
            try:
                _child(request, write_fd)
            finally:
                os._exit(70)
        os.close(write_fd)
        deadline = started + float(request["timeout"])
        status: int | None = None
        while time.monotonic() < deadline:
            done, status = os.waitpid(pid, os.WNOHANG)
            if done:
                break
            time.sleep(0.02)
        else:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
        raw = b""
        while chunk := os.read(read_fd, 65536):
            raw += chunk
        os.close(read_fd)
        target.write_text(request["original"])
        seconds = time.monotonic() - started
        if status is None or not raw:
            reply = {"status": "timeout" if status is None else "error",
                     "killer": f"no verdict within {request['timeout']:.0f} s" if status is None
                     else f"the test run died (status {status})", "seconds": seconds}
        else:
            result = json.loads(raw)
            code = result["code"]
            if code == 0:
                reply = {"status": "survived", "killer": None, "seconds": seconds}
            elif code in (1, 2, 3):
                reply = {"status": "killed", "killer": result["killer"] or f"pytest exit {code}", "seconds": seconds}
            else:
                reply = {"status": "error", "killer": f"pytest exit {code}", "seconds": seconds}
        sys.stdout.write(json.dumps(reply) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    serve()
