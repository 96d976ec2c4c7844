"""Starting a game: `new_game(players=2, seed=0, wall="coloured", interpretations={...})`."""

from __future__ import annotations

from collections.abc import Mapping

from model.azul.colours import NUM_COLOURS, TILES_PER_COLOUR
from model.azul.game import Game
from model.azul.round_end import start_round
from model.azul.ruleset import Ruleset
from model.azul.state import AzulState, Board
from model.azul.supply import fill_factories
from model.chance import Chance, SeededChance
from model.clauses import cite, cite_alternative
from model.errors import RulesetError
from model.events import Event

FACTORIES_FOR: dict[int, int] = {2: 5, 3: 7, 4: 9}      # azul.setup.factory-count


def new_game(players: int = 2, seed: int = 0, wall: str = "coloured",
             interpretations: Mapping[str, str] | None = None, *, chance: Chance | None = None,
             ruleset: Ruleset | None = None) -> Game:
    """A game after setup, the first player to move in round 1's factory offer."""
    cite("azul.component.players")
    if players not in FACTORIES_FOR:
        raise RulesetError(f"classic Azul is for 2 to 4 players, not {players!r} [azul.component.players]")
    if ruleset is None:
        ruleset = Ruleset.build(interpretations, wall=wall)
    elif interpretations or wall != "coloured":
        raise ValueError("pass either a ruleset or wall/interpretations, not both")
    chance = chance if chance is not None else SeededChance(seed)
    for clause in ("azul.component.tiles", "azul.component.board", "azul.component.factories",
                   "azul.component.starting-marker", "azul.setup.wall-side"):
        cite(clause)
    cite("azul.setup.scores")
    cite("azul.setup.factory-count")
    # rule: azul.setup.factory-count
    # rule: azul.component.board
    # rule: azul.component.factories
    state = AzulState(boards=[Board() for _ in range(players)],
                      factories=[[0] * NUM_COLOURS for _ in range(FACTORIES_FOR[players])])
    cite("azul.component.bag")
    cite("azul.setup.bag")
    state.bag = [TILES_PER_COLOUR] * NUM_COLOURS
    cite("azul.setup.first-player")
    if ruleset.starter_by_chance:
        cite_alternative("azul.setup.starter-choice", "by-chance")
        state.starter = chance.first_player(players)
    else:
        cite_alternative("azul.setup.starter-choice", "first-seat")
        state.starter = 0
    state.marker = state.starter
    events: list[Event] = []
    fill_factories(state, chance, events, "azul.setup.fill-factories")
    start_round(state, events)
    return Game(state, ruleset, chance)
