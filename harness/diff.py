"""`azul-rules diff BASE HEAD`: what a change did to the rules, read from two coverage.json files
(or from two git revisions, each built in a temporary worktree).

Sections: clauses added / removed / revised (word-level text change), suspects, status changes
(implemented / exercised / asserted / guarded), interpretation-matrix cells that flipped, defaults
that started or stopped deciding games, and the seeded campaign's outcomes (score distributions
with a Mann-Whitney U test, event rates with an exact conditional binomial test), so that noise is
not reported as change.

Every finding is one of three kinds:
- **worse**: a clause lost a status, a clause was removed, a matrix cell is now FAIL, a suspect link
  exists in HEAD, more games broke an invariant;
- **moved**: a significant shift that is not by itself worse (scores, ties, forced passes, a default
  that started or stopped deciding games, a clause added or revised, a matrix row stalling more or
  less often: a stall its readings do not allow is a FAIL cell);
- **better**: a status gained, a cell now passes, a suspect resolved.

A failed build comes first: a stage, test or scenario that failed on either side is shown before any
finding, and a diff over a failed build never says "nothing moved". What HEAD newly fails is a
**cause** (grouped by the revised clause its failing checks declare, else by the failing stage), and
the findings that follow from it are listed under it as its consequences instead of on their own:
status losses of the clauses its failing checks declare or whose guard ran those checks, and every
matrix flip and campaign shift measured on the failing build (games stop at the first failure; with
the tests red, verify does not run those stages at all). The verdict names each cause on one line.

Exit status: 0 nothing worse (1 with `--fail-on moved` if anything moved or got worse), 1 something
got worse or HEAD's build failed, 2 the inputs could not be read or built.
"""

from __future__ import annotations

import difflib
import json
import math
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import attrs
import click

from harness.errors import UserError
from harness.output_path import OutputPath

STATUSES = ("implemented", "exercised", "asserted", "guarded")
ALPHA = 0.01                    # significance level of every test (documented in docs/ci.md)
BUILD_SECONDS = 1800            # one revision's build in its worktree (verify --profile ci takes ~5 min)
# Campaign keys that are not event counts (or are judged elsewhere).
_NOT_EVENTS = {"games"}
_WORSE_EVENTS = {"failures"}     # more of these is worse, not just a move


@attrs.frozen
class Finding:
    section: str
    kind: str                   # "worse" | "moved" | "better"
    text: str
    detail: str = ""


@attrs.define
class Cause:
    """A check HEAD newly fails (or its failed build), and the findings that follow from it."""

    text: str
    checks: set[str] = attrs.field(factory=set)           # failing tests / scenarios / stages
    clauses: set[str] = attrs.field(factory=set)          # clauses those checks declare
    consequences: list[Finding] = attrs.field(factory=list)


@attrs.frozen
class BuildFailure:
    """What failed in one side's build (its coverage.json `verdict`)."""

    side: str
    stages: tuple[str, ...]           # "name: detail"
    tests: tuple[str, ...]
    scenarios: tuple[str, ...]
    not_run: tuple[str, ...]          # stages skipped because the tests failed

    def line(self) -> str:
        parts = []
        if self.stages:
            parts.append("stages failed: " + "; ".join(self.stages))
        if self.tests:
            parts.append(f"{len(self.tests)} test(s) failed: " + ", ".join(self.tests[:5])
                         + (f" and {len(self.tests) - 5} more" if len(self.tests) > 5 else ""))
        if self.scenarios:
            parts.append(f"{len(self.scenarios)} scenario(s) failed: " + ", ".join(self.scenarios[:5])
                         + (f" and {len(self.scenarios) - 5} more" if len(self.scenarios) > 5 else ""))
        if self.not_run:
            parts.append("not run: " + ", ".join(self.not_run))
        return f"{self.side} build failed: " + "; ".join(parts)


