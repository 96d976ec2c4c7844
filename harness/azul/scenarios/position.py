"""Build a classic Azul position from a scenario's `given`: a fresh setup (seed, players, wall side,
interpretations) whose named parts are replaced; the tiles nobody names go to the bag (or to the
lid, when only the bag is given), so the 100 tiles stay conserved. The position is then checked
against the physical invariants (properties/azul/invariants.py): an impossible position is an
error naming the field and the clause. With `phase = "tiling"` wall-tiling runs at once."""

from __future__ import annotations

import re
from typing import Any

from harness.azul.scenarios.loader import Scenario
from harness.azul.scenarios.notation import NotationError, parse_counts, parse_tiles, seat
from harness.scenarios.problems import Problems, chance_problem
from harness.scenarios.schema import suggest
from model.azul import round_end, tiling
from model.azul.colours import COLOURS, EMPTY, MARKER, NUM_COLOURS, ROWS, TILES_PER_COLOUR
from model.azul.game import Game
from model.azul.start import WALL_SIDE, start
from model.azul.state import CENTRE, FACTORY_TILES, FLOOR_SPACES, TILING, Board
from model.chance import ChanceScriptError, ScriptedChance
from model.errors import RulesetError
from model.events import Event
from properties.azul.invariants import INVARIANTS, tiles_by_colour

# which `given` field holds the mistake an invariant finds ("{p}": the player it names)
INVARIANT_FIELDS = {"tile-conservation": "given.bag", "floor-capacity": "given.{p}.floor",
                    "score-floor": "given.{p}.score", "pattern-lines": "given.{p}.lines",
                    "wall-colours": "given.{p}.wall", "marker": "given.marker"}


def _int(value: Any, field: str, low: int, problems: Problems) -> int | None:
    if not isinstance(value, int) or isinstance(value, bool) or value < low:
        problems.add(field, f"expected an integer >= {low}")
        return None
    return value


def _lines(board: Board, value: Any, field: str, problems: Problems) -> None:
    if not isinstance(value, list) or len(value) > ROWS:
        problems.add(field, "expected a list of up to 5 pattern lines, e.g. [\"\", \"RR\"]")
        return
    for n, text in enumerate(value):
        try:
            tiles = parse_tiles(text)
        except NotationError as exc:
            problems.add(f"{field}[{n}]", f"line {n + 1}: {exc}")
            continue
        if len(set(tiles)) > 1:
            problems.add(f"{field}[{n}]", f"line {n + 1} mixes colours [azul.lines.same-colour]")
        elif len(tiles) > n + 1:
            problems.add(f"{field}[{n}]", f"line {n + 1} holds at most {n + 1} tiles, not {len(tiles)} "
                                          "[azul.lines.capacity]")
        else:
            board.line_colour[n] = tiles[0] if tiles else EMPTY
            board.line_count[n] = len(tiles)


def _wall(board: Board, value: Any, field: str, problems: Problems) -> None:
    if not isinstance(value, list) or len(value) != ROWS:
        problems.add(field, "expected 5 rows of 5 spaces, e.g. [\"B....\", \".....\", ...] (. = empty)")
        return
    for r, text in enumerate(value):
        try:
            row = parse_tiles(text, empty=True)
        except NotationError as exc:
            problems.add(f"{field}[{r}]", f"row {r + 1}: {exc}")
            continue
        if len(row) != ROWS:
            problems.add(f"{field}[{r}]", f"row {r + 1} has {len(row)} spaces, not 5")
            continue
        board.wall[r * ROWS:(r + 1) * ROWS] = row


def _floor(board: Board, value: Any, field: str, problems: Problems) -> None:
    try:
        floor = parse_tiles(value, marker=True)
    except NotationError as exc:
        problems.add(field, str(exc))
        return
    if len(floor) > FLOOR_SPACES:
        problems.add(field, f"a floor line has {FLOOR_SPACES} spaces, not {len(floor)} [azul.floor.capacity]")
        return
    board.floor = floor


