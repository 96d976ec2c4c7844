"""A search run: goals from what the designer asked (`--decide`, `--clause`, `--where`, `--all`),
checked before any work; one exploration per ruleset (the defaults for clauses and conditions, each
alternative with the default as its shadow for `--decide`); every find shrunk."""

from __future__ import annotations

import contextlib
import re
from collections.abc import Callable, Collection, Iterator, Sequence
from concurrent.futures import Executor
from pathlib import Path
from typing import Any

import attrs

from model.errors import UserError
from properties.registry import GameEntry, get_game
from properties.search.chance import ChanceRecord
from properties.search.engine import Budget, Explored, Explorer, Found
from properties.search.goals import ClauseGoal, DecideGoal, Goal, WhereGoal
from properties.search.hooks import DEFAULT_SEARCH_HOOKS, SearchHooks
from properties.search.replay import Setup, Shrunk, goal_overrides, shrink
from properties.search.view import VIEW_NAMES, check_expression


def hooks_of(entry: GameEntry) -> SearchHooks:
    return entry.load("search") if entry.has("search") else DEFAULT_SEARCH_HOOKS


def interpretations(game: str) -> dict[str, tuple[str, tuple[str, ...]]]:
    """interpretation id -> (default, the alternatives the model runs), spec order."""
    from spec import default_catalogue

    implemented = get_game(game).load("implemented")
    return {i.id: (i.default, tuple(implemented.get(i.id, ()))) for i in default_catalogue(game).interpretations
            if implemented.get(i.id)}


def model_site_clauses(entry: GameEntry) -> tuple[str, ...]:
    """The clauses cited at a site of the game's model package (its `cite("...")` literals)."""
    from spec import default_catalogue

    package = entry.new_game.partition(":")[0].rsplit(".", 1)[0]
    folder = Path(__file__).resolve().parents[2].joinpath(*package.split("."))
    known = {c.id for c in default_catalogue(entry.name).clauses}
    found: set[str] = set()
    for path in sorted(folder.rglob("*.py")):
        found |= set(re.findall(r"""\bcite\(\s*["']([a-z0-9.\-]+)["']""", path.read_text()))
    return tuple(sorted(found & known))


def context_of(hooks: SearchHooks, key: str) -> dict[str, str]:
    """The context a goal needs ("ID=ALT" or a clause id): its own entry, else its chapter's."""
    if key in hooks.contexts:
        return dict(hooks.contexts[key])
    parts = key.split(".")
    for n in range(len(parts) - 1, 1, -1):
        if ".".join(parts[:n]) in hooks.contexts:
            return dict(hooks.contexts[".".join(parts[:n])])
    return {}


def decide_goal(game: str, text: str, hooks: SearchHooks) -> DecideGoal:
    from spec.suggest import did_you_mean

    if "=" not in text:
        raise UserError(f"--decide {text!r}: expected ID=ALTERNATIVE")
    interp, _, alt = (part.strip() for part in text.partition("="))
    points = interpretations(game)
    if interp not in points:
        raise UserError(f"--decide: unknown interpretation point {interp!r}{did_you_mean(interp, points)} "
                        f"(game {game!r})")
    default, alts = points[interp]
    if alt not in alts:
        raise UserError(f"--decide: {interp} has no alternative {alt!r}{did_you_mean(alt, alts)} "
                        f"(alternatives: {', '.join(alts)})")
    if alt == default:
        others = ", ".join(a for a in alts if a != default)
        raise UserError(f"--decide: {interp}={alt} is the default; name another alternative ({others})")
    return DecideGoal(interp, alt, default, context_of(hooks, f"{interp}={alt}"))


def clause_goal(entry: GameEntry, clause: str, hooks: SearchHooks) -> ClauseGoal:
    from spec.suggest import did_you_mean

    sites = model_site_clauses(entry)
    if clause not in sites:
        from spec import default_catalogue
        known = {c.id for c in default_catalogue(entry.name).clauses}
        why = "has no model site (nothing in the model cites it)" if clause in known else "is no clause"
        raise UserError(f"--clause: {clause!r} {why} in game {entry.name!r}{did_you_mean(clause, sites)}")
    return ClauseGoal(clause, context_of(hooks, clause))