@attrs.define
class DiffReport:
    base: str
    head: str
    findings: list[Finding] = attrs.field(factory=list)
    notes: list[str] = attrs.field(factory=list)
    failed: list[BuildFailure] = attrs.field(factory=list)      # either side's failed build, shown first
    causes: list[Cause] = attrs.field(factory=list)

    def add(self, section: str, kind: str, text: str, detail: str = "") -> None:
        self.findings.append(Finding(section, kind, text, detail))

    @property
    def grouped(self) -> list[Finding]:
        return [f for c in self.causes for f in c.consequences]

    @property
    def loose(self) -> list[Finding]:
        """The findings that are not a cause's consequence."""
        ids = {id(f) for f in self.grouped}
        return [f for f in self.findings if id(f) not in ids]

    @property
    def head_failed(self) -> bool:
        return any(b.side == "HEAD" for b in self.failed)

    @property
    def worse(self) -> bool:
        return bool(self.causes) or self.head_failed or any(f.kind == "worse" for f in self.findings)

    @property
    def moved(self) -> bool:
        return bool(self.findings) or bool(self.failed)

    def exit_status(self, fail_on: str = "worse") -> int:
        return 1 if (self.worse if fail_on == "worse" else self.moved) else 0


SECTIONS = ("clauses", "suspects", "status", "matrix", "defaults", "campaign")
TITLES = {"clauses": "Clauses added, removed, revised", "suspects": "Suspect links (pinned to an older revision)",
          "status": "Clause status changes", "matrix": "Interpretation-matrix cells that flipped",
          "defaults": "Defaults that started or stopped deciding games",
          "campaign": "Seeded campaign outcomes"}


# --- statistics (standard library only) ---------------------------------------------------------

def mann_whitney_u(a: Sequence[float], b: Sequence[float]) -> tuple[float, float]:
    """Two-sided Mann-Whitney U test, normal approximation with tie correction: (U of a, p).
    Identical samples give p = 1; an empty sample gives p = 1 (nothing to compare)."""
    n1, n2 = len(a), len(b)
    if not n1 or not n2:
        return 0.0, 1.0
    pooled = sorted([(x, 0) for x in a] + [(x, 1) for x in b])
    ranks = [0.0] * len(pooled)
    ties = 0.0
    i = 0
    while i < len(pooled):
        j = i
        while j + 1 < len(pooled) and pooled[j + 1][0] == pooled[i][0]:
            j += 1
        for k in range(i, j + 1):
            ranks[k] = (i + j) / 2 + 1
        t = j - i + 1
        ties += t ** 3 - t
        i = j + 1
    r1 = sum(r for r, (_, side) in zip(ranks, pooled, strict=True) if side == 0)
    u1 = r1 - n1 * (n1 + 1) / 2
    n = n1 + n2
    var = n1 * n2 / 12 * ((n + 1) - ties / (n * (n - 1))) if n > 1 else 0.0
    if var <= 0:
        return u1, 1.0
    z = (abs(u1 - n1 * n2 / 2) - 0.5) / math.sqrt(var)        # continuity correction
    return u1, min(1.0, math.erfc(max(z, 0.0) / math.sqrt(2)))


def rate_test(k1: int, n1: int, k2: int, n2: int) -> float:
    """Two-sided p that events per game are the same in two campaigns of n1 and n2 games: given
    k1 + k2 events, k1 ~ Binomial(k1 + k2, n1 / (n1 + n2)) (exact; normal approximation past 2000)."""
    k = k1 + k2
    if not k or not n1 or not n2:
        return 1.0
    p = n1 / (n1 + n2)
    if k > 2000:
        z = (abs(k1 - k * p) - 0.5) / math.sqrt(k * p * (1 - p))
        return min(1.0, math.erfc(max(z, 0.0) / math.sqrt(2)))

    def pmf(i: int) -> float:
        return math.exp(math.lgamma(k + 1) - math.lgamma(i + 1) - math.lgamma(k - i + 1)
                        + i * math.log(p) + (k - i) * math.log(1 - p))
    observed = pmf(k1)
    return min(1.0, sum(q for i in range(k + 1) if (q := pmf(i)) <= observed * (1 + 1e-9)))


# --- comparing two coverage.json documents -----------------------------------------------------

def word_diff(old: str, new: str) -> str:
    """`[-removed-]{+added+}` over words (the clause text is prose)."""
    a, b = old.split(), new.split()
    out: list[str] = []
    for op, i1, i2, j1, j2 in difflib.SequenceMatcher(a=a, b=b, autojunk=False).get_opcodes():
        if op == "equal":
            words = a[i1:i2]
            out.append(" ".join(words if len(words) <= 8 else [*words[:3], "...", *words[-3:]]))
        else:
            if i2 > i1:
                out.append("[-" + " ".join(a[i1:i2]) + "-]")
            if j2 > j1:
                out.append("{+" + " ".join(b[j1:j2]) + "+}")
    return " ".join(out)


