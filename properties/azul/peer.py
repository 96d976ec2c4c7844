"""The peer engine `azul-game-engine` (PyPI, GPL-3.0; test-only, never vendored) behind our action
notation, and one neutral snapshot of a position that both engines can be read into.

- `PeerGame(players, starter, factories)`: a peer game whose first player and factory contents are
  ours. Its bag's tile list is a `ScriptedTiles` (a list whose `pop` hands out the colours we script),
  so every later refill draws the same tiles as our model (`script(...)` before the action that ends a
  round). Only public objects are touched at run time: `Game.set_bag`, `Game.change_factory_display`,
  the `Bag(tiles=...)` constructor and instance attributes; the peer's files are never edited.
- `PeerGame.apply("take F2 red line 3")` translates one of our actions into the peer's call;
  `PeerRefused` (its ActionNotAllowedException) and `PeerCrash` (anything else) are findings.
- Workarounds (`WORKAROUNDS`): patches of one peer instance that undo a classified peer bug so a run
  can go on and find the next difference (docs/differential.md, tests/azul/peer-differences.toml).
- `peer_snapshot(peer)` / `our_snapshot(game)` and `compare(ours, theirs)`: the differing fields.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Iterable, Sequence
from typing import Any, SupportsIndex

import attrs

from model.azul.colours import COLOURS, EMPTY, MARKER, NUM_COLOURS, ROWS
from model.azul.state import CENTRE, AzulState

try:                                   # the peer is an optional, test-only dependency
    from azul_game_engine.action_not_allowed_exception import ActionNotAllowedException
    from azul_game_engine.bag import Bag
    from azul_game_engine.board import Board
    from azul_game_engine.floor import Floor
    from azul_game_engine.game import Game as _PeerEngine
    from azul_game_engine.lid import Lid
    from azul_game_engine.player import Player
    from azul_game_engine.tile import Tile
    from azul_game_engine.wall import Wall
except ImportError as exc:             # pragma: no cover - exercised when the peer is absent
    PEER_MISSING: str | None = (f"the peer engine azul-game-engine is not installed ({exc}); "
                                "install it with `make` (requirements/peer.txt)")
else:
    PEER_MISSING = None

PEER_NAME = "azul-game-engine 1.0.2"
FLOOR_SPACES = 7
# Our colour index -> the peer's Tile (its WHITE is the fifth colour, our turquoise).
_PEER_TILE_NAMES = ("BLUE", "YELLOW", "RED", "BLACK", "WHITE")
_WRAPPED = ("execute_wall_tiling_phase", "prepare_for_next_round")
_TAKE = re.compile(r"take (C|F(\d+)) (\w+) (floor|line (\d)(?: x(\d+))?)$")   # xN: N on the line


class PeerError(Exception):
    """Something the peer did that our model did not: a finding, never a crash of the harness."""


class PeerRefused(PeerError):
    """The peer refused an action our model allows (its ActionNotAllowedException)."""


class PeerCrash(PeerError):
    """The peer raised something other than its refusal exception."""


class PeerDrawMismatch(PeerError):
    """Our model drew a colour that the peer's bag and lid do not hold."""


class PeerUnsupported(PeerError):
    """An action the peer has no counterpart for (the gray wall's placements)."""


def require_peer() -> None:
    if PEER_MISSING is not None:
        raise PeerUnsupported(PEER_MISSING)


def _tile(colour: int) -> Any:
    return Tile[_PEER_TILE_NAMES[colour]]


def _colour(tile: Any) -> int:
    return _PEER_TILE_NAMES.index(tile.name)


