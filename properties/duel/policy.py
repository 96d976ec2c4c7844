"""Action policies for simulation: `uniform` (every legal action equally likely: widest coverage),
`careful` (uniform, except that tiles go where the fewest break and chips are used when they can
complete a line), and `greedy` (the default of `simulate`): a one-step lookahead that picks tiles
it can complete lines with, places plates where its lines can move, avoids Broken tiles and spends
chips, so games reach real scores and the scoring oracle and the outcome check see real points.
Every policy is deterministic given its random generator (ties are broken with it)."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from itertools import compress

import attrs

from model.duel.actions import Action, Kind
from model.duel.colours import EMPTY, WILD
from model.duel.dome import band_full, matching_cells
from model.duel.engine import Game
from model.duel.state import Player
from properties.duel.oracle import placement_points

Policy = Callable[[Game, list[Action], random.Random], Action]


def uniform(game: Game, actions: list[Action], rng: random.Random) -> Action:
    return rng.choice(actions)


def _broken_count(game: Game, action: Action) -> int:
    p = game.state.pending
    assert p is not None
    colour, n = p.data
    line = action.args[0]
    if line == 0:
        return n
    pl = game.state.players[p.player]
    room = line - pl.line_count[line - 1]
    placed = min(n, room) if len(action.args) == 1 else action.args[1]
    return n - placed


def _line_cost(game: Game, action: Action) -> tuple[int, int, int]:
    """(tiles broken now, line can never be placed, no space for it yet) - smaller is better."""
    broken = _broken_count(game, action)
    line = action.args[0]
    if line == 0:
        return broken, 1, 1
    p = game.state.pending
    assert p is not None
    pl = game.state.players[p.player]
    colour = p.data[0]
    open_space = bool(matching_cells(pl, line - 1, colour))
    dead = not open_space and band_full(pl, line - 1)
    return broken, int(dead), int(not open_space)


def careful(game: Game, actions: list[Action], rng: random.Random) -> Action:
    p = game.state.pending
    if p is not None and p.kind == "line":
        costs = [_line_cost(game, a) for a in actions]
        best = min(costs)
        return rng.choice([a for a, c in zip(actions, costs, strict=True) if c == best])
    if p is not None and p.kind == "bonus":
        spend = [a for a in actions if a.kind is Kind.BONUS]
        if spend:
            return rng.choice(spend)
    return rng.choice(actions)


# --- greedy ---------------------------------------------------------------------------------------
# One greedy choice scores every legal action of one player against the same position, so what only
# depends on that player's board is worked out once per choice (`_Board`): which colours each Dome
# row can still take, and the best value of a line pick or a plate by what it is. The values are
# the same floats (sums of halves) as scoring each action from scratch: same seed, same games.

Rows = tuple[frozenset[int], ...]


def _open_kinds(pl: Player) -> Rows:
    """Per Dome row, the space kinds of its empty cells (a colour fits where its own kind or a
    wild space is: `matching_cells` non-empty)."""
    empty = [t == EMPTY for t in pl.dome_tile]
    spaces = pl.dome_space
    return tuple(frozenset(compress(spaces[r:r + 6], empty[r:r + 6])) for r in range(0, 36, 6))


def _fits(rows: Rows, line: int, colour: int) -> bool:
    kinds = rows[line]
    return colour in kinds or WILD in kinds


def _line_value(pl: Player, line: int, colour: int, n: int, placed: int | None = None,
                rows: Rows | None = None) -> float:
    """How good it is to put n tiles of `colour` on pattern line `line` (1-6; 0 = Broken tiles)."""
    if line == 0:
        return -2.0 * n - len(pl.broken)
    i = line - 1
    room = line - pl.line_count[i]
    put = min(n, room) if placed is None else placed
    over = n - put
    open_space = _fits(rows, i, colour) if rows is not None else bool(matching_cells(pl, i, colour))
    value = float(put) - 2.0 * over - 0.5 * len(pl.broken) * bool(over)
    if pl.line_count[i] + put == line:
        value += (4.0 + line) if open_space else (1.0 if not band_full(pl, i) else -2.0 * line)
    elif not open_space and band_full(pl, i):
        value -= 2.0 * put                       # a line that can never move
    return value


def _best_line(pl: Player, colour: int, n: int, rows: Rows | None = None) -> float:
    best = _line_value(pl, 0, colour, n)
    for line in range(1, 7):
        i = line - 1
        if line - pl.line_count[i] > 0 and pl.line_colour[i] in (EMPTY, colour):
            best = max(best, _line_value(pl, line, colour, n, rows=rows))
    return best


_NEIGHBOURS: tuple[tuple[int, ...], ...] = tuple(
    tuple(rr * 3 + cc for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)) if 0 <= rr < 3 and 0 <= cc < 3)
    for r, c in (divmod(slot, 3) for slot in range(9)))


def _row_match(pl: Player, row: int, a: int, b: int) -> float:
    """What a plate's two spaces (a, b) on Dome row `row` add: the row's line can move onto them."""
    colour = pl.line_colour[row]
    if colour != EMPTY and (a == colour or a == WILD or b == colour or b == WILD):
        return 2.0 + pl.line_count[row]
    return 0.0


def _spaces_value(pl: Player, top: int, spaces: Sequence[int]) -> float:
    """What a plate's four spaces add on Dome rows `top` and `top + 1`."""
    return _row_match(pl, top, spaces[0], spaces[1]) + _row_match(pl, top + 1, spaces[2], spaces[3])


