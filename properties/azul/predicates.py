"""Classic Azul's part of the search (properties/search/): named `--where` conditions, the extra
names an expression may use, and how a witness file builds its game (set-up from the file's seed,
the bag's later draws scripted; the wall side in `[given]`)."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from model.azul.colours import NUM_COLOURS, ROWS
from model.azul.dead_game import acting_seats, free_tiles
from model.azul.game import Game
from model.azul.start import WALL_SIDE
from model.azul.start import start as start_game
from model.azul.walls import free_columns
from model.chance import ScriptedChance
from model.clauses import RECORDER
from properties.azul.hooks import format_tiles as _format
from properties.search.chance import ChanceRecord
from properties.search.hooks import Predicate, SearchHooks
from properties.search.view import View


def view(game: Game) -> View:
    """bag, lid, centre: tiles in each; free: tiles on no wall and no pattern line (bag, lid,
    factories, centre, floors); completing: wall rows the next tiling completes (a full line on a row
    of 4 tiles: the game then ends); to-lid: tiles of full lines the next tiling puts in the lid;
    options: the (seat, line, colour) completions that could still add a wall tile
    (model/azul/dead_game.py: 0 is a dead game); slack: for each of those, the free tiles of its
    colour that must leave circulation before it can no longer be completed (0 exactly when options
    is 0). options and slack are worked out only when read, once a step."""
    s = game.state
    free = free_tiles(s)
    kept: list[list[tuple[int, int]]] = []           # the completions, listed once for both names

    def listed() -> list[tuple[int, int]]:
        if not kept:
            kept.append(list(_completions(game, free)))
        return kept[0]

    return View({"bag": sum(s.bag), "lid": sum(s.lid), "centre": sum(s.centre), "free": sum(free),
                 "to-lid": _to_lid(game), "completing": _completing(game)},
                {"options": lambda: len(listed()),
                 "slack": lambda: sum(have - need + 1 for need, have in listed())})


def _to_lid(game: Game) -> int:
    """Tiles of full pattern lines that the next tiling sends to the lid (all but the one walled)."""
    return sum(r for b in game.state.boards for r in range(ROWS) if b.line_count[r] == r + 1)


def _completing(game: Game) -> int:
    return sum(1 for b in game.state.boards for r in range(ROWS)
               if b.line_count[r] == r + 1 and sum(1 for c in b.wall[r * ROWS:(r + 1) * ROWS] if c >= 0) == ROWS - 1)


def _completions(game: Game, free: list[int]) -> Iterator[tuple[int, int]]:
    """For every (seat, line, colour) that could still be completed onto a wall from the free tiles and
    the line's own (the count behind `walls_can_change`, the released gray lines left out; seats as
    `acting_seats` says): the tiles it still needs and the free tiles of its colour. `options` counts
    them; `slack` adds up, for each, the free tiles that would have to leave circulation (onto lines
    or walls) before it no longer could (it falls with every tile parked on a line). Read without
    citing (a view cites nothing)."""
    s, rules = game.state, game.rules
    was = RECORDER.enabled
    RECORDER.enabled = False
    try:
        seats = acting_seats(s, rules, free)
    finally:
        RECORDER.enabled = was
    for p in seats:
        board = s.boards[p]
        for r in range(ROWS):
            held = board.line_count[r]
            for colour in range(NUM_COLOURS):
                if held and board.line_colour[r] != colour:
                    continue
                need = r + 1 - held
                if free[colour] >= need and free_columns(board.wall, r, colour, rules.gray):
                    yield need, free[colour]


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


ENDED = 200.0                 # distance of a game that has ended: the condition can no longer come


def _no_tile_distance(v: Mapping[str, Any]) -> float:
    """Toward a round with no tile at all: every tile on a wall or an unfinished line. The free tiles,
    those the next tiling sends to the lid, and 25 for every wall row it would complete (that ends
    the game)."""
    return ENDED if v["over"] else float(v["free"] + v["to-lid"] + 25 * v["completing"])


def _dead_game_distance(v: Mapping[str, Any]) -> float:
    """Toward a dead game: the free tiles that must still leave circulation before no wall completion
    is possible (`slack`; 0: no wall can change again), the tiles the next tiling sends to the lid
    (free again after it), and 25 for every wall row the next tiling would complete. Counting
    completions alone (`options`) gives no step down for a tile parked on a line."""
    return ENDED if v["over"] else float(v["slack"] + v["to-lid"] + 25 * v["completing"])


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
    "no-tile-left": Predicate("a round is prepared with no tile at all: every tile on a wall or an unfinished "
                              "line (azul.prep.empty-round)",
                              lambda v: "empty-round" in v["kinds"] or "azul.prep.partial-fill" in v["clauses"]
                              and "stall" in v["kinds"], _no_tile_distance),
    "dead-game": Predicate("no wall can ever change again while tiles still circulate (azul.end.dead-game)",
                           lambda v: "dead-game" in v["kinds"] or "azul.end.trigger" in v["clauses"]
                           and "stall" in v["kinds"], _dead_game_distance),
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
    "azul.prep.empty-round=stall": "no-tile-left",
    "azul.end.dead-game=stall": "dead-game",
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
    # under the default marker cost every covered space costs its value, so the marker on the last
    # space costs what the displaced tile did, and that tile reaches the lid at floor scoring anyway:
    # the reading changes a score only where the marker costs one point
    "azul.offer.marker-on-full-floor=displace-to-lid": {"azul.floor.marker-cost": "one-point"},
    "azul.gray.unplaceable-line=refused": _GRAY,
    "azul.gray": _GRAY,                       # every clause of the gray wall's chapter
    "azul.wall.no-space": _GRAY,              # a line with no wall space left: only the gray side has one
    # a dead game needs every free colour barred from every line that could still be completed; on the
    # gray wall a row is also barred by its free spaces' columns, so many tiles can circulate with no
    # place to go (the seed-88 game of docs/azul-dead-game.md): found there in 3 and 27 CPU s (4 and 2
    # players, seed 0); on the coloured wall, where a row is barred only by what it and its line hold,
    # not within 120 CPU s (4 players)
    "azul.end.dead-game=stall": _GRAY,
}

_SHORT_REFILL_2P = (
    "with 2 players a refill never runs short: walls without a full row hold at most 2 x 20 tiles and "
    "unfinished pattern lines at most 2 x 10, so bag and lid hold at least 40 of the 100 tiles, twice the 20 "
    "that 5 displays take (argued in docs/designer-guide.md; tests/azul/test_two_player_supply.py checks the "
    "count and that a steered search never finds fewer than 40 at a 2-player refill)")

# Questions shown unreachable (goal key, "@2p": at 2 players only) -> why, and where it is argued.
UNREACHABLE: dict[str, str] = {
    "clause azul.prep.partial-fill @2p": _SHORT_REFILL_2P,
    "decide azul.prep.fill-order=round-robin @2p": _SHORT_REFILL_2P,
    "decide azul.prep.empty-round=stall @2p": _SHORT_REFILL_2P,
}

def _lock_up(seed: int, nodes: int) -> tuple[tuple[list[str], Any] | None, int]:
    """azul.prep.empty-round=stall's own explorer (properties/azul/lockup_explorer.py, which reads
    this module)."""
    from properties.azul.lockup_explorer import find

    return find(seed, nodes)


SEARCH = SearchHooks(predicates=PREDICATES, view=view, replay="steps", start=start, chance_lines=chance_lines,
                     context_lines=context_lines, contexts=CONTEXTS, readings=True, steer=STEER,
                     unreachable=UNREACHABLE, explorers={"decide azul.prep.empty-round=stall": _lock_up})