class ScriptedTiles(list):
    """The peer bag's tile list. The peer draws with `tiles.pop(random index)`; while a script is set
    the colour comes from it instead (the first tile of that colour in the list), so both engines see
    the same draws. Unscripted draws take the last tile (deterministic; only reached when the peer
    refills where our model did not, which the snapshots then report)."""

    script: list[int]
    unscripted: int

    def __init__(self, tiles: Iterable[Any] = ()) -> None:
        super().__init__(tiles)
        self.script = []
        self.unscripted = 0

    def pop(self, index: SupportsIndex = -1) -> Any:
        if not self.script:
            self.unscripted += 1
            return super().pop()
        colour = self.script.pop(0)
        wanted = _tile(colour)
        for i, tile in enumerate(self):
            if tile is wanted:
                return super().pop(i)
        raise PeerDrawMismatch(f"our model drew {COLOURS[colour]}, which the peer's bag and lid do not hold")


def factory_draws(factories: Sequence[Sequence[int]]) -> list[int]:
    """Factory contents (colour counts) as the draw order that fills them, factory by factory."""
    return [c for counts in factories for c in range(NUM_COLOURS) for _ in range(counts[c])]


# --- workarounds: one instance-level patch per classified peer bug ------------------------------
WORKAROUNDS: dict[str, str] = {
    "marker-reset": "each round's first centre pick takes the starting player marker again",
    "holder-starts": "the marker's holder (not the player who took the last tile) starts the next round",
}


class PeerGame:
    """A peer game driven by our notation, drawing what our model drew."""

    def __init__(self, players: int, starter: int, factories: Sequence[Sequence[int]],
                 workarounds: Iterable[str] = ()) -> None:
        require_peer()
        self.workarounds = frozenset(workarounds)
        unknown = self.workarounds - WORKAROUNDS.keys()
        if unknown:
            raise ValueError(f"unknown peer workaround(s) {sorted(unknown)} (known: {', '.join(WORKAROUNDS)})")
        self.lid = Lid()                   # one lid for the game and every floor (the peer's README
        self.engine = _PeerEngine(         # example gives the Game its own, which loses floor tiles)
            [Player(Board(wall=Wall(), floor=Floor(self.lid)), f"P{i + 1}") for i in range(players)],
            starting_player=starter, lid=self.lid)
        self.tiles = ScriptedTiles(Bag.init_tiles())
        self.engine.set_bag(Bag(tiles=self.tiles))
        self.script(factory_draws(factories))
        for i in range(len(self.engine.factory_displays)):
            self.engine.change_factory_display(i, self.engine.bag.take_tiles(4, self.lid))
        self.rounds_ended = 0
        self._holder: int | None = None
        self._wrap_round_end()

    # --- chance ---------------------------------------------------------------------------
    def script(self, colours: Sequence[int]) -> None:
        """The colours the peer's next draws must yield, in order."""
        self.tiles.script = list(colours)

    # --- actions --------------------------------------------------------------------------
    def apply(self, action: str) -> None:
        """Play one of our actions (notation) in the peer; PeerError subclasses are findings."""
        m = _TAKE.fullmatch(" ".join(action.split()))
        if not m:
            raise PeerUnsupported(f"{action!r}: the peer has no such action (it plays the coloured wall only)")
        colour = COLOURS.index(m[3])
        tile = _tile(colour)
        g = self.engine
        try:
            if m[1] == "C":
                count = g.center.count(tile)
            else:
                index = int(m[2]) - 1
                if not 0 <= index < len(g.factory_displays):
                    raise PeerRefused(f"the peer has no factory {m[1]}")
                count = g.factory_displays[index].count(tile)
            on_floor, line = (count, 0) if m[4] == "floor" else (0, int(m[5]) - 1)
            if m[6]:                       # voluntary split: the peer's amount_to_place_on_floor
                on_floor = max(count - int(m[6]), 0)
            if m[1] == "C":
                g.execute_factory_offer_phase_with_center(tile, on_floor, line)
            else:
                g.execute_factory_offer_phase_with_factory(index, tile, on_floor, line)
        except PeerError:
            raise
        except ActionNotAllowedException as exc:
            raise PeerRefused(f"peer refused {action!r}: {exc.message}") from None
        except Exception as exc:  # noqa: BLE001 - the peer's own failure is a finding
            raise PeerCrash(f"peer raised {type(exc).__name__} on {action!r}: {exc}") from None

    def clone(self) -> PeerGame:
        """An independent copy (for trying an action without touching this game)."""
        other = object.__new__(PeerGame)
        g = self.engine
        wrappers = {k: g.__dict__.pop(k) for k in _WRAPPED}     # the copy gets its own wrappers
        try:
            other.engine, other.lid, other.tiles = copy.deepcopy((g, self.lid, self.tiles))
        finally:
            g.__dict__.update(wrappers)
        other.workarounds = self.workarounds
        other.rounds_ended = self.rounds_ended
        other._holder = None
        other._wrap_round_end()
        return other

    # --- round end, with the workarounds --------------------------------------------------
    def _wrap_round_end(self) -> None:
        g = self.engine
        tiling, prepare = g.execute_wall_tiling_phase, g.prepare_for_next_round

        def wall_tiling() -> None:
            self.rounds_ended += 1
            self._holder = next((i for i, p in enumerate(g.players)
                                 if p.board.floor.first_player_marker_position > -1), None)
            tiling()

        def next_round() -> None:
            prepare()
            if "marker-reset" in self.workarounds:
                g.center.nobody_has_taken_from_center = True
            if "holder-starts" in self.workarounds and self._holder is not None:
                g.current_player = self._holder

        g.execute_wall_tiling_phase = wall_tiling     # instance attributes: this game only
        g.prepare_for_next_round = next_round

    @property
    def is_over(self) -> bool:
        return not self.engine.is_running

    def winners(self) -> tuple[int, ...]:
        names = self.engine.winners()
        return tuple(sorted(int(n[1:]) - 1 for n in names))