def _clauses(doc: Mapping[str, Any]) -> dict[str, Mapping[str, Any]]:
    return {c["id"]: c for c in doc.get("clauses", [])}


def _suspect_key(s: Any) -> str:
    if isinstance(s, Mapping):
        return f'{s.get("kind", "test")} {s.get("where", "?")}: {s.get("clause", "?")} pinned @{s.get("pinned", "?")}, ' \
               f'spec/ holds @{s.get("revision", "?")}'
    return str(s)


def _cells(doc: Mapping[str, Any]) -> dict[str, set[str]]:
    """Matrix row label -> the invariants it breaks (FAIL cells)."""
    return {row.get("label", json.dumps(row.get("overrides", {}), sort_keys=True)): set(row.get("broken", {}))
            for row in doc.get("matrix", [])}


def _matrix_not_run(doc: Mapping[str, Any]) -> str | None:
    """Why a side's interpretation matrix did not run (verify skips it on a red suite, or with --skip),
    from its verdict's stages; None when it ran. Its rows are then not run there, not removed."""
    for st in (doc.get("verdict") or {}).get("all_stages", []):
        if st.get("name") == "interpretation matrix" and st.get("ran") is False:
            return str(st.get("detail") or "not run").removeprefix("not run: ")
    return None


def compare(base: Mapping[str, Any], head: Mapping[str, Any], base_name: str = "BASE",
            head_name: str = "HEAD", alpha: float = ALPHA) -> DiffReport:
    report = DiffReport(base_name, head_name)
    bc, hc = _clauses(base), _clauses(head)
    # clauses
    for cid in sorted(hc.keys() - bc.keys()):
        report.add("clauses", "moved", f"added {cid} (revision {hc[cid].get('revision')}): {hc[cid].get('title', '')}")
    for cid in sorted(bc.keys() - hc.keys()):
        report.add("clauses", "worse", f"removed {cid}: {bc[cid].get('title', '')}")
    for cid in sorted(bc.keys() & hc.keys()):
        old, new = bc[cid], hc[cid]
        if old.get("text", "").split() != new.get("text", "").split() or old.get("revision") != new.get("revision"):
            note = "" if new.get("revision", 0) > old.get("revision", 0) or old.get("text") == new.get("text") \
                else " (text changed but revision not bumped)"
            report.add("clauses", "moved", f"revised {cid}: revision {old.get('revision')} -> {new.get('revision')}{note}",
                       word_diff(old.get("text", ""), new.get("text", "")))
    # suspects
    bs = {_suspect_key(s) for s in base.get("suspects", [])}
    for key in sorted({_suspect_key(s) for s in head.get("suspects", [])}):
        report.add("suspects", "worse", key + ("" if key not in bs else " (already in BASE)"))
    for key in sorted(bs - {_suspect_key(s) for s in head.get("suspects", [])}):
        report.add("suspects", "better", f"resolved: {key}")
    # status
    for cid in sorted(bc.keys() & hc.keys()):
        for status in STATUSES:
            was, now = bool(bc[cid].get(status)), bool(hc[cid].get(status))
            detail = ""
            if status == "guarded" and bc[cid].get("guard_status") != hc[cid].get("guard_status"):
                detail = f"guard: {bc[cid].get('guard_status', '?')} -> {hc[cid].get('guard_status', '?')}"
            if was and not now:
                report.add("status", "worse", f"{cid}: no longer {status}", detail)
            elif now and not was:
                report.add("status", "better", f"{cid}: now {status}", detail)
    for status in STATUSES:
        b_n = base.get("summary", {}).get("total", {}).get(status)
        h_n = head.get("summary", {}).get("total", {}).get(status)
        if b_n is not None and h_n is not None and b_n != h_n:
            report.notes.append(f"{status}: {b_n} -> {h_n} of {head['summary']['total'].get('total')} clauses")
    # matrix
    b_cells, h_cells = _cells(base), _cells(head)
    b_not_run, h_not_run = _matrix_not_run(base), _matrix_not_run(head)
    for label in sorted(h_cells.keys() | b_cells.keys()):
        if label not in b_cells and b_not_run is not None:
            report.add("matrix", "moved", f"{label}: not run in {base_name}: {b_not_run}")
            continue
        if label not in h_cells and h_not_run is not None:
            report.add("matrix", "moved", f"{label}: not run in {head_name}: {h_not_run}")
            continue
        if label not in b_cells:
            for inv in sorted(h_cells[label]):
                report.add("matrix", "worse", f"{label} x {inv}: new row, FAIL")
            if not h_cells[label]:
                report.add("matrix", "moved", f"{label}: new row, all pass")
            continue
        if label not in h_cells:
            report.add("matrix", "moved", f"{label}: row removed")
            continue
        for inv in sorted(h_cells[label] - b_cells[label]):
            report.add("matrix", "worse", f"{label} x {inv}: pass -> FAIL")
        for inv in sorted(b_cells[label] - h_cells[label]):
            report.add("matrix", "better", f"{label} x {inv}: FAIL -> pass")
    b_rows = {r.get("label"): r for r in base.get("matrix", [])}
    for row in head.get("matrix", []):
        base_row = b_rows.get(row.get("label"))
        # a stall the row's readings do not allow breaks a game's invariant (a FAIL cell above); the
        # count alone is how often the row's play stalls
        if base_row is not None and int(row.get("stalled", 0)) != int(base_row.get("stalled", 0)):
            report.add("matrix", "moved",
                       f"{row.get('label')}: stalled games {base_row.get('stalled')} -> {row.get('stalled')}")
    # defaults in play
    b_def = {d["id"]: d for d in base.get("defaults_in_play", [])}
    for d in head.get("defaults_in_play", []):
        base_def = b_def.get(d["id"])
        if base_def is None:
            continue
        if not base_def.get("hits") and d.get("hits"):
            report.add("defaults", "moved", f"{d['id']}={d.get('default')} started deciding games "
                                            f"(0 -> {d['hits']} decisions)")
        elif base_def.get("hits") and not d.get("hits"):
            report.add("defaults", "moved", f"{d['id']}={d.get('default')} stopped deciding games "
                                            f"({base_def['hits']} -> 0 decisions)")
        elif base_def.get("default") != d.get("default"):
            report.add("defaults", "moved", f"{d['id']}: default {base_def.get('default')} -> {d.get('default')}")
    _campaign(report, base, head, alpha)
    _group_by_cause(report, base, head)
    return report