def where_goal(text: str, hooks: SearchHooks, game: Any) -> WhereGoal:
    """A named predicate (NAME or NAME:N), else an expression checked against the view's names."""
    name, _, arg = text.partition(":")
    if name in hooks.predicates:
        predicate = hooks.predicates[name]
        if arg:
            if predicate.argument is None:
                raise UserError(f"--where {text!r}: {name} takes no argument")
            if not arg.strip().isdigit():
                raise UserError(f"--where {text!r}: the argument after ':' must be a whole number")
            predicate = predicate.argument(int(arg))
        return WhereGoal(text, predicate=predicate)
    names = tuple(VIEW_NAMES) + tuple(hooks.view(game))
    looks_like_name = re.fullmatch(r"[a-z][a-z0-9-]*(:\d+)?", text) and "-" in text
    if looks_like_name:
        from spec.suggest import did_you_mean
        raise UserError(f"--where: no predicate named {name!r}{did_you_mean(name, hooks.predicates)} "
                        f"(named: {', '.join(sorted(hooks.predicates))})")
    return WhereGoal(text, code=check_expression(text, names))


@attrs.frozen
class Witness:
    goal: Goal
    found: Found
    shrunk: Shrunk
    covers: tuple[str, ...] = ()                   # the clauses its replay fires
    also: tuple[Goal, ...] = ()                    # other goals this witness answers (clauses it fires)
    cpu_seconds: float = 0.0                       # CPU seconds to find and shrink it


@attrs.define
class SearchResult:
    game: str
    players: int | None
    witnesses: list[Witness]
    missing: list[Goal]
    explored: list[tuple[str, Explored]]           # (ruleset label, what its exploration looked at)
    cpu_seconds: float = 0.0
    interrupted: bool = False
    unreachable: list[tuple[Goal, str]] = attrs.field(factory=list)   # (goal, why), not searched


def witness_of(setup: Setup, goal: Goal, actions: Sequence[str], record: ChanceRecord) -> Witness:
    """A game met outside a search (a game's own explorer run on its own), shrunk and with its fired
    clauses, as a search's witness: `harness.search_commands.write_witnesses` writes it the same way."""
    shrunk = shrink(setup, goal, tuple(actions), record)
    return Witness(goal, Found(goal, tuple(actions), record, len(actions), 0.0), shrunk,
                   fired_clauses(setup, goal, shrunk))


def shown_unreachable(hooks: SearchHooks, goal: Goal, players: int | None = None) -> str | None:
    """Why no game reaches `goal` (the game's `SearchHooks.unreachable`, by goal key, or by
    "KEY @Np" for one player count only), or None."""
    if players is not None and (why := hooks.unreachable.get(f"{goal.key} @{players}p")):
        return why
    return hooks.unreachable.get(goal.key)


def groups(goals: Sequence[Goal], own: Collection[str] = ()) -> list[tuple[str, dict[str, str], dict[str, str] | None,
                                                                        list[Goal]]]:
    """(label, overrides, shadow overrides, goals) per exploration: clauses and conditions under the
    defaults together, each `--decide` alternative alone, and each goal whose key is in `own` (the
    game's own explorer answers it: `SearchHooks.explorers`) alone, so that explorer spends its own
    share of the budget and never the share of the goals searched beside it."""
    out: list[tuple[str, dict[str, str], dict[str, str] | None, list[Goal]]] = []
    contexts: dict[tuple[tuple[str, str], ...], list[Goal]] = {}
    alone = [g for g in goals if g.key in own and not isinstance(g, DecideGoal)]
    for g in goals:
        if not isinstance(g, DecideGoal) and g not in alone:
            contexts.setdefault(getattr(g, "context", ()), []).append(g)
    for context, plain in sorted(contexts.items()):
        label = "defaults" + ("" if not context else " [" + ", ".join(f"{k}={v}" for k, v in context) + "]")
        out.append((label, dict(context), None, plain))
    out += [(f"{g.key} (its own explorer)", dict(getattr(g, "context", ())), None, [g]) for g in alone]
    for g in goals:
        if isinstance(g, DecideGoal):
            out.append((g.key, g.overrides, g.default_overrides, [g]))
    return out


PASSES = 3          # a goal not found in its first share of the budget gets up to this many tries


def progress_line(label: str, explored: Explored, found: int) -> str:
    e = explored
    return (f"  ... {label}: {e.nodes:,} nodes, {e.positions:,} positions, deepest round {e.deepest_round}, "
            f"{found} goal(s) found, {e.cpu_seconds:.0f} CPU s")


def _to_stderr(label: str, explored: Explored, found: int) -> None:
    import sys
    print(progress_line(label, explored, found), file=sys.stderr, flush=True)


