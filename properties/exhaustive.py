"""Bounded exhaustive checking: every continuation of a position to a depth, both players' choices
and (where asked) every chance outcome, deduplicated by the game's canonical fingerprint, with the
game's invariants checked at every position (TLC's breadth-first search; chess's perft counts).

`explore(game, depth, checks=Checks(...))` walks breadth-first, one depth at a time, so the first
violation found is one of the shallowest: its trace is a shortest counterexample. Per depth it counts

  nodes      the children generated: every (distinct position at depth-1, action, chance outcome)
  distinct   the children whose position was seen at no shallower depth and not yet at this one
  paths      the action sequences of this length (chess perft), carried as multiplicities through
             the deduplicated positions; exact while no position recurs at a deeper depth

Chance. `chance=False`: each step's draws come from a generator seeded from the position (its
fingerprint's digest) and the action (`PositionChance`), so one position has one future and deduplication stays sound.
`chance=True`: every distinct outcome of every draw is a branch (`ChoiceChance`: each colour the bag
holds, each chip of the supply, each first player, each plate for each place of the pile), found by
re-running the step with the next script of choices until the tree of choices is exhausted; each
complete run is one child. A step with more runs than `max_chance_runs` stops the search (said in
the verdict). The root position itself is never re-drawn (the set-up's draws are the game's seed).

Cost. A position is kept as its state object only while its depth is the frontier (two depths at
most) and the last depth is never kept; every position ever seen costs one 16-byte digest of its
fingerprint in a set (blake2b: a collision among 10^7 positions has probability ~1e-24), and one
that is expanded also a parent pointer (two array slots) for the trace: about 100-150 bytes a
position, so memory is bounded by `max_positions` and, for the states, `max_frontier`. Each child
costs one `state.copy()` (the game's own hand-written copy) and one `apply`; `copy_mode="deepcopy"`
runs the same search with `copy.deepcopy(game)` at every node instead (the naive baseline of
`perft --naive`), `copy_mode="game"` with the game's own `copy()` (state and forked chance).
Budgets: `max_nodes` and `max_cpu_seconds` (process CPU time) stop the search cleanly, as does
Ctrl-C; the depth it stopped in is reported as `partial`.

Shared machinery: nothing here names a game; games come through the registry (`checks_for`).
"""

from __future__ import annotations

import copy
import functools
import hashlib
import random
import time
from array import array
from collections.abc import Callable, Sequence
from typing import Any

import attrs

from model.chance import SeededChance
from model.errors import RuleLoopError
from properties.chance import RecordingChance

Violation = tuple[str, str, str]          # (invariant name, clause id, message)
Fingerprint = Callable[[Any], bytes]


# --- chance ----------------------------------------------------------------------------------------
class PositionChance(SeededChance):
    """One outcome per draw, from a generator seeded by `key` (the position and the action): the same
    position and action always draw the same. The draws are SeededChance's; only the generator
    differs: it is made on the first draw only (most steps draw nothing)."""

    def __init__(self, key: bytes) -> None:          # no SeededChance.__init__: no generator yet
        self.key = key
        self._made: random.Random | None = None

    @property
    def _rng(self) -> random.Random:  # type: ignore[override]  # made on first use, not in __init__
        if self._made is None:
            self._made = random.Random(int.from_bytes(hashlib.blake2b(self.key, digest_size=8).digest(), "big"))
        return self._made

    def fork(self) -> PositionChance:
        twin = PositionChance(self.key)
        if self._made is not None:
            twin._made = random.Random()
            twin._made.setstate(self._made.getstate())
        return twin


