"""`azul-rules check`: the quick answer after editing a rule (seconds of CPU, not verify's many
minutes). It names the clauses the change touched (spec/ text, model/ code by clause extents), then
runs spec lint, every scenario, the scoring oracle and invariants over a few seeded games of each
game, and the tests that bear on the changed clauses (harness.changes), and names what failed. A
failing scenario from a rulebook's own example says what that example says.

It writes its failures to .azul-rules/check-last.json, which `--last-failed` re-runs."""

from __future__ import annotations

import json
import os
import re
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import attrs
import click

from harness.changes import Changes, ClauseChange, changed_clauses, changes, selected_tests, untied_code
from harness.coverage import ROOT

LAST = Path(".azul-rules") / "check-last.json"
LOG = Path(".azul-rules") / "check-pytest.log"
ORACLE_GAMES = 12               # seeded games per game and player count (each checks every step)
SCENARIO_SECONDS = 60           # one scenario file takes milliseconds; past this the model hangs
# fixtures/<game>/rulebook/ (Duel) and fixtures/<game>/guide/ (classic): the worked examples of the
# game's primary document (spec/documents.toml), said in that document's words when they fail
EXAMPLE_FOLDERS = ("rulebook", "guide")
SHOWN = 3                       # lines of each failure shown


@attrs.define
class Outcome:
    name: str
    ran: bool = True
    ok: bool = True
    detail: str = ""
    failures: list[str] = attrs.field(factory=list)      # ids / paths, for --last-failed
    lines: list[str] = attrs.field(factory=list)         # what to show under the stage line
    seconds: float = 0.0


# --- the rulebook's examples --------------------------------------------------------------------

_EXPECTED_EVENT = re.compile(r"^(?P<field>[\w.\[\]]+): no event containing '(?P<event>.*)' \(in order\) among:")
_EXPECTED_VALUE = re.compile(r"^(?P<field>[\w.\[\]]+): expected (?P<want>.*?), got (?P<got>.*)$")


def _shape(text: str) -> str:
    return re.sub(r"[-+]?\d+", "#", re.sub(r"\s*\[[a-z0-9.-]+\]\s*$", "", text.strip()))


def example_says(diffs: Sequence[str]) -> list[str]:
    """What a scenario expected, in its own words, with what the model gives now where it can be
    matched: "'P1 penalty -2: Starting player tile' (the model now: 'P1 penalty -3: ...')"."""
    out = []
    for diff in diffs:
        head, *rest = diff.splitlines() or [""]
        if m := _EXPECTED_EVENT.match(head):
            want = m["event"]
            got = next((re.sub(r"\s*\[[a-z0-9.-]+\]\s*$", "", r.strip()) for r in rest
                        if _shape(r) == _shape(want)), None)
            out.append(f"'{want}'" + (f" (the model now: '{got}')" if got else " (no such event now)"))
        elif m := _EXPECTED_VALUE.match(head):
            out.append(f"{m['field'].removeprefix('then.')} = {m['want']} (the model now: {m['got']})")
        else:
            out.append(head)
    return out


def example_source(scenario_clauses: Sequence[str], changed: Sequence[str], game: str) -> str:
    """Where the game's primary document states the rule a failing example is about: its sources
    there of the example's declared clauses that changed (else of all it declares)."""
    from spec import default_catalogue

    catalogue = default_catalogue(game)
    primary = next((d.id for d in catalogue.documents if d.primary), "")
    ids = [c.partition("@")[0] for c in scenario_clauses]
    ids = [c for c in ids if c in catalogue]
    chosen = [c for c in ids if c in changed] or ids
    sentences: dict[str, list[int]] = {}                  # section slug -> sentence numbers, in order met
    for cid in chosen:
        for source in catalogue.clause(cid).sources:
            if source.doc == primary and source.at is not None and source.sentence is not None:
                numbers = sentences.setdefault(source.section or "", [])
                if source.sentence not in numbers:
                    numbers.append(source.sentence)
    doc = catalogue.document(primary) if primary else None
    labels = []
    for slug, numbers in list(sentences.items())[:2]:
        section = doc.section(slug) if doc else None
        labels.append(f"\"{section.title if section else slug}\" ({primary} {slug}/"
                      + ", ".join(f"s{n}" for n in sorted(numbers)) + ")")
    return ", ".join(labels)


def _is_example(path: Path) -> bool:
    return path.parent.name in EXAMPLE_FOLDERS


# --- the stages ---------------------------------------------------------------------------------

def _spec_lint() -> Outcome:
    from properties.registry import game_names
    from spec import validate

    out = Outcome("spec lint")
    out.failures = [str(p) for g in game_names() for p in validate(game=g)[1]]
    out.lines = out.failures[:10]
    out.ok = not out.failures
    out.detail = "no problems" if out.ok else f"{len(out.failures)} problem(s)"
    return out


