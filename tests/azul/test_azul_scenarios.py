"""Classic Azul scenario files (fixtures/azul/, harness/azul/scenarios/): strict loading with
file/line/field errors and "did you mean", the runner's diffs for refusals and expectations, every
interpretation alternative stated by some file, the CLI, pytest collection, verify's file list and
the position writer."""

from __future__ import annotations

import random
import subprocess
import sys
import tomllib
from pathlib import Path

import attrs
import pytest
from click.testing import CliRunner

from harness.azul.scenarios.writer import position_toml
from harness.cli import cli
from harness.pytest_plugin import peek_scenario
from harness.scenarios import ScenarioError, load_scenario, run_scenario, scenario_files, scenario_game
from model.azul import IMPLEMENTED, new_game
from tests.cli_helpers import run_cli
from tests.scenario_helpers import refusal, write_scenario

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "fixtures" / "azul"

GOOD = '''game = "azul"
id = "t.good"
description = "a red take onto line 2"
clauses = ["azul.offer.take-factory"]
when = ["take F1 red line 2"]

[given]
players = 2
factories = { F1 = "RRBY", F2 = "KKKK" }
bag = { blue = 10 }

[given.p1]
score = 3
wall = ["B....", ".....", ".....", ".....", "....."]

[then]
p1 = { lines = ["", "RR"], score = 3 }
centre = "BY"
invariants = "all"
'''


# misspelt ids, built in two parts so the spec-reference scans do not take them for citations
FACTROY = "azul.offer." + "take-factroy"
AXS = "azul.score." + "single-axs"


_write = write_scenario


def _error(tmp_path: Path, old: str, new: str) -> ScenarioError:
    return refusal(tmp_path, GOOD, old, new)


def _line(text: str, needle: str) -> int:
    return next(n for n, line in enumerate(text.splitlines(), 1) if needle in line)


def test_good_scenario_passes(tmp_path: Path) -> None:
    result = run_scenario(load_scenario(_write(tmp_path, GOOD)))
    assert result.passed, result.diffs
    assert result.steps_run == 1


@pytest.mark.parametrize(("old", "new", "field", "message"), [
    ("score = 3\nwall", "scroe = 3\nwall", "given.p1.scroe", "unknown key (did you mean 'score'?)"),
    ('bag = { blue = 10 }', 'bag = { bleu = 10 }', "given.bag", "unknown colour 'bleu' (did you mean 'blue'?)"),
    ('F2 = "KKKK"', 'F2 = "KKGK"', "given.factories.F2", "'G' is not a tile letter"),
    ('F2 = "KKKK"', 'F6 = "KKKK"', "given.factories.F6",
     "no factory 'F6': 2 players use 5 factories (F1-F5) [azul.setup.factory-count]"),
    ("players = 2", 'players = 2\nwall = "grey"', "given.wall", "unknown wall side 'grey' (did you mean 'gray'?)"),
    ('clauses = ["azul.offer.take-factory"]', f'clauses = ["{FACTROY}"]', "clauses[0]",
     "did you mean 'azul.offer.take-factory'?"),
    ('description = "a red take onto line 2"',
     f'description = "x"\ninterpretations = {{ "{AXS}" = "count-both" }}',
     f'interpretations."{AXS}"', "did you mean 'azul.score.single-axis'?"),
    ('wall = ["B....",', 'wall = ["Y....",', "given.p1.wall",
     "P1 wall r1 c1 holds yellow, printed blue [azul.invariant.wall-colours]"),
    ("score = 3\nwall", 'lines = ["", "RRR"]\nscore = 3\nwall', "given.p1.lines[1]",
     "line 2 holds at most 2 tiles, not 3 [azul.lines.capacity]"),
    ('bag = { blue = 10 }', 'bag = { blue = 30 }', "given.bag", "[azul.component.tiles]"),
    ("[then]", '[then]\nwinner = "P5"', "then.winner", "expected one of P1, P2, P3, P4, shared"),
    ('when = ["take F1 red line 2"]', 'when = ["take F1 red line 7"]', "when[0]", "pattern line 7 does not exist"),
])
def test_a_malformed_file_names_file_line_field_and_clause(tmp_path: Path, old: str, new: str, field: str,
                                                           message: str) -> None:
    err = _error(tmp_path, old, new)
    text = GOOD.replace(old, new, 1)
    assert err.field == field
    assert message in err.message
    assert err.file.endswith("s.toml") and err.line is not None
    first_word = field.split(".")[-1].split("[")[0].strip('"')
    assert first_word.split(".")[-1] in text.splitlines()[err.line - 1] or err.line == _line(text, first_word)