class ChoiceChance:
    """Every draw is a choice among its distinct outcomes: the `script`'s index while it lasts, then
    the first outcome. `made` and `arity` record every choice and how many there were, so the caller
    can move to the next script (`next_script`) until every combination has run."""

    def __init__(self, script: Sequence[int] = ()) -> None:
        self.script = tuple(script)
        self.made: list[int] = []
        self.arity: list[int] = []

    def _choose(self, options: Sequence[Any]) -> Any:
        if not options:
            raise ValueError("a draw with nothing to draw")
        i = len(self.made)
        k = self.script[i] if i < len(self.script) else 0
        self.made.append(k)
        self.arity.append(len(options))
        return options[k]

    def first_player(self, players: int = 2) -> int:
        return int(self._choose(range(players)))

    def shuffle_plates(self, plates: Sequence[int]) -> list[int]:
        left, out = sorted(plates), []
        while left:
            out.append(left.pop(left.index(self._choose(left))))
        return out

    def draw_tile(self, bag: Sequence[int]) -> int:
        return int(self._choose([c for c, n in enumerate(bag) if n]))

    def draw_chip(self, supply: Sequence[int]) -> int:
        return int(self._choose(sorted(set(supply))))

    def fork(self) -> ChoiceChance:
        twin = ChoiceChance(self.script)
        twin.made, twin.arity = self.made[:], self.arity[:]
        return twin

    def next_script(self) -> tuple[int, ...] | None:
        """The script of the next run in depth-first order, or None when every combination has run."""
        for i in range(len(self.made) - 1, -1, -1):
            if self.made[i] + 1 < self.arity[i]:
                return (*self.made[:i], self.made[i] + 1)
        return None


# --- what is checked ---------------------------------------------------------------------------------
@attrs.frozen
class Checks:
    """A game's fingerprint and the invariants checked at every position (state) and edge (step)."""

    fingerprint: Fingerprint
    invariants: Callable[[Any], list[Violation]] | None = None
    step_invariants: Callable[..., list[Violation]] | None = None


def checks_for(entry: Any, *, steps: bool = True, physical_only: bool = False) -> Checks:
    """The registry entry's fingerprint, state invariants and (with `steps`) step invariants.
    `physical_only`: only the state invariants a hand-built position (a scenario's `given`) must
    keep (the games' `invariants(game, physical_only=True)`), not the bookkeeping of a whole game."""
    invariants = entry.load("invariants") if entry.has("invariants") else None
    if invariants is not None and physical_only:
        invariants = functools.partial(invariants, physical_only=True)
    return Checks(fingerprint=entry.load("fingerprint"), invariants=invariants,
                  step_invariants=entry.load("step_invariants") if steps and entry.has("step_invariants") else None)


# --- results -------------------------------------------------------------------------------------------
@attrs.frozen
class Level:
    depth: int
    nodes: int          # children generated at this depth (the root: 1)
    distinct: int       # new positions at this depth
    paths: int          # action sequences of this length (perft)


@attrs.frozen
class TraceStep:
    action: str
    draws: dict[str, Any]        # the chance outcomes of the step, in scenario form (empty: none)


@attrs.frozen
class Counterexample:
    depth: int
    violation: Violation
    steps: tuple[TraceStep, ...]


@attrs.define
class Exploration:
    depth: int                                   # the depth asked for
    chance: bool
    levels: list[Level] = attrs.field(factory=list)
    counterexample: Counterexample | None = None
    stopped: str = ""                            # why the search ended early ("" = complete)
    partial: Level | None = None                 # what the depth it stopped in had counted
    revisits: int = 0                            # children whose position was seen at a shallower depth
    chance_runs_abandoned: int = 0               # chance branches the rules gave up on (RuleLoopError)
    chance_steps: int = 0                        # steps whose draws branched (more than one outcome)
    cpu_seconds: float = 0.0

    @property
    def nodes(self) -> int:
        """Children generated, the depth it stopped in included."""
        return sum(level.nodes for level in self.levels) + (self.partial.nodes if self.partial else 0)

    @property
    def positions(self) -> int:
        """Distinct positions checked, the depth it stopped in included."""
        return sum(level.distinct for level in self.levels) + (self.partial.distinct if self.partial else 0)

    @property
    def complete(self) -> bool:
        return not self.stopped and self.counterexample is None

    @property
    def paths_exact(self) -> bool:
        return self.revisits == 0

    @property
    def nodes_per_cpu_second(self) -> float:
        return self.nodes / self.cpu_seconds if self.cpu_seconds > 0 else 0.0

    def verdict(self) -> str:
        reached = self.levels[-1].depth if self.levels else 0
        if self.counterexample is not None:
            name, clause, message = self.counterexample.violation
            return (f"VIOLATED {name} [{clause}] at depth {self.counterexample.depth}: {message} "
                    f"(shortest trace: {len(self.counterexample.steps)} steps)")
        if self.stopped:
            return (f"no violation in {self.positions:,} positions: all to depth {reached}, depth {reached + 1} "
                    f"in part (incomplete: {self.stopped}; asked depth {self.depth})")
        return f"holds in all {self.positions:,} positions to depth {reached}"

    def to_data(self) -> dict[str, Any]:
        cx = self.counterexample
        return {
            "depth": self.depth, "chance": self.chance, "complete": self.complete, "stopped": self.stopped,
            "levels": [attrs.asdict(level) for level in self.levels],
            "partial": None if self.partial is None else attrs.asdict(self.partial),
            "nodes": self.nodes, "positions": self.positions, "revisits": self.revisits,
            "paths_exact": self.paths_exact, "chance_runs_abandoned": self.chance_runs_abandoned,
            "chance_steps": self.chance_steps,
            "cpu_seconds": round(self.cpu_seconds, 3), "nodes_per_cpu_second": round(self.nodes_per_cpu_second),
            "verdict": self.verdict(),
            "counterexample": None if cx is None else {
                "depth": cx.depth, "invariant": cx.violation[0], "clause": cx.violation[1],
                "message": cx.violation[2],
                "steps": [{"action": s.action, "draws": s.draws} for s in cx.steps]},
        }


