"""Starting a game: `new_game(seed=..., ruleset=..., chance=...)` sets the table up (Game Setup)."""

from __future__ import annotations

from collections.abc import Mapping

from model.chance import Chance, SeededChance
from model.clauses import cite, cite_alternative
from model.duel.engine import Game
from model.duel.ruleset import Ruleset
from model.duel.state import GameState, Pending
from model.duel.supply import fill_factories
from model.errors import RulesetError
from model.events import Event


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


# The key of `start`'s overrides that picks the Scoring-tablet sides in play (comma-separated), beside
# the interpretation choices: a matrix row's setup and a search context choose tablets with it.
TABLETS = "tablets"


def start(seed: int = 0, overrides: Mapping[str, str] | None = None, players: int | None = None,
          chance: Chance | None = None) -> Game:
    """The registry's `new_game` (one signature for every game): Azul Duel is for two players.
    `overrides` are interpretation choices; the key "tablets" ("colourful-rows,outer-spaces,...")
    picks the tablet sides (duel.setup.tablets; default: the first game's)."""
    if players not in (None, 2):
        raise RulesetError(f"Azul Duel is for 2 players, not {players} [duel.component.players]")
    choices = dict(overrides or {})
    tablets = choices.pop(TABLETS, None)
    return new_game(seed=seed, ruleset=Ruleset.build(choices, tablets=tuple(tablets.split(",")) if tablets else None),
                    chance=chance)