# --- failed builds and the causes of findings ---------------------------------------------------

def build_failure(doc: Mapping[str, Any], side: str) -> BuildFailure | None:
    """A side's failed stages, tests and scenarios from its coverage.json verdict; None when green."""
    verdict = doc.get("verdict") or {}
    stages = tuple(f"{st.get('name')}: {st.get('detail', '')}".rstrip(": ") for st in verdict.get("stages", [])
                   if st.get("ran", True) and not st.get("ok", True))
    not_run = tuple(str(st.get("name")) for st in verdict.get("all_stages", []) if st.get("ran") is False)
    tests = tuple(verdict.get("tests", []))
    scenarios = tuple(verdict.get("scenarios", []))
    if not (stages or tests or scenarios):
        return None
    return BuildFailure(side, stages, tests, scenarios, not_run)


def _declaring(doc: Mapping[str, Any], check: str) -> set[str]:
    """The clauses whose failing tests include `check` (a test node id or a scenario file)."""
    return {c["id"] for c in doc.get("clauses", []) for t in c.get("failing_tests", [])
            if t == check or t.split("::", 1)[0] == check}


_STATUS_CLAUSE = re.compile(r"^(?P<id>\S+): (no longer|now) ")
_REVISED = re.compile(r"^revised (?P<id>\S+): (?P<what>revision .*)$")


