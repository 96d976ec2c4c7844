"""Output paths are checked when the command line is parsed (issue 22): an unwritable `--out`,
`--json`, `--svg` or `--png` is one line and exit 2 before any work starts, never a traceback after
the work (verify's was one after 197 s)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from harness.cli import cli
from harness.coverage import ROOT
from harness.output_path import unwritable

SCENARIO = "fixtures/duel/rulebook/broken-two-tiles-cost-three.toml"
# Each command with an output option, and its other arguments; "{bad}" is an unwritable path.
COMMANDS = [
    ["verify", "--out", "{bad}"],
    ["mutate", "--json", "{bad}/x.json"],
    ["simulate", "--games", "1", "--json", "{bad}/x.json"],
    ["simulate", "--games", "1", "--out", "{bad}"],
    ["interpretations", "--games", "1", "--json", "{bad}/x.json"],
    ["diff", "HEAD", "HEAD", "--out", "{bad}/d.md"],
    ["show", SCENARIO, "--svg", "{bad}/x.svg"],
    ["show", SCENARIO, "--png", "{bad}/x.png"],
    ["graph", "--out", "{bad}/g.svg"],
    ["differential", "--games", "1", "--json", "{bad}/x.json"],
    ["diff", "HEAD", "HEAD", "--build-log", "{bad}"],
    ["perft", "--depth", "1", "--json", "{bad}/p.json"],
]


@pytest.fixture
def bad(tmp_path: Path) -> str:
    """A path under a plain file: no folder can be made there (root or not)."""
    (tmp_path / "plain").write_text("")
    return str(tmp_path / "plain" / "out")


@pytest.mark.parametrize("args", COMMANDS, ids=lambda a: " ".join(a[:1] + [x for x in a if x.startswith("--")][-1:]))
def test_an_unwritable_output_is_refused_before_any_work(args: list[str], bad: str,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    import harness.verify

    def no_work(*a: object, **k: object) -> None:
        raise AssertionError("work started before the output path was checked")

    monkeypatch.setattr(harness.verify, "verify", no_work)
    result = CliRunner().invoke(cli, [a.replace("{bad}", bad) for a in args])
    assert result.exit_code == 2, result.output
    assert "cannot write there" in result.output and "Traceback" not in result.output


def test_the_check_tells_files_folders_and_read_only_places_apart(tmp_path: Path) -> None:
    (tmp_path / "f").write_text("")
    assert unwritable(tmp_path / "new" / "deeper" / "x.json", False) is None       # made on writing
    assert unwritable(tmp_path / "f", False) is None                               # overwritten
    assert unwritable(tmp_path, True) is None
    assert unwritable(tmp_path / "f", True) == "it is a file, not a folder"
    assert unwritable(tmp_path, False) == "it is a folder, not a file"
    assert unwritable(tmp_path / "f" / "x", False) == f"{tmp_path / 'f'} is a file, not a folder"
    if Path("/proc").is_dir():                                                       # read-only to root too
        assert unwritable(Path("/proc/azul-out"), True) == "cannot create files in /proc"


def test_the_cli_says_it_in_one_line(bad: str) -> None:
    run = subprocess.run([sys.executable, "-m", "harness.cli", "verify", "--out", bad], cwd=ROOT,
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 2
    assert run.stderr.strip().count("\n") == 0 and "Invalid value for '--out'" in run.stderr, run.stderr
