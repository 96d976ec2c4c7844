"""Azul Duel's part of the search (properties/search/): named `--where` conditions, the extra names
an expression may use, and the context a reading needs to matter (the tablets it scores)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from model.duel import Game
from model.duel.game import TABLETS
from model.duel.game import start as start_game
from properties.search.hooks import Predicate, SearchHooks

TOKENS = 2                    # a player's Acquisition tokens per round (duel.acquire.tokens)


def view(game: Game) -> dict[str, Any]:
    """bag, tower: tiles in each; tokens_left: per seat, the tokens not used this round."""
    s = game.state
    return {"bag": sum(s.bag), "tower": sum(s.tower), "tokens_left": tuple(TOKENS - p.tokens_used for p in s.players)}


def _bag_empty(v: Mapping[str, Any]) -> bool:
    return "restock" in v["kinds"]


def _unfilled(v: Mapping[str, Any]) -> bool:
    refilled = any("-> acquisition" in e and "setup" not in e for e in v["events"])
    s = v["state"]
    return refilled and any(not f.has_tiles for f in s.small)


def _passes_with_token(v: Mapping[str, Any]) -> bool:
    return any(k == "pass" and v["state"].players[p].tokens_used < TOKENS
               for k, p in zip(v["kinds"], _players(v), strict=True))


def _players(v: Mapping[str, Any]) -> list[int]:
    return [int(e[1]) - 1 if e.startswith("P") else -1 for e in v["events"]]


def _tie_without_tile(v: Mapping[str, Any]) -> bool:
    return bool(v["over"]) and len(set(v["scores"])) == 1 and not any(p.start_tile for p in v["state"].players)


def tiling_scores(at_least: int) -> Predicate:
    def holds(v: Mapping[str, Any]) -> bool:
        return any(n >= at_least for n in _tiling_points(v).values())

    def distance(v: Mapping[str, Any]) -> float:
        got = _tiling_points(v)
        return max(0, at_least - max(got.values(), default=0)) if got else at_least

    return Predicate(f"one Dome-tiling phase scores at least {at_least} points for one player", holds, distance,
                     argument=tiling_scores)


def _tiling_points(v: Mapping[str, Any]) -> dict[int, int]:
    """Net points per seat of a step in which Dome-tiling ran (its score events)."""
    if not any("duel.tiling" in e for e in v["events"]):
        return {}
    return dict(v["points"])


def _colours_in_bag(v: Mapping[str, Any]) -> int:
    return sum(1 for n in v["state"].bag if n)


def _one_colour_distance(v: Mapping[str, Any]) -> float:
    """Toward a bag of one colour at a large Factory's fill: the colours in bag and Tower together
    (the Tower restocks the bag when it runs dry), and the bag's size (a small bag runs dry soon)."""
    s = v["state"]
    colours = sum(1 for c in range(len(s.bag)) if s.bag[c] or s.tower[c])
    return max(0, colours - 1) * 4 + min(v["bag"], 20) / 5


def _untaken(v: Mapping[str, Any]) -> bool:
    return any("acquisition -> dome_tiling" in e for e in v["events"]) and v["state"].large.start_tile


def _factory_tiles(s: Any) -> int:
    return sum(s.large.sun) + sum(s.large.moon) + sum(sum(f.sun) + len(f.moon) for f in s.small)


def _untaken_distance(v: Mapping[str, Any]) -> float:
    """Toward an Acquisition that ends with the Starting player tile on the large Factory: it is
    taken only with a moon pick from the large Factory, so tiles on the large moon count heavily,
    the tiles still to be taken lightly; once taken this round, far."""
    s = v["state"]
    if not s.large.start_tile:
        return 40.0
    return 10.0 * (sum(s.large.moon) > 0) + _factory_tiles(s) / 4


def _pass_with_token_early(v: Mapping[str, Any]) -> bool:
    return v["state"].round < 5 and _passes_with_token(v)


def _pass_with_token_early_distance(v: Mapping[str, Any]) -> float:
    """Toward a player with a token left who can act no more in rounds 1-4. Under the defaults
    the plates always suffice (18 plates: one each at set-up, then exactly one per token, and 9 Dome
    spaces), so it needs duel.plate.draw-at-zero=must-pay: the display empty, the player at 0 points
    (the pile then closed to them), the Factories empty."""
    s = v["state"]
    if s.round >= 5:
        return 100.0
    shown = sum(1 for p in s.display if p)
    best = min((shown + min(pl.score, 10) for pl in s.players if pl.tokens_used < TOKENS), default=20)
    return 3.0 * best + _factory_tiles(s) / 5