# --- the neutral snapshot ------------------------------------------------------------------
@attrs.frozen
class PlayerSnapshot:
    lines: tuple[tuple[int, int], ...]      # (colour or -1, tiles) per pattern line 1-5
    wall: tuple[int, ...]                   # 25 cells row by row: colour or -1
    floor: tuple[int, ...]                  # from the left: colours, MARKER (5) for the marker
    score: int


@attrs.frozen
class Snapshot:
    """A position as both engines can state it. `marker`: "centre", "floor P2", "held P2" (kept
    off a full floor) or "none"; `to_move` 0-based; `marker`/`to_move` are None once the game is over
    (the marker has no role left). `winners` only when over."""

    factories: tuple[tuple[int, ...], ...]
    centre: tuple[int, ...]
    bag: tuple[int, ...]
    lid: tuple[int, ...]
    marker: str | None
    to_move: int | None
    over: bool
    players: tuple[PlayerSnapshot, ...]
    winners: tuple[int, ...] | None = None


def _counts(tiles: Iterable[Any]) -> tuple[int, ...]:
    out = [0] * NUM_COLOURS
    for t in tiles:
        out[_colour(t)] += 1
    return tuple(out)


def peer_snapshot(peer: PeerGame) -> Snapshot:
    g = peer.engine
    players = []
    marker = "none"
    for i, p in enumerate(g.players):
        b = p.board
        lines = tuple((_colour(ln.tile), ln.tile_count) if ln.tile_count else (EMPTY, 0) for ln in b.pattern_lines)
        wall = [EMPTY] * (ROWS * ROWS)
        for r, row in enumerate(b.wall.tiles):
            for c, cell in enumerate(row):
                if cell.is_placed:
                    wall[r * ROWS + c] = _colour(cell.tile)
        floor = [_colour(t) for t in b.floor.tiles]
        pos = b.floor.first_player_marker_position
        if pos > -1:
            if pos < FLOOR_SPACES:        # on a space (the peer scores it as one)
                floor.insert(pos, MARKER)
                marker = f"floor P{i + 1}"
            else:                          # taken onto a full floor: the peer does not count it
                marker = f"held P{i + 1}"
        players.append(PlayerSnapshot(lines, tuple(wall), tuple(floor), p.score))
    if marker == "none" and g.center.nobody_has_taken_from_center:
        marker = "centre"
    over = peer.is_over
    return Snapshot(
        factories=tuple(_counts(f.tiles) for f in g.factory_displays),
        centre=_counts(g.center.tiles), bag=_counts(g.bag.tiles), lid=_counts(peer.lid.tiles),
        marker=None if over else marker, to_move=None if over else g.current_player, over=over,
        players=tuple(players), winners=peer.winners() if over else None)


