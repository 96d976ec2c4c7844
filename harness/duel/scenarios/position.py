"""Build a game from a scenario's `given` position.

Defaults (documented in docs/scenarios.md): a fresh setup from `seed` (0), then the two opening picks
made with the first legal choices (display space 1 onto Dome space 1, r0), so play is in round 1's
Acquisition. Whatever `given` names replaces that part; tiles, chips and plates it names are taken
from wherever they are (tiles from the bag), so the components stay conserved. Giving `factories`
replaces all five Factories (unnamed ones are empty); giving a player's `plates` replaces their Dome.
"""

from __future__ import annotations

from typing import Any

from harness.duel.scenarios.loader import FACTORY_NAMES, Scenario
from harness.duel.scenarios.notation import (
    NotationError,
    parse_colour_counts,
    parse_dome_row,
    parse_label,
    parse_player,
    parse_tiles,
)
from harness.duel.scenarios.stops import PhaseEnded, StoppingGame
from harness.scenarios.problems import Problems, chance_problem
from model.chance import ChanceScriptError
from model.duel import Game, Ruleset, ScriptedChance, acquisition, new_game
from model.duel.colours import COLOURS, EMPTY, SPECIAL, WILD
from model.duel.state import SLOT_CELLS
from model.duel.supply import clear_factories
from model.errors import RulesetError
from model.events import Event
from properties.duel.invariants import violations


def _space_words(space: int) -> str:
    if space == SPECIAL:
        return "the Special space (only a Special tile goes there)"
    return f"a {COLOURS[space]}-only space"


def _wrong_space(tile: int, space: int) -> str | None:
    """Why this tile cannot lie on this kind of Dome space, in the game's words (None: it can)."""
    if tile == SPECIAL:
        return None if space == SPECIAL else f"a Special tile on {_space_words(space)}"
    if space in (tile, WILD):
        return None
    return f"a {COLOURS[tile]} tile on {_space_words(space)}"


def scripted_chance(scenario: Scenario) -> ScriptedChance:
    c = scenario.chance
    try:
        tiles = parse_tiles(c.get("tiles", ""))
        plates = [parse_label(p, "P", 18) for p in c["plates"]] if "plates" in c else None
        chips = [parse_label(x, "C", 20) for x in c.get("chips", [])]
        first = parse_player(c["first"]) if "first" in c else None
    except (NotationError, TypeError) as exc:
        raise scenario.error("chance", str(exc)) from None
    return ScriptedChance(tiles=tiles, plates=plates, chips=chips, first=first, seed=scenario.seed,
                          strict=bool(c.get("strict", False)))


