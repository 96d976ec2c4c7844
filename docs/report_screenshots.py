"""Regenerate docs/report-pass.png, docs/report-fail.png and docs/report-matrix.png (a few minutes).

Real inputs for both games, as `verify` passes them: Duel's 200-game greedy campaign and 20-game
interpretation matrix; classic Azul's uniform campaign (16 games per player count) and 10-game matrix
(the classic section, `other_games`); the pytest plugin's record (`.azul-rules/tests.json`, or the file
named by AZUL_RULES_TESTS; its failed entries dropped) and the mutation store's verdicts
(tests/mutants.json, judged without running anything). The passing report uses asserted_threshold 0.9
(a partial record); the failing one the project's 1.0 with one test and one scenario marked failed and
their stages failed, as `verify` would pass them.
Run: .venv/bin/python docs/report_screenshots.py
"""
import os
import time
from collections import Counter
from pathlib import Path

from PIL import Image

from harness.browser import screenshot
from harness.coverage import ROOT, compute, load_test_results
from harness.mutation.analysis import plan, verdicts
from harness.mutation.store import load_results
from harness.report import ReportInputs, build_report
from properties.matrix import columns, run_matrix
from properties.registry import get_game
from properties.simulate import run_campaign
from spec import default_catalogue

RECORD = Path(os.environ.get("AZUL_RULES_TESTS", ".azul-rules/tests.json"))
cat = default_catalogue()
tests = {k: e for k, e in load_test_results(RECORD).items() if e.get("outcome") == "passed"}
for e in tests.values():        # a record written in another checkout names its scenarios by absolute path
    if "scenario" in e and "fixtures/" in str(e["scenario"].get("file", "")):
        f = e["scenario"]["file"]
        e["scenario"] = {**e["scenario"], "file": f[f.index("fixtures/"):]}


def guard(catalogue):
    judged = verdicts(ROOT, catalogue, plan(ROOT, catalogue, RECORD), load_results(ROOT), RECORD)
    return {cid: {"status": v.status, "killed": v.killed, "total": v.total, "equivalent": v.equivalent,
                  "survivors": list(v.survivors), "tests": list(v.tests)} for cid, v in judged.items()}


t = time.time()
camp = run_campaign(200, 0, {}, jobs=2, policy="greedy")
print("campaign", time.time() - t)
t = time.time()
rows = [r.to_json() for r in run_matrix(20, 0, 2, Path("/tmp/cx"))]
print("matrix", time.time() - t)
azul = default_catalogue("azul")
entry = get_game("azul")
t = time.time()
azul_camps = [run_campaign(16, 0, {}, jobs=2, game="azul", players=n) for n in entry.players]
azul_rows = [r.to_json() for r in run_matrix(10, 0, 2, Path("/tmp/cx"), game="azul")]
print("classic campaign and matrix", time.time() - t)
hits, edges = Counter(), Counter()
for c in azul_camps:
    hits.update(c.totals("clause_hits"))
    edges.update(c.totals("edge_hits"))
duel_guard, azul_guard = guard(cat), guard(azul)


def classic(tests, th):
    return {"name": "azul", "title": entry.title, "catalogue": azul, "clauses": compute(azul, tests, hits, azul_guard),
            "matrix": azul_rows, "matrix_columns": list(columns("azul")), "edge_visits": dict(edges),
            "campaign": {"games": sum(len(c.games) for c in azul_camps), "failures": sum(len(c.failures) for c in azul_camps),
                         "players": list(entry.players), "policy": "uniform"},
            "thresholds": th}


stage_names = ["spec lint", "scenarios", "tests and properties", "mutation analysis", "simulation campaign",
               "interpretation matrix", "coverage", "azul: simulation campaign", "azul: interpretation matrix",
               "azul: mutation analysis", "azul: coverage"]
PASS_T = {"asserted": 0.9, "guarded": 0.0}


def inputs(tests, stages, th=None):
    th = th or {"asserted": 1.0, "guarded": 0.0}
    clause_rows = compute(cat, tests, camp.totals("clause_hits"), duel_guard)
    alt = camp.totals("alt_hits")
    return ReportInputs(cat, clause_rows, tests, rows, 20, camp.totals("edge_hits"),
                        {"games": len(camp.games), "failures": len(camp.failures), **dict(sorted(camp.totals("branches").items()))},
                        len(camp.games), "ci", 67, {f"{i}={a}": n for (i, a), n in sorted(alt.items())},
                        stages=stages, thresholds=th,
                        policy_scores={camp.policy: [s for g in camp.games if g.failure is None for s in g.scores]},
                        substep_visits=camp.totals("substep_hits"), fixtures=Path("fixtures"),
                        other_games=[classic(tests, th)])


ok = [{"name": n, "ok": True, "detail": "", "failures": []} for n in stage_names]
t = time.time()
build_report(inputs(tests, ok, PASS_T), Path("/tmp/rep-pass"))
print("build_report (pass)", round(time.time() - t, 2))
bad_tests = dict(tests)
victim = next(k for k, e in tests.items() if "score" in k and "scenario" not in e)
bad_tests[victim] = {**tests[victim], "outcome": "failed"}
sk = next(k for k, e in tests.items() if "scenario" in e)
bad_tests[sk] = {**tests[sk], "outcome": "failed"}
failed = [dict(s) for s in ok]
failed[2] = {"name": "tests and properties", "ok": False, "detail": "2 failed", "failures": [victim, sk]}
failed[1] = {"name": "scenarios", "ok": False, "detail": "1 failed", "failures": [tests[sk]["scenario"]["file"]]}
t = time.time()
build_report(inputs(bad_tests, failed), Path("/tmp/rep-fail"))
print("build_report (fail)", round(time.time() - t, 2))
screenshot(Path("/tmp/rep-pass/index.html"), Path("docs/report-pass.png"))
screenshot(Path("/tmp/rep-fail/index.html"), Path("docs/report-fail.png"))
screenshot(Path("/tmp/rep-fail/index.html"), Path("/tmp/report-full.png"), 1280, 9000)
Image.open("/tmp/report-full.png").crop((0, 1557, 1280, 2457)).save("docs/report-matrix.png")
