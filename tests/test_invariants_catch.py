"""Every invariant is shown to fail on a deliberately broken model.

Each case breaks one rule of the engine with monkeypatch, plays checked random games, and expects
that invariant to be among those reported at the first failing step, so no invariant passes
vacuously (one breakage may break several invariants at once: a tile moved by the wrong action is
both an unexplained flow and, say, a sun left full).
"""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

import model.duel.engine as engine
import model.duel.serialize as serialize
from model.duel import acquisition, flow, generation, legality, new_game, preparation, tiling
from model.duel.colours import EMPTY
from model.duel.engine import Game
from properties.duel.invariants import INVARIANTS, violations
from properties.duel.policy import POLICIES
from properties.duel.steps import STEP_INVARIANTS, check_step
from properties.simulate import assert_games_hold


def _first_failure(seeds=range(6), overrides=None, policy: str = "uniform", until: str | None = None) -> set[str]:
    """Every invariant broken at the first failing step of each game (uniform random play); with
    `until`, the games stop after the first whose failure names that invariant (the tests only ask
    whether some game catches it: the later seeds cannot change the answer, only cost, issue 13)."""
    found: set[str] = set()
    for seed in seeds:
        if until in found:
            break
        game = new_game(seed=seed, overrides=dict(overrides or {}))
        rng = random.Random(seed)
        choose = POLICIES[policy]
        names = {inv.name for inv, _ in violations(game)}
        step = 0
        while not names and not game.is_over and step < 3000:
            actions = game.legal_actions()
            if not actions:
                names.add("progress")
                break
            action = choose(game, actions, rng)
            before = game.state.copy()
            events = game.apply(action)
            step += 1
            names |= {name for name, _ in check_step(before, game, events, step, 1, action=action)}
            names |= {inv.name for inv, _ in violations(game)}
        found |= names
    return found


def break_tower(mp):      # overflow tiles vanish instead of going to the Tower
    original = acquisition.break_tiles

    def broken(self, pl, colour, n, events, who, clause):
        original(self, pl, colour, min(n, 4 - len(pl.broken)), events, who, clause)
    mp.setattr(acquisition, "break_tiles", broken)


def break_chip_take(mp):   # a taken chip is copied, not moved
    original = acquisition.chip

    def broken(self, who, args, events):
        fac = self.state.small[args[0] - 1]
        chip = fac.chip
        original(self, who, args, events)
        fac.chip, fac.chip_revealed = chip, True
    mp.setitem(engine.RULES, engine.Kind.CHIP, broken)


def break_floor(mp):
    def broken(self, pl, loss, who, events, clause, why):
        pl.score -= loss
    mp.setattr(tiling, "lose", broken)


def break_capacity(mp):
    original = acquisition.place_tiles

    def broken(self, who, colour, n, args, events):
        pl = self.state.players[who]
        if args[0]:
            pl.line_colour[args[0] - 1] = colour
            pl.line_count[args[0] - 1] += n
            return
        original(self, who, colour, n, args, events)
    mp.setattr(acquisition, "place_tiles", broken)


def break_matching(mp):   # any empty space on a plate accepts any tile
    def broken(pl, line, colour):
        return [c for c in range(line * 6, line * 6 + 6) if pl.dome_space[c] != EMPTY and pl.dome_tile[c] == EMPTY
                and pl.dome_space[c] != 6]
    import model.duel.acquisition
    import model.duel.legality
    import model.duel.tiling
    for module in (model.duel.tiling, model.duel.legality, model.duel.acquisition):
        mp.setattr(module, "matching_cells", broken)


def break_chip_cap(mp):   # the engine forgets the cap while the ruleset still says hard-cap
    import model.duel.ruleset as ruleset_module
    from model.duel.ruleset import Ruleset
    mp.setattr(ruleset_module, "_cached_build", ruleset_module._cached_build.__wrapped__)  # no stale rulesets
    original = Ruleset.__attrs_post_init__

    def broken(self):
        original(self)
        object.__setattr__(self, "chip_cap", False)
    mp.setattr(Ruleset, "__attrs_post_init__", broken)


def break_tokens(mp):
    mp.setattr(acquisition, "use_token", lambda pl: setattr(pl, "tokens_used", pl.tokens_used + 2))


