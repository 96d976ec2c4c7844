"""Drawing from the bag, restocking it from the Tower, and filling Factories and the display."""

from __future__ import annotations

from model.chance import Chance
from model.clauses import cite, cite_alternative
from model.duel.colours import COLOURS
from model.duel.ruleset import Ruleset
from model.duel.state import GameState, SmallFactory
from model.errors import RuleLoopError
from model.events import Event, ev


def restock_bag(state: GameState, events: list[Event], why: str = "") -> None:
    """Every tile of the Tower into the bag (duel.prep.bag-restock)."""
    cite("duel.prep.bag-restock")
    events.append(ev("restock", "duel.prep.bag-restock", None, 0, f"{sum(state.tower)} tiles from the Tower{why}"))
    for c in range(5):
        state.bag[c] += state.tower[c]
        state.tower[c] = 0


def draw_tile(state: GameState, chance: Chance, events: list[Event]) -> int | None:
    """One tile from the bag, restocking from the Tower when the bag is empty; None if both are."""
    if not any(state.bag):
        if not any(state.tower):
            return None
        restock_bag(state, events)
    colour = chance.draw_tile(state.bag)
    state.bag[colour] -= 1
    return colour


# Bounds of the one-colour redraw (duel.setup.large-factory.monochrome-redraw). Redrawing one tile
# replaces a tile of the one colour by another colour, so the rules need exactly one redraw; the
# draw of "a tile of another colour" is rejection sampling, and redrawing all five is a fresh draw,
# so both repeat only by chance. With at least one other colour in a bag of n tiles a draw misses it
# with probability at most 1 - 1/n (five tiles at most 1 - 5/n), so 28 * n tries (6 * n redraws)
# run out by honest chance with probability below e^-28, about 1e-12. n is the tiles in bag + Tower.
REJECTION_TRIES_PER_TILE = 28
REDRAWS_PER_TILE = 6


def monochrome_redraw_bound(state: GameState, method: str) -> int:
    """How many one-colour redraws of the large Factory the rules can need (see above)."""
    if method != "redraw-all":
        return 1
    return REDRAWS_PER_TILE * (sum(state.bag) + sum(state.tower) + 5)


def _draw_other_colour(state: GameState, chance: Chance, mono: int) -> int:
    """A tile of any colour but `mono` from the bag (which holds one): bounded rejection sampling."""
    tries = REJECTION_TRIES_PER_TILE * sum(state.bag)
    for _ in range(tries):
        colour = chance.draw_tile(state.bag)
        if colour != mono:
            return colour
    raise RuleLoopError("duel.setup.large-factory.monochrome-redraw", tries,
                        f"{tries} draws from a bag holding other colours all gave {COLOURS[mono]}")


def fill_large(state: GameState, rules: Ruleset, chance: Chance, events: list[Event]) -> None:
    sun = state.large.sun
    for _ in range(5):
        colour = draw_tile(state, chance, events)
        if colour is None:
            break
        sun[colour] += 1
    method = rules.choices["duel.refill.monochrome"]
    bound = monochrome_redraw_bound(state, method)
    for redraws in range(bound + 1):
        if max(sun) != 5:
            return
        if redraws == bound:
            break
        # Five of one colour on the large Factory (duel.setup.large-factory.monochrome-redraw).
        cite("duel.setup.large-factory.monochrome-redraw")
        cite_alternative("duel.refill.monochrome", method)
        mono = sun.index(5)
        events.append(ev("redraw", "duel.setup.large-factory.monochrome-redraw", None, 0, f"5 {COLOURS[mono]} tiles on the large Factory ({method})"))
        if not any(state.bag[c] for c in range(5) if c != mono):
            alt = rules.choices["duel.refill.monochrome-unavoidable"]
            cite_alternative("duel.refill.monochrome-unavoidable", alt)
            if alt == "restock-from-tower" and any(state.tower[c] for c in range(5) if c != mono):
                # The Tower holds another colour: it goes into the bag and the redraw goes on.
                restock_bag(state, events, f" (the bag held no other colour than {COLOURS[mono]}; {alt})")
            else:
                events.append(ev("redraw-impossible", "duel.setup.large-factory.monochrome-redraw", None, 0, f"the bag holds no other colour than {COLOURS[mono]} ({alt})"))
                if alt == "leave-empty":
                    state.bag[mono] += 5
                    sun[mono] = 0
                return
        if method == "redraw-all":
            sun[mono] = 0
            state.bag[mono] += 5
            for _ in range(5):
                colour = draw_tile(state, chance, events)
                assert colour is not None  # five tiles were just returned
                sun[colour] += 1
        else:
            sun[mono] -= 1
            state.bag[mono] += 1
            colour = _draw_other_colour(state, chance, mono)
            state.bag[colour] -= 1
            sun[colour] += 1
    raise RuleLoopError("duel.setup.large-factory.monochrome-redraw", bound,
                        f"the large Factory was still one colour after {bound} redraws ({method})")


def fill_factories(state: GameState, rules: Ruleset, chance: Chance, events: list[Event],
                   clause: str) -> None:
    """Large Factory first, then small Factories 1-4, each with a face-down chip; under
    duel.prep.refill-order=small-first the small Factories first (it matters only when tiles run out)."""
    cite(clause)
    order = rules.choices["duel.prep.refill-order"]
    if order == "large-first":
        fill_large(state, rules, chance, events)
    fill_small(state, chance, events)
    if order == "small-first":
        fill_large(state, rules, chance, events)
    short = sum(state.large.sun) < 5 or any(sum(f.sun) < 4 for f in state.small)
    if short and not any(state.bag) and not any(state.tower):   # not a large sun left empty by a redraw rule
        cite("duel.prep.rare-empty")
        cite_alternative("duel.prep.refill-order", order)       # the order decided which ran short
        events.append(ev("tiles-ran-out", "duel.prep.rare-empty", None, 0, "bag and Tower are empty; some Factories are not filled"))


def fill_small(state: GameState, chance: Chance, events: list[Event]) -> None:
    """Small Factories 1-4: 4 tiles each, then a face-down chip (revealed at once on an empty one)."""
    for f, factory in enumerate(state.small, 1):
        for _ in range(4):
            colour = draw_tile(state, chance, events)
            if colour is None:
                break
            factory.sun[colour] += 1
        if state.chip_supply:
            chip = chance.draw_chip(state.chip_supply)
            state.chip_supply.remove(chip)
            factory.chip = chip
            factory.chip_revealed = False
            if not factory.has_tiles:
                cite("duel.prep.rare-empty")
                factory.chip_revealed = True
                events.append(ev("reveal-chip", "duel.prep.rare-empty", None, 0, f"Factory {f} has no tiles; its chip C{chip:02d} is revealed"))


def refill_display(state: GameState, clause: str) -> None:
    cite(clause)
    for i in range(3):
        if state.display[i] == 0 and state.pile:
            state.display[i] = state.pile.pop(0)


def clear_factories(state: GameState) -> None:
    """Empty every Factory: tiles back into the bag, chips back into the face-down supply (the
    Starting player tile stays where it is). Used to set up positions, never by the rules."""
    for c in range(5):
        state.bag[c] += state.large.sun[c] + state.large.moon[c]
    state.large.sun, state.large.moon = [0] * 5, [0] * 5
    for f in state.small:
        for c in range(5):
            state.bag[c] += f.sun[c]
        for c in f.moon:
            state.bag[c] += 1
        if f.chip:
            state.chip_supply.append(f.chip)
    state.chip_supply.sort()
    state.small = [SmallFactory() for _ in range(len(state.small))]