def _group_by_cause(report: DiffReport, base: Mapping[str, Any], head: Mapping[str, Any]) -> None:
    """Failed builds first; HEAD's new failures become causes, grouped by the revised clause their
    checks declare (else one cause per failed stage); their consequences move under them."""
    for doc, side in ((base, "BASE"), (head, "HEAD")):
        failure = build_failure(doc, side)
        if failure is not None:
            report.failed.append(failure)
    now = build_failure(head, "HEAD")
    if now is None:
        return
    before = build_failure(base, "BASE")
    old = set(before.tests + before.scenarios) if before else set()
    revised = {m["id"]: m["what"] for f in report.findings if f.section == "clauses" and (m := _REVISED.match(f.text))}
    by_key: dict[str, Cause] = {}
    for check in [*now.tests, *now.scenarios]:
        clauses = _declaring(head, check)
        key = next((c for c in sorted(clauses) if c in revised), "")
        if not key:
            key = "tests" if check in now.tests else "scenarios"
        cause = by_key.setdefault(key, Cause(""))
        cause.checks.add(check)
        cause.clauses |= clauses
    other_stages = [n for n in now.stages if n.split(":", 1)[0] not in ("tests and properties", "scenarios")]
    if not by_key:                      # no failing test or scenario: each failed stage is a cause
        for name in other_stages:
            by_key[f"stage {name.split(':', 1)[0]}"] = Cause("", {name.split(":", 1)[0]})
        other_stages = []
    for key, cause in by_key.items():
        tests = sorted(c for c in cause.checks if c in now.tests)
        scenarios = sorted(c for c in cause.checks if c in now.scenarios)
        already = all(c in old for c in cause.checks) and bool(cause.checks)
        counts = ", ".join(x for x in (f"{len(tests)} test(s)" if tests else "",
                                       f"{len(scenarios)} scenario(s)" if scenarios else "") if x)
        if key in revised:
            cause.text = f"{key} revised ({revised[key]}): {counts} declaring it fail in HEAD"
        elif key.startswith("stage "):
            cause.text = f"HEAD: stage {next(n for n in now.stages if n.startswith(key[6:]))}"
        else:
            cause.text = f"HEAD: {counts} fail" + (f" (clauses {', '.join(sorted(cause.clauses)[:4])})"
                                                   if cause.clauses else "")
        if already:
            cause.text += " (already failing in BASE)"
        report.causes.append(cause)
    report.causes.sort(key=lambda c: -len(c.checks))
    primary = report.causes[0]
    primary.consequences += [Finding("stages", "worse", f"stage {name}") for name in other_stages]
    guard_tests = {c["id"]: set((c.get("guard") or {}).get("tests", [])) for c in head.get("clauses", [])}
    for f in report.findings:
        if f.section == "status" and f.kind == "worse" and (m := _STATUS_CLAUSE.match(f.text)):
            cid = m["id"]
            owner = next((c for c in report.causes if cid in c.clauses or guard_tests.get(cid, set()) & c.checks), None)
            if owner is None and f.text.endswith("no longer exercised") and now.not_run:
                owner = primary                 # hit only by the campaign, which did not run
            if owner is not None:
                owner.consequences.append(f)
        elif f.section in ("matrix", "campaign", "defaults") and f.kind != "better":
            primary.consequences.append(f)      # measured on a failing build (or not measured at all)
        elif f.section in ("clauses", "suspects"):
            # the revision a cause names, and the links pinned to the revision before it
            cid = m["id"] if (m := _REVISED.match(f.text)) else next(
                (c for c in revised if f.section == "suspects" and f": {c} pinned @" in f.text), None)
            owner = next((c for c in report.causes if cid is not None and c.text.startswith(f"{cid} revised")), None)
            if owner is not None:
                owner.consequences.append(f)


def _describe(scores: Sequence[float]) -> str:
    if not scores:
        return "no games"
    s = sorted(scores)
    return f"mean {sum(s) / len(s):.1f}, median {s[len(s) // 2]}, range {s[0]}..{s[-1]} (n={len(s)})"


