"""`[[readings]]` in Duel scenario files: one file states what happens under an interpretation's
alternative and under the default (a search witness for `--decide ID=ALT`), and both are checked,
each failure naming its reading."""

from __future__ import annotations

from pathlib import Path

import pytest

from harness.scenarios import load_scenario, run_scenario, scenario_api
from tests.cli_helpers import run_cli
from tests.scenario_helpers import refusal, write_scenario

# Under duel.score.start=zero both players start at 0; the reading is the default, five.
BOTH = '''game = "duel"
id = "t.both-readings"
description = "a sun pick, scored from either starting score"
clauses = ["duel.setup.scores", "duel.acquire.sun.take-colour"]
interpretations = { "duel.score.start" = "zero" }
when = ["sun 1 red", "line 2"]

[given]
starter = "P1"

[given.factories]
1 = { sun = "RRBB", chip = "C01" }

[then]
scores = [0, 0]
p1 = { lines = ["", "RR"], score = 0 }

[[readings]]
interpretations = { "duel.score.start" = "five" }
then = { scores = [5, 5], p1 = { score = 5 } }
'''
READING = "readings[0] (duel.score.start=five)"


def _run(tmp_path: Path, text: str):  # type: ignore[no-untyped-def]
    return run_scenario(load_scenario(write_scenario(tmp_path, text)))


def test_a_reading_runs_the_same_steps_with_its_expectations_merged_over_the_files(tmp_path: Path) -> None:
    scenario = load_scenario(write_scenario(tmp_path, BOTH))
    under = scenario.under(scenario.readings[0])
    assert under.interpretations == {"duel.score.start": "five"} and under.readings == ()
    assert under.then == {"scores": [5, 5], "p1": {"lines": ["", "RR"], "score": 5}}   # p1 key by key
    result = run_scenario(scenario)
    assert result.passed, result.diffs
    assert result.steps_run == 4                         # the two steps, under each reading


def test_a_wrong_expectation_under_a_reading_fails_and_names_the_reading(tmp_path: Path) -> None:
    result = _run(tmp_path, BOTH.replace("then = { scores = [5, 5]", "then = { scores = [0, 0]"))
    assert not result.passed
    assert result.diffs == (f"{READING}: then.scores: expected [0, 0], got [5, 5]",)


def test_the_files_own_expectations_are_checked_too(tmp_path: Path) -> None:
    result = _run(tmp_path, BOTH.replace("scores = [0, 0]\n", "scores = [5, 5]\n"))
    assert result.diffs == ("then.scores: expected [5, 5], got [0, 0]",)
    # a key only the file states is checked under the reading as well (merged, not dropped)
    result = _run(tmp_path, BOTH.replace('lines = ["", "RR"]', 'lines = ["", "RRR"]'))
    assert [d.split(":")[0] for d in result.diffs] == ["then.p1.lines", f"{READING}"]
    assert result.diffs[1].startswith(f"{READING}: then.p1.lines: expected")


def test_the_reading_alone_is_what_a_command_line_flip_runs(tmp_path: Path) -> None:
    path = write_scenario(tmp_path, BOTH)
    flipped = scenario_api("duel").with_readings(load_scenario(path), {"duel.score.start": "five"})
    assert flipped.readings == ()
    assert run_scenario(flipped).diffs == ("then.scores: expected [0, 0], got [5, 5]",
                                           "then.p1.score: expected 0, got 5")
    result = run_cli("scenario", str(path))
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.mark.parametrize(("old", "new", "field", "words"), [
    ('= "five" }', '= "fiv" }', "readings[0].interpretations", "did you mean 'five'?"),
    ('"duel.score.start" = "five" }', '"duel.score.strat" = "five" }', "readings[0].interpretations",
     "did you mean 'duel.score.start'?"),
    ("then = { scores = [5, 5]", "then = { scroes = [5, 5]", "readings[0].then.scroes", "unknown key"),
    ("then = { scores = [5, 5]", "then = { scores = [5, 5], winner = \"P3\"", "readings[0].then.winner",
     "expected one of"),
    ('interpretations = { "duel.score.start" = "five" }\nthen', "interpretations = {}\nthen", "readings[0]",
     "at least one interpretation"),
    ("[[readings]]", "[[readings]]\nwhen = []", "readings[0].when", "unknown key"),
])
def test_a_bad_reading_is_one_line_naming_its_field(tmp_path: Path, old: str, new: str, field: str,
                                                     words: str) -> None:
    err = refusal(tmp_path, BOTH, old, new)
    assert err.field == field and words in err.message, (err.field, err.message)
    assert err.line is not None and err.line > BOTH.splitlines().index("[[readings]]")

