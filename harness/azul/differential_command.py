"""`azul-rules differential`: our classic Azul model against the peer engine azul-game-engine."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click
from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from harness.errors import UserError
from harness.game_option import parse_overrides
from harness.output_path import OutputPath
from properties.cluster import Workers, cluster_option

if TYPE_CHECKING:
    from harness.azul.differential import Finding, KnownDifference

# The game-specific modules (model.azul, the peer adapter) are imported when the command runs, so the
# CLI starts (and its other commands work) even when they are missing or broken.
KNOWN_DEFAULT = Path(__file__).resolve().parents[2] / "tests" / "azul" / "peer-differences.toml"
MAX_STEPS_DEFAULT = 1000


@click.command("differential")
@click.option("--games", type=click.IntRange(1), default=100, show_default=True)
@click.option("--seed", type=int, default=0, show_default=True, help="Games use seeds SEED, SEED+1, ...")
@click.option("--players", "players", type=click.Choice(["2", "3", "4"]), multiple=True,
              help="Player count (repeatable; default 2, 3 and 4 in turn).")
@click.option("--json", "json_path", type=OutputPath(), default=None,
              help="Write every finding group with its shrunk case here.")
@click.option("--probes", type=click.IntRange(0), default=0, show_default=True,
              help="Actions our model refuses, tried in a copy of the peer at every step (legality check).")
@click.option("--policy", type=click.Choice(["uniform"]), default="uniform", show_default=True,
              help="How the random games choose among legal actions (rare situations: --replay a search witness).")
@click.option("--raw", is_flag=True, help="No workarounds: the peer's classified bugs are not undone.")
@click.option("--interpretation", "interps", multiple=True, metavar="ID=ALT",
              help="Run our model under this alternative (repeatable).")
@click.option("--seconds", type=click.FloatRange(1), default=600.0, show_default=True,
              help="Time budget for the games (shrinking has its own).")
@click.option("--shrink-seconds", type=click.FloatRange(0), default=20.0, show_default=True,
              help="Time budget to shrink each kind of finding.")
@click.option("--max-steps", type=click.IntRange(1), default=MAX_STEPS_DEFAULT, show_default=True)
@click.option("--known", "known_path", type=click.Path(dir_okay=False, path_type=Path), default=KNOWN_DEFAULT,
              show_default=True, help="Classified differences (tests/azul/peer-differences.toml).")
@click.option("--replay", "replay_path", type=click.Path(exists=True, dir_okay=False, path_type=Path),
              default=None, help="Replay one case (a JSON object, or a --json file's first finding), or a search "
                                 "witness (fixtures/azul/witnesses/*.toml; ours under its readings unless "
                                 "--interpretation is given).")
@click.option("--jobs", type=click.IntRange(1), default=1, show_default=True, help="Worker processes.")
@cluster_option
def differential_command(games: int, seed: int, players: tuple[str, ...], json_path: Path | None, probes: int,
                         policy: str, raw: bool, interps: tuple[str, ...], seconds: float, shrink_seconds: float,
                         max_steps: int, known_path: Path, replay_path: Path | None, jobs: int,
                         cluster: str | None) -> None:
    """Play the same seeded random games in our classic Azul model and in azul-game-engine, compare the
    positions after every action, shrink each kind of disagreement to a minimal replayable case and
    classify it. Exit 1 on a disagreement that tests/azul/peer-differences.toml does not classify."""
    from harness.azul.differential import CaseInvalid, campaign, classify, confirm_interpretation, load_known, shrink
    from properties.azul.peer import PEER_MISSING, PEER_NAME, WORKAROUNDS

    if PEER_MISSING:
        raise UserError(PEER_MISSING)
    console = Console()
    known = load_known(known_path)
    workarounds = () if raw else tuple(WORKAROUNDS)
    overrides = parse_overrides("azul", interps)   # the shared ID=ALT parsing and check
    if replay_path is not None:
        raise SystemExit(_replay(console, replay_path, workarounds, known, overrides))
    counts = tuple(int(p) for p in players) or (2, 3, 4)
    console.print(f"peer: {PEER_NAME}; workarounds: {', '.join(workarounds) or 'none (--raw)'}; policy {policy}"
                  + (f"; ours under {', '.join(f'{k}={v}' for k, v in overrides.items())}" if overrides else ""),
                  highlight=False, markup=False)
    with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                  console=console, transient=True) as progress:
        task = progress.add_task("games", total=games)
        run = campaign(games, seed, counts, workarounds=workarounds, interpretations=overrides, probes=probes,
                       seconds=seconds, max_steps=max_steps, policy=policy,
                       on_game=lambda r: progress.advance(task), jobs=Workers(jobs, cluster))
    groups: dict[tuple[Any, ...], list[Finding]] = {}
    for r in run.results:
        for f in ([r.finding] if r.finding else []) + list(r.probes):
            groups.setdefault(f.signature, []).append(f)
    rows: list[dict[str, Any]] = []
    for found in groups.values():
        first = found[0]
        try:
            small = shrink(first, workarounds=workarounds, seconds=shrink_seconds)
        except CaseInvalid:                            # cannot happen for a recorded game; keep the original
            small = first
        matches = classify(small, known)
        confirmed = {k.id: confirm_interpretation(small, k, workarounds) for k in matches if k.interpretation}
        rows.append({"finding": small, "games": len({f.seed for f in found}), "first_seed": first.seed,
                     "known": matches, "confirmed": confirmed})
    new = [row for row in rows if not row["known"]]
    _print_table(console, rows)
    for row in rows:
        _print_case(console, row["finding"], row["known"], row["confirmed"])
    per = {n: sum(r.players == n for r in run.results) for n in counts}
    agreed = sum(r.finding is None for r in run.results)
    capped = sum(r.capped for r in run.results)
    console.print(f"{run.games} games ({', '.join(f'{n}p {k}' for n, k in per.items())}; seeds {seed}.."
                  f"{seed + run.games - 1}), {run.steps} actions compared in {run.seconds:.1f} s; "
                  f"{agreed} games agreed to the end; {len(rows)} kind(s) of disagreement: "
                  f"{len(rows) - len(new)} classified, {len(new)} new"
                  + (f"; {capped} game(s) hit the {max_steps}-step cap" if capped else "")
                  + ("; stopped at the time budget" if run.timed_out else ""), highlight=False, markup=False)
    if json_path:
        json_path.write_text(json.dumps(_to_json(run, seed, counts, workarounds, overrides, rows), indent=2) + "\n")
        console.print(f"wrote {json_path}", highlight=False, markup=False)
    raise SystemExit(1 if new else 0)


def _print_table(console: Console, rows: list[dict[str, Any]]) -> None:
    if not rows:
        return
    table = Table(title="Disagreements (one row per kind; shrunk case below)")
    for col in ("class", "known id", "kind", "fields / our clause", "games", "first seed", "actions"):
        table.add_column(col, overflow="fold")
    for row in rows:
        f: Finding = row["finding"]
        known: list[KnownDifference] = row["known"]
        cls = ", ".join(sorted({k.classification for k in known})) or "[red]NEW[/red]"
        what = f.clause or ", ".join(f.signature[2]) or "-"
        table.add_row(cls, escape(", ".join(k.id for k in known) or "-"), f.kind, escape(what), str(row["games"]),
                      str(row["first_seed"]), str(len(f.case.actions)))
    console.print(table)


def _print_case(console: Console, f: Finding, known: list[KnownDifference], confirmed: dict[str, str]) -> None:
    from harness.azul.differential import fills, movers
    from model.azul.colours import COLOURS
    from properties.azul.peer import describe

    c = f.case
    label = ", ".join(k.id for k in known) or "NEW"
    console.print(f"\n[bold]{escape(label)}[/bold]: {escape(f.message)}", highlight=False, soft_wrap=True)
    for k in known:
        line = f"  {k.classification}" + (f" [{k.clause}]" if k.clause else "") + ": " + " ".join(k.reason.split())
        if k.interpretation:
            line += f" -- ours under {k.interpretation[0]}={k.interpretation[1]}: {confirmed.get(k.id, '?')}"
        console.print(escape(line), highlight=False, soft_wrap=True)
    console.print(f"  {c.players} players, P{c.first + 1} starts; {len(c.draws)} draws; "
                  f"{len(c.actions)} action(s)" + (f" then probe {c.probe!r}" if c.probe else ""),
                  highlight=False, markup=False)
    who = movers(c)
    fill_at = dict(fills(c))
    for i in range(len(c.actions) + 1):
        if i in fill_at:
            console.print("  factories: " + " | ".join(
                f"F{n + 1} " + " ".join(COLOURS[col] for col in range(len(f_)) for _ in range(f_[col]))
                for n, f_ in enumerate(fill_at[i]) if any(f_)), highlight=False, markup=False, soft_wrap=True)
        if i < len(c.actions):
            mover = f"P{who[i] + 1}" if i < len(who) else "?"
            console.print(f"  {i + 1:>3}. {mover} {c.actions[i]}", highlight=False, markup=False)
    for path, ours, peer in f.fields:
        console.print(f"  {path}:\n      ours: {describe(path, ours)}\n      peer: {describe(path, peer)}",
                      highlight=False, markup=False, soft_wrap=True)
    console.print("  replay: " + json.dumps(c.to_json(), separators=(",", ":")), highlight=False, markup=False,
                  soft_wrap=True)


def _to_json(run: Any, seed: int, counts: tuple[int, ...], workarounds: tuple[str, ...],
             overrides: dict[str, str], rows: list[dict[str, Any]]) -> dict[str, Any]:
    from properties.azul.peer import PEER_NAME

    return {
        "peer": PEER_NAME, "seed": seed, "policy": run.policy, "players": list(counts), "workarounds": list(workarounds),
        "interpretations": overrides, "games": run.games, "actions_compared": run.steps,
        "seconds": round(run.seconds, 2), "timed_out": run.timed_out,
        "agreed_games": sum(r.finding is None for r in run.results),
        "findings": [{
            "kind": row["finding"].kind, "clause": row["finding"].clause, "message": row["finding"].message,
            "fields": [{"path": p, "ours": repr(a), "peer": repr(b)} for p, a, b in row["finding"].fields],
            "games": row["games"], "first_seed": row["first_seed"],
            "known": [k.id for k in row["known"]],
            "classification": sorted({k.classification for k in row["known"]}) or ["new"],
            "confirmed_interpretations": row["confirmed"], "case": row["finding"].case.to_json(),
        } for row in rows],
    }


def _replay(console: Console, path: Path, workarounds: tuple[str, ...], known: list[KnownDifference],
            overrides: dict[str, str] | None = None) -> int:
    from harness.azul.differential import Case, CaseInvalid, classify, confirm_interpretation, replay, witness_case

    if path.suffix == ".toml":
        case = witness_case(path, overrides or None)
    else:
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, json.JSONDecodeError) as exc:
            raise UserError(f"{path}: {exc}") from None
        if isinstance(data, dict) and "findings" in data:
            if not data["findings"]:
                raise UserError(f"{path}: no findings to replay")
            data = data["findings"][0]["case"]
        case = Case.from_json(data, str(path))
    try:
        f = replay(case, workarounds)
    except CaseInvalid as exc:
        raise UserError(f"{path}: the case does not replay in our model: {exc}") from None
    if f is None:
        console.print(f"{path}: both engines agree on all {len(case.actions)} action(s)", highlight=False,
                      markup=False)
        return 0
    matches = classify(f, known)
    _print_case(console, f, matches, {k.id: confirm_interpretation(f, k, workarounds)
                                      for k in matches if k.interpretation})
    return 0 if matches else 1
