"""Both games read scenario files through the shared harness/scenarios machinery (issue 12): the same
file problem gets the same one-line error from either game's loader."""

from __future__ import annotations

from pathlib import Path

import pytest

import harness.azul.scenarios.loader as azul_loader
import harness.duel.scenarios.expectations as duel_expectations
import harness.duel.scenarios.loader as duel_loader
from harness.scenarios import reading, schema
from harness.scenarios.problems import ScenarioError

LOADERS = {"duel": duel_loader.load_scenario, "azul": azul_loader.load_scenario}


def test_both_games_use_the_shared_reading() -> None:
    for module in (duel_loader, azul_loader):
        assert module.read_toml is reading.read_toml
        assert module.check_identity is reading.check_identity
    assert duel_loader.check_clauses is schema.check_clauses
    assert duel_expectations.event_diffs is schema.event_diffs


@pytest.mark.parametrize(("text", "field", "message"), [
    ("id = [\n", "-", "malformed TOML"),
    ('id = "Bad Id"\ndescription = "x"\nclauses = []\n', "id", "ids are lower-case words with dots and dashes"),
    ('id = "ok"\ndescription = "  "\nclauses = []\n', "description", "say what the scenario shows"),
    ('id = "ok"\nclauses = []\n', "description", "required key is missing"),
])
def test_same_problem_same_error_in_both_games(tmp_path: Path, text: str, field: str, message: str) -> None:
    seen = {}
    for game, load in LOADERS.items():
        path = tmp_path / f"{game}.toml"
        path.write_text(f'game = "{game}"\n' + text if not text.startswith("id = [") else text, encoding="utf-8")
        with pytest.raises(ScenarioError) as info:
            load(path)
        found = [p for p in info.value.problems if p.field == field]
        assert found and message in found[0].message, str(info.value)
        seen[game] = (found[0].field, found[0].message, found[0].line)
    assert seen["duel"] == seen["azul"]


def test_unreadable_file_is_one_line(tmp_path: Path) -> None:
    for load in LOADERS.values():
        with pytest.raises(ScenarioError, match="cannot read"):
            load(tmp_path / "missing.toml")


def test_both_runners_share_the_result_and_step_machinery() -> None:
    import harness.azul.scenarios.runner as azul_runner
    import harness.duel.scenarios.runner as duel_runner
    from harness.scenarios import result, steps

    for runner, loader in ((duel_runner, duel_loader), (azul_runner, azul_loader)):
        assert runner.ScenarioResult is result.ScenarioResult
        assert runner.once_per_invariant is steps.once_per_invariant
        assert loader.Step is steps.Step


def test_each_invariant_break_is_reported_once() -> None:
    from harness.scenarios.steps import once_per_invariant

    diffs: list[str] = ["then.scores: expected [1], got [2]"]
    note = once_per_invariant(diffs)
    note(["when[0]: invariant tiles broken: 99 tiles [c]"])
    note(["when[1]: invariant tiles broken: 99 tiles [c]", "when[1]: invariant floor broken: 8 [d]"])
    assert diffs == ["then.scores: expected [1], got [2]", "when[0]: invariant tiles broken: 99 tiles [c]",
                     "when[1]: invariant floor broken: 8 [d]"]


def test_scenario_errors_point_at_the_field_line_in_both_games(tmp_path: Path) -> None:
    from harness.scenarios.problems import LocatedInFile

    for game, module in (("duel", duel_loader), ("azul", azul_loader)):
        assert issubclass(module.Scenario, LocatedInFile)
        fixture = next(p for p in sorted(Path("fixtures", game).rglob("*.toml")) if "given" in p.read_text())
        scenario = module.load_scenario(fixture)
        error = scenario.error("given", "planted")
        assert error.line == scenario.locator.line("given") and error.file == str(fixture)
