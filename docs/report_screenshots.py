"""Regenerate docs/report-pass.png, docs/report-fail.png and docs/report-matrix.png (about 5 minutes).

Real inputs: a 200-game greedy campaign, a 100-game uniform campaign, a 20-game interpretation matrix,
the pytest plugin's record `.azul-rules/tests.json` (its failed entries dropped). The passing report uses
asserted_threshold 0.9 (the record is partial: 95% asserted); the failing one the project's 1.0 with one
test and one scenario marked failed and their stages failed, as `verify` would pass them.
Run: .venv/bin/python docs/report_screenshots.py
"""
import time
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from PIL import Image

from harness.browser import screenshot
from harness.coverage import compute, load_test_results
from harness.report import ReportInputs, build_report
from properties.matrix import run_matrix
from properties.simulate import run_campaign
from spec import default_catalogue

T = TypeVar("T")


def timed(label: str, work: Callable[[], T]) -> T:
    start = time.time()
    result = work()
    print(label, time.time() - start)
    return result


cat = default_catalogue()
tests = load_test_results(Path(".azul-rules/tests.json"))
camp = timed("campaign", lambda: run_campaign(200, 0, {}, jobs=2, policy="greedy"))
uni = timed("uniform", lambda: run_campaign(100, 0, {}, jobs=2, policy="uniform"))
rows = timed("matrix", lambda: [r.to_json() for r in run_matrix(20, 0, 2, Path("/tmp/cx"))])
stage_names = ["spec lint", "scenarios", "tests and properties", "mutation analysis", "simulation campaign",
               "interpretation matrix", "coverage"]
PASS_T = {"asserted": 0.9, "guarded": 0.0}
def inputs(tests, stages, th=None):
    clause_rows = compute(cat, tests, camp.totals("clause_hits"), {})
    alt = camp.totals("alt_hits")
    return ReportInputs(cat, clause_rows, tests, rows, 20, camp.totals("edge_hits"),
                        {"games": len(camp.games), "failures": len(camp.failures), **dict(sorted(camp.totals("branches").items()))},
                        len(camp.games), "ci", 67, {f"{i}={a}": n for (i, a), n in sorted(alt.items())},
                        stages=stages, thresholds=th or {"asserted": 1.0, "guarded": 0.0},
                        policy_scores={p.policy: [s for g in p.games if g.failure is None for s in g.scores] for p in (camp, uni)},
                        substep_visits=camp.totals("substep_hits"), fixtures=Path("fixtures"))
ok = [{"name": n, "ok": True, "detail": "", "failures": []} for n in stage_names]
t = time.time()
build_report(inputs({k: e for k, e in tests.items() if e.get("outcome") == "passed"}, ok, PASS_T), Path("/tmp/rep-pass"))
print("build_report (pass)", round(time.time() - t, 2))
tests = {k: e for k, e in tests.items() if e.get("outcome") == "passed"}
bad_tests = dict(tests)
victim = next(k for k, e in tests.items() if "score" in k and "scenario" not in e)
bad_tests[victim] = {**tests[victim], "outcome": "failed"}
sk = next(k for k, e in tests.items() if "scenario" in e)
bad_tests[sk] = {**tests[sk], "outcome": "failed"}
failed = [dict(s) for s in ok]
failed[2] = {"name": "tests and properties", "ok": False, "detail": "2 failed, 1021 passed", "failures": [victim, sk]}
failed[1] = {"name": "scenarios", "ok": False, "detail": "66/67 passed", "failures": [tests[sk]["scenario"]["file"]]}
t = time.time()
build_report(inputs(bad_tests, failed), Path("/tmp/rep-fail"))
print("build_report (fail)", round(time.time() - t, 2))
screenshot(Path("/tmp/rep-pass/index.html"), Path("docs/report-pass.png"))
screenshot(Path("/tmp/rep-fail/index.html"), Path("docs/report-fail.png"))
screenshot(Path("/tmp/rep-fail/index.html"), Path("/tmp/report-full.png"), 1280, 9000)
Image.open("/tmp/report-full.png").crop((0, 1250, 1280, 2150)).save("docs/report-matrix.png")
