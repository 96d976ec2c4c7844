"""Classic Azul's part of the search (properties/search/): named `--where` conditions, the extra
names an expression may use, and how a witness file builds its game (set-up from the file's seed,
the bag's later draws scripted; the wall side in `[given]`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from model.azul.game import Game
from model.azul.start import WALL_SIDE
from model.azul.start import start as start_game
from model.chance import ScriptedChance
from properties.azul.hooks import format_tiles as _format
from properties.search.chance import ChanceRecord
from properties.search.hooks import Predicate, SearchHooks


def view(game: Game) -> dict[str, Any]:
    """bag, lid, centre: tiles in each."""
    s = game.state
    return {"bag": sum(s.bag), "lid": sum(s.lid), "centre": sum(s.centre)}


def tiling_scores(at_least: int) -> Predicate:
    def holds(v: Mapping[str, Any]) -> bool:
        return "azul.offer.end" in v["clauses"] and any(n >= at_least for n in v["points"].values())

    def distance(v: Mapping[str, Any]) -> float:
        if "azul.offer.end" not in v["clauses"]:
            return at_least
        return max(0, at_least - max(v["points"].values(), default=0))

    return Predicate(f"one wall-tiling phase scores at least {at_least} points for one player", holds, distance,
                     argument=tiling_scores)


PREDICATES: dict[str, Predicate] = {
    "bag-empty-at-refill": Predicate("the bag runs out while the factories are refilled (the lid refills it)",
                                     lambda v: "bag-from-lid" in v["kinds"] or "partial-fill" in v["kinds"],
                                     lambda v: v["bag"]),
    "factory-left-unfilled": Predicate("bag and lid both run out: a factory stays (partly) empty",
                                       lambda v: "partial-fill" in v["kinds"], lambda v: v["bag"] + v["lid"]),
    "tiling-scores": tiling_scores(15),
    "tie": Predicate("the game ends with a shared win", lambda v: bool(v["over"]) and v["winner"] is None),
}


def start(seed: int, overrides: Mapping[str, str], players: int | None, chance: Any) -> Game:
    """What a witness file builds: set-up from its seed (and scripted first seat), then `chance`."""
    first = chance.first if isinstance(chance, ScriptedChance) else chance.first_player(players or 2)
    game = start_game(seed=seed, overrides=dict(overrides), players=players,
                      chance=ScriptedChance(first=first, seed=seed))
    game.chance = chance
    return game


def chance_lines(record: ChanceRecord, format_tiles: Any) -> list[str]:
    lines = [f'tiles = "{_format(list(record.tiles))}"']
    if record.first is not None:
        lines.append(f'first = "P{record.first + 1}"')
    return lines


def context_lines(players: int | None, context: Mapping[str, str]) -> tuple[list[str], list[str]]:
    given = [f"players = {players or 2}"]
    if WALL_SIDE in context:
        given.append(f'wall = "{context[WALL_SIDE]}"')
    return [], given


_GRAY = {WALL_SIDE: "gray"}
CONTEXTS: dict[str, dict[str, str]] = {
    "azul.gray.unplaceable-line=refused": _GRAY,
    "azul.gray": _GRAY,                       # every clause of the gray wall's chapter
}

SEARCH = SearchHooks(predicates=PREDICATES, view=view, replay="steps", start=start, chance_lines=chance_lines,
                     context_lines=context_lines, contexts=CONTEXTS, readings=True)