PREDICATES: dict[str, Predicate] = {
    "bag-empty-at-refill": Predicate("the bag runs out while the Factories are refilled (the Tower restocks it)",
                                     _bag_empty, lambda v: v["bag"]),
    "factory-left-unfilled": Predicate("a refill leaves a small Factory without tiles", _unfilled,
                                       lambda v: v["bag"]),
    "pass-with-token-unused": Predicate("a player passes while holding an unused token", _passes_with_token),
    "tiling-scores": tiling_scores(20),
    "one-colour-bag": Predicate("the bag holds tiles of one colour only", lambda v: _colours_in_bag(v) == 1,
                                _one_colour_distance),
    "start-tile-untaken": Predicate("an Acquisition ends with the Starting player tile still on the large Factory",
                                    _untaken, _untaken_distance),
    "tie-without-start-tile": Predicate("the game ends in a tie and nobody holds the Starting player tile",
                                        _tie_without_tile,
                                        lambda v: abs(v["scores"][0] - v["scores"][1]) + 10 * (not v["over"])
                                        + (_untaken_distance(v) if v["state"].round == 5 else 20)),
    "bag-and-tower-empty": Predicate("a refill finds bag and Tower both empty: some Factories stay short",
                                     lambda v: "tiles-ran-out" in v["kinds"],
                                     lambda v: v["bag"] + v["tower"]),
    "pass-with-token-before-round-5": Predicate("in rounds 1-4 a player passes with a Player token unused",
                                                _pass_with_token_early, _pass_with_token_early_distance),
}


def start(seed: int, overrides: Mapping[str, str], players: int | None, chance: Any) -> Game:
    """A game from set-up (the scenario's `[chance] scope = "game"`); `tablets` in the context picks them."""
    return start_game(seed=seed, overrides=overrides, chance=chance)


def context_lines(players: int | None, context: Mapping[str, str]) -> tuple[list[str], list[str]]:
    top = []
    if TABLETS in context:
        top.append("tablets = [" + ", ".join(f'"{t}"' for t in context[TABLETS].split(",")) + "]")
    return top, []


_COLOURFUL = {TABLETS: "colourful-rows,columns-complete,diagonals"}
_CORNERS = {TABLETS: "rows-complete,columns-complete,corner-plates"}
_OTHERS = {TABLETS: "colourful-rows,outer-spaces,wild-spaces"}
_EMPTY_SPECIAL = {TABLETS: "rows-complete,columns-complete,empty-special-spaces"}

# A player with a token left who cannot act: only when a player at 0 points may not draw from the
# pile (see _pass_with_token_early_distance).
_CLOSED_PILE = {"duel.plate.draw-at-zero": "must-pay"}

# What a reading or a clause needs in play to matter at all: the tablets it scores, the reading of
# another point without which it can never decide.
CONTEXTS: dict[str, dict[str, str]] = {
    "duel.acquire.end.passed-tokens=strict": _CLOSED_PILE,
    "duel.acquire.pass.permanent=recheck": _CLOSED_PILE,
    "duel.tablet.colourful-rows.full=full-row": _COLOURFUL,
    "duel.tablet.colourful-rows.special=counts-as-colour": _COLOURFUL,
    "duel.tablet.corner-values=upper-8-lower-3": _CORNERS,
    "duel.tablet.outer-scope=outer-plates": _OTHERS,
    "duel.tablet.colourful-rows": _COLOURFUL,
    "duel.tablet.corner-plates": _CORNERS,
    "duel.tablet.outer-spaces": _OTHERS,
    "duel.tablet.wild-spaces": _OTHERS,
    "duel.tablet.empty-special-spaces": _EMPTY_SPECIAL,
}

# The situation each rare reading needs, as a distance the search steers toward.
STEER: dict[str, str] = {
    "duel.refill.monochrome-unavoidable=leave-empty": "one-colour-bag",
    "duel.refill.monochrome-unavoidable=restock-from-tower": "one-colour-bag",
    "duel.end.tie-without-tile=round-starter": "tie-without-start-tile",
    "duel.prep.untaken-start-tile=alternate": "start-tile-untaken",
    "duel.acquire.end.start-tile": "start-tile-untaken",
    "duel.prep.rare-empty": "bag-and-tower-empty",
    "duel.acquire.end.passed-tokens=strict": "pass-with-token-before-round-5",
    "duel.acquire.pass.permanent=recheck": "pass-with-token-before-round-5",
}

SEARCH = SearchHooks(predicates=PREDICATES, view=view, start=start, context_lines=context_lines, contexts=CONTEXTS, readings=True,
                     steer=STEER)