class _Builder:
    def __init__(self, scenario: Scenario, game: Game) -> None:
        self.sc = scenario
        self.g = game
        self.s = game.state

    def fail(self, field: str, message: str) -> Exception:
        return self.sc.error(field, message)

    def take_tile(self, colour: int, field: str) -> None:
        if self.s.bag[colour] == 0:
            if self.s.tower[colour]:
                self.s.tower[colour] -= 1
                return
            raise self.fail(field, f"no {COLOURS[colour]} tile left to place (13 of each colour in the game)")
        self.s.bag[colour] -= 1

    def take_chip(self, chip: int, field: str) -> None:
        s = self.s
        if chip in s.chip_supply:
            s.chip_supply.remove(chip)
            return
        for f in s.small:
            if f.chip == chip:
                f.chip, f.chip_revealed = 0, False
                return
        for pl in s.players:
            for pool in (pl.chips, pl.used_chips):
                if chip in pool:
                    pool.remove(chip)
                    return
        raise self.fail(field, f"C{chip:02d} is already used by this position")

    def take_plate(self, plate: int, field: str) -> None:
        s = self.s
        if plate in s.pile:
            s.pile.remove(plate)
        elif plate in s.display:
            s.display[s.display.index(plate)] = 0
        else:
            raise self.fail(field, f"P{plate:02d} is already placed elsewhere in this position")

    def parse(self, field: str, fn, *args):
        try:
            return fn(*args)
        except (NotationError, TypeError, ValueError) as exc:
            raise self.fail(field, str(exc)) from None

    # --- parts -------------------------------------------------------------------------
    def factories(self, table: dict[str, Any], problems: Problems) -> None:
        clear_factories(self.s)
        for name in FACTORY_NAMES:
            if name in table:
                problems.attempt(self.factory, name, table[name])

    def factory(self, name: str, spec: dict[str, Any]) -> None:
        s = self.s
        field = f"given.factories.{name}"
        sun = self.parse(f"{field}.sun", parse_tiles, spec.get("sun", ""))
        moon = self.parse(f"{field}.moon", parse_tiles, spec.get("moon", ""))
        if sun and moon:
            raise self.fail(field, "a Factory has tiles on its sun or on its moon, not both")
        if name == "L":
            if "chip" in spec or "revealed" in spec:
                raise self.fail(f"{field}.chip", "the large Factory has no Bonus chip")
            if len(sun) > 5 or len(moon) > 5:
                raise self.fail(field, "the large Factory holds at most 5 tiles")
            for c in sun:
                self.take_tile(c, f"{field}.sun")
                s.large.sun[c] += 1
            for c in moon:
                self.take_tile(c, f"{field}.moon")
                s.large.moon[c] += 1
            if "start_tile" in spec:
                s.large.start_tile = bool(spec["start_tile"])
            return
        if "start_tile" in spec:
            raise self.fail(f"{field}.start_tile", "the Starting player tile lives on the large Factory")
        if len(sun) > 4 or len(moon) > 3:
            raise self.fail(field, "a small Factory holds 4 sun tiles, or a moon stack of at most 3")
        fac = s.small[int(name) - 1]
        for c in sun:
            self.take_tile(c, f"{field}.sun")
            fac.sun[c] += 1
        for c in moon:
            self.take_tile(c, f"{field}.moon")
        fac.moon = list(moon)
        if "chip" in spec:
            chip = self.parse(f"{field}.chip", parse_label, spec["chip"], "C", 20)
            self.take_chip(chip, f"{field}.chip")
            fac.chip = chip
            fac.chip_revealed = bool(spec.get("revealed", not fac.has_tiles))
            if fac.chip_revealed and fac.has_tiles:
                raise self.fail(f"{field}.revealed", "a chip is revealed only when its Factory is empty")
        elif "revealed" in spec:
            raise self.fail(f"{field}.revealed", "no chip given")

    def clear_dome(self, who: int, spec: dict[str, Any]) -> None:
        """Return a player's Dome tiles (and plates, if `plates` is given) before any is placed, so
        that a position may move a plate from one player's Dome to the other's."""
        s = self.s
        pl = s.players[who]
        if "plates" in spec or "dome" in spec:
            for cell in range(36):
                t = pl.dome_tile[cell]
                if 0 <= t < 5:
                    s.bag[t] += 1
                elif t == SPECIAL:
                    s.special_supply += 1
            pl.dome_tile = [EMPTY] * 36
        if "plates" in spec:
            s.pile.extend(pid for pid in pl.plates if pid)
            pl.plates, pl.rotations, pl.dome_space = [0] * 9, [0] * 9, [EMPTY] * 36

    def player(self, who: int, spec: dict[str, Any], problems: Problems) -> None:
        """Each part of a player on its own, so that one file reports all of its problems."""
        if "plates" in spec:
            if not problems.attempt(self.plates, who, spec["plates"]):
                return                                   # tiles would have no plates under them
        for key, part in (("dome", self.dome), ("lines", self.lines), ("broken", self.broken)):
            if key in spec:
                problems.attempt(part, who, spec[key])
        for key in ("chips", "used_chips"):
            if key in spec:
                problems.attempt(self.chips, who, key, spec[key])
        problems.attempt(self.counters, who, spec)

    def plates(self, who: int, plates: Any) -> None:
        pl = self.s.players[who]
        f = f"given.p{who + 1}.plates"
        if not isinstance(plates, dict):
            raise self.fail(f, "expected a table: Dome space (1-9) = \"P02 r1\"")
        for key in sorted(plates):
            if key not in {str(i) for i in range(1, 10)}:
                raise self.fail(f, f"Dome spaces are 1-9, got {key!r}")
            parts = str(plates[key]).split()
            if len(parts) not in (1, 2) or (len(parts) == 2 and parts[1] not in ("r0", "r1", "r2", "r3")):
                raise self.fail(f, f"expected \"P02\" or \"P02 r1\", got {plates[key]!r}")
            pid = self.parse(f, parse_label, parts[0], "P", 18)
            self.take_plate(pid, f)
            acquisition.place_plate(self.g, pl, pid, int(key) - 1, int(parts[1][1]) if len(parts) == 2 else 0)

    def lines(self, who: int, lines: Any) -> None:
        s = self.s
        pl = s.players[who]
        field = f"given.p{who + 1}.lines"
        if not isinstance(lines, list) or len(lines) > 6:
            raise self.fail(field, "expected a list of up to 6 strings (line 1 first)")
        for i in range(6):
            n = pl.line_count[i]
            if n:
                s.bag[pl.line_colour[i]] += n
            pl.line_colour[i], pl.line_count[i] = EMPTY, 0
        for i, text in enumerate(lines):
            tiles = self.parse(field, parse_tiles, text)
            if len(set(tiles)) > 1:
                raise self.fail(field, f"line {i + 1} mixes colours: {text!r}")
            if len(tiles) > i + 1:
                raise self.fail(field, f"line {i + 1} holds at most {i + 1} tiles: {text!r}")
            for c in tiles:
                self.take_tile(c, field)
            if tiles:
                pl.line_colour[i], pl.line_count[i] = tiles[0], len(tiles)

    def broken(self, who: int, text: Any) -> None:
        s = self.s
        pl = s.players[who]
        field = f"given.p{who + 1}.broken"
        for c in pl.broken:
            s.bag[c] += 1
        pl.broken = []
        tiles = self.parse(field, parse_tiles, text)
        if len(tiles) > 4:
            raise self.fail(field, "the Broken tiles space holds 4 tiles")
        for c in tiles:
            self.take_tile(c, field)
        pl.broken = tiles

    def chips(self, who: int, key: str, labels: Any) -> None:
        s = self.s
        pool = getattr(s.players[who], key)
        field = f"given.p{who + 1}.{key}"
        s.chip_supply.extend(pool)
        s.chip_supply.sort()
        pool.clear()
        if not isinstance(labels, list):
            raise self.fail(field, "expected a list of chips (C01-C20)")
        for x in labels:
            chip = self.parse(field, parse_label, x, "C", 20)
            self.take_chip(chip, field)
            pool.append(chip)
        pool.sort()

    def counters(self, who: int, spec: dict[str, Any]) -> None:
        s = self.s
        pl = s.players[who]
        field = f"given.p{who + 1}"
        for key, lo, hi in (("score", 0, 999), ("tokens_used", 0, 2), ("chips_this_round", 0, 20)):
            if key in spec:
                v = spec[key]
                if not isinstance(v, int) or isinstance(v, bool) or not lo <= v <= hi:
                    raise self.fail(f"{field}.{key}", f"expected an integer {lo}-{hi}")
                setattr(pl, key, v)
        if spec.get("start_tile"):
            s.large.start_tile = False
            pl.start_tile = True
        if "passed" in spec:
            pl.passed = bool(spec["passed"])

    def dome(self, who: int, rows: Any) -> None:
        s = self.s
        pl = s.players[who]
        field = f"given.p{who + 1}.dome"
        if not isinstance(rows, list) or len(rows) != 6:
            raise self.fail(field, "expected 6 rows of 6 spaces")
        for r, row in enumerate(rows):
            tiles = self.parse(field, parse_dome_row, row)
            for c, t in enumerate(tiles):
                cell = r * 6 + c
                if t == EMPTY:
                    continue
                where = f"row {r + 1}, space {c + 1}"
                space = pl.dome_space[cell]
                if space == EMPTY:
                    raise self.fail(field, f"{where}: no plate under this tile")
                wrong = _wrong_space(t, space)
                if wrong:
                    clause = "duel.plate.special-space" if SPECIAL in (t, space) else "duel.invariant.dome-consistency"
                    raise self.fail(field, f"{where}: {wrong} [{clause}]")
                if t == SPECIAL:
                    s.special_supply -= 1
                else:
                    self.take_tile(t, field)
                pl.dome_tile[cell] = t
        for slot, cells in enumerate(SLOT_CELLS):
            special = [c for c in cells if pl.dome_space[c] == SPECIAL]
            if not special:
                continue
            sp = special[0]
            others_full = all(pl.dome_tile[c] != EMPTY for c in cells if c != sp)
            where = f"row {sp // 6 + 1}, space {sp % 6 + 1}"
            if pl.dome_tile[sp] == SPECIAL and not others_full:
                raise self.fail(field, f"{where}: a Special tile on the plate on Dome space {slot + 1}, whose "
                                "other three spaces are not all tiled yet [duel.plate.special-space]")
            if others_full and pl.dome_tile[sp] == EMPTY:
                raise self.fail(field, f"{where}: the plate on Dome space {slot + 1} has its other three spaces "
                                "tiled, so its Special tile lies here (write S) [duel.plate.special-space]")

    def plates_on_table(self, given: dict[str, Any]) -> None:
        s = self.s
        if "display" in given:
            for p in s.display:
                if p:
                    s.pile.append(p)
            s.display = [0, 0, 0]
            shown = given["display"]
            if not isinstance(shown, list) or len(shown) != 3:
                raise self.fail("given.display", "expected 3 entries: plate labels or \"-\"")
            for i, label in enumerate(shown):
                if label == "-":
                    continue
                pid = self.parse("given.display", parse_label, label, "P", 18)
                self.take_plate(pid, "given.display")
                s.display[i] = pid
        if "pile" in given:
            top = [self.parse("given.pile", parse_label, x, "P", 18) for x in given["pile"]]
            for pid in top:
                if pid not in s.pile:
                    raise self.fail("given.pile", f"P{pid:02d} is already placed elsewhere in this position")
            s.pile = top + sorted(p for p in s.pile if p not in top)