def _campaign(report: DiffReport, base: Mapping[str, Any], head: Mapping[str, Any], alpha: float) -> None:
    bcamp, hcamp = base.get("campaign", {}), head.get("campaign", {})
    n1, n2 = int(bcamp.get("games", 0) or 0), int(hcamp.get("games", 0) or 0)
    if n1 != n2:
        report.notes.append(f"campaign sizes differ ({n1} vs {n2} games): not the same seeded campaign; "
                            "rates are compared per game")
    for key in sorted((bcamp.keys() | hcamp.keys()) - _NOT_EVENTS):
        k1, k2 = bcamp.get(key, 0), hcamp.get(key, 0)
        if not isinstance(k1, int) or not isinstance(k2, int) or k1 == k2:
            continue
        p = rate_test(k1, n1, k2, n2)
        line = f"{key}: {k1} in {n1} games -> {k2} in {n2} games (p={p:.3g})"
        if key in _WORSE_EVENTS and k2 * max(n1, 1) > k1 * max(n2, 1):
            report.add("campaign", "worse", line)
        elif p < alpha:
            report.add("campaign", "moved", line)
        else:
            report.notes.append(f"campaign {line}: within noise")
    samples: dict[str, tuple[list[float], list[float]]] = {}
    for policy in sorted(set(base.get("policy_scores", {})) | set(head.get("policy_scores", {}))):
        samples[f"campaign scores ({policy} policy)"] = (list(base.get("policy_scores", {}).get(policy, [])),
                                                         list(head.get("policy_scores", {}).get(policy, [])))
    b_rows = {r.get("label"): r for r in base.get("matrix", [])}
    for row in head.get("matrix", []):
        old = b_rows.get(row.get("label"))
        if old is not None and (row.get("scores") or old.get("scores")):
            samples[f"matrix scores ({row.get('label')})"] = (list(old.get("scores", [])), list(row.get("scores", [])))
    for name, (a, b) in samples.items():
        if a == b:
            continue
        u, p = mann_whitney_u(a, b)
        line = f"{name}: {_describe(a)} -> {_describe(b)}; Mann-Whitney p={p:.3g}"
        if p < alpha:
            report.add("campaign", "moved", line)
        else:
            report.notes.append(f"{line}: within noise")


# --- output -------------------------------------------------------------------------------------

_MARK = {"worse": "WORSE", "moved": "moved", "better": "better"}


def render_text(report: DiffReport) -> str:
    lines = [f"azul-rules diff {report.base} -> {report.head}"]
    for failure in report.failed:
        lines.append(f"\n{failure.line()}")
    if report.causes:
        lines.append(f"\nCauses: {len(report.causes)} (each with the findings that follow from it)")
        for cause in report.causes:
            lines.append(f"  WORSE  {cause.text}: {len(cause.consequences)} consequence(s)")
            for f in cause.consequences:
                lines.append(f"           {_MARK[f.kind]:6} {f.text}")
    loose = report.loose
    for section in SECTIONS:
        found = [f for f in loose if f.section == section]
        lines.append(f"\n{TITLES[section]}: {len(found) or 'none'}")
        for f in found:
            lines.append(f"  {_MARK[f.kind]:6} {f.text}")
            if f.detail:
                lines.append(f"         {f.detail}")
    if report.notes:
        lines.append("\nNotes:")
        lines.extend(f"  {n}" for n in report.notes)
    lines.append("")
    lines += verdict_lines(report)
    return "\n".join(lines) + "\n"


def _verdict(report: DiffReport) -> str:
    loose = report.loose
    counts = {k: sum(f.kind == k for f in loose) for k in _MARK}
    if report.causes:
        rest = (f"; other findings: {counts['worse']} worse, {counts['moved']} moved, {counts['better']} better"
                if loose else "")
        return f"verdict: WORSE: {len(report.causes)} cause(s){rest}"
    if report.head_failed:
        return "verdict: WORSE: HEAD's build failed"
    if report.failed:
        return ("verdict: BASE's build failed, so BASE's figures are not a baseline "
                f"({counts['worse']} worse, {counts['moved']} moved, {counts['better']} better)")
    if not report.findings:
        return "verdict: nothing moved"
    return (f"verdict: {'WORSE' if report.worse else 'nothing worse'} "
            f"({counts['worse']} worse, {counts['moved']} moved, {counts['better']} better)")


def verdict_lines(report: DiffReport) -> list[str]:
    """The verdict, then one line per cause (its consequences counted, not listed)."""
    return [_verdict(report)] + [f"  cause: {c.text} ({len(c.consequences)} consequence(s))" for c in report.causes]


def _md(text: str) -> str:
    return text.replace("|", "\\|").replace("<", "&lt;")