# --- the search ----------------------------------------------------------------------------------------
class _Stop(Exception):
    """A budget ran out (the message says which)."""


@attrs.define
class _Edge:
    """How a child was reached: its parent's id, the action's index in the parent's sorted legal
    actions, and the chance script (None: PositionChance)."""

    parent: int
    index: int
    script: tuple[int, ...] | None


COPY_MODES = ("state", "game", "deepcopy")


def _copy_game(game: Any) -> Any:
    return game.copy()


def _digest(fp: bytes) -> bytes:
    return hashlib.blake2b(fp, digest_size=16).digest()


def explore(game: Any, depth: int, checks: Checks, *, chance: bool = False, max_nodes: int = 10_000_000,
            max_cpu_seconds: float = 3600.0, max_positions: int = 5_000_000, max_frontier: int = 500_000,
            max_chance_runs: int = 4096, copy_mode: str = "state",
            progress: Callable[[Level], None] | None = None) -> Exploration:
    """Every continuation of `game` (left untouched) to `depth` steps: see the module docstring.
    `copy_mode`: "state" (copy the state object into the one game played on: the fast way), "game"
    (a whole `game.copy()` per node: the state and a forked chance) or "deepcopy" (copy.deepcopy of the
    game per node: the naive baseline)."""
    if copy_mode not in COPY_MODES:
        raise ValueError(f"copy_mode must be one of {', '.join(COPY_MODES)}, not {copy_mode!r}")
    fingerprint, invariants, step_invariants = checks.fingerprint, checks.invariants, checks.step_invariants
    naive = copy_mode != "state"
    copy_game: Callable[[Any], Any] = copy.deepcopy if copy_mode == "deepcopy" else _copy_game
    start_cpu = time.process_time()
    result = Exploration(depth=depth, chance=chance)

    root = game.snapshot()                  # the position, never played on
    work = game.copy()                      # the one game every child is played on (fast mode)
    before = game.snapshot()                # the parent, for the step invariants
    root_key = _digest(fingerprint(root))
    seen: set[bytes] = {root_key}
    parents = array("q", [-1])              # per position id: parent id, action index
    indices = array("l", [-1])
    scripts: dict[int, tuple[int, ...]] = {}
    result.levels.append(Level(0, 1, 1, 1))
    if progress:
        progress(result.levels[-1])
    problems = invariants(root) if invariants else []
    if problems:
        result.counterexample = Counterexample(0, problems[0], ())
        result.cpu_seconds = time.process_time() - start_cpu
        return result

    # the frontier: (position id, position (a state, or a whole game when naive), its digest, paths)
    frontier: list[list[Any]] = [[0, root if naive else root.state, root_key, 1]]
    nodes_total = 1

    def trace_of(pid: int, last: _Edge | None) -> tuple[TraceStep, ...]:
        chain: list[_Edge] = [] if last is None else [last]
        while pid > 0:
            chain.append(_Edge(parents[pid], indices[pid], scripts.get(pid)))
            pid = parents[pid]
        return _replay(game, fingerprint, list(reversed(chain)))

    try:
        for d in range(1, depth + 1):
            last_depth = d == depth
            nodes = distinct = paths = 0
            layer: dict[bytes, int] = {}            # this depth's digests -> index in `following`
            ends: set[bytes] = set()                # the last depth's digests (never expanded)
            following: list[list[Any]] = []
            for pid, position, parent_key, mult in frontier:
                if naive:
                    parent_game = position
                else:
                    work.state = position
                    parent_game = work
                if parent_game.is_over:
                    continue
                actions = parent_game.legal_actions()
                if step_invariants:
                    before.state = position.state if naive else position
                for index, action in enumerate(actions):
                    script: tuple[int, ...] | None = ()           # the first run (the only one without chance)
                    akey = str(action).encode("utf-8")
                    runs = 0
                    while script is not None:
                        runs += 1
                        if runs > max_chance_runs:
                            raise _Stop(f"a step has more than {max_chance_runs:,} chance outcomes (max_chance_runs)")
                        if naive:
                            child = copy_game(position)
                        else:
                            child = work
                            child.state = position.copy()
                        draws: Any = ChoiceChance(script) if chance else PositionChance(parent_key + akey)
                        child.chance = draws
                        this_script = script if chance else None
                        try:
                            events = child.apply(action)
                        except RuleLoopError:
                            result.chance_runs_abandoned += 1
                            events = None
                        except Exception as exc:  # noqa: BLE001 -- a crash of the rules is a counterexample too
                            result.counterexample = Counterexample(
                                d, ("no-crash", "", f"{type(exc).__name__}: {exc}"),
                                trace_of(pid, _Edge(pid, index, this_script)))
                            raise _Stop("") from None
                        script = draws.next_script() if chance else None
                        if runs == 1 and script is not None:
                            result.chance_steps += 1
                        if events is None:
                            continue
                        nodes += 1
                        nodes_total += 1
                        paths += mult
                        if step_invariants:
                            problems = step_invariants(before, child, events, d, action, 0)
                            if problems:
                                result.counterexample = Counterexample(
                                    d, problems[0], trace_of(pid, _Edge(pid, index, this_script)))
                                raise _Stop("")
                        key = _digest(fingerprint(child))
                        if last_depth:                 # the last depth: only its keys, in a set
                            if key in ends:
                                continue
                        else:
                            at = layer.get(key)
                            if at is not None:         # reached again at this depth: a transposition
                                following[at][3] += mult
                                continue
                        if key in seen:                # reached at a shallower depth: not expanded again
                            result.revisits += 1
                            continue
                        distinct += 1
                        if invariants:
                            problems = invariants(child)
                            if problems:
                                result.counterexample = Counterexample(
                                    d, problems[0], trace_of(pid, _Edge(pid, index, this_script)))
                                raise _Stop("")
                        if last_depth:
                            ends.add(key)
                        else:
                            new_id = len(parents)
                            parents.append(pid)
                            indices.append(index)
                            if this_script:
                                scripts[new_id] = this_script
                            layer[key] = len(following)
                            following.append([new_id, child if naive else child.state, key, mult])
                            if len(following) > max_frontier:
                                raise _Stop(f"more than {max_frontier:,} positions at depth {d} (max_frontier)")
                        if len(seen) + len(layer) + len(ends) > max_positions:
                            raise _Stop(f"more than {max_positions:,} positions (max_positions)")
                        if nodes_total > max_nodes:
                            raise _Stop(f"{max_nodes:,} nodes (max_nodes)")
                    if nodes & 1023 == 0 and time.process_time() - start_cpu > max_cpu_seconds:
                        raise _Stop(f"{max_cpu_seconds:g} CPU seconds (max_cpu_seconds)")
            if not last_depth:
                seen.update(layer)
            result.levels.append(Level(d, nodes, distinct, paths))
            if progress:
                progress(result.levels[-1])
            frontier = following
            if not frontier:
                break
    except (_Stop, KeyboardInterrupt) as stop:
        result.stopped = stop.args[0] if isinstance(stop, _Stop) else "interrupted (Ctrl-C)"
        result.partial = Level(d, nodes, distinct, paths)
    result.cpu_seconds = time.process_time() - start_cpu
    return result


