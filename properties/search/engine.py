"""The coverage-guided search (AFL / Go-Explore style): play from set-up choosing for every player
and for chance, keep an archive of positions that reached something rare (a clause, an
interpretation alternative deciding, a phase edge, a (round, phase) cell, a closer distance to the
goal), and branch from them; when the goal has a distance, half the branches start from one
round's closest position (the best of each round, not only the closest of all, which is often a
dead end). Positions are kept as `game.copy()` only when they reached something
new; a rollout plays one game object forward.

Bounded by CPU seconds (`time.process_time`) and nodes (actions played); the same seed gives the
same games. KeyboardInterrupt stops the search and keeps what was found."""

from __future__ import annotations

import hashlib
import math
import pickle
import random
import time
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import attrs

from model.chance import ChanceScriptError
from model.clauses import RECORDER, recording
from model.errors import IllegalAction
from model.protocol import Game
from properties.search.chance import (
    TILE_STYLES,
    FollowingChance,
    RecordExhausted,
    SearchChance,
)
from properties.search.goals import ClauseGoal, DecideGoal, Goal, WhereGoal
from properties.search.replay import Setup, _player_of, divergence, outcome_of
from properties.search.view import step_view

ROLLOUT_STEPS = 80            # actions per branch before the search picks another cell
FRESH_START = 0.15            # how often a branch starts from a new set-up rather than the archive
KEEP_PER_CELL = 3             # snapshots kept per archive cell
STYLE_KEPT = 0.75             # how often a branch keeps its snapshot's chance style
PROGRESS_EVERY = 20_000       # nodes between progress lines
AHEAD_SHARE = 0.6             # branches that look one step ahead toward a goal's distance, when it has one
AHEAD_TRIES = 10              # legal actions such a branch tries ahead at a step (a sample, for speed)
AHEAD_NOISE = 0.1             # steps of such a branch played as any other branch plays
ROUND_BEST_SHARE = 0.5        # branches, when a goal has a distance, from one round's closest position


@attrs.define
class Found:
    """A game that met a goal: its actions (scenario notation), chance record, and the effort."""

    goal: Goal
    actions: tuple[str, ...]
    record: Any                     # ChanceRecord
    nodes: int                      # nodes the search had played when it found it
    cpu_seconds: float              # CPU seconds of the search spent until then


@attrs.define
class Explored:
    """What one search looked at (also the answer when nothing was found)."""

    nodes: int = 0
    positions: int = 0              # distinct positions (by a digest of the table)
    deepest_round: int = 0
    cpu_seconds: float = 0.0
    interrupted: bool = False
    cells: int = 0


@attrs.define
class _Entry:
    game: Any                       # a Game whose chance is a SearchChance
    shadow: Any                     # the default's Game on a FollowingChance, or None
    actions: tuple[str, ...]
    chosen: int = 0


class Budget:
    """CPU seconds and nodes, shared by every part of a search run."""

    def __init__(self, cpu_seconds: float, nodes: int) -> None:
        self.start = time.process_time()
        self.cpu_seconds = cpu_seconds
        self.nodes = nodes
        self.used = 0

    def spent(self) -> float:
        return time.process_time() - self.start

    def left(self) -> bool:
        return self.used < self.nodes and self.spent() < self.cpu_seconds


def _digest(game: Game) -> bytes:
    return hashlib.blake2b(pickle.dumps(game.state, protocol=5), digest_size=8).digest()