def break_phase_end(mp):
    mp.setattr(acquisition, "acquisition_over", lambda g: False)


def break_dome_moves(mp):
    original = tiling.move_line_to_dome

    def broken(self, who, line, cell, events):
        pl = self.state.players[who]
        for other in range(36):
            if pl.dome_tile[other] not in (EMPTY, 6):
                self.state.tower[pl.dome_tile[other]] += 1
                pl.dome_tile[other] = EMPTY
                break
        original(self, who, line, cell, events)
    mp.setattr(tiling, "move_line_to_dome", broken)


def break_broken_discard(mp):
    original = tiling.penalties

    def broken(self, who, events):
        keep = list(self.state.players[who].broken)
        original(self, who, events)
        for c in keep:
            self.state.tower[c] -= 1
        self.state.players[who].broken = keep
    mp.setattr(tiling, "penalties", broken)


def break_phase_edges(mp):   # Preparation is skipped: Dome-tiling jumps straight back to Acquisition
    from model.events import Event
    original = flow.change_phase
    mp.setattr(flow, "check_transition", lambda a, b: None)

    def broken(self, target, events):
        if target == "preparation":
            events.append(Event("phase", "duel.round.structure",
                                detail=f"dome_tiling -> acquisition (round {self.state.round})"))
            self.state.phase = "preparation"
            return
        return original(self, target, events)
    mp.setattr(flow, "change_phase", broken)


def break_tile_exchange(mp):   # Player tokens are never used, and Acquisition ends without them
    turn_actions = generation.turn_actions
    mp.setattr(generation, "turn_actions", lambda self, who: [
        a for a in turn_actions(self, who) if a.kind not in (engine.Kind.TAKE_PLATE, engine.Kind.DRAW_PLATE)])
    mp.setattr(legality, "token_problem", lambda self, pl: ("duel.acquire.plate.token", "broken model"))

    def no_plates_can_act(self, who):
        s = self.state
        if s.large.has_tiles or any(f.has_tiles for f in s.small):
            return True
        pl = s.players[who]
        return any(f.chip and f.chip_revealed for f in s.small) and pl.chips_this_round < 2

    def over(self):
        s = self.state
        return not (s.large.has_tiles or any(f.has_tiles or f.chip for f in s.small))
    mp.setattr(legality, "can_act", no_plates_can_act)
    mp.setattr(acquisition, "acquisition_over", over)


def break_rounds(mp):
    original = flow.change_phase

    def broken(self, target, events):
        if target == "preparation" and self.state.round == 4:
            target = "tablet_scoring"
            original(self, target, events)
            preparation.score_tablets(self, events)
            raise _Stop
        return original(self, target, events)
    mp.setattr(flow, "change_phase", broken)
    original_adv = tiling.advance_tiling

    def adv(self, events):
        try:
            original_adv(self, events)
        except _Stop:
            pass
    mp.setattr(tiling, "advance_tiling", adv)


class _Stop(Exception):
    pass


def break_generator(mp):
    original = generation.turn_actions

    def broken(self, who):
        return [a for a in original(self, who) if a.kind is not engine.Kind.MOON] or original(self, who)
    mp.setattr(generation, "turn_actions", broken)


def break_serialisation(mp):
    original = serialize.state_from_data

    def broken(data):
        state = original(data)
        state.tower = [0] * 5
        return state
    mp.setattr(serialize, "state_from_data", broken)


# --- movement, Factories, supplies, rounds ----------------------------------------------------

def break_overflow_to_bag(mp):   # tiles beyond the Broken space go back into the bag, not the Tower
    original = acquisition.break_tiles

    def broken(self, pl, colour, n, events, who, clause):
        tower = self.state.tower[colour]
        original(self, pl, colour, n, events, who, clause)
        extra = self.state.tower[colour] - tower
        self.state.tower[colour] -= extra
        self.state.bag[colour] += extra
    mp.setattr(acquisition, "break_tiles", broken)


def break_start_tile_on_sun(mp):   # a sun pick on the large Factory takes the Starting player tile
    original = acquisition.sun_pick

    def broken(self, who, f, c, events):
        original(self, who, f, c, events)
        if f == 0 and self.state.large.start_tile:
            self.state.large.start_tile = False
            self.state.players[who].start_tile = True
    mp.setattr(acquisition, "sun_pick", broken)