def _suspects(change_ids: Sequence[str]) -> Outcome:
    """Tests and scenarios pinned to an older revision of a changed clause: each must be re-read."""
    from harness.coverage import suspects
    from properties.registry import game_names
    from spec import default_catalogue

    out = Outcome("suspect links")
    pins = [s for g in game_names() for s in suspects(default_catalogue(g)) if s.clause in change_ids]
    out.lines = [f"{s.kind} {s.where}: pinned to {s.clause} revision {s.pinned}, spec/ holds {s.revision}: "
                 "re-read it against the new text, then `azul-rules suspects --bump`" for s in pins]
    out.failures = [s.where for s in pins]
    out.ok = not pins
    out.detail = "none to the changed clause(s)" if out.ok else f"{len(pins)} pinned to an older revision"
    return out


def _scenarios(only: set[str] | None, changed: Sequence[str], stop_first: bool) -> Outcome:
    from harness.scenarios import ScenarioError, load_scenario, run_scenario, scenario_files, scenario_game
    from properties.watchdog import TimeBudgetExceeded, alarm

    out = Outcome("scenarios")
    files = list(scenario_files([ROOT / "fixtures"]))
    if only is not None:
        files = [f for f in files if f.relative_to(ROOT).as_posix() in only]
    ran = 0
    for path in files:
        rel = path.relative_to(ROOT).as_posix()
        ran += 1
        try:
            with alarm(SCENARIO_SECONDS):
                result = run_scenario(load_scenario(path))
        except ScenarioError as exc:
            out.failures.append(rel)
            out.lines.append(f"FAILED {rel}: {str(exc).splitlines()[0]}")
        except TimeBudgetExceeded:
            out.failures.append(rel)
            out.lines.append(f"FAILED {rel}: no end within {SCENARIO_SECONDS} s (a model loop hangs)")
        else:
            if not result.passed:
                out.failures.append(rel)
                out.lines.append(f"FAILED {rel} ({result.id})")
                if _is_example(path):
                    where = example_source(result.clauses, changed, scenario_game(path))
                    out.lines.append(f"  the {path.parent.name}'s example" + (f" in {where}" if where else "")
                                     + " says: " + "; ".join(example_says(result.diffs)))
                else:
                    out.lines.append("  expected: " + "; ".join(example_says(result.diffs)[:SHOWN]))
        if stop_first and out.failures:
            break
    out.ok = not out.failures
    out.detail = f"{ran - len(out.failures)}/{ran} passed" + (f" ({len(files) - ran} not run: -x)" if ran < len(files) else "")
    return out


def oracle_policy(game: str) -> str:
    """A policy that scores (the oracle then sees points): the game's `greedy` when it has one."""
    from properties.registry import get_game

    entry = get_game(game)
    return "greedy" if "greedy" in entry.load("policies") else entry.default_policy


def _oracle(only: set[str] | None, stop_first: bool) -> Outcome:
    from properties.registry import game_names, get_game
    from properties.simulate import group_failures, run_campaign

    out = Outcome("scoring oracle and invariants")
    played: list[str] = []
    for game in game_names():
        if only is not None and game not in only:
            continue
        entry = get_game(game)
        players = entry.players[0]
        policy = oracle_policy(game)
        report = run_campaign(ORACLE_GAMES, 0, {}, jobs=1, policy=policy, game=game, players=players,
                              max_failures=1 if stop_first else None)
        played.append(f"{game} {len(report.games)} ({policy})")
        if report.failures:
            out.failures.append(game)
            for name, games in group_failures(report.failures):
                first = games[0]
                message = first.failure[1] if first.failure else ""
                out.lines.append(f"FAILED {game}: {name} in {len(games)}/{len(report.games)} games; first: seed "
                                 f"{first.seed}, step {first.failure_step}: {message}")
        if stop_first and out.failures:
            break
    out.ok = not out.failures
    out.detail = "seeded games: " + ", ".join(played)
    return out


_SECTION = re.compile(r"^_{3,} (?:ERROR at \w+ of )?(?P<name>\S.*?) _{3,}$")   # a failure's report starts
_ERROR_LINE = re.compile(r"^E\s+(?P<why>\S.*)$")                          # its first "E   ..." line: why


def _tests(nodeids: Sequence[str], source: str, stop_first: bool) -> Outcome:
    from harness.pytest_run import PytestRun, run_pytest

    out = Outcome("tests")
    if not nodeids:
        out.detail = "none bear on the change"
        return out
    why: dict[str, str] = {}
    section = [""]

    def on_line(line: str, run: PytestRun, failed: str | None) -> None:
        line = line.rstrip("\n")
        if m := _SECTION.match(line):
            section[0] = m["name"]
        elif (m := _ERROR_LINE.match(line)) and section[0]:
            why.setdefault(section[0], m["why"])

    def reason(nodeid: str) -> str:
        name = nodeid.split("::", 1)[-1].replace("::", ".")
        return why.get(name, "")
    log = ROOT / LOG
    log.parent.mkdir(parents=True, exist_ok=True)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH", "")]))}
    run = run_pytest(["-p", "no:cacheprovider", "-n", "0", *(["-x"] if stop_first else []), *nodeids],
                     cwd=ROOT, env=env, log=log, on_line=on_line, python=sys.executable)
    out.failures = list(run.failed)
    out.ok = run.returncode == 0
    if run.returncode not in (0, 1) and not run.failed:
        out.lines.append(f"pytest exited with status {run.returncode}: see {LOG}")
    for nodeid in run.failed:
        out.lines.append(f"FAILED {nodeid}" + (f": {reason(nodeid)}" if reason(nodeid) else ""))
    out.detail = (f"{len(nodeids)} selected from {source}: {run.closing or 'no summary'}"
                  + ("" if out.ok else f" (log: {LOG})"))
    return out


