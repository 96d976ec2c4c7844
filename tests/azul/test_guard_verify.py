"""`azul-rules verify` judges classic Azul's guarded share against classic's own threshold (issue 12):
the mutation stage is shared by the games (harness/verify.py `_mutation`), so a classic clause whose
mutants are not all killed (or not run) counts against `[tool.azul-rules.games.azul] guarded_threshold`."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from harness import verify
from harness.mutation import analysis
from spec import default_catalogue

pytestmark = pytest.mark.output          # the output tier: `make test` leaves it out (pyproject.toml)


@pytest.mark.parametrize(("threshold", "ok"), [(0.0, True), (1.0, False)])
def test_verify_judges_classic_mutation_against_its_threshold(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                              threshold: float, ok: bool) -> None:
    tracking = tmp_path / "tests.json"
    tracking.write_text(json.dumps({"tests": {}}))
    monkeypatch.setattr(analysis, "stale", lambda plans, stored: [])     # judge the store only: run nothing
    monkeypatch.setattr("harness.mutation.store.load_results", lambda root: {"clauses": {}})
    st = verify.Stage("azul: mutation analysis")
    judged = verify._mutation(st, default_catalogue("azul"), tracking, {"mutation_seconds": 1}, "ci", 1, threshold)
    assert judged and all(cid.startswith("azul.") for cid in judged)
    # nothing stored: every clause with mutants is "not measured"; only the invariant clauses that a
    # catch test shows caught count as guarded (harness.coverage.guard_statuses), no clause survives
    statuses = {cid: v["status"] for cid, v in judged.items()}
    assert "not-measured" in statuses.values() and "survivor" not in statuses.values()
    assert all(cid.startswith("azul.invariant.") for cid, s in statuses.items() if s == "guarded")
    assert st.ok is ok
    guarded = sum(s == "guarded" for s in statuses.values())
    guardable = sum(s not in ("no-site", "no-mutants") for s in statuses.values())
    assert st.detail.startswith(f"{guarded}/{guardable} clauses guarded") and guarded < guardable
    assert "`azul-rules mutate --game azul`" in st.detail



def test_a_classic_run_does_not_call_duel_equivalents_orphaned(monkeypatch: pytest.MonkeyPatch) -> None:
    """tests/equivalent-mutants.toml holds both games' entries; a classic run judges only classic's.
    The run never writes the committed store (tests/mutants.json): a test must not change the tree."""
    from click.testing import CliRunner

    from harness import mutation_commands
    from harness.mutation_commands import mutate_command

    saved: list[object] = []
    monkeypatch.setattr(mutation_commands, "save_results", lambda root, data: saved.append(data))

    # A budget spent at once (issue 13): the summary and the orphan check run, no mutant does (the
    # store keeps the clause as it was); running its mutants took ~20 s and says nothing about orphans.
    result = CliRunner().invoke(mutate_command, ["--game", "azul", "--clause", "azul.component.bag", "--jobs", "1",
                                                 "--fresh", "--budget", "0.001"])
    # exit 1 only says some classic clause is unguarded (the store's state); this test is about the orphans
    assert result.exit_code in (0, 1) and result.exception is None or isinstance(result.exception, SystemExit), \
        result.output
    assert "guarded" in result.output, result.output
    assert "orphaned equivalent duel." not in result.output