def _rules(scenario: Scenario) -> Ruleset:
    try:
        return Ruleset.build(scenario.interpretations, tablets=scenario.tablets)
    except RulesetError as exc:
        raise scenario.error("tablets" if scenario.tablets is not None else "interpretations", str(exc)) from None


def _physical_field(name: str, message: str) -> str:
    """The `given` field a broken physical invariant points at."""
    who = message[:2] if message[:2] in ("P1", "P2") else None
    part = {"dome-consistency": "dome", "pattern-lines": "lines", "score-floor": "score"}.get(name)
    return f"given.{who.lower()}.{part}" if who and part else "given"


def _start_tile(b: _Builder, given: dict[str, Any]) -> None:
    """The Starting player tile is in one place: the large Factory or one player."""
    places = [f"given.p{w}.start_tile" for w in (1, 2)
              if isinstance(given.get(f"p{w}"), dict) and given[f"p{w}"].get("start_tile") is True]
    factories = given.get("factories")
    large = factories.get("L") if isinstance(factories, dict) else None
    if isinstance(large, dict) and large.get("start_tile") is True:
        places.insert(0, "given.factories.L.start_tile")
    if len(places) > 1:
        raise b.fail(places[-1], f"there is one Starting player tile, and {places[0]} already puts it there")


def _loose_tiles(b: _Builder, given: dict[str, Any]) -> None:
    s = b.s
    for key in ("bag", "tower"):
        if key in given:
            counts = b.parse(f"given.{key}", parse_colour_counts, given[key])
            other = "tower" if key == "bag" else "bag"
            loose = [s.bag[c] + s.tower[c] for c in range(5)]
            if other in given:
                setattr(s, key, counts)
            else:
                if any(counts[c] > loose[c] for c in range(5)):
                    c = next(c for c in range(5) if counts[c] > loose[c])
                    raise b.fail(f"given.{key}", f"{counts[c]} {COLOURS[c]} tiles asked, only {loose[c]} "
                                 "are not placed elsewhere (13 of each colour)")
                setattr(s, key, counts)
                setattr(s, other, [loose[c] - counts[c] for c in range(5)])


