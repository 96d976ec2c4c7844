"""Phase 1 (Acquisition): what the actions of a turn do, placement on pattern lines, turns, the end
of the phase. Plain functions over the table `g` (its state, rules and chance); the engine's dispatch
table (model.duel.engine.RULES) sends each action kind to its function here."""

from __future__ import annotations

from typing import TYPE_CHECKING

from model.clauses import RECORDER, cite, cite_alternative
from model.duel import flow, legality, tiling
from model.duel.colours import COLOURS
from model.duel.dome import matching_cells
from model.duel.state import NUM_SMALL, SLOT_CELLS, Pending, Player
from model.duel.supply import refill_display
from model.errors import RuleLoopError
from model.events import Event, ev

if TYPE_CHECKING:
    from model.duel.engine import Game


# --- the actions of a turn (and the decisions they open) ----------------------------------------

def take_plate(g: Game, who: int, args: tuple[int, ...], events: list[Event]) -> None:
    s = g.state
    p = s.pending
    plate = s.display[args[0]]
    s.display[args[0]] = 0
    if p is None:
        use_token(s.players[who])
        cite("duel.acquire.plate.display")
    s.pending = Pending("place", who, (plate, 1 if p is not None else 0), ())


def draw_plate(g: Game, who: int, args: tuple[int, ...], events: list[Event]) -> None:
    s = g.state
    p = s.pending
    pl = s.players[who]
    drawn: tuple[int, ...] = ()
    if p is None:
        use_token(pl)
    else:
        drawn = p.extra
    cite("duel.acquire.plate.draw")
    cite("duel.acquire.plate.draw-blind")
    paid = 1 if pl.score > 0 else 0
    if not paid:
        cite("duel.score.floor")
        cite_alternative("duel.plate.draw-at-zero", "free-at-zero")
    pl.score -= paid
    events.append(ev("pay", "duel.acquire.plate.draw", who, -paid, "draws a face-down plate"))
    s.pending = Pending("draw", who, (), drawn + (s.pile.pop(0),))


def keep_plate(g: Game, who: int, args: tuple[int, ...], events: list[Event]) -> None:
    s = g.state
    p = s.pending
    assert p is not None
    cite("duel.acquire.plate.keep-one")
    rest = tuple(x for x in p.extra if x != args[0])
    s.pending = Pending("place", who, (args[0], 0), rest)


def put_plate(g: Game, who: int, args: tuple[int, ...], events: list[Event]) -> None:
    """The chosen plate goes on an empty Dome space (the `place` action)."""
    s = g.state
    p = s.pending
    assert p is not None
    place_plate(g, s.players[who], p.data[0], *args)
    events.append(ev("plate", "duel.acquire.plate.placement", who, 0, f"P{p.data[0]:02d} on space {args[0] + 1} r{args[1]}"))
    if p.data[1]:                      # an opening pick
        s.pending = None
        after_opening_pick(g, events)
        return
    rest = p.extra
    if len(rest) >= 2:
        s.pending = Pending("return", who, (), rest)
        return
    if rest:
        cite("duel.acquire.plate.keep-one")
        s.pile.append(rest[0])
    end_turn(g, who, events)


def return_plate(g: Game, who: int, args: tuple[int, ...], events: list[Event]) -> None:
    s = g.state
    p = s.pending
    assert p is not None
    cite("duel.acquire.plate.keep-one")
    s.pile.append(args[0])
    rest = tuple(x for x in p.extra if x != args[0])
    if len(rest) >= 2:
        s.pending = Pending("return", who, (), rest)
        return
    s.pile.append(rest[0])
    end_turn(g, who, events)


def sun(g: Game, who: int, args: tuple[int, ...], events: list[Event]) -> None:
    sun_pick(g, who, args[0], args[1], events)


def stack(g: Game, who: int, args: tuple[int, ...], events: list[Event]) -> None:
    s = g.state
    p = s.pending
    assert p is not None
    cite("duel.acquire.sun.small-leftovers")
    s.small[p.data[0] - 1].moon = list(args)
    s.pending = Pending("line", who, p.data[1:], ())


def moon(g: Game, who: int, args: tuple[int, ...], events: list[Event]) -> None:
    moon_pick(g, who, args[0], events)


def line(g: Game, who: int, args: tuple[int, ...], events: list[Event]) -> None:
    p = g.state.pending
    assert p is not None
    place_tiles(g, who, p.data[0], p.data[1], args, events)
    end_turn(g, who, events)