def break_discard_to_bag(mp):   # the rest of a line moved to the Dome goes into the bag, not the Tower
    original = tiling.move_line_to_dome

    def broken(self, who, line, cell, events):
        s = self.state
        colour = s.players[who].line_colour[line]
        tower = s.tower[colour]
        original(self, who, line, cell, events)
        extra = s.tower[colour] - tower
        s.tower[colour] -= extra
        s.bag[colour] += extra
    mp.setattr(tiling, "move_line_to_dome", broken)


def break_top_tile_only(mp):   # a moon pick takes every tile of its colour in a stack, not only the top
    original = acquisition.moon_pick

    def broken(self, who, c, events):
        tops = [bool(f.moon) and f.moon[-1] == c for f in self.state.small]
        original(self, who, c, events)
        extra = 0
        for fac, top in zip(self.state.small, tops, strict=True):
            if top and c in fac.moon:
                extra += fac.moon.count(c)
                fac.moon = [x for x in fac.moon if x != c]
        if extra:
            p = self.state.pending
            p.data = (c, p.data[1] + extra)
    mp.setattr(acquisition, "moon_pick", broken)


def break_line_choice(mp):   # tiles meant for line 3 go to line 2 when it has room
    original = acquisition.place_tiles

    def broken(self, who, colour, n, args, events):
        pl = self.state.players[who]
        if args[0] == 3 and pl.line_count[1] == 0 and pl.line_count[2] == 0:
            args = (2,) + args[1:]
        original(self, who, colour, n, args, events)
    mp.setattr(acquisition, "place_tiles", broken)


def break_large_leftovers(mp):   # one leftover goes to the large moon, the rest stay on the sun
    original = acquisition.sun_pick

    def broken(self, who, f, c, events):
        sun = list(self.state.large.sun)
        original(self, who, f, c, events)
        if f == 0:
            large = self.state.large
            left = [x for x in range(5) if x != c and sun[x]]
            if len(left) >= 2:
                for x in left[1:]:
                    large.moon[x] -= sun[x]
                    large.sun[x] += sun[x]
    mp.setattr(acquisition, "sun_pick", broken)


def break_reveal(mp):   # an emptied small Factory keeps its chip face down
    mp.setattr(acquisition, "reveal", lambda self, f, events, clause: None)


def break_restock(mp):   # restocking the bag takes one blue tile more than the Tower holds
    from model.duel import supply
    original = supply.draw_tile

    def broken(state, chance, events):
        restock = not any(state.bag) and any(state.tower)
        colour = original(state, chance, events)
        if restock:
            state.tower[0] -= 1
            state.bag[0] += 1
        return colour
    mp.setattr(supply, "draw_tile", broken)


def break_small_refill(mp):   # small Factories get 3 tiles in Preparation
    import model.duel.preparation as prep
    from model.duel import supply
    original = supply.fill_factories

    def broken(state, rules, chance, events, clause):
        original(state, rules, chance, events, clause)
        for fac in state.small:
            colour = next((c for c in range(5) if fac.sun[c]), None)
            if colour is not None and sum(fac.sun) == 4:
                fac.sun[colour] -= 1
                state.bag[colour] += 1
    mp.setattr(prep, "fill_factories", broken)


def break_tokens_back(mp):   # Preparation hands one Player token back, not both
    original = preparation.prepare

    def broken(self, events):
        used = [pl.tokens_used for pl in self.state.players]
        original(self, events)
        for pl, n in zip(self.state.players, used, strict=True):
            pl.tokens_used = min(n, 1)
    mp.setattr(preparation, "prepare", broken)


def break_silent_point(mp):   # a tile moved to the Dome earns a point no event mentions
    original = tiling.move_line_to_dome

    def broken(self, who, line, cell, events):
        original(self, who, line, cell, events)
        self.state.players[who].score += 1
    mp.setattr(tiling, "move_line_to_dome", broken)


# --- scoring (the oracle) and the outcome -----------------------------------------------------