def render_markdown(report: DiffReport) -> str:
    icon = {"worse": ":x: worse", "moved": ":arrow_right: moved", "better": ":white_check_mark: better"}
    lines = [f"## azul-rules diff `{report.base}` → `{report.head}`", "", f"**{_verdict(report)}**", ""]
    for failure in report.failed:
        lines += [f":x: **{_md(failure.line())}**", ""]
    for cause in report.causes:                 # one line per cause; its consequences folded
        lines += [f"<details><summary>:x: <b>cause</b>: {_md(cause.text)} ({len(cause.consequences)} "
                  "consequence(s))</summary>", ""]
        lines += [f"- {icon[f.kind]}: {_md(f.text)}" for f in cause.consequences]
        lines += ["", "</details>", ""]
    loose = report.loose
    for section in SECTIONS:
        found = [f for f in loose if f.section == section]
        lines.append(f"### {TITLES[section]} ({len(found) or 'none'})")
        if found:
            lines += ["", "| | change |", "|---|---|"]
            for f in found:
                detail = f"<br>`{_md(f.detail)}`" if f.detail else ""
                lines.append(f"| {icon[f.kind]} | {_md(f.text)}{detail} |")
        lines.append("")
    if report.notes:
        lines += ["<details><summary>Notes (within noise, totals)</summary>", ""]
        lines += [f"- {_md(n)}" for n in report.notes]
        lines += ["", "</details>", ""]
    return "\n".join(lines)


# --- reading a side: a coverage.json file, or a git revision built in a worktree -----------------

def _git(repo: Path, *args: str) -> str:
    run = subprocess.run(["git", "-C", str(repo), *args], capture_output=True, text=True)
    if run.returncode:
        raise UserError(f"git {' '.join(args)}: {run.stderr.strip() or 'failed'}")
    return run.stdout.strip()


# The revision's own `verify`, with its mutation stage judging from the revision's committed
# tests/mutants.json instead of re-running stale clauses (a revision whose store is stale would
# otherwise spend most of an hour on mutants): guarded status is then as that commit recorded it.
#
# Nothing in the build may depend on the machine's load: the mutation stage gets no time budget
# (`--rerun-mutants` runs every stale clause to the end), and pytest's per-test and session clocks are
# off (PYTEST_ADDOPTS in build_revision); the build as a whole is still bounded by --build-seconds,
# which ends it as a failed build (exit 2), never as a result.
_STORED_MUTANTS = """
import os, sys
try:
    import harness.mutation.analysis as analysis
    if not os.environ.get("AZUL_DIFF_RERUN_MUTANTS"):
        analysis.stale = lambda plans, stored: []
except ImportError:
    pass
try:
    import harness.verify as verify
    for settings in verify.PROFILES.values():
        settings.pop("mutation_seconds", None)
except ImportError:
    pass
from harness.cli import main
sys.argv = ["azul-rules", *sys.argv[1:]]
main()
"""


def default_build(python: str = sys.executable, rerun_mutants: bool = False) -> list[str]:
    """The command building a revision's coverage.json in its worktree ({out} is the report folder):
    the revision's own `verify`, so each side is measured by its own code."""
    args = ["verify", "--profile", "ci", "--out", "{out}"]
    script = _STORED_MUTANTS if not rerun_mutants else "import os; os.environ['AZUL_DIFF_RERUN_MUTANTS'] = '1'\n" \
        + _STORED_MUTANTS
    return [python, "-c", script, *args]


@contextmanager
def worktree(repo: Path, rev: str) -> Iterator[Path]:
    """A detached temporary worktree of `rev`, removed afterwards (also on Ctrl-C or SIGTERM)."""
    sha = _git(repo, "rev-parse", "--verify", f"{rev}^{{commit}}")
    parent = Path(tempfile.mkdtemp(prefix="azul-diff-"))
    path = parent / sha[:12]
    _git(repo, "worktree", "add", "--detach", "--quiet", str(path), sha)
    try:
        yield path
    finally:
        subprocess.run(["git", "-C", str(repo), "worktree", "remove", "--force", str(path)], capture_output=True)
        shutil.rmtree(parent, ignore_errors=True)
        subprocess.run(["git", "-C", str(repo), "worktree", "prune"], capture_output=True)


