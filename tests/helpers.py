"""Helpers that put a game into a chosen position for rule tests."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager

from model.clauses import recording
from model.duel import Game, acquisition, new_game, parse_action
from model.duel.colours import COLOUR_INDEX, EMPTY
from model.duel.supply import clear_factories

B, Y, R, K, T = (COLOUR_INDEX[c] for c in ("blue", "yellow", "red", "black", "turquoise"))


def play(game: Game, *moves: str) -> list:
    events = []
    for m in moves:
        events.extend(game.apply(parse_action(m)))
    return events


def in_acquisition(seed: int = 0, **overrides: str) -> Game:
    """A game after both opening picks (first legal choices), in round 1's Acquisition."""
    game = new_game(seed=seed, overrides=overrides or None)
    while game.state.phase == "setup":
        game.apply(game.legal_actions()[0])
    return game


def empty_table(game: Game) -> None:
    """Clear every Factory (tiles back to the bag) and the chips; leaves tokens and plates alone."""
    clear_factories(game.state)


def take_from_bag(game: Game, colour: int, n: int) -> None:
    assert game.state.bag[colour] >= n
    game.state.bag[colour] -= n


def set_small(game: Game, f: int, sun: dict[int, int] | None = None, moon: list[int] | None = None,
              chip: int = 0, revealed: bool = False) -> None:
    fac = game.state.small[f - 1]
    for c, n in (sun or {}).items():
        take_from_bag(game, c, n)
        fac.sun[c] += n
    for c in moon or []:
        take_from_bag(game, c, 1)
        fac.moon.append(c)
    if chip:
        game.state.chip_supply.remove(chip)
        fac.chip, fac.chip_revealed = chip, revealed


def put_plate(game: Game, who: int, slot: int, plate_id: int, rot: int = 0) -> None:
    acquisition.place_plate(game, game.state.players[who], plate_id, slot, rot)
    s = game.state
    if plate_id in s.pile:
        s.pile.remove(plate_id)
    if plate_id in s.display:
        s.display[s.display.index(plate_id)] = 0


def set_line(game: Game, who: int, line: int, colour: int, n: int) -> None:
    pl = game.state.players[who]
    take_from_bag(game, colour, n)
    pl.line_colour[line - 1] = colour if n else EMPTY
    pl.line_count[line - 1] = n


def start_tiling(game: Game) -> list:
    """Jump from an emptied Acquisition into Dome-tiling (runs until a decision or the next phase)."""
    empty_table(game)
    for pl in game.state.players:
        pl.tokens_used = 2
    events: list = []
    game.state.pending = None
    acquisition.end_turn(game, game.state.to_move if game.state.to_move >= 0 else 0, events)
    return events


def set_tiles(game: Game, who: int, cells: dict[int, int]) -> None:
    """Put tiles straight onto Dome cells (row*6+col), taken from the bag."""
    pl = game.state.players[who]
    for cell, colour in cells.items():
        if colour < 5:
            take_from_bag(game, colour, 1)
        else:
            game.state.special_supply -= 1
        pl.dome_tile[cell] = colour


def bare(seed: int = 0, **overrides: str) -> Game:
    """In Acquisition with no plates on either Dome (opening plates returned to the pile)."""
    g = in_acquisition(seed, **overrides)
    for pl in g.state.players:
        for slot, pid in enumerate(pl.plates):
            if pid:
                g.state.pile.append(pid)
                pl.plates[slot] = 0
        pl.dome_space[:] = [EMPTY] * 36
    return g


class Record:
    """Clause hits and decisive alternatives counted inside a `record()` block."""

    def __init__(self) -> None:
        self.clauses: Counter[str] = Counter()
        self.alternatives: Counter[tuple[str, str]] = Counter()


@contextmanager
def record() -> Iterator[Record]:
    """What fired inside the block (on top of whatever the test plugin records around it); shared by
    the Duel and the classic guarding tests."""
    out = Record()
    with recording(reset=False) as rec:
        clauses, alternatives = rec.clauses.copy(), rec.alternatives.copy()
        yield out
        out.clauses = rec.clauses - clauses
        out.alternatives = rec.alternatives - alternatives


def refill_problems(alt: str, *, large: list[int], bag: list[int], tower: list[int],
                    small_sun: list[int]) -> list[str]:
    """The refill invariant's complaints about a prepared round under duel.refill.monochrome-unavoidable
    = `alt`: the large Factory's sun, bag and Tower as given, every small Factory's sun `small_sun`."""
    from properties.duel.factories import refill_violations

    game = new_game(seed=1, overrides={"duel.refill.monochrome-unavoidable": alt})
    s = game.state
    s.large.sun, s.bag, s.tower = list(large), list(bag), list(tower)
    for fac in s.small:
        fac.sun = list(small_sun)
    return refill_violations(s, game)