def break_adjacency(mp):   # a horizontal run counts one tile too many
    import model.duel.scoring as scoring
    original = scoring.adjacency_points

    def broken(tiles, cell):
        h, v = original(tiles, cell)
        return (h + 1 if h > 1 else h), v
    mp.setattr(scoring, "adjacency_points", broken)


def _uncached_rulesets(mp, change):
    import model.duel.ruleset as ruleset_module
    from model.duel.ruleset import Ruleset
    mp.setattr(ruleset_module, "_cached_build", ruleset_module._cached_build.__wrapped__)  # no stale rulesets
    original = Ruleset.__attrs_post_init__

    def broken(self):
        original(self)
        change(self)
    mp.setattr(Ruleset, "__attrs_post_init__", broken)


def break_penalty_table(mp):   # 2 Broken tiles cost 2 instead of 3
    _uncached_rulesets(mp, lambda r: object.__setattr__(r, "broken_totals", (0, 1, 2, 6, 10)))


def break_special_row(mp):   # a Special tile scores one point more than its row
    import model.duel.tiling as tiling
    original = tiling.special_row_points
    mp.setattr(tiling, "special_row_points", lambda rules, row: original(rules, row) + 1)


def break_tie_break(mp):   # a tie goes to the player WITHOUT the Starting player tile
    original = Game.outcome

    def broken(self):
        o = original(self)
        if o is not None and o.clause == "duel.end.tie-break" and o.winner is not None:
            return type(o)(o.scores, 1 - o.winner, o.reason, o.clause)
        return o
    mp.setattr(Game, "outcome", broken)


def break_start_tile_any_moon(mp):   # any moon pick takes the Starting player tile, large moon or not
    original = acquisition.moon_pick

    def broken(self, who, c, events):
        original(self, who, c, events)
        s = self.state
        if s.large.start_tile:
            s.large.start_tile = False
            s.players[who].start_tile = True
    mp.setattr(acquisition, "moon_pick", broken)


def break_draw_from_bottom(mp):   # a blind draw takes the pile's bottom plate
    def broken(self, who, args, events):
        s = self.state
        s.pile.insert(0, s.pile.pop())          # the bottom plate comes up first
        original(self, who, args, events)
    original = acquisition.draw_plate
    mp.setattr(acquisition, "draw_plate", broken)
    mp.setitem(engine.RULES, engine.Kind.DRAW_PLATE, broken)


def break_return_on_top(mp):   # returned plates go on top of the pile instead of under it
    original = acquisition.return_plate, acquisition.put_plate

    def lift(self, fn, *args):
        s = self.state
        n = len(s.pile)
        fn(self, *args)
        if len(s.pile) > n:
            added = s.pile[n:]
            del s.pile[n:]
            s.pile[:0] = added
    mp.setitem(engine.RULES, engine.Kind.RETURN_PLATE, lambda self, who, args, events: lift(self, original[0], who, args, events))
    mp.setitem(engine.RULES, engine.Kind.PLACE_PLATE, lambda self, who, args, events: lift(self, original[1], who, args, events))


def _ends_ignoring_chips(g) -> bool:
    """acquisition_over with the Bonus chips still on the Factories overlooked (a planted bug)."""
    saved = [f.chip for f in g.state.small]
    for f in g.state.small:
        f.chip = 0
    try:
        return ORIGINAL_ACQUISITION_OVER(g)
    finally:
        for f, chip in zip(g.state.small, saved, strict=True):
            f.chip = chip


ORIGINAL_ACQUISITION_OVER = acquisition.acquisition_over


def break_phase_end_chips(mp):   # Acquisition ends with Bonus chips still on the Factories
    mp.setattr(acquisition, "acquisition_over", _ends_ignoring_chips)


def break_phase_end_chips_round_5(mp):   # ... only in round 5, where no refill follows to notice
    mp.setattr(acquisition, "acquisition_over",
               lambda g: (_ends_ignoring_chips if g.state.round == 5 else ORIGINAL_ACQUISITION_OVER)(g))


