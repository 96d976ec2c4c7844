"""Azul Duel's step bound: the longest game its components allow, so the watchdog
(properties/watchdog.py) can call a longer one livelocked."""

from __future__ import annotations

from model.duel.ruleset import Ruleset

ROUNDS = 5
PLAYERS = 2
TOKENS_PER_PLAYER = 2
LARGE_FACTORY_TILES = 5
SMALL_FACTORY_TILES = 4
SMALL_FACTORIES = 4
DOME_LINES = 6


def max_round_steps(rules: Ruleset) -> int:
    """The most actions one round can take (a generous bound derived from the components).

    Acquisition: every Factory tile leaves the sun side once (taken, or pushed to the moon side)
    and the moon side once, and each pick is at most three actions (pick, stack order, line);
    each revealed chip is one action; each plate token is at most a draw per plate in the pile,
    a keep, a placement and a return per plate. A pass happens only when the player has nothing
    else to do, so passes are at most the other actions plus one each. Dome-tiling asks each
    player at most a Bonus-chip choice and a space choice per pattern line (plus a second space
    choice for a line completed with chips).
    """
    plates = len(rules.tables.plates)
    tiles = LARGE_FACTORY_TILES + SMALL_FACTORIES * SMALL_FACTORY_TILES
    picks = 2 * tiles * 3
    chips = SMALL_FACTORIES
    tokens = PLAYERS * TOKENS_PER_PLAYER * (2 * plates + 2)
    acquisition = picks + chips + tokens
    passes = acquisition + PLAYERS
    tiling = PLAYERS * DOME_LINES * 3
    return acquisition + passes + tiling


def max_game_steps(rules: Ruleset | None = None) -> int:
    """The most actions a whole game can take: the two opening plate picks and five rounds."""
    rules = rules or Ruleset.build()
    return PLAYERS + ROUNDS * max_round_steps(rules)


def step_bound(game: object) -> int:
    """The registry's `step_bound`: the bound for this game's ruleset."""
    return max_game_steps(getattr(game, "rules", None))