def _replay(game: Any, fingerprint: Fingerprint, chain: list[_Edge]) -> tuple[TraceStep, ...]:
    """The trace of a chain of edges from `game`'s position: each action and its draws, replayed."""
    g = game.copy()
    out: list[TraceStep] = []
    for edge in chain:
        action = g.legal_actions()[edge.index]
        inner: Any = ChoiceChance(edge.script) if edge.script is not None else \
            PositionChance(_digest(fingerprint(g)) + str(action).encode("utf-8"))
        recorder = RecordingChance(inner)
        g.chance = recorder
        draws: dict[str, Any] = {}
        try:
            g.apply(action)
        except Exception as exc:  # noqa: BLE001 -- the crash the trace ends on, said in its last step
            draws["crash"] = f"{type(exc).__name__}: {exc}"
        if recorder.tiles:
            draws["tiles"] = list(recorder.tiles)
        if recorder.chips:
            draws["chips"] = list(recorder.chips)
        if recorder.plates is not None:
            draws["plates"] = list(recorder.plates)
        if recorder.first is not None:
            draws["first"] = recorder.first
        out.append(TraceStep(str(action), draws))
    return tuple(out)


def explore_game(entry: Any, depth: int, *, players: int | None = None, seed: int = 0,
                 overrides: dict[str, str] | None = None, game: Any = None, steps: bool = True,
                 **options: Any) -> Exploration:
    """`explore` for a registry entry: from `game` if given, else from a new game's set-up."""
    start = game if game is not None else entry.load("new_game")(seed=seed, overrides=overrides, players=players)
    return explore(start, depth, checks_for(entry, steps=steps), **options)


