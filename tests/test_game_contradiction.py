"""`--game` that contradicts a scenario file is an error naming the file and its `game` field
(issue 22: it was ignored); without `--game` the file's own game is used."""

from __future__ import annotations

from click.testing import CliRunner

from harness.cli import cli
from harness.coverage import ROOT

AZUL = next(iter(sorted((ROOT / "fixtures" / "azul").rglob("*.toml"))))
DUEL = ROOT / "fixtures" / "duel" / "rulebook" / "broken-two-tiles-cost-three.toml"


def _run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(cli, list(args))
    return result.exit_code, result.output + str(result.exception or "")


def test_game_that_contradicts_the_file_is_an_error() -> None:
    code, out = _run("scenario", "--game", "duel", str(AZUL))
    assert code == 1 and "field 'game'" in out and "--game duel" in out and str(AZUL.name) in out
    code, out = _run("show", "--game", "azul", str(DUEL))
    assert code != 0 and "field 'game'" in out and "--game azul" in out


def test_without_game_or_with_the_files_game_it_runs() -> None:
    for args in (("scenario", str(AZUL)), ("scenario", "--game", "azul", str(AZUL)), ("scenario", str(DUEL))):
        code, out = _run(*args)
        assert code == 0 and "1 passed, 0 failed" in out, (args, out)

