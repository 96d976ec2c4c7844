"""The scenario format: strict loading with file/line/field errors, the runner's diffs, the CLI."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from harness.scenarios import ScenarioError, load_scenario, run_scenario

GOOD = '''id = "t.good"
description = "a sun pick"
clauses = ["duel.acquire.sun.take-colour"]
when = ["sun 1 red", "line 2"]

[given]
starter = "P1"

[given.factories]
1 = { sun = "RRBB", chip = "C01" }

[given.p1]
score = 3

[then]
p1 = { lines = ["", "RR"] }
'''


def _write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "s.toml"
    path.write_text(text)
    return path


def _error(tmp_path: Path, old: str, new: str) -> ScenarioError:
    assert old in GOOD
    with pytest.raises(ScenarioError) as err:
        load_scenario(_write(tmp_path, GOOD.replace(old, new, 1)))
    return err.value


def test_good_scenario_passes(tmp_path: Path) -> None:
    result = run_scenario(load_scenario(_write(tmp_path, GOOD)))
    assert result.passed and result.steps_run == 2


def test_wrong_expectation_gives_a_readable_diff(tmp_path: Path) -> None:
    result = run_scenario(load_scenario(_write(tmp_path, GOOD.replace('"RR"]', '"RRR"]'))))
    assert not result.passed
    assert result.diffs == ("then.p1.lines: expected ['', 'RRR', '', '', '', ''], got ['', 'RR', '', '', '', '']",)


def test_unknown_key_names_file_line_and_field(tmp_path: Path) -> None:
    err = _error(tmp_path, "score = 3", "scroe = 3")
    assert (err.field, err.line) == ("given.p1.scroe", 13) and err.file.endswith("s.toml")


def test_bad_colour(tmp_path: Path) -> None:
    err = _error(tmp_path, 'sun = "RRBB"', 'sun = "RRBX"')
    assert err.field == "given.factories.1.sun" and "'X'" in err.message and err.line == 10


def test_fourteen_red_tiles_is_impossible(tmp_path: Path) -> None:
    err = _error(tmp_path, "score = 3", 'score = 3\nlines = ["R", "RR", "RRR", "RRRR", "RRRRR"]\nbroken = "RRRR"')
    assert err.field == "given.p1.lines" and "no red tile left" in err.message


def test_tile_on_a_space_of_another_colour(tmp_path: Path) -> None:
    text = GOOD.replace("score = 3", 'score = 3\nplates = { 1 = "P01 r0" }\n'
                        'dome = ["R.....", "......", "......", "......", "......", "......"]')
    with pytest.raises(ScenarioError) as err:
        load_scenario(_write(tmp_path, text))
    assert err.value.field == "given" and "duel.invariant.dome-consistency" in err.value.message


def test_bad_action_notation(tmp_path: Path) -> None:
    err = _error(tmp_path, '"line 2"]', '"line 9"]')
    assert err.field == "when[1]" and err.line == 4


def test_unknown_clause_and_interpretation(tmp_path: Path) -> None:
    assert _error(tmp_path, '"duel.acquire.sun.take-colour"', '"duel.nope"').field == "clauses[0]"
    err = _error(tmp_path, 'clauses = [', 'interpretations = { "duel.score.start" = "six" }\nclauses = [')
    assert err.field == "interpretations.duel.score.start" and "six" in err.message


def test_malformed_toml(tmp_path: Path) -> None:
    err = _error(tmp_path, 'score = 3', 'score = ')
    assert "malformed TOML" in err.message and err.line == 13


def test_expected_error_step(tmp_path: Path) -> None:
    text = GOOD.replace('when = ["sun 1 red", "line 2"]',
                        'when = [{ do = "moon red", error = "duel.acquire.moon.take-colour" }, "sun 1 red", "line 2"]')
    assert run_scenario(load_scenario(_write(tmp_path, text))).passed
    wrong = text.replace('error = "duel.acquire.moon.take-colour"', 'error = "duel.acquire.moon.top-tile-only"')
    result = run_scenario(load_scenario(_write(tmp_path, wrong)))
    assert not result.passed and "refused under duel.acquire.moon.take-colour" in result.diffs[0]


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "harness.cli", *args], capture_output=True, text=True)


def test_cli_scenario_exit_codes(tmp_path: Path) -> None:
    ok = _cli("scenario", str(_write(tmp_path, GOOD)))
    assert ok.returncode == 0 and "1 passed, 0 failed" in ok.stdout
    bad = tmp_path / "bad.toml"
    bad.write_text(GOOD.replace('"RR"]', '"R"]'))
    failed = _cli("scenario", str(bad))
    assert failed.returncode == 1 and "FAIL t.good" in failed.stdout


def test_cli_user_error_is_one_line(tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text(GOOD.replace("score = 3", "scroe = 3"))
    run = _cli("show", str(bad))
    assert run.returncode == 2
    assert run.stderr.strip().count("\n") == 0 and "given.p1.scroe" in run.stderr
    assert "Traceback" not in run.stderr


def test_cli_show_renders_steps(tmp_path: Path) -> None:
    run = _cli("show", "--steps", str(_write(tmp_path, GOOD)))
    assert run.returncode == 0 and "after when[1]: line 2" in run.stdout


def test_cli_explain_runs_for_a_clause_and_an_interpretation_point() -> None:
    for ident in ("duel.acquire.chip.limit", "duel.chips.per-round"):
        run = _cli("explain", ident)
        assert run.returncode == 0, run.stderr
        assert "duel.acquire.chip.limit" in run.stdout and "Code sites" in run.stdout


def test_expected_events_are_matched_in_order_and_once(tmp_path: Path) -> None:
    once = GOOD.replace('p1 = { lines = ["", "RR"] }', 'p1 = { lines = ["", "RR"] }\nevents = ["on line 2"]')
    assert run_scenario(load_scenario(_write(tmp_path, once))).passed
    twice = once.replace('events = ["on line 2"]', 'events = ["on line 2", "on line 2"]')
    result = run_scenario(load_scenario(_write(tmp_path, twice)))
    assert not result.passed and "no event containing 'on line 2' (in order)" in result.diffs[0]