def test_every_problem_of_a_file_is_reported_at_once(tmp_path: Path) -> None:
    err = _error(tmp_path, 'clauses = ["azul.offer.take-factory"]', 'clauses = ["azul.nope"]\ncolour = 1')
    assert [p.field for p in err.problems] == ["clauses[0]", "colour"]


def test_a_marker_on_the_floor_of_a_player_who_does_not_hold_it_is_refused(tmp_path: Path) -> None:
    text = GOOD.replace("players = 2", 'players = 2\nmarker = "centre"').replace("score = 3\nwall", 'floor = "M"\nscore = 3\nwall')
    with pytest.raises(ScenarioError) as err:
        load_scenario(_write(tmp_path, text))
    assert (err.value.field, err.value.message) == (
        "given.marker", "the marker is in the centre and on P1's floor [azul.invariant.marker]")
    assert err.value.line == _line(text, "marker =")


def test_a_refusal_under_another_clause_or_an_accepted_step_fails_the_scenario(tmp_path: Path) -> None:
    wrong = GOOD.replace('when = ["take F1 red line 2"]',
                         'when = [{ do = "take F1 blue line 1", error = "azul.lines.capacity" }]')
    result = run_scenario(load_scenario(_write(tmp_path, wrong)))
    assert not result.passed
    assert "'take F1 blue line 1' was refused under azul.lines.wall-has-colour, expected azul.lines.capacity" \
        in result.diffs[0]
    accepted = GOOD.replace('when = ["take F1 red line 2"]',
                            'when = [{ do = "take F1 red line 2", error = "azul.lines.capacity" }]')
    result = run_scenario(load_scenario(_write(tmp_path, accepted)))
    assert result.diffs == ("when[0]: 'take F1 red line 2' was accepted, expected refusal under azul.lines.capacity",)


def test_expectations_compare_what_they_name(tmp_path: Path) -> None:
    text = GOOD.replace('p1 = { lines = ["", "RR"], score = 3 }', 'p1 = { lines = ["", "R"], score = 4 }')
    result = run_scenario(load_scenario(_write(tmp_path, text)))
    assert sorted(result.diffs) == ["then.p1.lines: expected ['', 'R', '', '', ''], got ['', 'RR', '', '', '']",
                                    "then.p1.score: expected 4, got 3"]


def _stated_readings() -> dict[str, set[str]]:
    stated: dict[str, set[str]] = {}
    for path in sorted(FIXTURES.rglob("*.toml")):
        data = tomllib.loads(path.read_text())
        for choices in [data.get("interpretations", {})] + [r["interpretations"] for r in data.get("readings", [])]:
            for key, alt in choices.items():
                stated.setdefault(key, set()).add(alt)
    return stated


def test_both_sides_of_every_classic_interpretation_point_have_a_scenario() -> None:
    stated = _stated_readings()
    assert {k: set(v) for k, v in IMPLEMENTED.items()} == stated


def test_every_fixture_declares_clauses_of_its_game_and_loads() -> None:
    files = sorted(FIXTURES.rglob("*.toml"))
    assert len(files) >= 40
    for path in files:
        assert scenario_game(path) == "azul"
        sid, clauses = peek_scenario(path)         # pytest marks the item with these clauses
        assert clauses and all(c.startswith("azul.") for c in clauses), path
        assert load_scenario(path).id == sid


@pytest.mark.clause("azul.component.wall-pattern")
def test_verify_and_pytest_find_the_classic_fixtures() -> None:
    found = set(scenario_files([ROOT / "fixtures"]))       # verify's scenarios stage walks this
    assert set(FIXTURES.rglob("*.toml")) <= found


def test_cli_runs_classic_scenarios_and_flips_a_reading() -> None:
    runner = CliRunner()
    folder = str(FIXTURES / "interpretations")
    ok = runner.invoke(cli, ["scenario", "--game", "azul", folder])
    assert ok.exit_code == 0, ok.output
    flipped = runner.invoke(cli, ["scenario", "--game", "azul", str(FIXTURES / "interpretations" / "single-axis-skip-single.toml"),
                                  "--interpretation", "azul.score.single-axis=count-both"])
    assert flipped.exit_code == 1 and "expected 3, got 4" in flipped.output
    bad = subprocess.run([sys.executable, "-m", "harness.cli", "scenario", "--game", "azul", folder,
                          "--interpretation", "azul.score.single-axis=both"], capture_output=True, text=True)
    assert bad.returncode == 2 and "Traceback" not in bad.stderr
    assert "has no alternative 'both'" in bad.stderr and bad.stderr.strip().count("\n") == 0


