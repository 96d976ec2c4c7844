"""Azul Duel's part of the search (properties/search/): named `--where` conditions, the extra names
an expression may use, and the context a reading needs to matter (the tablets it scores)."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from model.clauses import RECORDER
from model.duel import Game
from model.duel.colours import EMPTY, SPECIAL, WILD
from model.duel.dome import band_full, matching_cells
from model.duel.game import TABLETS
from model.duel.game import start as start_game
from model.duel.scoring import tablet_points
from properties.search.hooks import Predicate, SearchHooks
from properties.search.view import View

TOKENS = 2                    # a player's Acquisition tokens per round (duel.acquire.tokens)


def view(game: Game) -> View:
    """bag, tower: tiles in each; tokens_left: per seat, the tokens not used this round;
    tablets_now: per seat, what the tablets would score for the Dome as it stands (worked out only
    when read: it is most of a step's view's cost, and few goals read it)."""
    s = game.state
    return View({"bag": sum(s.bag), "tower": sum(s.tower), "tokens_left": tuple(TOKENS - p.tokens_used for p in s.players)},
                {"tablets_now": lambda: _tablets_now(game)})


def _tablets_now(game: Game) -> tuple[int, ...]:
    """The tablets' points per seat for the Domes as they stand (the recorder off: looking is not
    playing, so no tablet clause counts as fired)."""
    was = RECORDER.enabled
    RECORDER.enabled = False
    try:
        rules = game.rules
        return tuple(sum(tablet_points(side, rules, pl.dome_space, pl.dome_tile) for side in rules.tablets)
                     for pl in game.state.players)
    finally:
        RECORDER.enabled = was


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


LARGE_TILES = 5               # tiles on the large Factory's sun (duel.prep.factories-refill)
DEAD_END = 40                 # a distance for a position from which the situation cannot come
ROOMY_BAG = 8                 # the largest one-coloured bag to aim for (see _one_colour_distance)
TILES = 65                    # 13 of each of the 5 colours
REFILL = 21                   # a refill's tiles: 5 on the large Factory, 4 on each of the 4 small ones


def _one_colour_distance(v: Mapping[str, Any]) -> float:
    """Toward a bag of one colour holding a large Factory's five when a refill starts. The bag is
    restocked from the Tower only when empty: set-up and the first two refills leave 44, 23, 2; the
    round-4 refill draws those 2, pours in the Tower (T tiles) and leaves 2 + T - 21 = B for the
    round-5 refill. For the large Factory to draw five of one colour from a bag with no other, B
    must be 5 to 13 (13 tiles of a colour), so the players keep 31 to 39 tiles out of the bag and
    Tower through round 3 (B = 44 - kept, see kept_tiles); and chance must draw the other colours
    first, which leaves one colour only if some colour has B of the 2 + T tiles: likely for B up
    to 8 (ROOMY_BAG). Before that refill: how far the kept tiles are from B in 5-8; after it, the
    bag is what it is: met, or a dead end."""
    s = v["state"]
    if s.round >= 4:              # the bag stays as it is until the round-5 refill, the last one
        colours = sum(1 for n in s.bag if n)
        return 0.0 if s.round == 4 and colours == 1 and sum(s.bag) >= LARGE_TILES else float(DEAD_END)
    left = TILES - REFILL - kept_tiles(s)              # B if round 3 ended as the table stands
    return 16 + max(0, left - ROOMY_BAG) + 2 * max(0, LARGE_TILES - left)


LAST_PLATES_ROUND = 4          # 1 + 2 x 4 plates fill a Dome's 9 spaces by the end of round 4


def _kept_line(pl: Any, line: int, last: bool) -> int:
    """The tiles of a pattern line still out of the bag and Tower after the coming Dome-tiling: an
    incomplete line stays; a complete one keeps one tile (on the Dome) where its row has a free
    matching space, all of them while it waits (its band not full; `last`: the bands are full by
    this round's tiling), none when it cannot move."""
    n = pl.line_count[line]
    if n <= line:
        return n
    if matching_cells(pl, line, pl.line_colour[line]):
        return 1
    return 0 if last or band_full(pl, line) else n


def kept_tiles(s: Any) -> int:
    """Tiles that stay out of the bag and the Tower at the next refill, as the table stands: on
    the Domes, what each pattern line keeps (_kept_line), and of tiles just picked and not yet
    placed, as many as one pattern line has room for. Broken tiles go to the Tower."""
    last = s.round >= LAST_PLATES_ROUND
    kept = sum(sum(1 for t in pl.dome_tile if t not in (EMPTY, SPECIAL)) + sum(_kept_line(pl, i, last) for i in range(6))
               for pl in s.players)
    p = s.pending
    if p is not None and p.kind in ("line", "stack"):         # data: ([factory,] colour, tiles)
        colour, n = p.data[-2], p.data[-1]
        pl = s.players[p.player]
        kept += max((min(n, i - pl.line_count[i]) for i in range(6)
                     if pl.line_colour[i] in (EMPTY, colour) and pl.line_count[i] < i), default=0)
    return kept


def _dry_distance(v: Mapping[str, Any]) -> float:
    """Toward a refill that finds fewer than its 21 tiles in bag and Tower: every tile not kept on
    a Dome or a pattern line is in the bag, the Tower or the Factories at a refill (the Factories
    are empty by then), so the players must keep at least 65 - 20 = 45. No refill follows round 5.
    The coverage-guided search keeps 40-41 at most; the witness comes from the round-level explorer
    of properties/duel/hoard.py."""
    s = v["state"]
    return max(0, TILES - (REFILL - 1) - kept_tiles(s)) if s.round < 5 else float(TILES)


def _untaken(v: Mapping[str, Any]) -> bool:
    return any("acquisition -> dome_tiling" in e for e in v["events"]) and v["state"].large.start_tile


def _factory_tiles(s: Any) -> int:
    return sum(s.large.sun) + sum(s.large.moon) + sum(sum(f.sun) + len(f.moon) for f in s.small)


def _untaken_distance(v: Mapping[str, Any]) -> float:
    """Toward an Acquisition that ends with the Starting player tile on the large Factory: it is
    taken with the first moon pick from the large Factory, and the large moon gets the sun's
    leftovers, so it stays untaken only when the large sun shows one colour or none (the one-colour
    redraw allows that only when the bag holds no other colour, or the tiles ran out). Where this
    round can still end so, the tiles still to be taken; else the way there through a later
    refill: a bag of one colour (see _one_colour_distance), or a dead end in round 5."""
    s = v["state"]
    now = _untaken_now(s)
    if now is not None:
        return now                             # this round can end with it there: the rest to be taken
    return 10.0 + _one_colour_distance(v) if s.round < 5 else float(DEAD_END)


def _tie_distance(v: Mapping[str, Any]) -> float:
    """Toward a game over in a tie with the Starting player tile untaken in round 5 (the tile is
    back on the large Factory after every refill, so only the last round counts); the scores,
    with what the tablets would add for the Domes as they stand, count once the last round is
    under way."""
    gap = _score_gap(v) if v["over"] or v["state"].round == 5 else 10
    return _untaken_distance(v) + gap + 10 * (not v["over"])


def _score_gap(v: Mapping[str, Any]) -> float:
    """The players' point gap: at the end the scores, before it the scores with what the tablets
    would add for the Domes as they stand (they are still to be scored)."""
    if v["over"]:
        return abs(v["scores"][0] - v["scores"][1])
    return abs(v["scores"][0] + v["tablets_now"][0] - v["scores"][1] - v["tablets_now"][1])


SMALL_TILES = 16              # the four small Factories' suns, filled first under duel.prep.refill-order=small-first


def _untaken_now(s: Any) -> float | None:
    """Where this round can still end with the Starting player tile untaken (the large sun shows one
    colour or none and its moon nothing): the tiles still to be taken; else None."""
    colours = sum(1 for n in s.large.sun if n)
    return _factory_tiles(s) / 4 if s.large.start_tile and not any(s.large.moon) and colours <= 1 else None


def _last_colour_gap(bag: Sequence[int]) -> float:
    """Under small-first the large Factory draws what the small ones leave: for its five to be one
    colour with no other left (the redraw cannot help, and the default accept keeps them), the bag's
    most plentiful colour must hold all of the bag but its first 16 tiles, and those tiles must be
    at least the large Factory's five. How far the bag is from that (0: chance can do it, drawing
    the other colours for the small Factories)."""
    left = sum(bag) - SMALL_TILES
    return float(max(0, left - max(bag)) + 2 * max(0, LARGE_TILES - left))


def _small_first_untaken_distance(v: Mapping[str, Any]) -> float:
    """Toward an Acquisition in rounds 1-4 that ends with the Starting player tile untaken, under
    duel.prep.refill-order=small-first (the context of duel.prep.untaken-start-tile=alternate).
    The round-3 refill draws from a bag of 23 (44 and 23 after set-up and the round-2 refill,
    whatever is played): the small Factories take 16 and the large one the last 7, so chance can
    give it five of one colour when that colour holds 7 of the 23. In round 2 the bag is what that
    refill draws from (_last_colour_gap); in rounds 3 and 4, this round's part; else a dead end."""
    s = v["state"]
    now = _untaken_now(s) if s.round <= 4 else None
    if now is not None:
        return now
    if s.round == 2:
        return 10.0 + _last_colour_gap(s.bag)
    return 11.0 if s.round < 2 else float(DEAD_END)       # round 1: the round-2 refill still to choose


ROUND_5_BAG = (21, 29)        # the bag after the round-4 refill (B) for the round-5 refill's last tiles


def _small_first_tie_distance(v: Mapping[str, Any]) -> float:
    """Toward a game over in a tie with the Starting player tile untaken in round 5, under
    duel.prep.refill-order=small-first (the context of duel.end.tie-without-tile=round-starter).
    The round-4 refill restocks the bag from the Tower and leaves B = 44 - kept (kept_tiles after
    round 3); the round-5 refill's small Factories take 16 of B and the large one the rest, which
    can be five or more of one colour (no restock in between) when B is 21 to 29 and its most
    plentiful colour holds B - 16. Rounds 1-3: how far the kept tiles are from that B; round 4:
    how far the bag is (_last_colour_gap); round 5: this round's part, plus the score gap with what
    the tablets would add (as _tie_distance)."""
    s = v["state"]
    if s.round == 5:
        now = _untaken_now(s)
        if now is None:
            return float(DEAD_END) + 10
        return now + _score_gap(v) + 5 * (not v["over"])
    if s.round == 4:
        bag = sum(s.bag)
        return 20.0 + _last_colour_gap(s.bag) + max(0, ROUND_5_BAG[0] - bag)
    low, high = ROUND_5_BAG
    bag = TILES - REFILL - kept_tiles(s)
    return 30.0 + max(0, low - bag, bag - high)


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


ROUNDS = 5                    # the game's rounds (duel.end.after-round-5)
EDGE = tuple(c for c in range(36) if c // 6 in (0, 5) or c % 6 in (0, 5))   # the Dome's outer ring


def _to_the_end(v: Mapping[str, Any]) -> float:
    """How far play is from the final scoring: rounds to go, and a step before the game is over."""
    return 2.0 * (ROUNDS - v["round"]) + (0 if v["over"] else 1)


def _empty_specials(pl: Any) -> int:
    return sum(1 for space, tile in zip(pl.dome_space, pl.dome_tile, strict=True) if space == SPECIAL and tile == EMPTY)


def _floor_between_tablets(v: Mapping[str, Any]) -> bool:
    """The final scoring gave a seat tablet points and took a tablet loss larger than the score it
    had before the tablets (read from the step's tablet events: what the floor let through, what was
    due), so the floor acts between loss and gain: duel.end.tablet-floor decides."""
    for seat in range(len(v["scores"])):
        gain = lost = due = 0
        for e in v["events"]:
            if e.startswith(f"P{seat + 1} ") and e.endswith("[duel.end.tablets-scored]"):
                m = re.match(r"P\d+ (tablet|penalty) ([+-]\d+)?", e)
                points = int(m[2]) if m and m[2] else 0
                if points > 0:
                    gain += points
                else:
                    floor = re.search(r"\(floor: (\d+) due\)", e)
                    lost -= points
                    due += int(floor[1]) if floor else -points
        if gain and v["scores"][seat] - gain + lost < due:
            return True
    return False


def _floor_gap(v: Mapping[str, Any]) -> float:
    """Per seat: points above the empty-Special-space loss (3 each) that must go before the loss would
    cross 0, plus 2 without a tile on the edge ring (no gain); the smallest."""
    gaps = []
    for pl in v["state"].players:
        tiles = pl.dome_tile
        gain = any(tiles[c] != EMPTY for c in EDGE)
        gaps.append(max(0, pl.score + 1 - 3 * _empty_specials(pl)) + (0 if gain else 2))
    return float(min(gaps))


def _floor_distance(v: Mapping[str, Any]) -> float:
    """Toward a final scoring where the floor acts between tablet loss and gain (duel.end.tablet-floor):
    a seat whose score is below its empty-Special-space loss, with a gain beside it, late in the game.
    Counts with the edge ring as the gain (the context's outer-spaces tablet)."""
    return _floor_gap(v) + _to_the_end(v)


def _gapped_colourful(v: Mapping[str, Any]) -> bool:
    return bool(v["over"]) and _colour_gap(v) == 0


def _colour_gap(v: Mapping[str, Any]) -> float:
    """The fewest regular colours a Dome row with an empty cell lacks of the 5 (either seat)."""
    best = 5
    for pl in v["state"].players:
        tiles = pl.dome_tile
        for r in range(6):
            row = tiles[r * 6:r * 6 + 6]
            if EMPTY in row:
                best = min(best, 5 - len(set(row) - {EMPTY, SPECIAL}))
    return float(best)


def _gapped_colourful_distance(v: Mapping[str, Any]) -> float:
    """Toward the final scoring with a Dome row of 5 regular colours and an empty cell (where
    duel.tablet.colourful-rows.full decides). A row gains at most one regular tile per Dome-tiling
    (its pattern line's), so in a 5-round game such a row needs a new colour in every tiling: a row
    that lacks more colours than tilings are left, or than it has empty cells that could take one of
    them (no plate yet, a Joker space, a space of a colour it lacks), is given up. Per kept row: 3
    per colour lacking, less up to 2 for its pattern line filling with a colour the row lacks and has
    a space for; the closest row, plus how far play is from the end."""
    s = v["state"]
    left = ROUNDS + 1 - s.round if s.phase in ("setup", "acquisition", "dome_tiling") else ROUNDS - s.round
    best = 40.0
    for pl in s.players:
        tiles, spaces = pl.dome_tile, pl.dome_space
        for r in range(6):
            row = tiles[r * 6:r * 6 + 6]
            if EMPTY not in row:
                continue
            have = set(row) - {EMPTY, SPECIAL}
            lacking = 5 - len(have)
            cells = range(r * 6, r * 6 + 6)
            room = sum(1 for c in cells if tiles[c] == EMPTY and spaces[c] not in have and spaces[c] != SPECIAL)
            if lacking > min(left, room):           # too few tilings, or too few cells that could take them
                continue
            d = 3.0 * lacking
            colour, count = pl.line_colour[r], pl.line_count[r]
            if colour != EMPTY and colour not in have and any(
                    tiles[c] == EMPTY and spaces[c] in (colour, WILD) for c in cells):
                d -= 2.0 * count / (r + 1)
            best = min(best, d)
    return best + _to_the_end(v)


PREDICATES: dict[str, Predicate] = {
    "bag-empty-at-refill": Predicate("the bag runs out while the Factories are refilled (the Tower restocks it)",
                                     _bag_empty, lambda v: v["bag"]),
    "factory-left-unfilled": Predicate("a refill leaves a small Factory without tiles", _unfilled,
                                       lambda v: v["bag"]),
    "pass-with-token-unused": Predicate("a player passes while holding an unused token", _passes_with_token),
    "tiling-scores": tiling_scores(20),
    "one-colour-bag": Predicate("the bag holds tiles of one colour only, at least a large Factory's five",
                                lambda v: _colours_in_bag(v) == 1 and sum(v["state"].bag) >= LARGE_TILES,
                                _one_colour_distance),
    "start-tile-untaken": Predicate("an Acquisition ends with the Starting player tile still on the large Factory",
                                    _untaken, _untaken_distance),
    "tie-without-start-tile": Predicate("the game ends in a tie and nobody holds the Starting player tile",
                                        _tie_without_tile,
                                        _tie_distance),
    "start-tile-untaken-small-first": Predicate(
        "an Acquisition in rounds 1-4 ends with the Starting player tile still on the large Factory "
        "(steered for duel.prep.refill-order=small-first)", lambda v: _untaken(v) and v["state"].round <= 4,
        _small_first_untaken_distance),
    "tie-without-start-tile-small-first": Predicate(
        "the game ends in a tie and nobody holds the Starting player tile (steered for "
        "duel.prep.refill-order=small-first)", _tie_without_tile, _small_first_tie_distance),
    "bag-and-tower-empty": Predicate("a refill finds bag and Tower both empty: some Factories stay short",
                                     lambda v: "tiles-ran-out" in v["kinds"], _dry_distance),
    "pass-with-token-before-round-5": Predicate("in rounds 1-4 a player passes with a Player token unused",
                                                _pass_with_token_early, _pass_with_token_early_distance),
    "tablet-floor-between": Predicate("the game ends with a seat's empty-Special-space loss above its score and an "
                                      "edge tile to gain (tablets: outer-spaces, empty-special-spaces)",
                                      _floor_between_tablets, _floor_distance),
    "colourful-row-with-gap": Predicate("the game ends with a Dome row holding 5 regular colours and an empty cell",
                                        _gapped_colourful, _gapped_colourful_distance),
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
# A loss and a gain at the end: the empty Special spaces and the edge ring (almost every Dome has a
# tile there).
_LOSS_AND_GAIN = {TABLETS: "rows-complete,outer-spaces,empty-special-spaces"}

# A player with a token left who cannot act: only when a player at 0 points may not draw from the
# pile (see _pass_with_token_early_distance).
_CLOSED_PILE = {"duel.plate.draw-at-zero": "must-pay"}

# Who starts after an untaken Starting player tile, and who wins a tie nobody holds it in: both need a
# large Factory whose tiles never reach its moon. Under the defaults that takes a bag of one colour at
# a refill (about 50 tiles kept out of bag and Tower, or the monochrome route to round 5); with the
# small Factories filled first the large one draws the bag's last tiles, which chance can leave all
# of one colour in round 3 (the round-3 refill draws from 23 tiles whatever is played) or round 5.
_SMALL_FIRST = {"duel.prep.refill-order": "small-first"}

# What a reading or a clause needs in play to matter at all: the tablets it scores, the reading of
# another point without which it can never decide; or (leave-empty) the reading under which it matters
# within a search's budget: under large-first a one-coloured bag at a refill needs 31-39 tiles kept
# through round 3 (the committed witness, from a single search at seed 20, shows it can), and the
# seed-0 `--all` search did not get there in 464 CPU s; under small-first the large Factory draws the
# round-3 refill's last 7 tiles, which chance can make one colour (found within 2,000 nodes).
CONTEXTS: dict[str, dict[str, str]] = {
    "duel.refill.monochrome-unavoidable=leave-empty": _SMALL_FIRST,
    "duel.acquire.end.passed-tokens=strict": _CLOSED_PILE,
    "duel.acquire.pass.permanent=recheck": _CLOSED_PILE,
    "duel.prep.untaken-start-tile=alternate": _SMALL_FIRST,
    "duel.end.tie-without-tile=round-starter": _SMALL_FIRST,
    "duel.tablet.colourful-rows.full=full-row": _COLOURFUL,
    "duel.end.tablet-floor=losses-first": _LOSS_AND_GAIN,
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
    "duel.refill.monochrome-unavoidable=leave-empty": "start-tile-untaken-small-first",
    "duel.refill.monochrome-unavoidable=restock-from-tower": "one-colour-bag",
    "duel.end.tie-without-tile=round-starter": "tie-without-start-tile-small-first",
    "duel.prep.untaken-start-tile=alternate": "start-tile-untaken-small-first",
    "duel.acquire.end.start-tile": "start-tile-untaken",
    "duel.prep.rare-empty": "bag-and-tower-empty",
    "duel.acquire.end.passed-tokens=strict": "pass-with-token-before-round-5",
    "duel.acquire.pass.permanent=recheck": "pass-with-token-before-round-5",
    "duel.end.tablet-floor=losses-first": "tablet-floor-between",
    "duel.tablet.colourful-rows.full=full-row": "colourful-row-with-gap",
}

# Questions of `search --all` shown unreachable: goal key ("decide ID=ALT" or "clause ID") -> why,
# and where it is argued (a test that would fail if a game reached it). The search skips them and
# says so; the report's "Found by search" shows the reason.
UNREACHABLE: dict[str, str] = {
    "decide duel.acquire.pass.permanent=recheck": (
        "a player passes only when no other action is legal (duel.acquire.pass), and nothing later in the "
        "same Acquisition gives one back: the Factories only lose tiles (none were left to take, and a chip "
        "is revealed only when a pick empties a Factory); the plate display is refilled only in Preparation; "
        "the pile stays closed to them (an empty pile gets plates back only from draws out of it, and under "
        "must-pay the score never rises during Acquisition); tokens used, chips taken and Dome spaces filled "
        "only grow. So a passed player is never able to act again and recheck changes nothing. Bounded by "
        "tests/test_search_duel_rare.py: in 10,000 search nodes steered toward passes with a token left, "
        "no passed player looked at again could act"),
}

def _hoard(seed: int, nodes: int) -> tuple[tuple[list[str], Any] | None, int]:
    """duel.prep.rare-empty's own explorer (properties/duel/hoard.py, which reads this module)."""
    from properties.duel.hoard import find

    return find(seed, nodes)


SEARCH = SearchHooks(predicates=PREDICATES, view=view, start=start, context_lines=context_lines, contexts=CONTEXTS, readings=True,
                     steer=STEER, unreachable=UNREACHABLE, explorers={"clause duel.prep.rare-empty": _hoard})