# --- the command --------------------------------------------------------------------------------

def _last(root: Path) -> dict[str, Any]:
    try:
        data = json.loads((root / LAST).read_text())
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def _save(root: Path, data: dict[str, Any]) -> None:
    path = root / LAST
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n")


def _cpu() -> float:
    """CPU seconds of this process and its finished children (pytest runs in one)."""
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system


def _describe(clauses: Sequence[ClauseChange], loose: Sequence[str], change: Changes) -> list[str]:
    lines = [f"changes against {change.ref}: " + (", ".join(sorted(change.files)) or "none")]
    if clauses:
        lines.append("clauses changed:")
        lines += [f"  {c.clause}: {'; '.join(c.where)}" for c in clauses]
    else:
        lines.append("clauses changed: none (no clause's spec/ table or model/ code)")
    lines += [f"  changed model code in no clause's extent: {span}" for span in loose]
    return lines


def check(ref: str = "HEAD", stop_first: bool = False, last_failed: bool = False,
          echo: Callable[[str], None] = click.echo, root: Path = ROOT) -> int:
    """Run the quick stages; 0 when all passed, 1 when something failed."""
    change = changes(root, ref)
    clauses, loose = changed_clauses(root, change)
    for line in _describe(clauses, loose, change):
        echo(line)
    changed = [c.clause for c in clauses]
    previous = _last(root)
    if last_failed and not any(previous.values()):
        echo("--last-failed: the last check recorded no failures; running everything the change selects")
        last_failed = False

    def only(stage: str) -> set[str] | None:
        return set(previous.get(stage, [])) if last_failed else None

    nodeids, source = selected_tests(root, clauses, change, root / ".azul-rules" / "tests.json",
                                     untied_code(change, loose))
    if last_failed:
        nodeids, source = sorted(only("tests") or ()), "the last check's failures"
    stages: list[tuple[str, Callable[[], Outcome]]] = [
        ("spec lint", _spec_lint),
        ("scenarios", lambda: _scenarios(only("scenarios"), changed, stop_first)),
        ("scoring oracle and invariants", lambda: _oracle(only("scoring oracle and invariants"), stop_first)),
        ("tests", lambda: _tests(nodeids, source, stop_first)),
        ("suspect links", lambda: _suspects(changed)),
    ]
    outcomes: list[Outcome] = []
    for name, run in stages:
        if stop_first and any(not o.ok for o in outcomes):
            outcomes.append(Outcome(name, ran=False, detail="not run (-x: stopped at the first failure)"))
        elif last_failed and name not in ("spec lint", "suspect links") and not only(name):
            outcomes.append(Outcome(name, ran=False, detail="not run (--last-failed: nothing of it failed last time)"))
        else:
            start = _cpu()
            outcome = run()
            outcome.seconds = _cpu() - start
            outcomes.append(outcome)
        o = outcomes[-1]
        mark = "ok" if o.ok and o.ran else ("--" if not o.ran else "FAILED")
        echo(f"{mark} {o.name}: {o.detail}" + (f" ({o.seconds:.1f} CPU s)" if o.ran else ""))
        for line in o.lines:
            echo(f"  {line}")
    _save(root, {**previous, **{o.name: o.failures for o in outcomes if o.ran}})   # what was not re-run stays
    failed = [o.name for o in outcomes if o.ran and not o.ok]
    if failed:
        echo(f"check FAILED: {', '.join(failed)}" + (f" (clause(s) {', '.join(changed)})" if changed else ""))
        return 1
    echo("check passed: " + ("then `make verify` for mutation, the matrix and the report" if changed
                             else "nothing bearing on a clause changed"))
    return 0


@click.command("check")
@click.option("--changed-since", "ref", default="HEAD", show_default=True, metavar="REF",
              help="Compare the working tree with this git revision (default: the last commit).")
@click.option("-x", "--exitfirst", "stop_first", is_flag=True, help="Stop at the first failure.")
@click.option("--last-failed", is_flag=True, help="Re-run only what failed in the last check (spec lint always runs).")
def check_command(ref: str, stop_first: bool, last_failed: bool) -> None:
    """The quick loop after a rule change: which clauses changed, spec lint, the scenarios, the
    scoring oracle and the tests that bear on the change (seconds of CPU, at most a minute;
    `make verify` for the rest)."""
    raise SystemExit(check(ref, stop_first, last_failed))
