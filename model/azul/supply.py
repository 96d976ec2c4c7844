"""Filling the factories from the bag, refilling the bag from the box lid when it runs out."""

from __future__ import annotations

from model.azul.state import FACTORY_TILES, AzulState
from model.chance import Chance
from model.clauses import cite, cite_alternative
from model.events import Event, ev


def fill_factories(state: AzulState, chance: Chance, events: list[Event], clause: str,
                   round_robin: bool = False) -> None:
    """Put 4 tiles from the bag on each factory (at most 4 x factories draws); partly filled
    factories when bag and lid are both empty. Display after display, or under
    azul.prep.fill-order=round-robin one tile at a time around the displays."""
    cite(clause)
    bag, lid = state.bag, state.lid
    in_bag = sum(bag)
    n = len(state.factories)
    # Dealing in turn differs only when the tiles run short; with enough for every display the same
    # draws go display after display, so a game under either reading is the same game until then.
    if round_robin and sum(bag) + sum(lid) < FACTORY_TILES * n:
        slots = [(f, state.factories[f]) for _ in range(FACTORY_TILES) for f in range(n)]
    else:
        slots = [(f, state.factories[f]) for f in range(n) for _ in range(FACTORY_TILES)]
    done = 0
    while done < len(slots):
        f = slots[done][0]
        if not in_bag:
            if not any(lid):
                cite("azul.prep.partial-fill")
                # the order spreads what there is: with one tile dealt (or none) either order puts
                # it on the first display, so the reading decided nothing
                if done > 1:
                    cite_alternative("azul.prep.fill-order", "round-robin" if round_robin
                                     else "display-by-display")
                where = "tiles dealt in turn" if round_robin else f"factories from F{f + 1} on"
                events.append(ev("partial-fill", "azul.prep.partial-fill", None, 0, f"bag and lid empty: {where} partly filled"))
                return
            cite("azul.prep.bag-from-lid")
            in_bag = sum(lid)
            events.append(ev("bag-from-lid", "azul.prep.bag-from-lid", None, 0, f"{in_bag} tiles back in the bag"))
            for c in range(len(bag)):
                bag[c] += lid[c]
                lid[c] = 0
        # rule: azul.component.bag (the tiles the bag holds, up to the slots left, drawn in one batch:
        # the same draws in the same order as one at a time)
        k = min(in_bag, len(slots) - done)
        batch = getattr(chance, "draw_tiles", None)
        if batch is None:                 # a chance that draws one at a time (scripted, recorded)
            k = 1
            drawn = [chance.draw_tile(bag)]
            bag[drawn[0]] -= 1
        else:
            drawn = batch(bag, k)
        for (_, factory), colour in zip(slots[done:done + k], drawn, strict=True):
            factory[colour] += 1
        done += k
        in_bag -= k
