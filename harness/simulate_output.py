"""What `azul-rules simulate` tells its user: designer statistics (for the table and `--json`),
failures grouped by what broke, and the per-game results."""

from __future__ import annotations

import statistics
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import attrs

from properties.registry import get_game
from properties.simulate import CampaignReport, GameReport, group_failures, write_failure


def campaign_statistics(report: CampaignReport) -> dict[str, Any]:
    """Numbers a designer reads: scores, wins, ties, rare branches, blind plate draws."""
    gs = report.games
    finished = [g for g in gs if g.failure is None]
    scores = [s for g in finished for s in g.scores]
    stats: dict[str, Any] = {"games_played": len(gs), "games_finished": len(finished)}
    if scores:
        top = max(scores)
        width = max(5, -(-(top + 1) // 8 // 5) * 5)          # at most about 8 buckets, multiples of 5
        buckets = [0] * (top // width + 1)
        for sc in scores:
            buckets[sc // width] += 1
        stats["score"] = {"min": min(scores), "median": statistics.median(scores),
                          "mean": round(statistics.mean(scores), 2), "max": top}
        stats["score_distribution"] = {f"{i * width}-{i * width + width - 1}": n
                                       for i, n in enumerate(buckets) if n}
    seats = max((len(g.scores) for g in gs), default=2)
    stats["wins"] = {f"P{seat + 1}": sum(g.winner == seat for g in finished) for seat in range(seats)}
    stats["stalled"] = sum(g.stalled for g in finished)      # nobody can act: no winner, not a draw
    stats["draws"] = sum(g.winner is None and not g.stalled for g in finished)
    stats["ties"] = sum(list(g.scores).count(max(g.scores)) > 1 for g in finished if g.scores)
    stats["branches"] = dict(sorted(report.totals("branches").items()))
    stats["draw_turns"] = {str(k): v for k, v in sorted(report.totals("draws").items())}
    alt_hits = report.totals("alt_hits")
    entry = get_game(report.game)
    stats["decided_by"] = {label: sum(n for (i, _), n in alt_hits.items() if i == interp)
                           for label, interp in entry.decided_by.items()}
    stats["actions_mean"] = round(statistics.mean(g.actions for g in gs), 1) if gs else 0
    return stats


@attrs.define
class FailureGroup:
    """The games that broke one invariant (or watchdog), with the counterexamples written for them."""
    invariant: str
    games: list[GameReport]
    written: list[Path]

    def lines(self, played: int) -> list[str]:
        first = self.games[0]
        assert first.failure is not None
        out = [f"{len(self.games)}/{played} broke {self.invariant} (seeds {seed_ranges([g.seed for g in self.games])})",
               f"  first: seed {first.seed}, step {first.failure_step}: {first.failure[1]}"]
        if self.written:
            out.append(f"  replay: azul-rules scenario {self.written[0]}")
            if len(self.written) < len(self.games):
                out.append(f"  counterexamples written: {len(self.written)} of {len(self.games)} "
                           f"(--max-counterexamples)")
        return out


def failure_groups(report: CampaignReport, overrides: Mapping[str, str], directory: Path,
                   policy: str, max_files: int) -> list[FailureGroup]:
    """Failures grouped by invariant, most frequent first; at most `max_files` counterexample files
    are written per group (the first games by seed)."""
    return [FailureGroup(name, games, [write_failure(g, overrides, directory, policy) for g in games[:max_files]])
            for name, games in group_failures(report.failures)]


def seed_ranges(seeds: list[int], limit: int = 6) -> str:
    """"0-4, 7, 9-11" (the first `limit` runs, then "...")."""
    runs: list[tuple[int, int]] = []
    for s in sorted(seeds):
        if runs and s == runs[-1][1] + 1:
            runs[-1] = (runs[-1][0], s)
        else:
            runs.append((s, s))
    text = ", ".join(f"{a}" if a == b else f"{a}-{b}" for a, b in runs[:limit])
    return text + (", ..." if len(runs) > limit else "")


def game_json(g: GameReport, written: Mapping[int, Path]) -> dict[str, Any]:
    failure = None
    if g.failure is not None:
        path = written.get(g.seed)
        failure = {"invariant": g.failure[0], "message": g.failure[1], "step": g.failure_step, "phase": g.phase,
                   "counterexample": str(path) if path else None}
    return {"seed": g.seed, "rounds": g.rounds, "actions": g.actions, "scores": list(g.scores), "winner": g.winner,
            "reason": g.reason, "stalled": g.stalled, "failure": failure}


def campaign_json(report: CampaignReport, groups: list[FailureGroup], *, games: int, seed: int) -> dict[str, Any]:
    written = {g.seed: path for group in groups for g, path in zip(group.games, group.written, strict=False)}
    return {
        "games": games, "seed": seed, "policy": report.policy, "interpretations": dict(report.overrides),
        "passed": len(report.games) - len(report.failures), "failed": len(report.failures),
        "unplayed": report.unplayed, "skipped": report.skipped,
        "statistics": campaign_statistics(report),
        "failures": [{"invariant": grp.invariant, "games": len(grp.games), "seeds": [g.seed for g in grp.games],
                      "counterexamples": [str(p) for p in grp.written]} for grp in groups],
        "results": [game_json(g, written) for g in report.games],
    }