def explore_group(game: str, players: int | None, label: str, overrides: dict[str, str],
                  shadow: dict[str, str] | None, goals: list[Goal], seed: int, cpu_seconds: float,
                  nodes: int, progress: bool = False) -> tuple[list[Witness], Explored, list[Goal]]:
    """One exploration and the shrinking of what it found (a worker's unit for `--jobs`); with
    `progress`, a line on stderr every `PROGRESS_EVERY` nodes."""
    import functools
    import time

    started = time.process_time()
    entry = get_game(game)
    setup = Setup(entry, hooks_of(entry), players)
    budget = Budget(cpu_seconds, nodes)
    try:
        own = _own_explorers(setup, goals, seed, budget)
    except KeyboardInterrupt:               # Ctrl-C inside a game's own explorer: keep what was found
        explored = Explored(nodes=budget.used, cpu_seconds=time.process_time() - started, interrupted=True)
        return [], explored, list(goals)
    explorer = Explorer(setup, [g for g in goals if g not in {f.goal for f in own}], seed, budget, overrides=overrides,
                        shadow_overrides=shadow, progress=functools.partial(_to_stderr, label) if progress else None)
    found, explored = explorer.run()
    found = own + found
    explored.nodes = budget.used
    rarity = {f.goal: explorer.seen[("c", f.goal.clause)] if isinstance(f.goal, ClauseGoal) else -1 for f in found}
    covered: dict[str, int] = {}
    witnesses: list[Witness] = []
    also: dict[int, list[Goal]] = {}
    try:
        for f in sorted(found, key=lambda f: (rarity[f.goal], f.goal.key)):   # rarest clauses first
            if isinstance(f.goal, ClauseGoal) and f.goal.clause in covered:
                also.setdefault(covered[f.goal.clause], []).append(f.goal)
                continue
            before = time.process_time()
            shrunk = shrink(setup, f.goal, f.actions, f.record)
            fired = fired_clauses(setup, f.goal, shrunk)
            witnesses.append(Witness(f.goal, f, shrunk, fired,
                                     cpu_seconds=f.cpu_seconds + time.process_time() - before))
            if isinstance(f.goal, ClauseGoal):
                for clause in fired:
                    covered.setdefault(clause, len(witnesses) - 1)
    except KeyboardInterrupt:
        explored.interrupted = True
    witnesses = [attrs.evolve(w, also=tuple(also.get(n, ()))) for n, w in enumerate(witnesses)]
    explored.cpu_seconds = time.process_time() - started
    answered = {w.goal for w in witnesses} | {g for w in witnesses for g in w.also}
    return witnesses, explored, [g for g in goals if g not in answered]


def _own_explorers(setup: Setup, goals: Sequence[Goal], seed: int, budget: Budget) -> list[Found]:
    """The games the game's own explorers (`SearchHooks.explorers`) find for their goals within the
    budget's nodes (what they play is spent from it), each kept only when its replay meets the goal.
    An own explorer is bounded by nodes and its own documented caps; the CPU budget is looked at only
    before it starts (`groups` gives it an exploration of its own, so it spends no other goal's share)."""
    from properties.search.replay import met_at

    out = []
    for goal in goals:
        explore = setup.hooks.explorers.get(goal.key)
        if explore is None or not budget.left():
            continue
        game, used = explore(seed, budget.nodes - budget.used)
        budget.used += used
        if game is not None and met_at(setup, goal, list(game[0]), game[1]) is not None:
            out.append(Found(goal, tuple(game[0]), game[1], budget.used, budget.spent()))
    return out


def search(game: str, goals: Sequence[Goal], *, players: int | None = None, seed: int = 0,
           cpu_seconds: float = 60.0, nodes: int = 10**9, jobs: int = 1,
           progress: Callable[[str, Explored, int], None] | None = None) -> SearchResult:
    """Explore for every goal within the budget, shrink what was found. The budget is shared out in
    passes: each exploration still wanting something gets an equal share of what is left (shares are
    fixed before a pass starts, so `--jobs` changes nothing but the wall time). Ctrl-C stops and keeps
    (and shrinks) what was found. A goal the game's hooks show unreachable is not searched: it is
    answered by its reason (`result.unreachable`)."""
    with _workers(jobs) as pool:           # one pool for every pass: its workers stay warm
        return _search(game, goals, players, seed, cpu_seconds, nodes, pool, progress)


