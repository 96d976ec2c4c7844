"""Quick sufficient tests for the component-flow checks of every game (properties/<game>/flows.py):
can the units that left some places (`out_of`: place -> count) reach the places that gained
(`into`), each unit only along the reach sets (`reach`: place -> places it may go)? True means a
routing exists; False means only "not settled here": the game's exact matching then decides and
names what cannot be routed."""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from collections.abc import Set as AbstractSet
from typing import TypeVar

P = TypeVar("P", bound=Hashable)

_NOWHERE: frozenset[Hashable] = frozenset()


def one_way(out_of: Mapping[P, int], into: Mapping[P, int], reach: Mapping[P, AbstractSet[P]]) -> bool:
    """Every place left reaches every place entered (each unit may go to any of them; this covers
    units that left one place, or reached one place)."""
    return all(into.keys() <= reach.get(a, _NOWHERE) for a in out_of)


def greedy_fits(out_of: Mapping[P, int], into: Mapping[P, int], reach: Mapping[P, AbstractSet[P]]) -> bool:
    """A routing found greedily: the smaller side's units (arrivals routed back to departures when
    fewer arrived), the places with the fewest ways first, each taking what it can in turn."""
    if sum(into.values()) < sum(out_of.values()):
        units, room = into, dict(out_of)
        ways = {b: [a for a in out_of if b in reach.get(a, _NOWHERE)] for b in into}
    else:
        units, room = out_of, dict(into)
        ways = {a: [b for b in into if b in reach.get(a, _NOWHERE)] for a in out_of}
    for x in sorted(units, key=lambda x: (len(ways[x]), x)):
        left = units[x]
        for y in ways[x]:
            moved = min(left, room[y])
            room[y] -= moved
            left -= moved
            if not left:
                break
        if left:
            return False
    return True
