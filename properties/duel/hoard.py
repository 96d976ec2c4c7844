"""A round-level explorer for the hoarding question duel.prep.rare-empty (a refill that finds bag
and Tower both empty), which the coverage-guided search (properties/search/) does not reach: the
players must keep at least 45 of the 63 tiles drawn by the round-4 refill on their Domes and
pattern lines (see `_dry_distance` in properties/duel/predicates.py), a plan with 1 to 3 tiles of
slack (docs/design.md, interpretation findings).

Go-Explore by rounds: a population of games at a round's start; from each, a few rollouts play
the round to the next one's start; the best games by tiles lost (with the room left for the tiles
still to come) go on. A rollout chooses for both players and for chance: at each step it tries the
legal actions (a sample) on copies and plays the one that loses fewest tiles (`_step_cost`), now
and then one at random; at a refill it often draws the colours the pattern lines still need
(`NeedChance`). Every outcome is recorded, so the game replays with the scenario's strict script.
`find` is Duel's explorer for that question in the search's hooks (`SearchHooks.explorers`), so
`azul-rules search` runs it, shrinks its game and writes the witness."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from model.clauses import RECORDER
from model.duel.dome import matching_cells
from model.duel.game import start as start_game
from properties.duel.predicates import REFILL, TILES, _factory_tiles, kept_tiles
from properties.search.chance import TILE_STYLES, ChanceRecord, SearchChance
from properties.search.rounds import Line, Nodes, first_found

GOAL = "duel.prep.rare-empty"
HOARD_ROUNDS = 3              # the round-4 refill (after round 3) is the one to run dry
LINE_CYCLES = 2               # lines a player can empty each tiling losing nothing (line 1; line 2 by chips)
FULL_BAND = 8.0               # cost of a full middle or bottom band: its complete lines can no longer wait
BLOCKED_LINE = 1.0            # cost of a hoarded line whose row has a free space for its colour
ROOM_WEIGHT = 0.3             # per free pattern-line space, in a step's cost
TRIES = 40                    # legal actions a rollout tries at a step (a sample when more)
NOISE = 0.1                   # share of a rollout's steps played at random
NEED_SHARE = 0.6              # share of refills drawn toward what the lines need
LAST_ROUND_ROLLOUTS = 3       # round 3 gets this many times the rollouts per game


class NeedChance(SearchChance):
    """The search's chance, which at a refill can be told what the pattern lines need (`need`:
    tiles per colour): it then draws those colours, mostly in runs (whole Factories of a colour),
    while the bag holds them; otherwise it draws as its style says."""

    __slots__ = ("need",)

    def __init__(self, seed: int = 0, style: str = "weighted") -> None:
        super().__init__(seed, style)
        self.need: list[int] | None = None

    def draw_tile(self, bag: Sequence[int]) -> int:
        need = self.need
        if need and self.rng.random() < 0.9:
            options = [c for c in range(len(bag)) if bag[c] > 0 and need[c] > 0]
            if options:
                tiles = self.record.tiles
                if tiles and tiles[-1] in options and self.rng.random() < 0.7:
                    colour = tiles[-1]
                else:
                    colour = self.rng.choices(options, [need[c] for c in options])[0]
                need[colour] -= 1
                tiles.append(colour)
                return colour
        return super().draw_tile(bag)

    def fork(self) -> NeedChance:
        """The search's fork, as this class (told nothing yet)."""
        base = super().fork()
        twin = NeedChance.__new__(NeedChance)
        for name in SearchChance.__slots__:
            setattr(twin, name, getattr(base, name))
        twin.need = None
        return twin