class Explorer:
    """One search under one ruleset (and, for `--decide`, a shadow game under the default)."""

    def __init__(self, setup: Setup, goals: Sequence[Goal], seed: int, budget: Budget, *,
                 overrides: Mapping[str, str], shadow_overrides: Mapping[str, str] | None = None,
                 progress: Callable[[Explored, int], None] | None = None,
                 node_limit: int | None = None, cpu_limit: float | None = None,
                 on_found: Callable[[Found], None] | None = None) -> None:
        self.setup = setup
        self.pending: list[Goal] = list(goals)
        self.rng = random.Random(seed)
        self.budget = budget
        self.overrides = dict(overrides)
        self.shadow_overrides = None if shadow_overrides is None else dict(shadow_overrides)
        self.progress = progress
        self.on_found = on_found
        self.node_limit = node_limit
        self.cpu_limit = cpu_limit
        self.found: list[Found] = []
        self.explored = Explored()
        self.archive: dict[Any, list[_Entry]] = {}
        self.seen: Counter[Any] = Counter()
        self.chosen: Counter[Any] = Counter()
        self.positions: set[bytes] = set()
        self.best_distance: float = math.inf
        # per round, the position closest to a goal by its distance (Go-Explore's best per cell): the
        # closest of all is often a dead end, the closest of each round keeps other ways open
        self.round_best: dict[int, tuple[float, _Entry]] = {}
        self.where: list[WhereGoal] = [g for g in goals if isinstance(g, WhereGoal)]
        self.clause_goals = {g.clause: g for g in goals if isinstance(g, ClauseGoal)}
        self.decide = [g for g in goals if isinstance(g, DecideGoal)]
        hooks = setup.hooks
        # the steers of the goals, each once (decide goals first, then clauses by id), and which
        # goals each distance serves (steer k, condition -1-k): once they are all found, the distance
        # is retired, so branches no longer start from or steer toward an answered question
        steered: list[Goal] = [*self.decide, *(self.clause_goals[c] for c in sorted(self.clause_goals))]
        steer_of = {g: hooks.steer.get(g.key.split(" ", 1)[1]) for g in steered}
        names = [n for n in dict.fromkeys(steer_of.values()) if n is not None and n in hooks.predicates]
        self.steers = [hooks.predicates[name] for name in names]
        self._serves: dict[int, set[Goal]] = {k: {g for g, n in steer_of.items() if n == name}
                                              for k, name in enumerate(names)}
        self._serves.update({-1 - k: {w} for k, w in enumerate(self.where)})
        self.retired: set[int] = set()
        self.distances: list[Callable[[Mapping[str, Any]], float | None]] = []
        self._live_distances()
        self._nodes0 = budget.used
        self._cpu0 = budget.spent()
        self._next_report = PROGRESS_EVERY

    # --- budget ---------------------------------------------------------------------------
    def _left(self) -> bool:
        if not self.budget.left() or not self.pending:
            return False
        if self.node_limit is not None and self.budget.used - self._nodes0 >= self.node_limit:
            return False
        return self.cpu_limit is None or self.budget.spent() - self._cpu0 < self.cpu_limit

    def run(self) -> tuple[list[Found], Explored]:
        try:
            with recording():
                while self._left():
                    entry = self._pick()
                    self._branch(entry)
        except KeyboardInterrupt:
            self.explored.interrupted = True
        self.explored.positions = len(self.positions)
        self.explored.cpu_seconds = self.budget.spent() - self._cpu0
        self.explored.cells = len(self.archive)
        return self.found, self.explored

    # --- choosing where to go on ----------------------------------------------------------
    def _pick(self) -> _Entry:
        if not self.archive or self.rng.random() < FRESH_START:
            return self._fresh()
        cells = sorted((c for c, kept in self.archive.items() if kept), key=repr)
        if not cells:
            return self._fresh()           # a fixed order: the same seed, the same choice
        if self.round_best and self.rng.random() < ROUND_BEST_SHARE:
            rounds = sorted(self.round_best)
            rnd = self.rng.choices(rounds, [1.0 / math.sqrt(1 + self.chosen[("best", r)]) for r in rounds])[0]
            self.chosen[("best", rnd)] += 1
            best = self.round_best[rnd][1]
            best.chosen += 1
            return best
        if (self.where or self.steers) and self.best_distance < math.inf and self.rng.random() < 0.5:
            near = [c for c in cells if c[0] == "d" and c[2] not in self.retired]
            if near:                        # one steer's (or condition's) closest cell, steers in turn
                which = self.rng.choice(sorted({c[2] for c in near}))
                cells = [min((c for c in near if c[2] == which), key=lambda c: c[1])]
        weights = [1.0 / math.sqrt(1 + self.chosen[c]) / math.sqrt(max(1, self.seen[c])) for c in cells]
        cell = self.rng.choices(cells, weights)[0]
        self.chosen[cell] += 1
        entries = self.archive[cell]
        entry = entries[self.rng.randrange(len(entries))]
        entry.chosen += 1
        return entry

    def _fresh(self) -> _Entry:
        chance = SearchChance(self.rng.randrange(2**32), self.rng.choice(TILE_STYLES))
        RECORDER.reset()
        game = self.setup.start(self.overrides, chance)
        shadow = None
        if self.shadow_overrides is not None:
            RECORDER.enabled = False
            try:
                shadow = self.setup.start(self.shadow_overrides, FollowingChance(chance.record))
            except (RecordExhausted, ChanceScriptError):
                shadow = None
            finally:
                RECORDER.enabled = True
        entry = _Entry(game, shadow, ())
        self._after_step(entry, game, shadow, [], (), 0, fresh=True)
        return self._kept(game, shadow, ())

    def _kept(self, game: Game, shadow: Game | None, actions: tuple[str, ...]) -> _Entry:
        """A snapshot of the position (and of the default's game on the copied record)."""
        twin = game.copy()
        return _Entry(twin, self._copy_shadow(shadow, twin), actions)

    def _copy_shadow(self, shadow: Any, copy: Any) -> Any:
        if shadow is None:
            return None
        twin = shadow.snapshot()
        twin.chance = shadow.chance.follow(copy.chance.record)
        return twin

    # --- one branch -----------------------------------------------------------------------
    def _branch(self, entry: _Entry) -> None:
        game: Any = entry.game.copy()
        # A lineage mostly keeps its way of drawing (the bag runs dry of colours only when the same
        # style draws round after round); now and then it changes.
        style = game.chance.style if self.rng.random() < STYLE_KEPT else self.rng.choice(TILE_STYLES)
        game.chance.reseed(self.rng.randrange(2**32), style)
        shadow = self._copy_shadow(entry.shadow, game)
        actions = list(entry.actions)
        rng = self.rng
        # Each branch plays with its own taste for kinds of action (the notation's first word: some
        # shunned, some sought, most as they come), so hoarding, passing or floor-first play emerge
        # without a policy written for them; a third of the branches play uniformly.
        taste: dict[str, float] | None = {} if rng.random() < 0.67 else None
        # Some branches look one step ahead: of a few legal actions, the one whose position is closest
        # to a goal's distance (a policy's aim, found by trying rather than written down).
        ahead = rng.choice(self.distances) if self.distances and rng.random() < AHEAD_SHARE else None
        for _ in range(ROLLOUT_STEPS):
            if not self._left():
                return
            RECORDER.reset()                      # the step's clauses: what listing its choices cites too
            legal = game.legal_actions()
            if not legal:
                return
            if ahead is not None and rng.random() >= AHEAD_NOISE:
                action = self._closest(game, legal, ahead, len(actions))
            elif taste is None:
                action = legal[rng.randrange(len(legal))]
            else:
                action = self._by_taste(legal, taste)
            try:
                events = game.apply(action)
            except (IllegalAction, ChanceScriptError):
                return
            self.budget.used += 1
            self.explored.nodes += 1
            actions.append(str(action))
            diverged = False
            if shadow is not None:
                diverged = self._shadow_step(shadow, action, events)
                if diverged:
                    shadow = None
            if self._after_step(entry, game, shadow, events, tuple(actions), len(actions), diverged=diverged):
                return

    def _by_taste(self, legal: Sequence[Any], taste: dict[str, float]) -> Any:
        rng = self.rng
        weights = []
        for action in legal:
            kind = str(action).split(" ", 1)[0]
            w = taste.get(kind)
            if w is None:
                w = taste[kind] = rng.choice((0.05, 1.0, 1.0, 8.0))
            weights.append(w)
        return rng.choices(legal, weights)[0]

    def _closest(self, game: Game, legal: Sequence[Any], distance: Callable[[Mapping[str, Any]], float | None],
                 n: int) -> Any:
        """Of up to AHEAD_TRIES legal actions (a random sample), the one after which `distance` is
        smallest, each tried on a copy (its chance forked: it draws what the game would, and the
        game's draws do not move); the recorder does not see the trials."""
        tries = list(legal) if len(legal) <= AHEAD_TRIES else self.rng.sample(list(legal), AHEAD_TRIES)
        best, best_d = tries[0], math.inf
        was = RECORDER.enabled
        RECORDER.enabled = False
        try:
            for action in tries:
                trial = game.copy()
                try:
                    events = trial.apply(action)
                except (IllegalAction, ChanceScriptError, RecordExhausted):
                    continue
                view = step_view(trial, events, str(action), _player_of(events), n + 1, self.setup.scores(trial),
                                 self.setup.hooks.view(trial))
                d = distance(view)
                if d is not None and d < best_d:
                    best, best_d = action, d
        finally:
            RECORDER.enabled = was
        return best

    def _shadow_step(self, shadow: Game, action: Any, events: list[Any]) -> bool:
        """Play the action on the default's game; True when the two games part here."""
        RECORDER.enabled = False
        try:
            if shadow.why_illegal(action) is not None:
                return True
            theirs = shadow.apply(action)
        except (RecordExhausted, ChanceScriptError):
            return True
        finally:
            RECORDER.enabled = True
        return [str(e) for e in theirs] != [str(e) for e in events]

    def _ended_apart(self, game: Game, shadow: Game) -> bool:
        """The games ended otherwise (another winner, or the same by another rule)."""
        return outcome_of(game) != outcome_of(shadow)

    def _after_step(self, entry: _Entry, game: Game, shadow: Game | None, events: Sequence[Any],
                    actions: tuple[str, ...], n: int, *, fresh: bool = False, diverged: bool = False) -> bool:
        """Goals and coverage after a step; True when the branch should stop (a goal was met)."""
        if game.is_over:
            game.outcome()                          # the end's clauses fire where the winner is decided
        state = game.state
        rnd = int(getattr(state, "round", 0))
        phase = str(getattr(state, "phase", ""))
        self.explored.deepest_round = max(self.explored.deepest_round, rnd)
        if n % 4 == 0 or fresh:
            self.positions.add(_digest(game))
        cells: list[Any] = [("r", rnd, phase)]
        cells += [("c", c) for c in RECORDER.clauses]
        cells += [("a",) + k for k in RECORDER.alternatives]
        cells += [("e",) + k for k in RECORDER.edges]
        met: list[Goal] = []
        closest = math.inf
        for clause in list(self.clause_goals):
            if RECORDER.clauses.get(clause):
                met.append(self.clause_goals.pop(clause))
        if self.where or self.steers:
            view = step_view(game, events, actions[-1] if actions else "", _player_of(events), n,
                             self.setup.scores(game), self.setup.hooks.view(game))
            for k, condition in enumerate(self.where):
                if condition.holds(view):
                    met.append(condition)
                    continue
                if -1 - k in self.retired:
                    continue
                d = condition.distance(view)
                if d is not None:
                    cells.append(("d", round(d), -1 - k))
                    closest = min(closest, d)
            for k, steer in enumerate(self.steers):
                if steer.distance is not None and k not in self.retired:
                    d = float(steer.distance(view))
                    cells.append(("d", round(d), k))
                    closest = min(closest, d)
            self.best_distance = min(self.best_distance, closest)
            if not fresh and closest < self.round_best.get(rnd, (math.inf,))[0]:
                self.round_best[rnd] = (closest, self._kept(game, shadow, actions))
        if self.decide and shadow is not None and not diverged and (
                self._legal_differ(game, shadow) or game.is_over and self._ended_apart(game, shadow)):
            diverged = True
        if diverged:
            met.extend(self.decide)
        confirmed = []
        for goal in met:
            if goal in self.pending and self._confirm(goal, actions, game):
                self._found(goal, actions, game)
                confirmed.append(goal)
        met = confirmed
        self.decide = [g for g in self.decide if g in self.pending]
        self.where = [c for c in self.where if c in self.pending]
        new = False
        for cell in cells:
            self.seen[cell] += 1
            if self.seen[cell] <= KEEP_PER_CELL:
                new = True
                if not fresh:
                    kept = self.archive.setdefault(cell, [])
                    if len(kept) < KEEP_PER_CELL:
                        kept.append(self._kept(game, shadow, actions))
        if fresh and new:
            self.archive.setdefault(("start",), []).append(self._kept(game, shadow, ()))
        if self.progress is not None and self.explored.nodes >= self._next_report:
            self._next_report = self.explored.nodes + PROGRESS_EVERY
            self.explored.positions = len(self.positions)
            self.explored.cpu_seconds = self.budget.spent() - self._cpu0
            self.progress(self.explored, len(self.found))
        return bool(met) and not self.pending

    def _legal_differ(self, game: Game, shadow: Game) -> bool:
        RECORDER.enabled = False
        try:
            return [str(a) for a in game.legal_actions()] != [str(a) for a in shadow.legal_actions()]
        finally:
            RECORDER.enabled = True

    def _confirm(self, goal: Goal, actions: tuple[str, ...], game: Any) -> bool:
        """A `--decide` candidate counts when the file's replay (script, then seeded) parts too."""
        if not isinstance(goal, DecideGoal):
            return True
        was = RECORDER.enabled
        RECORDER.enabled = False
        try:
            return divergence(self.setup, goal, actions, game.chance.record)[0] is not None
        finally:
            RECORDER.enabled = was

    def _live_distances(self) -> None:
        self.distances = [s.distance for k, s in enumerate(self.steers)
                          if s.distance is not None and k not in self.retired] + \
                         [w.distance for k, w in enumerate(self.where) if w.predicate is not None
                          and w.predicate.distance is not None and -1 - k not in self.retired]

    def _retire(self, goal: Goal) -> None:
        """Retire the distances that served only found goals; the per-round closest positions were
        chosen by them too, so they start again from what is played next."""
        done = set()
        for k, goals in self._serves.items():
            goals.discard(goal)
            if not goals and k not in self.retired:
                done.add(k)
        if done:
            self.retired |= done
            self.round_best.clear()
            self.best_distance = math.inf
            self._live_distances()

    def _found(self, goal: Goal, actions: tuple[str, ...], game: Any) -> None:
        self.pending.remove(goal)
        self._retire(goal)
        found = Found(goal, actions, game.chance.record.copy(), self.budget.used - self._nodes0,
                      self.budget.spent() - self._cpu0)
        self.found.append(found)
        if self.on_found is not None:
            self.on_found(found)