def our_snapshot(game: Any) -> Snapshot:
    """The same snapshot of our model's `Game` (model.azul)."""
    s: AzulState = game.state
    players = []
    for b in s.boards:
        lines = tuple((b.line_colour[r], b.line_count[r]) if b.line_count[r] else (EMPTY, 0) for r in range(ROWS))
        players.append(PlayerSnapshot(lines, tuple(b.wall), tuple(b.floor), b.score))
    if s.marker == CENTRE:
        marker = "centre"
    else:
        where = "floor" if MARKER in s.boards[s.marker].floor else "held"
        marker = f"{where} P{s.marker + 1}"
    over = game.is_over
    outcome = game.outcome() if over else None
    return Snapshot(
        factories=tuple(tuple(f) for f in s.factories), centre=tuple(s.centre), bag=tuple(s.bag),
        lid=tuple(s.lid), marker=None if over else marker, to_move=None if over else game.current_player,
        over=over, players=tuple(players), winners=tuple(sorted(outcome.winners)) if outcome else None)


def compare(ours: Snapshot, theirs: Snapshot) -> dict[str, tuple[Any, Any]]:
    """The differing fields, by path (`players[1].floor`, `factories[3]`, `marker`): (ours, peer)."""
    out: dict[str, tuple[Any, Any]] = {}
    for name in ("factories", "centre", "bag", "lid", "marker", "to_move", "over", "winners"):
        a, b = getattr(ours, name), getattr(theirs, name)
        if a == b:
            continue
        if name == "factories" and a is not None and b is not None and len(a) == len(b):
            for i, (fa, fb) in enumerate(zip(a, b, strict=True)):
                if fa != fb:
                    out[f"factories[{i}]"] = (fa, fb)
        else:
            out[name] = (a, b)
    for i, (pa, pb) in enumerate(zip(ours.players, theirs.players, strict=False)):
        for name in ("lines", "wall", "floor", "score"):
            a, b = getattr(pa, name), getattr(pb, name)
            if a != b:
                out[f"players[{i}].{name}"] = (a, b)
    return out


def describe(path: str, value: Any) -> str:
    """A field's value in the game's words (colour names, P1-based markers)."""
    if value is None or isinstance(value, (bool, str, int)) and not isinstance(value, tuple):
        return str(value)
    if path.startswith(("factories", "centre", "bag", "lid")):
        return _counts_text(value)
    if path.endswith(".lines"):
        return " | ".join(f"{n} {COLOURS[c]}" if n else "-" for c, n in value)
    if path.endswith(".floor"):
        return " ".join("marker" if t == MARKER else COLOURS[t] for t in value) or "empty"
    if path.endswith(".wall"):
        rows = []
        for r in range(ROWS):
            cells = [COLOURS[value[r * ROWS + c]][:2] if value[r * ROWS + c] != EMPTY else ".." for c in range(ROWS)]
            rows.append(" ".join(cells))
        return " / ".join(rows)
    if path == "winners":
        return ", ".join(f"P{i + 1}" for i in value)
    return str(value)


def _counts_text(counts: Sequence[int]) -> str:
    return ", ".join(f"{n} {COLOURS[c]}" for c, n in enumerate(counts) if n) or "empty"

