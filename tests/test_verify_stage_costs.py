"""What verify's stages after the tests avoid doing (issue 13): work whose result nobody reads."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import harness.mutation.analysis as analysis
from harness.coverage import ROOT
from spec import default_catalogue


def test_judging_stored_results_finds_no_mutant(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """The mutation stage with nothing stale plans and judges every clause without parsing the
    modules for their mutants; a clause's mutants, when asked for, are the same as before."""
    found: list[str] = []
    real = analysis.mutants_of

    def counting(root: Path, extents: Any) -> Any:
        found.append(extents[0].file)
        return real(root, extents)
    monkeypatch.setattr(analysis, "mutants_of", counting)
    catalogue = default_catalogue("azul")
    tracking = tmp_path / "absent.json"
    plans = analysis.plan(ROOT, catalogue, tracking)
    stored = {"clauses": {cid: {"hash": p.hash, "tests": list(p.tests), "fallback": p.fallback, "mutants": []}
                          for cid, p in plans.items()}}
    assert analysis.stale(plans, stored) == []
    judged = analysis.verdicts(ROOT, catalogue, plans, stored, tracking)
    assert {v.status for cid, v in judged.items() if cid in plans} == {"no-mutants"}
    assert found == [], f"mutants found for nothing: {found[:3]}"
    one = max(plans.values(), key=lambda p: len(p.extents))
    assert one.mutants == tuple(real(ROOT, one.extents)) and len(one.mutants) > 0
    assert len(found) == 1                  # once per plan, then kept
    assert list(one.mutants) == list(one.mutants) and len(found) == 1