# A player takes a chip only from an emptied small Factory, and each holds one chip a round: no
# player can take more than NUM_SMALL chips in one round, whatever duel.chips.per-round says. A
# count past it means the count was not reset for the round (duel.acquire.chip.limit).
CHIPS_PER_ROUND_BOUND = NUM_SMALL


def chip(g: Game, who: int, args: tuple[int, ...], events: list[Event]) -> None:
    s = g.state
    pl = s.players[who]
    cite("duel.acquire.chip.take")
    fac = s.small[args[0] - 1]
    pl.chips.append(fac.chip)
    pl.chips.sort()
    pl.chips_this_round += 1
    if pl.chips_this_round > CHIPS_PER_ROUND_BOUND:
        raise RuleLoopError("duel.acquire.chip.limit", CHIPS_PER_ROUND_BOUND,
                            f"P{who + 1} has taken {pl.chips_this_round} chips in round {s.round}, "
                            f"more than the {NUM_SMALL} small Factories hold")
    if pl.chips_this_round > 2:
        cite_alternative("duel.chips.per-round", "no-cap")
    events.append(ev("chip", "duel.acquire.chip.take", who, 0, f"takes C{fac.chip:02d}"))
    fac.chip = 0
    fac.chip_revealed = False
    end_turn(g, who, events)


def pass_turn(g: Game, who: int, args: tuple[int, ...], events: list[Event]) -> None:
    cite("duel.acquire.pass")
    g.state.players[who].passed = True
    events.append(ev("pass", "duel.acquire.pass", who, 0, "cannot act"))
    end_turn(g, who, events)


# --- the rules the actions share ------------------------------------------------------------

def use_token(pl: Player) -> None:
    cite("duel.acquire.plate.token")
    cite("duel.acquire.actions")
    pl.tokens_used += 1


def place_plate(g: Game, pl: Player, plate_id: int, slot: int, rot: int) -> None:
    cite("duel.acquire.plate.placement")
    spaces = g.rules.tables.plates[plate_id - 1].rotations[rot]
    pl.plates[slot] = plate_id
    pl.rotations[slot] = rot
    for cell, space in zip(SLOT_CELLS[slot], spaces, strict=True):
        pl.dome_space[cell] = space


def sun_pick(g: Game, who: int, f: int, c: int, events: list[Event]) -> None:
    s = g.state
    cite("duel.acquire.sun.take-colour")
    cite("duel.acquire.actions")
    if f == 0:
        sun = s.large.sun
        n = sun[c]
        sun[c] = 0
        if any(sun):
            cite("duel.acquire.sun.large-leftovers")
            for x in range(5):
                s.large.moon[x] += sun[x]
                sun[x] = 0
        s.pending = Pending("line", who, (c, n), ())
        return
    fac = s.small[f - 1]
    n = fac.sun[c]
    fac.sun[c] = 0
    leftover = tuple(x for x in range(5) for _ in range(fac.sun[x]))
    fac.sun = [0, 0, 0, 0, 0]
    if not leftover:
        cite("duel.acquire.sun.reveal-monochrome")
        reveal(g, f, events, "duel.acquire.sun.reveal-monochrome")
        s.pending = Pending("line", who, (c, n), ())
    elif len(set(leftover)) == 1:
        cite("duel.acquire.sun.small-leftovers")
        fac.moon = list(leftover)
        s.pending = Pending("line", who, (c, n), ())
    else:
        s.pending = Pending("stack", who, (f, c, n), leftover)


def reveal(g: Game, f: int, events: list[Event], clause: str) -> None:
    fac = g.state.small[f - 1]
    cite("duel.acquire.chip.accessible")
    if fac.chip and not fac.chip_revealed:
        fac.chip_revealed = True
        events.append(ev("reveal-chip", clause, None, 0, f"Factory {f} is empty: C{fac.chip:02d} revealed"))


def moon_pick(g: Game, who: int, c: int, events: list[Event]) -> None:
    s = g.state
    cite("duel.acquire.moon.take-colour")
    cite("duel.acquire.actions")
    n = 0
    for f, fac in enumerate(s.small, 1):
        if fac.moon and fac.moon[-1] == c:
            fac.moon.pop()
            n += 1
            if c in fac.moon:
                cite("duel.acquire.moon.top-tile-only")
            if not fac.moon:
                cite("duel.acquire.moon.reveal-chip")
                reveal(g, f, events, "duel.acquire.moon.reveal-chip")
    if s.large.moon[c]:
        n += s.large.moon[c]
        s.large.moon[c] = 0
        if s.large.start_tile:
            cite("duel.acquire.moon.start-player-tile")
            s.large.start_tile = False
            s.players[who].start_tile = True
            events.append(ev("start-tile", "duel.acquire.moon.start-player-tile", who, 0, "takes the Starting player tile"))
    s.pending = Pending("line", who, (c, n), ())


