"""Simulation campaigns: random legal games checked at every step, with designer statistics.

Each game g of a campaign with seed S uses `SeededChance(S + g)` and a uniform random policy seeded
the same way, so any game can be replayed alone (and is written as a scenario file when it fails).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import attrs

from model import new_game
from model.actions import Kind
from model.clauses import RECORDER, recording
from properties.counterexample import scenario_text, write_counterexample
from properties.invariants import violations
from properties.policy import POLICIES
from properties.steps import check_step


@attrs.define
class GameReport:
    seed: int
    rounds: int
    actions: int
    scores: tuple[int, int]
    winner: int | None
    reason: str
    stalled: bool
    failure: tuple[str, str] | None          # (invariant, message)
    failure_step: int
    branches: Counter[str]
    draws: Counter[int]                       # plates drawn blind per draw turn
    clause_hits: Counter[str]
    alt_hits: Counter[tuple[str, str]]
    edge_hits: Counter[tuple[str, str]]
    actions_log: list[str]


def play_checked(seed: int, overrides: Mapping[str, str] | None = None, *, deep_every: int = 25,
                 record: bool = True, max_steps: int = 5000, policy: str = "uniform") -> GameReport:
    """One random legal game with every invariant checked after every step."""
    ctx = recording() if record else None
    if ctx:
        ctx.__enter__()
    try:
        game = new_game(seed=seed, overrides=dict(overrides or {}))
        rng = random.Random(seed)
        choose = POLICIES[policy]
        branches: Counter[str] = Counter()
        draws: Counter[int] = Counter()
        log: list[str] = []
        failure = None
        drawing = 0
        for inv, msg in violations(game):
            failure = (inv.name, msg)
        step = 0
        while failure is None and not game.is_over and step < max_steps:
            actions = game.legal_actions()
            if not actions:
                failure = ("progress", f"stalled in round {game.state.round}")
                break
            action = choose(game, actions, rng)
            before = game.state.copy()
            events = game.apply(action)
            step += 1
            log.append(str(action))
            if action.kind is Kind.DRAW_PLATE:
                drawing += 1
            elif drawing and action.kind is Kind.KEEP_PLATE:
                draws[drawing] += 1
                drawing = 0
            if action.kind is Kind.PASS:
                branches["forced pass"] += 1
            for e in events:
                if e.kind == "restock":
                    branches["bag restocked from the Tower"] += 1
                elif e.kind == "tiles-ran-out":
                    branches["rare empty-bag round"] += 1
                elif e.kind == "redraw":
                    branches["large Factory redrawn (one colour)"] += 1
                elif e.kind == "redraw-impossible":
                    branches["one-colour redraw impossible"] += 1
                elif e.kind == "bonus":
                    if "pair" in e.detail:
                        branches["chips spent as 2-matching"] += 1
                    if "any-3" in e.detail:
                        branches["chips spent as any-3"] += 1
                elif e.kind == "broken" and e.clause == "duel.tiling.unplaceable":
                    branches["unplaceable line broken"] += 1
                elif e.kind == "reveal-chip" and e.clause == "duel.acquire.sun.reveal-monochrome":
                    branches["chip revealed by four of a kind"] += 1
            for name, msg in check_step(before, game, events, step, deep_every):
                failure = (name, msg)
                break
            if failure is None:
                for inv, msg in violations(game):
                    failure = (inv.name, msg)
                    break
        if failure is None and not game.is_over:
            failure = ("progress", f"no end after {max_steps} steps")
        outcome = game.outcome()
        if outcome and outcome.winner is not None and "tie" in outcome.reason:
            branches["tie broken by the Starting player tile"] += 1
        return GameReport(
            seed=seed, rounds=game.state.round, actions=len(log),
            scores=(game.state.players[0].score, game.state.players[1].score),
            winner=outcome.winner if outcome else None, reason=outcome.reason if outcome else "unfinished",
            stalled=game.is_stalled, failure=failure, failure_step=len(log), branches=branches, draws=draws,
            clause_hits=Counter(RECORDER.clauses) if record else Counter(),
            alt_hits=Counter(RECORDER.alternatives) if record else Counter(),
            edge_hits=Counter(RECORDER.edges) if record else Counter(), actions_log=log,
        )
    finally:
        if ctx:
            ctx.__exit__(None, None, None)


def _play_batch(args: tuple[list[int], dict[str, str], int, str]) -> list[GameReport]:
    seeds, overrides, deep_every, policy = args
    return [play_checked(s, overrides, deep_every=deep_every, policy=policy) for s in seeds]


@attrs.define
class CampaignReport:
    games: list[GameReport]
    overrides: dict[str, str]
    policy: str = "uniform"

    @property
    def failures(self) -> list[GameReport]:
        return [g for g in self.games if g.failure is not None]

    def totals(self, attr: str) -> Counter[Any]:
        out: Counter[Any] = Counter()
        for g in self.games:
            out.update(getattr(g, attr))
        return out


def run_campaign(games: int, seed: int = 0, overrides: Mapping[str, str] | None = None, jobs: int = 1,
                 deep_every: int = 25, progress: Any = None, policy: str = "uniform") -> CampaignReport:
    seeds = list(range(seed, seed + games))
    overrides = dict(overrides or {})
    reports: list[GameReport] = []
    if jobs <= 1:
        for s in seeds:
            reports.append(play_checked(s, overrides, deep_every=deep_every, policy=policy))
            if progress:
                progress(1)
    else:
        chunk = max(1, min(25, games // (jobs * 4) or 1))
        batches = [(seeds[i:i + chunk], overrides, deep_every, policy) for i in range(0, len(seeds), chunk)]
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            for batch in pool.map(_play_batch, batches):
                reports.extend(batch)
                if progress:
                    progress(len(batch))
    reports.sort(key=lambda r: r.seed)
    return CampaignReport(reports, overrides, policy)


def write_failure(report: GameReport, overrides: Mapping[str, str], directory: Path | None = None,
                  policy: str = "uniform") -> Path:
    from properties.steps import invariant_clauses

    assert report.failure is not None
    name, msg = report.failure
    clauses = invariant_clauses(name)
    alt = "-".join(f"{k.split('.')[-1]}-{v}" for k, v in sorted(overrides.items())) or "defaults"
    text = scenario_text(
        scenario_id=f"counterexample.{name}.{alt}.seed-{report.seed}",
        description=f"simulate found: {name}: {msg}\n(seed {report.seed}, step {report.failure_step}, policy {policy})",
        clauses=clauses, overrides=overrides, actions=report.actions_log, seed=report.seed)
    return write_counterexample(text, f"{name}-{alt}-seed-{report.seed}", directory)
