"""The scenario format: strict loading with file/line/field errors, the runner's diffs, the CLI."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from harness.scenarios import ScenarioError, load_scenario, run_scenario
from tests.cli_helpers import run_cli
from tests.scenario_helpers import refusal, write_scenario

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


_write = write_scenario


def _error(tmp_path: Path, old: str, new: str) -> ScenarioError:
    return refusal(tmp_path, GOOD, old, new)


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
    """The command line in this process (tests/cli_helpers.py; issue 13)."""
    return run_cli(*args)


def _cli_process(*args: str) -> subprocess.CompletedProcess[str]:
    """The command line as its own process: the installed path, interpreter start-up and all."""
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
    run = _cli_process("show", str(bad))
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


# --- stopping at the end of a phase ------------------------------------------------------------

TILING = '''id = "t.tiling"
description = "Dome-tiling of one complete line, stopped before Preparation"
clauses = ["duel.tiling.move-rightmost"]
stop = "end-of-dome-tiling"

[given]
phase = "dome_tiling"
starter = "P1"
factories = {}
p1 = { score = 10, plates = { 1 = "P01 r0", 2 = "P05 r2" }, lines = ["", "KK"], broken = "R" }

[then]
phase = "dome_tiling"
round = 1
p1 = { score = 10, lines = ["", ""], broken = "", tokens_used = 2 }
events = ["P1 score +1: black to row 2", "P1 penalty -1"]
'''


def test_stop_names_come_from_the_phase_graph() -> None:
    from harness.duel.scenarios.stops import stop_names
    from model.duel.phases import phase_graph

    g = phase_graph()
    ended = {p for p in g.nodes if g.out_degree(p)}
    assert set(stop_names()) == {"end-of-" + p.replace("_", "-") for p in ended} | {"end-of-round"}


def test_dome_tiling_can_stop_before_preparation(tmp_path: Path) -> None:
    result = run_scenario(load_scenario(_write(tmp_path, TILING)))
    assert result.passed, result.diffs
    # without the stop the same position runs on into round 2's Acquisition
    diffs = run_scenario(load_scenario(_write(tmp_path, TILING.replace('stop = "end-of-dome-tiling"\n', "")))).diffs
    assert "then.phase: expected 'dome_tiling', got 'acquisition'" in diffs


def test_end_of_acquisition_and_end_of_round(tmp_path: Path) -> None:
    last_pick = '''id = "t.last-pick"
description = "the last pick ends Acquisition"
clauses = ["duel.acquire.end"]
stop = "end-of-acquisition"
when = ["sun 1 red", "line 2"]

[given]
starter = "P1"
p1 = { tokens_used = 2 }
p2 = { tokens_used = 2 }

[given.factories]
1 = { sun = "RR" }

[then]
phase = "acquisition"
p1 = { lines = ["", "RR"] }
'''
    assert run_scenario(load_scenario(_write(tmp_path, last_pick))).passed
    round_end = last_pick.replace('"end-of-acquisition"', '"end-of-round"').replace(
        'phase = "acquisition"', 'phase = "preparation"\nround = 2\nevents = ["dome_tiling -> preparation"]')
    result = run_scenario(load_scenario(_write(tmp_path, round_end)))
    assert result.passed, result.diffs


def test_a_stop_never_reached_or_reached_early_is_a_failure(tmp_path: Path) -> None:
    never = GOOD.replace('clauses = [', 'stop = "end-of-acquisition"\nclauses = [')
    assert run_scenario(load_scenario(_write(tmp_path, never))).diffs == (
        "stop: expected the run to stop at end-of-acquisition, but it ended in acquisition of round 1",)
    early = TILING.replace("[given]", 'when = ["pass"]\n[given]')
    assert run_scenario(load_scenario(_write(tmp_path, early))).diffs == (
        "stop: the run stopped at end-of-dome-tiling with 1 step(s) of 'when' left unplayed",)


def test_unknown_stop_names_the_choices(tmp_path: Path) -> None:
    err = _error(tmp_path, 'clauses = [', 'stop = "end-of-tiling"\nclauses = [')
    assert err.field == "stop" and err.line == 3 and "end-of-dome-tiling" in err.message


# --- errors: all at once, the right line, description ------------------------------------------

def test_all_problems_of_a_file_are_reported_at_once(tmp_path: Path) -> None:
    text = (GOOD.replace("score = 3", "scroe = 3").replace('sun = "RRBB"', 'sun = "RRBX"')
            .replace('"line 2"]', '"line 9"]').replace('[then]', '[then]\nround = "two"')
            .replace('starter = "P1"', 'starter = "P1"\np2 = { broken = "RRRRR" }'))
    with pytest.raises(ScenarioError) as err:
        load_scenario(_write(tmp_path, text))
    assert [(p.field, p.line) for p in err.value.problems] == [
        ("when[1]", 4), ("given.p2.broken", 8), ("given.factories.1.sun", 11), ("given.p1.scroe", 14),
        ("then.round", 17)]
    assert str(err.value).count("\n") == 4
    run = _cli("scenario", str(tmp_path / "s.toml"))
    assert run.returncode == 1 and run.stdout.count("ERROR ") == 5 and "0 passed, 1 failed" in run.stdout
    assert "ERROR " + str(tmp_path / "s.toml") + ":17: field 'then.round'" in run.stdout      # one line each


def test_a_duplicate_clause_id_points_at_the_duplicate(tmp_path: Path) -> None:
    text = GOOD.replace('clauses = ["duel.acquire.sun.take-colour"]',
                        'clauses = [\n  "duel.acquire.sun.take-colour",\n  "duel.acquire.sun.small-leftovers",\n'
                        '  "duel.acquire.sun.take-colour",\n]')
    with pytest.raises(ScenarioError) as err:
        load_scenario(_write(tmp_path, text))
    assert (err.value.field, err.value.line) == ("clauses[2]", 6)
    assert "duplicate clause id 'duel.acquire.sun.take-colour' (already clauses[0])" in err.value.message


def test_a_list_entry_error_points_at_its_own_line(tmp_path: Path) -> None:
    text = GOOD.replace('when = ["sun 1 red", "line 2"]', 'when = [\n  "sun 1 red",  # a pick\n  { do = "line 9" },\n]')
    with pytest.raises(ScenarioError) as err:
        load_scenario(_write(tmp_path, text))
    assert (err.value.field, err.value.line) == ("when[1]", 6)


def test_description_is_required_and_says_so(tmp_path: Path) -> None:
    err = _error(tmp_path, 'description = "a sun pick"\n', "")
    assert err.field == "description" and "required key is missing" in err.message


# --- every reading the model runs can be chosen -------------------------------------------------

def _readings():  # type: ignore[no-untyped-def]
    from model.duel.ruleset import IMPLEMENTED
    from spec import default_catalogue

    points = {i.id: i.names for i in default_catalogue().interpretations} | IMPLEMENTED
    return [(interp_id, alt) for interp_id, names in sorted(points.items()) for alt in names]


@pytest.mark.parametrize(("interp_id", "alt"), _readings())
def test_every_interpretation_alternative_is_selectable(tmp_path: Path, interp_id: str, alt: str) -> None:
    from harness.duel.scenarios.position import build_game

    text = GOOD.replace("clauses = [", f'interpretations = {{ "{interp_id}" = "{alt}" }}\nclauses = [')
    game, _ = build_game(load_scenario(_write(tmp_path, text)))
    assert game.rules.choices[interp_id] == alt


def test_every_tablet_side_is_selectable(tmp_path: Path) -> None:
    from harness.duel.scenarios.position import build_game
    from harness.duel.scenarios.readings import tablet_sides

    pairs = list(zip(tablet_sides()[::2], tablet_sides()[1::2], strict=True))
    for pick in ([a for a, _ in pairs], [b for _, b in pairs]):
        names = ", ".join(f'"{t}"' for t in pick)
        game, _ = build_game(load_scenario(_write(tmp_path, GOOD.replace("clauses = [", f"tablets = [{names}]\nclauses = ["))))
        assert game.rules.tablets == tuple(pick)
    err = _error(tmp_path, "clauses = [", 'tablets = ["rows-complete", "colums-complete", "diagonals"]\nclauses = [')
    assert err.field == "tablets[1]" and "did you mean 'columns-complete'?" in err.message


def test_unknown_interpretation_in_a_file_suggests_the_nearest(tmp_path: Path) -> None:
    err = _error(tmp_path, "clauses = [", 'interpretations = { "duel.score.strat" = "zero" }\nclauses = [')
    assert "did you mean 'duel.score.start'?" in err.message


def test_cli_flips_an_interpretation_without_editing_the_file(tmp_path: Path) -> None:
    text = ('id = "t.start"\ndescription = "x"\nclauses = ["duel.setup.opening-plates"]\n'
            '[chance]\nscope = "game"\n[then]\nscores = [5, 5]\n')
    path = _write(tmp_path, text)
    assert _cli("scenario", str(path)).returncode == 0
    flipped = _cli("scenario", "--interpretation", "duel.score.start=zero", str(path))
    assert flipped.returncode == 1 and "then.scores: expected [5, 5], got [0, 0]" in flipped.stdout
    assert "under duel.score.start=zero (command line)" in flipped.stdout


@pytest.mark.parametrize(("option", "message"), [
    ("duel.score.strat=zero", "unknown interpretation point 'duel.score.strat' (did you mean 'duel.score.start'?)"),
    ("duel.score.start=zeroo", "duel.score.start has no alternative 'zeroo' (did you mean 'zero'?)"),
    ("duel.score.start", "expected INTERPRETATION=ALTERNATIVE"),
    ("azul.lines.floor-choice=only-if-no-line", "'azul.lines.floor-choice' is a reading of Azul"),
])
def test_cli_bad_interpretation_is_one_line_with_a_suggestion(tmp_path: Path, option: str, message: str) -> None:
    run = _cli("scenario", "--interpretation", option, str(_write(tmp_path, GOOD)))
    assert run.returncode == 2 and message in run.stderr
    assert run.stderr.strip().count("\n") == 0 and "Traceback" not in run.stderr


# --- pytest collects scenario files wherever they are, when named --------------------------------

@pytest.mark.process
def test_pytest_collects_scenarios_named_outside_fixtures(tmp_path: Path) -> None:
    folder = tmp_path / "my-scenarios"
    folder.mkdir()
    (folder / "pick.toml").write_text(GOOD)
    (folder / "failing.toml").write_text(GOOD.replace('"t.good"', '"t.failing"').replace('"RR"]', '"R"]'))
    (folder / "pyproject.toml").write_text('[project]\nname = "x"\nid = "not-a-scenario"\n')
    (folder / "chapter.toml").write_text('[[clause]]\nid = "duel.x"\n[given]\n')
    import harness
    from tests.cli_helpers import PYTEST_OUTSIDE

    args = [*PYTEST_OUTSIDE, "--clause-json", ""]
    env = {**os.environ, "PYTHONPATH": str(Path(harness.__file__).parents[1])}   # this checkout's plugin
    run = subprocess.run([*args, str(folder)], capture_output=True, text=True, cwd=tmp_path, env=env)
    assert "1 failed, 1 passed" in run.stdout, run.stdout
    assert "then.p1.lines" in run.stdout
    single = subprocess.run([*args, str(folder / "pick.toml")], capture_output=True, text=True, cwd=tmp_path, env=env)
    assert "1 passed" in single.stdout, single.stdout


def test_the_starting_player_tile_given_twice_names_the_second_place(tmp_path: Path) -> None:
    err = _error(tmp_path, "score = 3", "score = 3\nstart_tile = true\n[given.p2]\nstart_tile = true")
    assert (err.field, err.line) == ("given.p2.start_tile", 16)
    assert "given.p1.start_tile already puts it there" in err.message


def test_then_values_that_can_never_match_are_load_errors(tmp_path: Path) -> None:
    with pytest.raises(ScenarioError) as err:
        load_scenario(_write(tmp_path, GOOD.replace("[then]", '[then]\nphase = "dome-tiling"\nto_move = "p2"')))
    assert [p.field for p in err.value.problems] == ["then.phase", "then.to_move"]
    assert "dome_tiling" in err.value.message


def test_cli_folder_runs_scenarios_and_skips_other_toml(tmp_path: Path) -> None:
    (tmp_path / "pick.toml").write_text(GOOD)
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "x"\n')
    (tmp_path / "chapter.toml").write_text('[[clause]]\nid = "duel.x"\n[given]\n')
    run = _cli("scenario", str(tmp_path))
    assert run.returncode == 0 and "1 passed, 0 failed" in run.stdout, run.stdout + run.stderr
