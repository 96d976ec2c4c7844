"""Filling the factories from the bag, refilling the bag from the box lid when it runs out."""

from __future__ import annotations

from model.azul.state import FACTORY_TILES, AzulState
from model.chance import Chance
from model.clauses import cite
from model.events import Event


def fill_factories(state: AzulState, chance: Chance, events: list[Event], clause: str) -> None:
    """Put 4 tiles from the bag on each factory (at most 4 x factories draws); partly filled
    factories when bag and lid are both empty."""
    cite(clause)
    bag, lid = state.bag, state.lid
    in_bag = sum(bag)
    for f, factory in enumerate(state.factories):
        for _ in range(FACTORY_TILES):
            if not in_bag:
                if not any(lid):
                    cite("azul.prep.partial-fill")
                    events.append(Event("partial-fill", "azul.prep.partial-fill",
                                        detail=f"bag and lid empty: factories from F{f + 1} on partly filled"))
                    return
                cite("azul.prep.bag-from-lid")
                in_bag = sum(lid)
                events.append(Event("bag-from-lid", "azul.prep.bag-from-lid", detail=f"{in_bag} tiles back in the bag"))
                for c in range(len(bag)):
                    bag[c] += lid[c]
                    lid[c] = 0
            # rule: azul.component.bag
            colour = chance.draw_tile(bag)
            bag[colour] -= 1
            factory[colour] += 1
            in_bag -= 1