def break_tiles(g: Game, pl: Player, colour: int, n: int, events: list[Event], who: int, clause: str) -> None:
    if n <= 0:
        return
    cite(clause)
    room = 4 - len(pl.broken)
    kept = min(room, n)
    pl.broken.extend([colour] * kept)
    if n > kept:
        cite("duel.broken.capacity")
        g.state.tower[colour] += n - kept
    events.append(ev("broken", clause, who, 0, f"{n} {COLOURS[colour]} broken"
                        + (f", {n - kept} to the Tower" if n > kept else "")))


def place_tiles(g: Game, who: int, colour: int, n: int, args: tuple[int, ...], events: list[Event]) -> None:
    pl = g.state.players[who]
    cite("duel.lines.one-line")
    line = args[0]
    if line == 0:
        break_tiles(g, pl, colour, n, events, who, "duel.broken.stack")
        return
    i = line - 1
    cite("duel.lines.capacity")
    cite("duel.lines.right-to-left")
    if pl.line_count[i]:
        cite("duel.lines.same-colour")
    room = line - pl.line_count[i]
    placed = min(n, room) if len(args) == 1 else args[1]
    if len(args) > 1:
        cite_alternative("duel.lines.voluntary-break", "any-split")
    elif n > 1 and not g.rules.any_split:
        cite_alternative("duel.lines.voluntary-break", "whole-batch")
    pl.line_colour[i] = colour
    pl.line_count[i] += placed
    if RECORDER.enabled and not matching_cells(pl, i, colour):
        cite("duel.lines.premature")
    events.append(ev("line", "duel.lines.one-line", who, 0, f"{placed} {COLOURS[colour]} on line {line}"))
    if n > placed:
        break_tiles(g, pl, colour, n - placed, events, who,
                    "duel.lines.overflow" if placed == room else "duel.broken.stack")


def end_turn(g: Game, who: int, events: list[Event]) -> None:
    s, rules = g.state, g.rules
    s.pending = None
    if acquisition_over(g):
        flow.change_phase(g, "dome_tiling", events)
        tiling.start_tiling(g, events)
        return
    nxt = -1
    for cand in (1 - who, who):
        pl = s.players[cand]
        if not pl.passed:
            nxt = cand
            break
        if not rules.pass_permanent and legality.can_act(g, cand):
            cite_alternative("duel.acquire.pass.permanent", "recheck")
            pl.passed = False
            nxt = cand
            break
    if nxt == who and s.players[1 - who].passed:
        cite("duel.acquire.pass.asymmetric")
    elif nxt >= 0:
        cite("duel.acquire.turn-order")
    s.to_move = nxt
    if nxt < 0:
        events.append(ev("stalled", "duel.acquire.end", None, 0, "nobody can act and the phase cannot end"))


def acquisition_over(g: Game) -> bool:
    s, rules = g.state, g.rules
    small = s.small
    # A chip stays on its Factory until taken, so this first test settles most calls cheaply.
    if small[0].chip or small[1].chip or small[2].chip or small[3].chip:
        return False
    if s.large.has_tiles or any(f.has_tiles for f in small):
        return False
    if s.large.start_tile:                 # it alone never keeps the phase going
        cite("duel.acquire.end.start-tile")
    if s.round < 5:
        for pl in s.players:
            if pl.tokens_used < 2:
                if pl.passed and rules.strict_tokens:
                    cite_alternative("duel.acquire.end.passed-tokens", "strict")
                if not pl.passed or rules.strict_tokens:
                    return False
                cite_alternative("duel.acquire.end.passed-tokens", "pass-counts-as-done")
    cite("duel.acquire.end")
    if s.round < 5:
        cite("duel.acquire.plate.tokens-required")
    return True


def after_opening_pick(g: Game, events: list[Event]) -> None:
    s = g.state
    refill_display(s, "duel.setup.opening-plates")
    s.opening_picks += 1
    if s.opening_picks == 1:
        s.pending = Pending("opening", s.starter)
        return
    flow.change_phase(g, "acquisition", events)
    s.to_move = s.starter