def build_revision(repo: Path, rev: str, command: Sequence[str] | None = None, seconds: float = BUILD_SECONDS,
                   log: Path | None = None) -> dict[str, Any]:
    """Check `rev` out in a temporary worktree, run the build there (`command`, `{out}` replaced by
    the report folder, cwd the worktree, its packages first on PYTHONPATH), return its coverage.json."""
    command = list(command or default_build())
    with worktree(repo, rev) as tree:
        out = tree / ".azul-diff-report"
        argv = [part.replace("{out}", str(out)) for part in command]
        env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tree), os.environ.get("PYTHONPATH", "")]).rstrip(os.pathsep),
               "AZUL_JUNIT_DIR": "",
               # no clock decides a test's result in a build (the build itself is bounded, see above)
               "PYTEST_ADDOPTS": " ".join(filter(None, [os.environ.get("PYTEST_ADDOPTS", ""),
                                                        "-o timeout=0 -o session_timeout=0"]))}
        sink = open(log, "w") if log else subprocess.DEVNULL
        proc = subprocess.Popen(argv, cwd=tree, env=env, stdout=sink, stderr=subprocess.STDOUT, start_new_session=True)
        try:
            proc.wait(timeout=seconds)
        except subprocess.TimeoutExpired:
            _stop(proc)
            raise UserError(f"building {rev} took more than {seconds:.0f} s (diff --build-seconds)") from None
        except BaseException:
            _stop(proc)
            raise
        finally:
            if not isinstance(sink, int):                              # a log file, not DEVNULL
                sink.close()
        coverage = out / "coverage.json"
        if not coverage.exists():
            raise UserError(f"building {rev} wrote no coverage.json (exit {proc.returncode}; command: {' '.join(argv)})")
        return json.loads(coverage.read_text())


def _stop(proc: subprocess.Popen[bytes]) -> None:
    try:
        os.killpg(proc.pid, signal.SIGINT)
        proc.wait(timeout=10)
    except (ProcessLookupError, subprocess.TimeoutExpired):
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        proc.wait()


def load_side(spec: str, repo: Path, command: Sequence[str] | None = None, seconds: float = BUILD_SECONDS,
              log: Path | None = None) -> dict[str, Any]:
    """`spec` is a coverage.json file (or a report folder holding one), else a git revision."""
    path = Path(spec)
    if path.is_dir() and (path / "coverage.json").exists():
        path = path / "coverage.json"
    if path.is_file():
        try:
            return json.loads(path.read_text())
        except (OSError, ValueError) as exc:
            raise UserError(f"{path}: not a coverage.json ({exc})") from None
    return build_revision(repo, spec, command, seconds, log)


@contextmanager
def _sigterm_as_interrupt() -> Iterator[None]:
    """SIGTERM (CI cancelling) unwinds like Ctrl-C, so worktrees are removed."""
    def handler(signum: int, frame: Any) -> None:
        raise KeyboardInterrupt
    try:
        old = signal.signal(signal.SIGTERM, handler)
    except ValueError:                       # not the main thread
        yield
        return
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, old)


@click.command("diff")
@click.argument("base")
@click.argument("head")
@click.option("--markdown", is_flag=True, help="Markdown (a pull-request comment) instead of text.")
@click.option("--out", type=OutputPath(), default=None,
              help="Also write the output to this file.")
@click.option("--fail-on", type=click.Choice(["worse", "moved"]), default="worse", show_default=True,
              help="Exit 1 when something got worse, or (moved) when anything changed at all, e.g. a lock update.")
@click.option("--build-seconds", type=click.FloatRange(1), default=BUILD_SECONDS, show_default=True,
              help="Time budget for building one git revision.")
@click.option("--rerun-mutants", is_flag=True,
              help="Let a revision's verify re-run its stale mutants (default: judge from its committed tests/mutants.json).")
@click.option("--build-log", type=OutputPath(folder=True), default=None,
              help="Folder for each revision's build output (REV.log).")
@click.option("--repo", type=click.Path(file_okay=False, path_type=Path), default=Path("."), show_default=True)
def diff_command(base: str, head: str, markdown: bool, out: Path | None, fail_on: str, build_seconds: float,
                 rerun_mutants: bool, build_log: Path | None, repo: Path) -> None:
    """What changed between BASE and HEAD: two coverage.json files (or report folders), or two git
    revisions (each built with its own `verify --profile ci` in a temporary worktree)."""
    with _sigterm_as_interrupt():
        sides = []
        for spec in (base, head):
            if not Path(spec).exists():
                click.echo(f"building {spec} in a temporary worktree (up to {build_seconds:.0f} s) ...", err=True)
            log = None
            if build_log is not None:
                build_log.mkdir(parents=True, exist_ok=True)
                log = build_log / (spec.replace("/", "_").replace("~", "-") + ".log")
            sides.append(load_side(spec, repo, default_build(rerun_mutants=rerun_mutants), build_seconds, log))
    report = compare(sides[0], sides[1], base, head)
    text = render_markdown(report) if markdown else render_text(report)
    click.echo(text, nl=False)
    if out:
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(text)
    raise SystemExit(report.exit_status(fail_on))