def _turns(b: _Builder, given: dict[str, Any], phase: str) -> None:
    s = b.s
    if "round" in given:
        r = given["round"]
        if not isinstance(r, int) or isinstance(r, bool) or not 1 <= r <= 5:
            raise b.fail("given.round", "rounds are 1-5")
        s.round = r
    if "starter" in given:
        s.starter = b.parse("given.starter", parse_player, given["starter"])
        if phase == "acquisition":
            s.to_move = s.starter
    if "to_move" in given:
        if phase != "acquisition":
            raise b.fail("given.to_move", "only Acquisition has turns")
        s.to_move = b.parse("given.to_move", parse_player, given["to_move"])


def build_game(scenario: Scenario) -> tuple[Game, list[Event]]:
    """The scenario's starting game (and the events of any automatic start, e.g. Dome-tiling).

    With a `stop`, the game is a StoppingGame; if it already stopped while starting (Dome-tiling
    running to its end), `game.stopped` says so. Every problem of the position is raised together."""
    rules = _rules(scenario)
    given = scenario.given
    chance = scripted_chance(scenario)
    if scenario.chance.get("scope") == "game":
        if given:
            raise scenario.error("chance.scope", "scope = \"game\" replays from setup: leave 'given' empty")
        game = new_game(ruleset=rules, chance=chance)
        return (StoppingGame(game, scenario.stop) if scenario.stop else game), []
    game = new_game(seed=scenario.seed, ruleset=rules)
    phase = given.get("phase", "acquisition")
    if phase != "setup":
        while game.state.phase == "setup":
            game.apply(game.legal_actions()[0])
    if scenario.stop:
        game = StoppingGame(game, scenario.stop)
    problems = Problems(scenario.file, scenario.locator)
    b = _Builder(scenario, game)
    s = game.state
    problems.attempt(_turns, b, given, phase)
    if "factories" in given:
        b.factories(given["factories"], problems)
    for who in (0, 1):
        if f"p{who + 1}" in given:
            b.clear_dome(who, given[f"p{who + 1}"])
    for who in (0, 1):
        if f"p{who + 1}" in given:
            b.player(who, given[f"p{who + 1}"], problems)
    problems.attempt(_start_tile, b, given)
    problems.attempt(b.plates_on_table, given)
    problems.attempt(_loose_tiles, b, given)
    problems.raise_if_any()
    for inv, msg in violations(game, physical_only=True):
        problems.add(_physical_field(inv.name, msg), f"impossible position: {msg} [{inv.clauses[0]}]")
    problems.raise_if_any()
    if scenario.chance:
        game.chance = chance
    events: list[Event] = []
    if phase == "dome_tiling":
        for pl in s.players:
            pl.tokens_used = 2
        s.pending = None
        if s.large.has_tiles or any(f.has_tiles or f.chip for f in s.small):
            raise scenario.error("given.phase", "Dome-tiling starts with empty Factories (give empty 'factories')")
        try:
            acquisition.end_turn(game, s.starter, events)
        except PhaseEnded:
            pass                                         # game.stopped records it
        except ChanceScriptError as exc:                 # the refill that starts the given phase
            raise scenario.error("chance.tiles", f"{chance_problem(exc, COLOURS)} (drawn while the given "
                                 f"{phase} phase runs on)") from None
    return game, events

