"""Starting a game: `new_game(seed=..., ruleset=..., chance=...)` sets the table up (Game Setup)."""

from __future__ import annotations

from collections.abc import Mapping

from model.chance import Chance, SeededChance
from model.clauses import cite, cite_alternative
from model.engine import Game
from model.events import Event
from model.ruleset import Ruleset
from model.state import GameState, Pending
from model.supply import fill_factories


def new_game(seed: int = 0, ruleset: Ruleset | None = None, chance: Chance | None = None,
             overrides: Mapping[str, str] | None = None, tablets: tuple[str, ...] | None = None) -> Game:
    """A game after setup, waiting for the first opening plate pick."""
    if ruleset is None:
        ruleset = Ruleset.build(overrides, tablets=tablets)
    elif overrides or tablets:
        raise ValueError("pass either a ruleset or overrides/tablets, not both")
    chance = chance if chance is not None else SeededChance(seed)
    state = GameState()
    game = Game(state, ruleset, chance)
    events: list[Event] = []
    for clause in ("duel.component.players", "duel.component.tiles", "duel.component.factories",
                   "duel.component.plates",
                   "duel.component.bonus-chips", "duel.component.dome", "duel.component.player-board",
                   "duel.component.tokens", "duel.component.tower", "duel.component.tablets",
                   "duel.setup.tablets"):
        cite(clause)
    cite("duel.setup.scores")
    cite_alternative("duel.score.start", ruleset.choices["duel.score.start"])
    for pl in state.players:
        pl.score = ruleset.start_score
    cite("duel.setup.plate-pile")
    state.pile = chance.shuffle_plates(range(1, len(ruleset.tables.plates) + 1))
    state.display = [state.pile.pop(0) for _ in range(3)]
    cite("duel.setup.supplies")
    state.special_supply = 9
    state.large.start_tile = True
    state.bag = [13] * 5
    cite("duel.setup.bonus-chips")
    state.chip_supply = list(range(1, len(ruleset.tables.chips) + 1))
    fill_factories(state, ruleset, chance, events, "duel.setup.fill-factories")
    cite("duel.setup.first-player")
    state.starter = chance.first_player()
    cite("duel.setup.opening-plates")
    state.pending = Pending("opening", 1 - state.starter)
    state.to_move = 1 - state.starter
    return game
