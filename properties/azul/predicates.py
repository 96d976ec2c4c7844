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


FLOOR = 7                     # floor line spaces (azul.floor.capacity)
CENTRE = -1                   # the marker's place while nobody has taken from the centre


def _full_floor_distance(v: Mapping[str, Any]) -> float:
    """Toward a first take from the centre by a player whose floor is full: while the marker is
    still in the centre, the spaces left on the fullest floor (and the tiles still to be offered)."""
    s = v["state"]
    if s.marker != CENTRE:
        return 2.0 * FLOOR + sum(sum(f) for f in s.factories) / 4
    return float(FLOOR - max(len(b.floor) for b in s.boards))


def _untaken_centre_distance(v: Mapping[str, Any]) -> float:
    """Toward an offer phase that ends with the centre never taken from: tiles in the centre (all
    must go with takes that leave nothing), far once the marker is taken."""
    s = v["state"]
    return 40.0 if s.marker != CENTRE else float(sum(s.centre))


PREDICATES: dict[str, Predicate] = {
    "bag-empty-at-refill": Predicate("the bag runs out while the factories are refilled (the lid refills it)",
                                     lambda v: "bag-from-lid" in v["kinds"] or "partial-fill" in v["kinds"],
                                     lambda v: v["bag"]),
    "factory-left-unfilled": Predicate("bag and lid both run out: a factory stays (partly) empty",
                                       lambda v: "partial-fill" in v["kinds"], lambda v: v["bag"] + v["lid"]),
    "tiling-scores": tiling_scores(15),
    "tie": Predicate("the game ends with a shared win", lambda v: bool(v["over"]) and v["winner"] is None),
    "marker-on-full-floor": Predicate("the first take from the centre is by a player whose floor is full",
                                      lambda v: "azul.offer.first-from-centre" in v["clauses"]
                                      and any(len(b.floor) >= FLOOR for b in v["state"].boards),
                                      _full_floor_distance),
    "centre-untaken": Predicate("steering toward an offer phase in which nobody takes from the centre; "
                                "holds at a step that ends the offer phase without taking the marker",
                                lambda v: "azul.offer.end" in v["clauses"] and "marker" not in v["kinds"],
                                _untaken_centre_distance),
}

# The situation each rare reading needs, as a distance the search steers toward.
STEER: dict[str, str] = {
    "azul.offer.marker-on-full-floor=displace-to-lid": "marker-on-full-floor",
    "azul.offer.marker-on-full-floor=beside-floor-one-point": "marker-on-full-floor",
    "azul.offer.marker-untaken=next-clockwise": "centre-untaken",
    "azul.prep.fill-order=round-robin": "factory-left-unfilled",
    "azul.prep.empty-round=stall": "factory-left-unfilled",
    "azul.end.dead-game=stall": "factory-left-unfilled",
    "azul.prep.partial-fill": "factory-left-unfilled",
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
    "azul.wall.no-space": _GRAY,              # a line with no wall space left: only the gray side has one
}

SEARCH = SearchHooks(predicates=PREDICATES, view=view, replay="steps", start=start, chance_lines=chance_lines,
                     context_lines=context_lines, contexts=CONTEXTS, readings=True, steer=STEER)