def _near(pl: Player, slot: int) -> float:
    """What placing next to plates already on the Dome adds."""
    return 0.5 * sum(1 for s in _NEIGHBOURS[slot] if pl.plates[s])


def _placement_value(game: Game, pl: Player, plate: int, slot: int, rot: int) -> float:
    return _spaces_value(pl, 2 * (slot // 3), game.rules.tables.plate(plate).rotations[rot]) + _near(pl, slot)


def _best_placement(game: Game, pl: Player, plate: int) -> float:
    """The best `_placement_value` of a plate over the free Dome spaces and the 4 rotations (0 if none).
    What the rotations add depends only on the slot's band of Dome rows: worked out once per band."""
    rotations = game.rules.tables.plate(plate).rotations
    bands: dict[int, float] = {}
    best: float | None = None
    for slot in range(9):
        if pl.plates[slot]:
            continue
        top = 2 * (slot // 3)
        spaces = bands.get(top)
        if spaces is None:
            spaces = bands[top] = max(_spaces_value(pl, top, rotations[rot]) for rot in range(4))
        value = _near(pl, slot) + spaces
        if best is None or value > best:
            best = value
    return 0.0 if best is None else best


def _lines_open(pl: Player, rows: Rows) -> list[tuple[int, int, int, frozenset[int], bool]]:
    """(line, room, tiles on it, open space kinds of its Dome row, its band of plates full) of each
    pattern line with room, top line first: what `_best_line` reads of a line whatever the pick."""
    return [(line, line - pl.line_count[line - 1], pl.line_count[line - 1], rows[line - 1], band_full(pl, line - 1))
            for line in range(1, 7) if line - pl.line_count[line - 1] > 0]


@attrs.define
class _Board:
    """One player's board as one greedy choice sees it, with what its actions share worked out once."""

    game: Game
    pl: Player
    open_rows: Rows | None = None                 # worked out on first use (`rows`)
    lines: dict[tuple[int, int], float] = attrs.field(factory=dict)
    plates: dict[int, float] = attrs.field(factory=dict)
    open_lines: list[tuple[int, int, int, frozenset[int], bool]] | None = None   # `_lines_open`, on first use
    bands: dict[tuple[int, int, int], float] = attrs.field(factory=dict)   # (plate, band, rotation) -> spaces' value
    tops: list[int] | None = None                 # `moon_tops`, on first use

    @property
    def rows(self) -> Rows:
        if self.open_rows is None:
            self.open_rows = _open_kinds(self.pl)
        return self.open_rows

    def best_line(self, colour: int, n: int) -> float:
        """`_best_line(pl, colour, n)`, with what does not depend on the colour and count read once."""
        key = (colour, n)
        value = self.lines.get(key)
        if value is None:
            if self.open_lines is None:
                self.open_lines = _lines_open(self.pl, self.rows)
            pl = self.pl
            broken = len(pl.broken)
            value = -2.0 * n - broken                                  # _line_value(pl, 0, colour, n)
            for line, room, count, kinds, band in self.open_lines:
                line_colour = pl.line_colour[line - 1]
                if line_colour != EMPTY and line_colour != colour:
                    continue
                put = min(n, room)                                     # _line_value(pl, line, colour, n, rows=rows)
                over = n - put
                open_space = colour in kinds or WILD in kinds
                v = float(put) - 2.0 * over - 0.5 * broken * bool(over)
                if count + put == line:
                    v += (4.0 + line) if open_space else (1.0 if not band else -2.0 * line)
                elif not open_space and band:
                    v -= 2.0 * put
                value = max(value, v)
            self.lines[key] = value
        return value

    def moon_tops(self) -> list[int]:
        """The top tile's colour of each small moon that holds tiles (read once per choice)."""
        if self.tops is None:
            self.tops = [fac.moon[-1] for fac in self.game.state.small if fac.moon]
        return self.tops

    def placement(self, plate: int, slot: int, rot: int) -> float:
        """`_placement_value(game, pl, plate, slot, rot)`, the spaces' part worked out once per band of
        Dome rows (the three slots of a band lie on the same two rows)."""
        key = (plate, slot // 3, rot)
        spaces = self.bands.get(key)
        if spaces is None:
            rotations = self.game.rules.tables.plate(plate).rotations
            spaces = self.bands[key] = _spaces_value(self.pl, 2 * (slot // 3), rotations[rot])
        return spaces + _near(self.pl, slot)

    def best_placement(self, plate: int) -> float:
        if plate not in self.plates:
            self.plates[plate] = _best_placement(self.game, self.pl, plate)
        return self.plates[plate]


def _turn_value(game: Game, who: int, a: Action, board: _Board | None = None) -> float:
    s = game.state
    pl = s.players[who]
    board = board or _Board(game, pl)
    k = a.kind
    if k is Kind.SUN:
        f, colour = a.args
        sun = s.large.sun if f == 0 else s.small[f - 1].sun
        return board.best_line(colour, sun[colour])
    if k is Kind.MOON:
        colour = a.args[0]
        n = s.large.moon[colour] + board.moon_tops().count(colour)
        return board.best_line(colour, n) - (1.5 if s.large.moon[colour] and s.large.start_tile else 0.0)
    if k is Kind.TAKE_PLATE:
        return 0.5 + board.best_placement(s.display[a.args[0]])
    if k is Kind.DRAW_PLATE:
        return 0.5 - (1.0 if pl.score > 0 else 0.0)
    if k is Kind.CHIP:
        return 2.0
    return -100.0                                   # pass: only when nothing else is legal


def _decision_value(game: Game, who: int, a: Action, board: _Board | None = None) -> float:
    s = game.state
    pl = s.players[who]
    board = board or _Board(game, pl)
    p = s.pending
    assert p is not None
    k = a.kind
    if k is Kind.LINE:
        colour, n = p.data
        return _line_value(pl, a.args[0], colour, n, a.args[1] if len(a.args) > 1 else None, board.rows)
    if k is Kind.PLACE_PLATE:
        return board.placement(p.data[0], *a.args)
    if k is Kind.KEEP_PLATE:
        return board.best_placement(a.args[0])
    if k is Kind.DRAW_PLATE:
        return -1.0                                 # keep what was drawn rather than pay again
    if k is Kind.TAKE_PLATE:                        # opening pick
        return board.best_placement(s.display[a.args[0]])
    if k is Kind.BONUS:
        return 10.0 - len(a.args)
    if k is Kind.NO_BONUS:
        return 0.0
    if k is Kind.TILE:
        line = p.data[0]
        cell = line * 6 + a.args[0]
        tiles = list(pl.dome_tile)
        tiles[cell] = pl.line_colour[line]
        return float(placement_points(tiles, cell)[0])
    return 0.0                                      # stack orders, returns: indifferent


def greedy(game: Game, actions: list[Action], rng: random.Random) -> Action:
    if len(actions) == 1:
        return actions[0]
    who = game.current_player
    value = _turn_value if game.state.pending is None else _decision_value
    board = _Board(game, game.state.players[who])
    scored = [value(game, who, a, board) for a in actions]
    best = max(scored)
    return rng.choice([a for a, v in zip(actions, scored, strict=True) if v >= best - 1e-9])


POLICIES: dict[str, Policy] = {"uniform": uniform, "careful": careful, "greedy": greedy}
DEFAULT_POLICY = "greedy"