def _player(board: Board, spec: dict[str, Any], key: str, problems: Problems) -> None:
    if "score" in spec:
        score = _int(spec["score"], f"given.{key}.score", 0, problems)
        board.score = board.score if score is None else score
    for name, reader in (("lines", _lines), ("wall", _wall), ("floor", _floor)):
        if name in spec:
            reader(board, spec[name], f"given.{key}.{name}", problems)


def _factories(game: Game, value: Any, problems: Problems) -> None:
    s = game.state
    names = [f"F{n + 1}" for n in range(len(s.factories))]
    if not isinstance(value, dict):
        problems.add("given.factories", "expected a table: F1 = \"RRBY\", ... (unnamed factories are empty)")
        return
    for f in s.factories:
        f[:] = [0] * NUM_COLOURS
    for name, text in value.items():
        field = f"given.factories.{name}"
        if name not in names:
            problems.add(field, f"no factory {name!r}{suggest(name, names)}: {s.players} players use "
                                f"{len(names)} factories (F1-F{len(names)}) [azul.setup.factory-count]")
            continue
        try:
            tiles = parse_tiles(text)
        except NotationError as exc:
            problems.add(field, str(exc))
            continue
        if len(tiles) > FACTORY_TILES:
            problems.add(field, f"a factory holds at most {FACTORY_TILES} tiles, not {len(tiles)} "
                                "[azul.setup.fill-factories]")
            continue
        for c in tiles:
            s.factories[names.index(name)][c] += 1


def _supply(game: Game, given: dict[str, Any], problems: Problems) -> None:
    """Bag and lid: as given; a part not given holds the tiles nobody else holds."""
    s = game.state
    s.bag, s.lid = [0] * NUM_COLOURS, [0] * NUM_COLOURS
    rest = [TILES_PER_COLOUR - n for n in tiles_by_colour(game)]
    parts: dict[str, list[int]] = {}
    for key in ("bag", "lid"):
        if key in given:
            try:
                parts[key] = parse_counts(given[key])
            except NotationError as exc:
                problems.add(f"given.{key}", str(exc))
                return
    if "bag" in parts and "lid" in parts:
        s.bag, s.lid = parts["bag"], parts["lid"]
        return                                   # tile conservation checks the total
    named, other = ("bag", "lid") if "bag" in parts or "lid" not in parts else ("lid", "bag")
    mine = parts.get(named, rest if named == "bag" else [0] * NUM_COLOURS)
    theirs = [r - m for r, m in zip(rest, mine, strict=True)]
    short = [f"{COLOURS[c]}: {mine[c]} asked, {rest[c]} left" for c in range(NUM_COLOURS) if theirs[c] < 0]
    if short:
        problems.add(f"given.{named}", "more tiles than the rest of the position leaves ("
                     + "; ".join(short) + f"; {TILES_PER_COLOUR} of each colour) [azul.component.tiles]")
        return
    setattr(s, named, list(mine))
    setattr(s, other, theirs)


def _marker(game: Game, given: dict[str, Any], problems: Problems) -> None:
    s = game.state
    holders = [i for i, b in enumerate(s.boards) if MARKER in b.floor]
    if "marker" in given:
        value = given["marker"]
        try:
            s.marker = CENTRE if value == "centre" else seat(value, s.players)
        except NotationError as exc:
            problems.add("given.marker", f"{exc} or 'centre'")
            return
    elif holders:
        s.marker = holders[0]
    else:
        s.marker = CENTRE


def _turn(game: Game, given: dict[str, Any], problems: Problems) -> None:
    s = game.state
    for key in ("starter", "to_move"):
        if key in given:
            try:
                setattr(s, key, seat(given[key], s.players))
            except NotationError as exc:
                problems.add(f"given.{key}", str(exc))
    if "starter" in given and "to_move" not in given:
        s.to_move = s.starter