# invariant -> breakers (each must be caught), overrides, policy
CASES: dict[str, tuple[Callable, dict | None]] = {
    "tile-conservation": (break_tower, None),
    "component-conservation": (break_chip_take, None),
    "score-floor": (break_floor, None),
    "pattern-lines": (break_capacity, None),
    "dome-consistency": (break_matching, None),
    "chips-per-round": (break_chip_cap, None),
    "plates-per-round": (break_tokens, None),
    "progress": (break_phase_end, None),
    "dome-never-moves": (break_dome_moves, None),
    "broken-empty-after-tiling": (break_broken_discard, None),
    "phase-edges": (break_phase_edges, None),
    "two-chips-each-round": (lambda mp: None, {"duel.chips.per-round": "no-cap"}),
    "tokens-each-round": (break_tile_exchange, None),
    "five-rounds": (break_rounds, None),
    "generator-agrees": (break_generator, None),
    "serialisation-round-trip": (break_serialisation, None),
    "component-flows": (break_overflow_to_bag, None),
    "moon-after-sun": (break_large_leftovers, None),
    "sun-picked-once": (break_large_leftovers, None),
    "chip-revealed-when-empty": (break_reveal, None),
    "supplies-never-negative": (break_restock, None),
    "factory-refill": (break_small_refill, None),
    "picks-take-all": (break_top_tile_only, None),
    "line-placement": (break_line_choice, None),
    "round-reset": (break_tokens_back, None),
    "score-accounting": (break_silent_point, None),
    "scoring-oracle": (break_adjacency, None),
    "outcome": (break_tie_break, None),
    "start-tile-with-large-moon": (break_start_tile_any_moon, None),
    "plate-pile-order": (break_draw_from_bottom, None),
    "factories-empty-at-phase-end": (break_phase_end_chips, None),
}

# Further planted bugs the named invariant must catch: a component moved by the wrong action.
MORE_CASES: dict[str, tuple[str, Callable]] = {
    "start-tile-by-sun-pick": ("component-flows", break_start_tile_on_sun),
    "discard-rest-to-bag": ("component-flows", break_discard_to_bag),
    "returned-plates-on-top": ("plate-pile-order", break_return_on_top),
    "phase-end-with-chips-left-in-round-5": ("factories-empty-at-phase-end", break_phase_end_chips_round_5),
}

# Scoring and outcome bugs that unit tests caught but campaigns did not: a short campaign must fail
# on the oracle or the outcome check (scoring bugs under the default greedy policy, which scores;
# the tie-break under uniform play, where most games are ties).
SCORING_BUGS: dict[str, tuple[str, Callable, str]] = {
    "adjacency-off-by-one": ("scoring-oracle", break_adjacency, "greedy"),
    "penalty-table-changed": ("scoring-oracle", break_penalty_table, "greedy"),
    "special-row-points-changed": ("scoring-oracle", break_special_row, "greedy"),
    "tie-break-reversed": ("outcome", break_tie_break, "uniform"),
}


def test_every_invariant_has_a_breaking_case() -> None:
    assert set(CASES) == {i.name for i in INVARIANTS} | {i.name for i in STEP_INVARIANTS}


def test_the_unbroken_model_passes(tmp_path) -> None:
    # A failure raises InvariantBroken naming the invariant, seed, step and the replay command.
    assert_games_hold(range(3), directory=tmp_path)
    assert_games_hold(range(2), directory=tmp_path, policy="greedy")


def _guarding(name: str) -> pytest.MarkDecorator:
    """The invariant clauses this invariant checks: the catch test asserts them (and, for mutation
    analysis, is what guards an invariant clause: breaking the model makes the invariant fail)."""
    invariant = next(i for i in (*INVARIANTS, *STEP_INVARIANTS) if i.name == name)
    return pytest.mark.clause(*(c for c in invariant.clauses if c.startswith("duel.invariant.")))