def _search(game: str, goals: Sequence[Goal], players: int | None, seed: int, cpu_seconds: float, nodes: int,
            pool: Executor | None, progress: Callable[[str, Explored, int], None] | None) -> SearchResult:
    result = SearchResult(game, players, [], [], [])
    hooks = hooks_of(get_game(game))
    seats = players if players is not None else get_game(game).players[0]     # None: the game's first count
    result.unreachable = [(g, why) for g in goals if (why := shown_unreachable(hooks, g, seats)) is not None]
    todo = groups([g for g in goals if shown_unreachable(hooks, g, seats) is None], own=hooks.explorers)
    spent_cpu = 0.0
    spent_nodes = 0
    for attempt in range(PASSES):
        if not todo:
            break
        share_cpu = max(0.0, cpu_seconds - spent_cpu) / len(todo) * (1.0 if attempt == PASSES - 1 else 0.5)
        share_nodes = max(0, nodes - spent_nodes) // len(todo) // (1 if attempt == PASSES - 1 else 2)
        if share_nodes <= 0 or share_cpu <= 0:
            break
        args = [(game, players, label, overrides, shadow, wanted, seed * 1000 + k * 10 + attempt, share_cpu,
                 share_nodes, progress is not None) for k, (label, overrides, shadow, wanted) in enumerate(todo)]
        outcomes = _map(args, pool)
        still = [group for group in todo[len(outcomes):]]      # not run: Ctrl-C stopped the pass before them
        for (label, overrides, shadow, _), (witnesses, explored, pending) in zip(todo, outcomes, strict=False):
            result.witnesses += witnesses
            result.explored.append((f"{label} (pass {attempt + 1})", explored))
            spent_cpu += explored.cpu_seconds
            spent_nodes += explored.nodes
            if progress is not None:
                progress(label, explored, len(witnesses))
            if explored.interrupted:
                result.interrupted = True
            if pending:
                still.append((label, overrides, shadow, pending))
        todo = still
        if result.interrupted:
            break
    result.missing = [g for _, _, _, rest in todo for g in rest]
    result.cpu_seconds = spent_cpu
    return result


def _map(args: list[tuple[Any, ...]], pool: Executor | None) -> list[tuple[list[Witness], Explored, list[Goal]]]:
    if pool is None or len(args) <= 1:
        out = []
        for a in args:
            out.append(explore_group(*a))
            if out[-1][1].interrupted:
                break
        return out
    return list(pool.map(explore_group, *zip(*args, strict=True)))


@contextlib.contextmanager
def _workers(jobs: int) -> Iterator[Executor | None]:
    """`jobs` worker processes for the explorations (None for one job: they run in this process).
    With another thread running (`azul-rules verify` searches inside a stage whose status line has
    one) the workers come from a fork server that has this module loaded: a process forked while a
    thread holds a lock (the console's, stdout's, an import's) inherits it held. Alone, the caller
    forks them."""
    if jobs <= 1:
        yield None
        return
    import multiprocessing
    import threading
    from concurrent.futures import ProcessPoolExecutor

    context = multiprocessing.get_context("fork" if threading.active_count() == 1 else "forkserver")
    if context.get_start_method() == "forkserver":
        context.set_forkserver_preload([__name__])
    with ProcessPoolExecutor(max_workers=jobs, mp_context=context) as pool:
        yield pool


def fired_clauses(setup: Setup, goal: Goal, shrunk: Shrunk) -> tuple[str, ...]:
    """The clauses the witness's replay fires (set-up included), for its file's `clauses`."""
    from model.clauses import RECORDER, recording
    from properties.search.replay import script_of

    fired: set[str] = set()
    with recording():
        game = setup.start(goal_overrides(goal), script_of(shrunk.record, setup.seed, not isinstance(goal, DecideGoal)))
        fired |= set(RECORDER.clauses)
        for text in shrunk.actions:
            action = next(a for a in game.legal_actions() if str(a) == text)
            game.apply(action)
            if game.is_over:
                game.outcome()
            fired |= set(RECORDER.clauses)
    return tuple(sorted(fired))


def all_goals(entry: GameEntry, hooks: SearchHooks) -> list[Goal]:
    """One goal per non-default alternative of every interpretation point, one per model-site clause."""
    goals: list[Goal] = []
    for interp, (default, alts) in interpretations(entry.name).items():
        for alt in alts:
            if alt != default:
                goals.append(DecideGoal(interp, alt, default, context_of(hooks, f"{interp}={alt}")))
    goals += [ClauseGoal(c, context_of(hooks, c)) for c in model_site_clauses(entry)]
    return goals