def needs(s: Any) -> list[int]:
    """Tiles per colour the pattern lines could still take: the room of each started line for its
    colour, and an even share of the empty lines' room for every colour."""
    need = [0] * 5
    empty = 0
    for pl in s.players:
        for i in range(6):
            n = pl.line_count[i]
            if n == 0:
                empty += i + 1
            elif n <= i:
                need[pl.line_colour[i]] += i + 1 - n
    return [n + empty // 5 + 1 for n in need]


def lost(s: Any) -> int:
    """Tiles drawn so far that will not be kept at the next refill (kept_tiles: on the Domes and
    what the pattern lines keep after the coming tiling; the Factories' tiles are still to take)."""
    return REFILL * s.round - kept_tiles(s) - _factory_tiles(s)


def room(s: Any) -> int:
    """Free spaces on pattern lines that are not complete."""
    return sum(i + 1 - pl.line_count[i] for pl in s.players for i in range(6) if pl.line_count[i] <= i)


def _full_bands(s: Any) -> int:
    """Middle and bottom bands holding 3 plates: their complete lines cannot wait any more."""
    return sum(1 for pl in s.players for b in (1, 2) if all(pl.plates[3 * b + k] for k in range(3)))


def _blocked(s: Any) -> int:
    """Hoarded lines (3 to 6) whose Dome row has a free space for their colour: completed, they
    would move and lose the rest of their tiles, so they must stay a tile short."""
    return sum(1 for pl in s.players for i in range(2, 6)
               if pl.line_colour[i] >= 0 and pl.line_count[i] <= i and matching_cells(pl, i, pl.line_colour[i]))


def _step_cost(s: Any) -> float:
    return lost(s) + FULL_BAND * _full_bands(s) - ROOM_WEIGHT * room(s) + BLOCKED_LINE * _blocked(s)


def _round_cost(s: Any) -> float:
    """A game at a round's start: tiles lost, and the tiles still to come that the lines' free room
    and the lossless tilings left cannot take."""
    if s.round > HOARD_ROUNDS:
        return float(TILES - REFILL * HOARD_ROUNDS + lost(s))
    to_come = REFILL * (HOARD_ROUNDS + 1 - s.round)
    cycles = LINE_CYCLES * len(s.players)
    return float(lost(s) + max(0, to_come - room(s) - cycles))


NODES = Nodes()               # actions the rollouts played (trials aside), and the most they may play


def _rollout(line: Line, rng: random.Random) -> bool:
    """Play the line's round to the next round's start; True when a refill ran dry."""
    game = line.game
    start = game.state.round
    while game.state.round == start and not game.is_over:
        NODES.play()
        legal = game.legal_actions()
        if rng.random() < NOISE:
            action = rng.choice(legal)
        else:
            tries = legal if len(legal) <= TRIES else rng.sample(legal, TRIES)
            best: tuple[float, Any] | None = None
            for a in tries:
                trial = game.copy()
                trial.apply(a)
                if trial.state.round != start:          # the round's last step: the refill follows
                    best = (-1.0, a)
                    break
                cost = _step_cost(trial.state) + rng.random() * 0.3
                if best is None or cost < best[0]:
                    best = (cost, a)
            assert best is not None
            action = best[1]
        chance = game.chance
        assert isinstance(chance, NeedChance)
        ahead = game.copy()
        ahead.apply(action)
        if ahead.state.round != start:                  # a refill: often toward what the lines need
            chance.reseed(rng.randrange(2**32), rng.choice(TILE_STYLES))
            chance.need = needs(ahead.state) if rng.random() < NEED_SHARE else None
        events = game.apply(action)
        chance.need = None
        line.actions.append(str(action))
        if any(e.kind == "tiles-ran-out" for e in events):
            return True
    return False


def explore(seed: int, population: int, rollouts: int) -> Line | None:
    """Rounds 1-3 from `population` set-ups, `rollouts` per game and round; the first game whose
    refill ran dry, or None."""
    rng = random.Random(seed)
    was = RECORDER.enabled
    RECORDER.enabled = False
    try:
        lines = [Line(start_game(seed=0, chance=NeedChance(rng.randrange(2**32), rng.choice(TILE_STYLES))), [])
                 for _ in range(population)]
        for rnd in range(1, HOARD_ROUNDS + 1):
            scored: list[tuple[float, Line]] = []
            for line in lines:
                for _ in range(rollouts * (LAST_ROUND_ROLLOUTS if rnd == HOARD_ROUNDS else 1)):
                    game = line.game.copy()
                    game.chance.reseed(rng.randrange(2**32), game.chance.style)
                    branch = Line(game, list(line.actions))
                    if _rollout(branch, rng):
                        return branch
                    scored.append((_round_cost(game.state) + rng.random() * 0.5, branch))
            scored.sort(key=lambda x: x[0])
            lines = [line for _, line in scored[:population]]
        return None
    finally:
        RECORDER.enabled = was


FIND_POPULATION = 30          # games per round start in `find`
FIND_ROLLOUTS = 6             # rollouts per game and round in `find`
FIND_TRIES = 8                # explorations `find` tries (5-10 CPU s each; 2 of seeds 0-7 run a refill dry)


def find(seed: int, nodes: int) -> tuple[tuple[list[str], ChanceRecord] | None, int]:
    """The search's own explorer for duel.prep.rare-empty (`SearchHooks.explorers`): up to
    FIND_TRIES explorations, seeds seed * FIND_TRIES onward, playing at most `nodes` actions; the
    actions and chance record of the first game whose refill ran dry (or None), and the actions
    played."""
    return first_found(lambda k: explore(k, FIND_POPULATION, FIND_ROLLOUTS),
                       range(seed * FIND_TRIES, (seed + 1) * FIND_TRIES), NODES, nodes)