@pytest.mark.parametrize("seed", [3, 17])
def test_an_exported_position_loads_to_the_same_state(tmp_path: Path, seed: int) -> None:
    g = new_game(3, seed=seed, wall="gray")
    rng = random.Random(seed)
    for _ in range(40):
        if g.is_over or g.is_stalled:
            break
        g.apply(rng.choice(g.legal_actions()))
        if g.state.phase == "offer" and g.current_player >= 0 and g.state.round >= 2:
            break
    assert g.state.phase == "offer"
    path = _write(tmp_path, position_toml(g, scenario_id="t.export", description="x",
                                          clauses=["azul.offer.actions"]))
    scenario = load_scenario(path)
    from harness.azul.scenarios.position import build_game
    rebuilt, _ = build_game(scenario)
    assert attrs.evolve(rebuilt.state, tiling=(0, 0)) == attrs.evolve(g.state, tiling=(0, 0))   # a cursor


@pytest.mark.parametrize(("fixture", "clause"), [
    ("gray/row-unique.toml", "azul.gray.row-unique"),
    ("guide/wall-pattern-printed-spaces.toml", "azul.component.wall-pattern"),
])
def test_the_wall_rule_scenarios_fire_their_clause(fixture: str, clause: str) -> None:
    """Coverage counts a clause as asserted only when a passing test declaring it also fires it."""
    from model.clauses import recording

    scenario = load_scenario(FIXTURES / fixture)
    assert clause in scenario.clauses
    with recording() as rec:
        result = run_scenario(scenario)
    assert result.passed, result.diffs
    assert rec.clauses[clause] > 0


def test_a_chance_script_that_runs_dry_is_a_diff_not_a_crash(tmp_path: Path) -> None:
    text = GOOD.replace('F2 = "KKKK"', 'F2 = ""').replace("[then]", '[chance]\nstrict = true\n\n[then]')
    text = text.replace('when = ["take F1 red line 2"]', 'when = ["take F1 red line 2", "take C blue line 3", '
                                                         '"take C yellow line 3"]')
    result = run_scenario(load_scenario(_write(tmp_path, text)))
    assert not result.passed
    assert any("chance.tiles: the script has no more tiles" in d for d in result.diffs), result.diffs


def test_cli_show_renders_a_classic_scenario_and_exports_it(tmp_path: Path) -> None:
    path = str(FIXTURES / "guide" / "marker-first-from-centre.toml")
    # In this process (tests/cli_helpers.py; issue 13): the real subprocess is test_cli_runs_classic_scenarios_...'s
    run = run_cli("show", path, "--steps")
    assert run.returncode == 0, run.stderr
    assert "after when[2]: take C yellow line 3" in run.stdout and "marker: P2" in run.stdout
    export = run_cli("show", path, "--export", "2")
    assert export.returncode == 0, export.stderr
    exported = load_scenario(_write(tmp_path, export.stdout))
    assert exported.given["marker"] == "P2" and exported.given["p2"]["floor"] == "TM"
    svg = run_cli("show", path, "--svg", str(tmp_path / "x.svg"))
    assert svg.returncode == 2 and svg.stderr.strip().count("\n") == 0 and "Traceback" not in svg.stderr


READINGS = GOOD + ('\n[[readings]]\ninterpretations = { "azul.lines.voluntary-split" = "voluntary-split" }\n'
                   'then = { p1 = { score = 3 } }\n')


def test_one_file_states_both_readings_and_each_reading_reports_its_own_diffs(tmp_path: Path) -> None:
    scenario = load_scenario(_write(tmp_path, READINGS))
    under = scenario.under(scenario.readings[0])
    assert under.then["p1"] == {"lines": ["", "RR"], "score": 3}          # merged over the file's p1
    assert under.interpretations == {"azul.lines.voluntary-split": "voluntary-split"}
    assert run_scenario(scenario).passed
    wrong = READINGS.replace("then = { p1 = { score = 3 } }", "then = { p1 = { score = 9 } }")
    result = run_scenario(load_scenario(_write(tmp_path, wrong)))
    assert result.diffs == ("readings[0] (azul.lines.voluntary-split=voluntary-split): then.p1.score: "
                            "expected 9, got 3",)


def test_a_reading_the_model_does_not_run_is_an_error_with_did_you_mean(tmp_path: Path) -> None:
    with pytest.raises(ScenarioError) as err:
        load_scenario(_write(tmp_path, READINGS.replace('= "voluntary-split" }', '= "voluntary-splt" }')))
    assert err.value.field == "readings[0].interpretations"
    assert "did you mean 'voluntary-split'?" in err.value.message
    assert err.value.line == _line(READINGS, "interpretations = {")


def test_verify_counts_the_scenario_files_of_each_game() -> None:
    from harness.scenarios.files import files_by_game

    counts = files_by_game(list(scenario_files([ROOT / "fixtures"])))
    assert counts["azul"] == len(list(FIXTURES.rglob("*.toml"))) and counts["duel"] > 0
