"""One guard status per clause everywhere: `explain` and verify's coverage rows (what the report,
coverage.json and coverage.md show, and `diff` compares) take it from harness.coverage.guard_statuses
over the same stored results, for every clause of both games; a clause with no model site is no gap."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest
from rich.console import Console

import harness.mutation.analysis as analysis
import harness.verify as verify
from harness.coverage import NO_SITE, ROOT, compute, guard_statuses, guard_words, summary
from harness.explain import explain
from properties.registry import game_names
from spec import default_catalogue

_GUARD_LINE = re.compile(r"^Guard: (?P<words>.*)$", re.M)


def _explained(clause: str, game: str) -> str:
    buf = io.StringIO()
    explain(clause, Console(file=buf, width=1000, no_color=True), game=game)
    found = _GUARD_LINE.findall(buf.getvalue())
    assert len(found) == 1, buf.getvalue()
    return found[0].strip()


@pytest.mark.output
@pytest.mark.parametrize("game", list(game_names()))
def test_explain_and_the_report_agree_on_every_clause(game: str, monkeypatch: pytest.MonkeyPatch,
                                                      tmp_path: Path) -> None:
    catalogue = default_catalogue(game)
    monkeypatch.setattr(analysis, "stale", lambda plans, stored: [])        # judge the store, run nothing
    stage = verify.Stage("mutation analysis")
    guard = verify._mutation(stage, catalogue, tmp_path / "tests.json", verify.PROFILES["ci"], "ci", 1, 0.0,
                             save=False)
    rows = {r.id: r.to_json() for r in compute(catalogue, {}, {}, guard)}
    assert set(rows) == set(catalogue.ids)
    for cid, row in rows.items():
        assert _explained(cid, game) == row["guard_status"] == guard_words(guard[cid]), cid
    # the statuses are the split ones, and a clause with no model site is no gap
    assert {r["guard"]["status"] for r in rows.values()} <= {"guarded", "survivor", "not-measured", NO_SITE,
                                                             "no-mutants"}
    for row in rows.values():
        if row["guard"]["status"] == NO_SITE:
            assert not row["guardable"] and "-guarded" not in row["missing"]


def test_the_duel_clauses_without_a_model_site_are_not_gaps() -> None:
    catalogue = default_catalogue("duel")
    statuses = guard_statuses(catalogue, ROOT)
    no_site = sorted(cid for cid, g in statuses.items() if g["status"] == NO_SITE)
    assert len(no_site) == 11 and all(cid.startswith(("duel.component.", "duel.setup.tablets")) for cid in no_site)
    rows = compute(catalogue, {}, {}, statuses)
    total = summary(rows)["total"]
    assert total["guardable"] == len(catalogue.ids) - 11
    assert total["guarded_share"] == round(total["guarded"] / total["guardable"], 4)
    # an invariant clause is guarded by its catch test (named there), never "no model site"
    assert statuses["duel.invariant.tile-conservation"]["status"] == "guarded"


def test_a_kept_result_is_recomputed_when_its_file_changes(tmp_path: Path) -> None:
    from harness.coverage import _memo

    source = tmp_path / "rule.py"
    source.write_text("x = 1\n")
    calls: list[int] = []

    def compute() -> int:
        calls.append(1)
        return len(calls)
    key = ("test", str(tmp_path))
    assert _memo(key, [source], compute) == 1 and _memo(key, [source], compute) == 1
    source.write_text("x = 10\n")               # another size (and time): the kept result is stale
    assert _memo(key, [source], compute) == 2
    source.unlink()
    assert _memo(key, [source], compute) == 3
