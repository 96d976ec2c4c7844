"""Every invariant is shown to fail on a deliberately broken model.

Each case breaks one rule of the engine with monkeypatch, plays checked random games, and expects
that invariant (and only the breakage) to be reported, so no invariant passes vacuously.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

import model.engine as engine
import model.serialize as serialize
from model.colours import EMPTY
from model.engine import Game
from properties.invariants import INVARIANTS
from properties.simulate import play_checked
from properties.steps import STEP_INVARIANTS


def _first_failure(seeds=range(6), overrides=None) -> set[str]:
    found = set()
    for seed in seeds:
        report = play_checked(seed, overrides, deep_every=1, record=False)
        if report.failure:
            found.add(report.failure[0])
    return found


def break_tower(mp):      # overflow tiles vanish instead of going to the Tower
    original = Game._break

    def broken(self, pl, colour, n, events, who, clause):
        original(self, pl, colour, min(n, 4 - len(pl.broken)), events, who, clause)
    mp.setattr(Game, "_break", broken)


def break_chip_take(mp):   # a taken chip is copied, not moved
    original = Game._apply

    def broken(self, a, events):
        if a.kind is engine.Kind.CHIP:
            fac = self.state.small[a.args[0] - 1]
            chip = fac.chip
            original(self, a, events)
            fac.chip, fac.chip_revealed = chip, True
            return
        original(self, a, events)
    mp.setattr(Game, "_apply", broken)


def break_floor(mp):
    def broken(self, pl, loss, who, events, clause, why):
        pl.score -= loss
    mp.setattr(Game, "_lose", broken)


def break_capacity(mp):
    original = Game._place_tiles

    def broken(self, who, colour, n, args, events):
        pl = self.state.players[who]
        if args[0]:
            pl.line_colour[args[0] - 1] = colour
            pl.line_count[args[0] - 1] += n
            return
        original(self, who, colour, n, args, events)
    mp.setattr(Game, "_place_tiles", broken)


def break_matching(mp):   # any empty space on a plate accepts any tile
    def broken(pl, line, colour):
        return [c for c in range(line * 6, line * 6 + 6) if pl.dome_space[c] != EMPTY and pl.dome_tile[c] == EMPTY
                and pl.dome_space[c] != 6]
    import model.acquisition
    import model.legality
    import model.tiling
    for module in (model.tiling, model.legality, model.acquisition):
        mp.setattr(module, "matching_cells", broken)


def break_chip_cap(mp):   # the engine forgets the cap while the ruleset still says hard-cap
    import model.ruleset as ruleset_module
    from model.ruleset import Ruleset
    mp.setattr(ruleset_module, "_cached_build", ruleset_module._cached_build.__wrapped__)  # no stale rulesets
    original = Ruleset.__attrs_post_init__

    def broken(self):
        original(self)
        object.__setattr__(self, "chip_cap", False)
    mp.setattr(Ruleset, "__attrs_post_init__", broken)


def break_tokens(mp):
    mp.setattr(Game, "_use_token", lambda self, pl: setattr(pl, "tokens_used", pl.tokens_used + 2))


def break_phase_end(mp):
    mp.setattr(Game, "_acquisition_over", lambda self: False)


def break_dome_moves(mp):
    original = Game._move_line_to_dome

    def broken(self, who, line, cell, events):
        pl = self.state.players[who]
        for other in range(36):
            if pl.dome_tile[other] not in (EMPTY, 6):
                self.state.tower[pl.dome_tile[other]] += 1
                pl.dome_tile[other] = EMPTY
                break
        original(self, who, line, cell, events)
    mp.setattr(Game, "_move_line_to_dome", broken)


def break_broken_discard(mp):
    original = Game._penalties

    def broken(self, who, events):
        keep = list(self.state.players[who].broken)
        original(self, who, events)
        for c in keep:
            self.state.tower[c] -= 1
        self.state.players[who].broken = keep
    mp.setattr(Game, "_penalties", broken)


def break_phase_edges(mp):   # Preparation is skipped: Dome-tiling jumps straight back to Acquisition
    from model.events import Event
    original = Game._change_phase
    mp.setattr(engine, "check_transition", lambda a, b: None)

    def broken(self, target, events):
        if target == "preparation":
            events.append(Event("phase", "duel.round.structure",
                                detail=f"dome_tiling -> acquisition (round {self.state.round})"))
            self.state.phase = "preparation"
            return
        return original(self, target, events)
    mp.setattr(Game, "_change_phase", broken)


def break_tile_exchange(mp):   # Player tokens are never used, and Acquisition ends without them
    turn_actions = Game._turn_actions
    mp.setattr(Game, "_turn_actions", lambda self, who: [
        a for a in turn_actions(self, who) if a.kind not in (engine.Kind.TAKE_PLATE, engine.Kind.DRAW_PLATE)])
    mp.setattr(Game, "_token_problem", lambda self, pl: ("duel.acquire.plate.token", "broken model"))

    def no_plates_can_act(self, who):
        s = self.state
        if s.large.has_tiles or any(f.has_tiles for f in s.small):
            return True
        pl = s.players[who]
        return any(f.chip and f.chip_revealed for f in s.small) and pl.chips_this_round < 2

    def over(self):
        s = self.state
        return not (s.large.has_tiles or any(f.has_tiles or f.chip for f in s.small))
    mp.setattr(Game, "_can_act", no_plates_can_act)
    mp.setattr(Game, "_acquisition_over", over)


def break_rounds(mp):
    original = Game._change_phase

    def broken(self, target, events):
        if target == "preparation" and self.state.round == 4:
            target = "tablet_scoring"
            original(self, target, events)
            self._score_tablets(events)
            raise _Stop
        return original(self, target, events)
    mp.setattr(Game, "_change_phase", broken)
    original_adv = Game._advance_tiling

    def adv(self, events):
        try:
            original_adv(self, events)
        except _Stop:
            pass
    mp.setattr(Game, "_advance_tiling", adv)


class _Stop(Exception):
    pass


def break_generator(mp):
    original = Game._turn_actions

    def broken(self, who):
        return [a for a in original(self, who) if a.kind is not engine.Kind.MOON] or original(self, who)
    mp.setattr(Game, "_turn_actions", broken)


def break_serialisation(mp):
    original = serialize.state_from_data

    def broken(data):
        state = original(data)
        state.tower = [0] * 5
        return state
    mp.setattr(serialize, "state_from_data", broken)


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
}


def test_every_invariant_has_a_breaking_case() -> None:
    assert set(CASES) == {i.name for i in INVARIANTS} | {i.name for i in STEP_INVARIANTS}


@pytest.mark.parametrize("name", sorted(CASES))
def test_invariant_catches_its_broken_rule(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    assert _first_failure(range(3)) == set(), "the unbroken model must pass first"
    breaker, overrides = CASES[name]
    breaker(monkeypatch)
    found = _first_failure(overrides=overrides)
    assert name in found, f"breaking the rule for {name} was reported as {found or 'nothing'}"
