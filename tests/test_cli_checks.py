"""Options checked and reported honestly (issue 22): `--game` that contradicts a scenario file is an
error naming the file and its `game` field (it was ignored; without `--game` the file's own game is
used), and `interpretations --shrink` prints its measured time against its budget."""

from __future__ import annotations

import re
from pathlib import Path

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



def test_interpretations_shrink_shows_its_elapsed_time_against_the_budget(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """Issue 22: `interpretations --shrink` printed only the budget; the time it took is measured and
    printed beside it, whether a counterexample was found or not."""
    import io
    import types

    from rich.console import Console

    import properties.matrix
    from harness.property_commands import _shrink_broken_rows

    found = types.SimpleNamespace(complete=True, invariant="tile-conservation", scenario="x.toml")
    answers = iter([None, found])
    monkeypatch.setattr(properties.matrix, "shrink_row", lambda *a, **k: next(answers))
    sink = io.StringIO()
    rows = [types.SimpleNamespace(label=f"row {k}", overrides={}) for k in (1, 2)]
    _shrink_broken_rows(rows, Path("unused"), 7.0, Console(file=sink, width=200), "duel")
    lines = [ln for ln in sink.getvalue().splitlines() if "budget" in ln and ln.startswith("    ")]
    assert len(lines) == 2 and all(re.search(r"in \d+\.\d s of its 7 s budget", ln) for ln in lines), lines


def test_verify_shows_counterexample_paths_in_the_report_not_in_its_scratch_folder(tmp_path: Path) -> None:
    """verify writes counterexamples into a scratch folder it deletes at the end and copies them into
    report/counterexamples: the paths it shows (stage failures, matrix rows) name the copy."""
    from harness.verify import _into_report

    found = tmp_path / "azul-verify-x" / "counterexamples"
    out = ROOT / "report"
    rows = [{"label": "defaults", "broken": {"tile-conservation": str(found / "a.toml")}}]
    failures = [str(found / "b.toml"), f"defaults: floor: {found / 'c.toml'}", "no path here"]
    assert _into_report(rows, found, out) == [{"label": "defaults",
                                               "broken": {"tile-conservation": "report/counterexamples/a.toml"}}]
    assert _into_report((failures, "detail"), found, out) == (
        ["report/counterexamples/b.toml", "defaults: floor: report/counterexamples/c.toml", "no path here"], "detail")
    assert _into_report(None, found, out) is None


def test_verify_re_runs_a_count_of_mutants_not_a_clock() -> None:
    """Which stale clauses verify's mutation stage measures depends on their mutants (whole clauses,
    in plan order, within the profile's count), never on how busy the machine is (issue 22: the
    300 s budget made CI red under load); no profile sets a clock."""
    import types

    from harness.verify import PROFILES, within_mutants

    plans = {c: types.SimpleNamespace(mutants=[0] * n) for c, n in (("a", 3), ("b", 3), ("c", 1))}
    assert within_mutants(["a", "b", "c"], plans, 7) == ["a", "b", "c"]
    assert within_mutants(["a", "b", "c"], plans, 4) == ["a"]               # c would fit, but order decides
    assert within_mutants(["a", "b", "c"], plans, 2) == []
    assert within_mutants(["a", "b", "c"], plans, None) == ["a", "b", "c"]
    assert all("mutation_seconds" not in p for p in PROFILES.values())
    assert PROFILES["ci"]["mutation_mutants"] > 0
