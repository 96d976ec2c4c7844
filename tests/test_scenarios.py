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
    # the field, the space and the colours in the game's words (not internal numbers)
    assert (err.value.field, err.value.line) == ("given.p1.dome", 15)
    assert err.value.message == ("row 1, space 1: a red tile on a yellow-only space "
                                 "[duel.invariant.dome-consistency]")


def test_special_tile_on_a_coloured_space_and_on_an_unfinished_plate(tmp_path: Path) -> None:
    base = GOOD.replace("score = 3", 'score = 3\nplates = { 1 = "P01 r0" }\ndome = [{}, "......", "......", '
                        '"......", "......", "......"]')
    with pytest.raises(ScenarioError) as err:
        load_scenario(_write(tmp_path, base.replace("{}", '"S....."')))
    assert err.value.field == "given.p1.dome"
    assert err.value.message.startswith("row 1, space 1: a Special tile on a yellow-only space")
    # P01 r0 shows Y K / T S: a Special tile before Y, K and T are tiled
    with pytest.raises(ScenarioError) as err:
        load_scenario(_write(tmp_path, base.replace('"......", "......", "......", "......", "......"]',
                                                    '".S....", "......", "......", "......", "......"]', 1)
                             .replace("{}", '"YK...."')))
    assert err.value.message.startswith("row 2, space 2: a Special tile on the plate on Dome space 1")


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


# --- what `then` can say: supplies, pile size, plates in hand -----------------------------------

DRAWING = '''id = "t.drawing"
description = "two plates drawn blind are in hand"
clauses = ["duel.acquire.plate.draw"]
when = ["draw", "draw"]

[given]
starter = "P1"
pile = ["P04", "P11"]
p1 = { score = 6 }

[then]
hand = ["P11", "P04"]
pending = "draw"
pile_size = 11
chip_supply = 16
special_supply = 9
'''


def test_then_checks_hand_pending_pile_size_and_supplies(tmp_path: Path) -> None:
    assert run_scenario(load_scenario(_write(tmp_path, DRAWING))).passed
    wrong = (DRAWING.replace('hand = ["P11", "P04"]', 'hand = ["P11"]').replace("pile_size = 11", "pile_size = 12")
             .replace("chip_supply = 16", 'chip_supply = ["C01"]').replace("special_supply = 9", "special_supply = 8")
             .replace('pending = "draw"', 'pending = "place"'))
    diffs = run_scenario(load_scenario(_write(tmp_path, wrong))).diffs
    assert diffs[1].startswith("then.chip_supply: expected ['C01'], got ['C02', 'C03'")   # 16 chips face down
    assert diffs[:1] + diffs[2:] == (
        "then.pile_size: expected 12, got 11",
        "then.special_supply: expected 8, got 9",
        "then.hand: expected ['P11'], got ['P04', 'P11']",
        "then.pending: expected 'place', got 'draw'",
    )


def test_then_checks_the_plate_being_placed_and_the_plates_to_return(tmp_path: Path) -> None:
    text = DRAWING.replace('when = ["draw", "draw"]', 'when = ["draw", "draw", "draw", "keep P11"]').replace(
        'hand = ["P11", "P04"]', 'hand = ["P04", "P09", "P11"]').replace('pending = "draw"', 'pending = "place"').replace(
        "pile_size = 11", "pile_size = 10").replace('pile = ["P04", "P11"]', 'pile = ["P04", "P11", "P09"]')
    result = run_scenario(load_scenario(_write(tmp_path, text)))
    assert result.passed, result.diffs


def test_then_expectation_types_are_checked_on_load(tmp_path: Path) -> None:
    with pytest.raises(ScenarioError) as err:
        load_scenario(_write(tmp_path, DRAWING.replace('hand = ["P11", "P04"]', 'hand = ["P11", "P4"]')
                             .replace('pending = "draw"', 'pending = "drawing"')))
    assert [(p.field, p.line) for p in err.value.problems] == [("then.hand", 12), ("then.pending", 13)]


def test_pile_bottom_longer_than_the_pile_says_so_plainly(tmp_path: Path) -> None:
    text = DRAWING.replace("pile_size = 11", 'pile_size = 11\npile_bottom = ["P01", "P02"]')
    text = text.replace('pile = ["P04", "P11"]', 'pile = ["P04", "P11"]\ndisplay = ["-", "-", "-"]')
    assert run_scenario(load_scenario(_write(tmp_path, text))).diffs[0].startswith(
        "then.pile_bottom: expected ['P01', 'P02']")
    short = GOOD.replace('p1 = { lines = ["", "RR"] }', 'pile_bottom = ["P05", "P06"]')
    short = short.replace('starter = "P1"', 'starter = "P1"\npile = ["P05"]\n'
                          'display = ["P01", "P02", "P03"]\np2 = { plates = { 1 = "P04", 2 = "P06", 3 = "P07", '
                          '4 = "P08", 5 = "P09", 6 = "P10", 7 = "P11", 8 = "P12", 9 = "P13" } }\n'
                          'p1 = { plates = { 1 = "P14", 2 = "P15", 3 = "P16", 4 = "P17", 5 = "P18" } }')
    short = short.replace("[given.p1]\nscore = 3", "")
    diffs = run_scenario(load_scenario(_write(tmp_path, short))).diffs
    assert diffs == ("then.pile_bottom: the pile has 1 plate, pile_bottom lists 2; the pile is ['P05']",)


# --- invariants = "all" without steps ----------------------------------------------------------

def test_invariants_all_checks_the_final_position_without_steps(tmp_path: Path) -> None:
    text = GOOD.replace('when = ["sun 1 red", "line 2"]\n', "").replace("score = 3", "score = 3\nchips_this_round = 3")
    text = text.replace('p1 = { lines = ["", "RR"] }', 'invariants = "all"')
    result = run_scenario(load_scenario(_write(tmp_path, text)))
    assert result.diffs == ("then: invariant chips-per-round broken: P1 took 3 chips this round "
                            "[duel.acquire.chip.limit]",)


def test_invariants_all_checks_a_replayed_game_from_setup(tmp_path: Path) -> None:
    text = ('id = "t.setup"\ndescription = "x"\nclauses = ["duel.setup.opening-plates"]\n'
            '[chance]\nscope = "game"\n[then]\ninvariants = "all"\nphase = "setup"\n')
    result = run_scenario(load_scenario(_write(tmp_path, text)))
    assert result.passed, result.diffs