def _invariants(game: Game, problems: Problems) -> None:
    for inv in INVARIANTS:
        if not inv.physical:
            continue
        for message in inv(game):
            m = re.match(r"P(\d)", message)
            field = INVARIANT_FIELDS.get(inv.name, "given").format(p=f"p{m[1]}" if m else "p1")
            problems.add(field, f"{message} [{inv.clauses[0]}]")


def _first(scenario: Scenario, players: int, problems: Problems) -> int | None:
    """`chance.first`: the starting player drawn at setup (asked only under by-chance)."""
    if "first" not in scenario.chance:
        return None
    try:
        return seat(scenario.chance["first"], players)
    except NotationError as exc:
        problems.add("chance.first", str(exc))
        return None


def _chance(scenario: Scenario, players: int, problems: Problems) -> ScriptedChance:
    """The chance of the steps: `chance.tiles` are the bag's next draws (then the seed's)."""
    spec = scenario.chance
    tiles: list[int] = []
    if "tiles" in spec:
        try:
            tiles = parse_tiles(spec["tiles"])
        except NotationError as exc:
            problems.add("chance.tiles", str(exc))
    strict = spec.get("strict", False)
    if not isinstance(strict, bool):
        problems.add("chance.strict", "expected true or false")
        strict = False
    return ScriptedChance(tiles=tiles, seed=scenario.seed, strict=strict)


def build_game(scenario: Scenario) -> tuple[Game, list[Event]]:
    """The scenario's position and the events of building it (wall-tiling with phase = "tiling")."""
    given = scenario.given
    problems = Problems(scenario.file, scenario.locator)
    players = given.get("players", 2)
    overrides = {**scenario.interpretations, WALL_SIDE: given.get("wall", "coloured")}
    first = _first(scenario, players, problems)
    try:       # setup asks chance only for the first player (azul.setup.starter-choice=by-chance)
        game = start(seed=scenario.seed, overrides=overrides, players=players,
                     chance=ScriptedChance(first=first, seed=scenario.seed))
    except RulesetError as exc:
        raise scenario.error("interpretations", str(exc)) from None
    s = game.state
    if "round" in given:
        s.round = _int(given["round"], "given.round", 1, problems) or s.round
    if "factories" in given:
        _factories(game, given["factories"], problems)
    if "centre" in given:
        try:
            s.centre = [0] * NUM_COLOURS
            for c in parse_tiles(given["centre"]):
                s.centre[c] += 1
        except NotationError as exc:
            problems.add("given.centre", str(exc))
    for n in range(1, 5):
        key = f"p{n}"
        if key in given:
            if n > players:
                problems.add(f"given.{key}", f"the game has {players} players (given.players)")
                continue
            _player(s.boards[n - 1], given[key], key, problems)
    _marker(game, given, problems)
    _turn(game, given, problems)
    _supply(game, given, problems)
    game.chance = _chance(scenario, players, problems)
    if not problems.found:
        _invariants(game, problems)
    problems.raise_if_any()
    events: list[Event] = []
    if given.get("phase", "offer") == "tiling":
        if s.tiles_on_offer():
            raise scenario.error("given.phase", "wall-tiling starts once the factories and the centre are empty "
                                                "(give empty 'factories' and 'centre') [azul.offer.end]")
        tiling.begin(s)
        try:
            if tiling.advance(s, game.rules, events):
                round_end.finish_round(s, game.rules, game.chance, events)
        except ChanceScriptError as exc:
            raise scenario.error("chance.tiles", chance_problem(exc, COLOURS)) from None
    elif not s.tiles_on_offer():
        raise scenario.error("given.factories", "the offer has no tiles (factories and centre empty); "
                                                "use phase = \"tiling\" to tile the walls [azul.offer.end]")
    assert s.phase != TILING or game.current_player >= 0
    return game, events