@pytest.mark.parametrize("name", [pytest.param(n, marks=_guarding(n)) for n in sorted(CASES)])
def test_invariant_catches_its_broken_rule(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    breaker, overrides = CASES[name]
    breaker(monkeypatch)
    found = _first_failure(overrides=overrides, until=name)
    assert name in found, f"breaking the rule for {name} was reported as {found or 'nothing'}"


@pytest.mark.parametrize("case", sorted(MORE_CASES))
def test_planted_bug_is_caught(case: str, monkeypatch: pytest.MonkeyPatch) -> None:
    name, breaker = MORE_CASES[case]
    breaker(monkeypatch)
    found = _first_failure(until=name)
    assert name in found, f"the planted bug {case} was reported as {found or 'nothing'}"


@pytest.mark.parametrize("bug", sorted(SCORING_BUGS))
def test_short_campaign_catches_scoring_bug(bug: str, monkeypatch: pytest.MonkeyPatch) -> None:
    from properties.simulate import run_campaign

    name, breaker, policy = SCORING_BUGS[bug]
    breaker(monkeypatch)
    # The first failing game is enough (issue 13): if it names the invariant, so does the campaign.
    campaign = run_campaign(12, seed=0, deep_every=0, policy=policy, max_failures=1)
    caught = {g.failure[0] for g in campaign.failures if g.failure}
    assert name in caught, f"a 12-game campaign reported {caught or 'nothing'} for {bug}"


def test_design_doc_lists_every_invariant_with_its_clauses() -> None:
    """docs/design.md's invariant table names each invariant and exactly the clauses it guards."""
    from pathlib import Path

    text = (Path(__file__).resolve().parents[1] / "docs" / "design.md").read_text()
    rows = {}
    for line in text.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 4 and cells[1] in ("state", "step"):
            rows[cells[0]] = {c.strip() for c in cells[2].split("(")[0].split(",")}
    expected = {i.name: set(i.clauses) for i in (*INVARIANTS, *STEP_INVARIANTS)}
    assert rows == expected


def test_discard_to_bag_is_caught_in_the_round_it_happens(monkeypatch: pytest.MonkeyPatch) -> None:
    """The Tower may feed the bag only with a restock event (FLOW_EVIDENCE): otherwise a line's
    tiles reaching the bag would pass as line -> Tower -> bag in every step that runs Preparation,
    and the bug would show only in round 5."""
    break_discard_to_bag(monkeypatch)
    game = new_game(seed=0)
    rng = random.Random(0)
    step = 0
    while not game.is_over:
        action = POLICIES["greedy"](game, game.legal_actions(), rng)
        before = game.state.copy()
        events = game.apply(action)
        step += 1
        names = {name for name, _ in check_step(before, game, events, step, 0, action=action)}
        if names:
            assert "component-flows" in names and before.round == 1, (names, before.round)
            return
    pytest.fail("the discard into the bag went unnoticed")


@pytest.mark.clause("duel.acquire.end", "duel.acquire.end.start-tile")
def test_round_5_phase_end_with_tiles_left_is_caught_at_the_change(monkeypatch: pytest.MonkeyPatch) -> None:
    """Round 5 has no refill after it, so a Phase 1 that ends with tiles still on the large moon was
    seen by nothing: factories-empty-at-phase-end reads the Factories at the change itself. The last
    chip is taken while two tiles lie on the large moon; an acquisition_over that overlooks the large
    Factory in round 5 ends the phase there, and the step is flagged."""
    from model.duel.actions import Action, Kind
    from model.duel.supply import clear_factories

    def position() -> Game:
        game = new_game(seed=0)
        while game.state.phase != "acquisition":
            game.apply(game.legal_actions()[0])
        s = game.state
        s.round = 5
        for pl in s.players:
            pl.tokens_used = 0
        clear_factories(s)
        s.bag[0] -= 2
        s.large.moon[0] = 2
        s.small[0].chip, s.small[0].chip_revealed = s.chip_supply.pop(0), True
        return game

    def last_chip(game: Game) -> list[str]:
        before = game.state.copy()
        action = Action(Kind.CHIP, (1,))
        assert game.why_illegal(action) is None
        events = game.apply(action)
        return [name for name, _ in check_step(before, game, events, 1, 0, action=action)]

    game = position()
    assert last_chip(game) == [] and game.state.phase == "acquisition"       # the unbroken model goes on

    def overlooks_large(g) -> bool:
        s = g.state
        saved = s.large.sun, s.large.moon
        s.large.sun, s.large.moon = [0] * 5, [0] * 5
        try:
            return ORIGINAL_ACQUISITION_OVER(g)
        finally:
            s.large.sun, s.large.moon = saved
    monkeypatch.setattr(acquisition, "acquisition_over", overlooks_large)
    game = position()
    assert "factories-empty-at-phase-end" in last_chip(game)