# --- is the fingerprint sound? ---------------------------------------------------------------------------
def fingerprint_blind_spots(game: Any, fingerprint: Fingerprint) -> list[str]:
    """The fields of `game`'s state (walked through attrs, lists and tuples) whose change leaves the
    fingerprint as it was: each int moved by one, each bool flipped, each list one element longer
    and shorter, each string replaced. A sound fingerprint has none: two positions that differ in
    any one field get different keys. (A change the fingerprint refuses to encode, by raising, is
    not blind.) `game` is left as it was."""
    work = game.copy()
    base = fingerprint(work)
    blind: list[str] = []

    def differs() -> bool:
        try:
            return fingerprint(work) != base
        except Exception:  # noqa: BLE001 -- a value the fingerprint refuses to encode cannot collide
            return True

    def visit(holder: Any, name: Any, value: Any, path: str) -> None:
        def put(new: Any) -> None:
            if isinstance(holder, list):
                holder[name] = new
            else:
                object.__setattr__(holder, name, new)

        if isinstance(value, bool):
            changes: list[Any] = [not value]
        elif isinstance(value, int):
            changes = [value + 1]
        elif isinstance(value, str):
            changes = [value + "'"]
        elif isinstance(value, tuple) and all(isinstance(v, int) for v in value):
            changes = [value[:i] + (v + 1,) + value[i + 1:] for i, v in enumerate(value)] + [value + (0,)]
        elif isinstance(value, list):
            for i, item in enumerate(value):
                visit(value, i, item, f"{path}[{i}]")
            changes = []
            if all(isinstance(v, int) and not isinstance(v, bool) for v in value):
                changes = [value + [value[-1] if value else 0]] + ([value[:-1]] if value else [])
        elif attrs.has(type(value)):
            for field in attrs.fields(type(value)):
                visit(value, field.name, getattr(value, field.name), f"{path}.{field.name}")
            changes = []
        else:
            changes = []
        for new in changes:
            put(new)
            if not differs():
                blind.append(f"{path} = {new!r}")
            put(value)

    visit(work, "state", work.state, "state")
    return blind


@attrs.frozen
class SoundnessReport:
    """Positions explored, by fingerprint and by whole-state equality (`repr` of the state: every
    field), and the fingerprints shared by unequal states (`merged`, each with two such states)."""

    by_fingerprint: int
    by_state: int
    merged: tuple[tuple[str, str], ...]


def fingerprint_soundness(starts: Sequence[Any], depth: int, fingerprint: Fingerprint,
                          max_nodes: int = 200_000) -> SoundnessReport:
    """Explore from each start to `depth`, deduplicating by `fingerprint`, and check every child
    against whole-state equality: a fingerprint that merges two unequal states (it drops something
    that decides the future) is caught where the search meets both."""
    kept: dict[bytes, str] = {}
    states: set[str] = set()
    merged: list[tuple[str, str]] = []

    def watched(game: Any) -> bytes:
        fp = fingerprint(game)
        text = repr(game.state)
        states.add(text)
        held = kept.setdefault(fp, text)
        if held != text and len(merged) < 10:
            merged.append((held, text))
        return fp

    for start in starts:
        watched(start)
        explore(start, depth, Checks(fingerprint=watched), max_nodes=max_nodes)
    return SoundnessReport(len(kept), len(states), tuple(merged))
