"""How classic Azul's components move: the table of allowed flows by action and phase, the check that
a step made no other, the starting player marker's moves, and the refill's size.

Every tile lies somewhere: a location is (place, owner, row), e.g. ("line", 1, 3) is pattern line 4
of P2, ("factory", 2, -1) factory display 3, ("lid", -1, -1) the box lid. A step's flow is, colour by
colour, the difference between where tiles lay before and after it; it is allowed when every tile
that left a place can have reached a place that gained one along the flows of the step's action
(done by the acting player) and of the phases the step ran through (work the rules do by themselves).
Chained moves inside one step (the last take's tiles to a line, the line to the wall and the lid, the
lid into the bag, the bag onto a factory) are paths of allowed flows.

    take (actor me, source S, colour k)   S[k] -> line[me.dest], floor[me], lid     azul.offer.take-*, azul.lines.to-floor, azul.floor.overflow-lid
                                          factory S[other colours] -> centre        azul.offer.take-factory
                                          floor[me] -> lid (the displaced tile)    azul.offer.marker-on-full-floor=displace-to-lid
    wall-tiling (any player P, row r)     line[P.r] -> wall[P.r], lid              azul.wall.move-rightmost, azul.wall.discard-rest
                                          line[P.r] -> floor[P] (gray, no space)   azul.wall.no-space
    round end                             floor[P] -> lid                           azul.floor.discard
    preparation                           bag -> factory[*]                         azul.prep.refill
                                          lid -> bag (with a bag-from-lid event)    azul.prep.bag-from-lid

Beyond where tiles may go: a wall space never loses its tile and each wall row gains at most one a
step (azul.wall.move-rightmost); during the offer the taken tiles reach the floor only when the line
is full, and the lid only when the floor is (azul.lines.to-floor, azul.floor.overflow-lid); the
marker leaves the centre with, and only with, the round's first take from the centre, to the taker
(azul.offer.first-from-centre), and is back in the centre when the next round starts (azul.offer.
marker-to-centre). `refill_problems` checks the refill: each display 4 tiles while the bag and lid
last (azul.prep.refill, azul.prep.bag-from-lid, azul.prep.partial-fill).
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from collections.abc import Set as AbstractSet

from model.azul.actions import CENTRE_SOURCE, FLOOR, Action, Kind
from model.azul.colours import COLOURS, EMPTY, NUM_COLOURS, ROWS, TILES_PER_COLOUR
from model.azul.state import CENTRE, FACTORY_TILES, FLOOR_SPACES, OFFER, OVER, TILING, AzulState
from model.events import Event
from properties.azul.oracle import marker_holder, offer_ended, tiled_span

Loc = tuple[str, int, int]
BAG: Loc = ("bag", -1, -1)
LID: Loc = ("lid", -1, -1)
CENTRE_LOC: Loc = ("centre", -1, -1)

FLOW_CLAUSES: tuple[str, ...] = (
    "azul.offer.take-factory", "azul.offer.take-centre", "azul.lines.to-floor", "azul.floor.overflow-lid",
    "azul.wall.move-rightmost", "azul.wall.discard-rest", "azul.wall.no-space", "azul.floor.discard",
    "azul.offer.first-from-centre", "azul.offer.marker-to-centre", "azul.component.starting-marker",
)
REFILL_CLAUSES: tuple[str, ...] = ("azul.prep.refill", "azul.setup.fill-factories", "azul.prep.bag-from-lid",
                                   "azul.prep.partial-fill")


def _line(who: int, row: int) -> Loc:
    return ("line", who, row)


def _floor(who: int) -> Loc:
    return ("floor", who, -1)


def _wall(who: int, row: int) -> Loc:
    return ("wall", who, row)


def table_delta(a: AzulState, b: AzulState) -> dict[int, dict[Loc, int]]:
    """Per colour, the change of tiles at every location the step changed (non-zero entries only):
    the places are compared first, so a step that touched two places costs two comparisons."""
    d: dict[tuple[int, Loc], int] = {}
    get = d.get

    def counts(loc: Loc, old: Sequence[int], new: Sequence[int]) -> None:
        for c in range(NUM_COLOURS):
            if old[c] != new[c]:
                d[(c, loc)] = get((c, loc), 0) + new[c] - old[c]
    if a.bag != b.bag:
        counts(BAG, a.bag, b.bag)
    if a.lid != b.lid:
        counts(LID, a.lid, b.lid)
    if a.centre != b.centre:
        counts(CENTRE_LOC, a.centre, b.centre)
    for f, (fa, fb) in enumerate(zip(a.factories, b.factories, strict=True)):
        if fa != fb:
            counts(("factory", f, -1), fa, fb)
    for who, (ba, bb) in enumerate(zip(a.boards, b.boards, strict=True)):
        if ba == bb:
            continue                                      # an unchanged board (most boards of a step)
        if ba.line_count != bb.line_count or ba.line_colour != bb.line_colour:
            for row in range(ROWS):
                was, now = ba.line_colour[row], bb.line_colour[row]
                if ba.line_count[row] != bb.line_count[row] or was != now:
                    loc = _line(who, row)
                    if 0 <= was < NUM_COLOURS:
                        d[(was, loc)] = get((was, loc), 0) - ba.line_count[row]
                    if 0 <= now < NUM_COLOURS:
                        d[(now, loc)] = get((now, loc), 0) + bb.line_count[row]
        if ba.wall != bb.wall:
            for cell, (x, y) in enumerate(zip(ba.wall, bb.wall, strict=True)):
                if x != y:
                    loc = _wall(who, cell // ROWS)
                    if 0 <= x < NUM_COLOURS:
                        d[(x, loc)] = get((x, loc), 0) - 1
                    if 0 <= y < NUM_COLOURS:
                        d[(y, loc)] = get((y, loc), 0) + 1
        if ba.floor != bb.floor:
            loc = _floor(who)
            for sign, floor in ((-1, ba.floor), (1, bb.floor)):
                for t in floor:
                    if 0 <= t < NUM_COLOURS:           # the marker is not a colour
                        d[(t, loc)] = get((t, loc), 0) + sign
    out: dict[int, dict[Loc, int]] = {}
    for (c, loc), n in d.items():
        if n:
            out.setdefault(c, {})[loc] = n
    return out


@functools.lru_cache(maxsize=8192)
def _reach_of(phase: tuple[object, ...], take: Action | None, taken: bool, me: int,
              marker_in_centre: bool) -> dict[Loc, frozenset[Loc]]:
    """`_closure` of the phases' flows and the flows of a colour the step's own take (None: the step
    took nothing during the offer) may make: of the taken colour (`taken`) or another, by seat `me`,
    the marker in the centre or not."""
    return _closure(phase, _action_edges(take, taken, me, marker_in_centre))


def _action_edges(take: Action | None, taken: bool, me: int, marker_in_centre: bool) -> tuple[tuple[Loc, Loc], ...]:
    """The flows of one colour the step's own take may make (see the table above)."""
    if take is None:
        return ()
    source, _, dest = take.args[:3]
    src = CENTRE_LOC if source == CENTRE_SOURCE else ("factory", source, -1)
    out: list[tuple[Loc, Loc]] = []
    if taken:
        if dest < FLOOR:
            out.append((src, _line(me, dest)))
        out.append((src, _floor(me)))
        out.append((src, LID))
    elif source != CENTRE_SOURCE:
        out.append((src, CENTRE_LOC))
    if source == CENTRE_SOURCE and marker_in_centre:
        out.append((_floor(me), LID))            # displace-to-lid; the marker check says whether it may
    return tuple(out)


@functools.lru_cache(maxsize=512)
def _phase_edges(players: int, factories: int, span: tuple[tuple[int, int], tuple[int, int]] | None,
                 tiling_over: bool, refill: bool, from_lid: bool) -> dict[Loc, frozenset[Loc]]:
    """The work the phases a step ran through do by themselves: wall-tiling over `span`, the round's
    floor discard, the refill (and the lid into the bag, when the step says so)."""
    succ: dict[Loc, set[Loc]] = {}

    def edge(a: Loc, b: Loc) -> None:
        succ.setdefault(a, set()).add(b)
    if span is not None:
        for who in range(players):
            for row in range(ROWS):
                if span[0] <= (who, row) < span[1]:
                    edge(_line(who, row), _wall(who, row))
                    edge(_line(who, row), LID)
                    edge(_line(who, row), _floor(who))
                    edge(_floor(who), LID)
    if tiling_over:
        for who in range(players):
            edge(_floor(who), LID)
    if refill:
        for f in range(factories):
            edge(BAG, ("factory", f, -1))
        if from_lid:
            edge(LID, BAG)
    return {a: frozenset(b) for a, b in succ.items()}


def _reach(succ: dict[Loc, set[Loc]], start: Loc) -> set[Loc]:
    seen: set[Loc] = set()
    todo = list(succ.get(start, ()))
    while todo:                    # bounded: each location is visited once
        n = todo.pop()
        if n not in seen:
            seen.add(n)
            todo.extend(succ.get(n, ()))
    seen.discard(start)
    return seen


def _label(loc: Loc) -> str:
    place, owner, row = loc
    if owner < 0:
        return place
    if place == "factory":
        return f"F{owner + 1}"
    return f"P{owner + 1} {place}" + (f" {row + 1}" if row >= 0 else "")


def _routable(out_of: dict[Loc, int], into: dict[Loc, int], reach: Mapping[Loc, AbstractSet[Loc]]) -> list[str]:
    """Can the tiles that left places have gone to the places that gained tiles along allowed flows?
    When more left than arrived (or the other way round) the difference appeared or vanished, which
    is tile-conservation's finding: only as many as the smaller side are routed. A bipartite
    transport problem on a few dozen places: an augmenting-path matching of units."""
    if sum(into.values()) < sum(out_of.values()):        # route every arrival back to a departure
        back = {b: {a for a in out_of if b in reach.get(a, ())} for b in into}
        stuck = _match(into, out_of, back)
        return [f"tiles reaching {b} from none of {' / '.join(_label(a) for a in out_of)} along an allowed flow"
                for b in stuck]
    stuck = _match(out_of, into, reach)
    return [f"tiles from {a} that no allowed flow takes to {' / '.join(_label(b) for b in into)}" for a in stuck]


def _match(sources: dict[Loc, int], sinks: dict[Loc, int], reach: Mapping[Loc, AbstractSet[Loc]]) -> list[str]:
    """The sources (labels) some of whose units find no sink, the most constrained routed first."""
    need = dict(sinks)
    stuck: list[str] = []
    assigned: dict[Loc, dict[Loc, int]] = {a: {} for a in sources}
    for a in sorted(sources, key=lambda x: (len(reach.get(x, ())), x)):
        for _ in range(sources[a]):
            if not _augment(a, need, assigned, reach, set()):
                stuck.append(_label(a))
                break
    return stuck


def _augment(a: Loc, need: dict[Loc, int], assigned: dict[Loc, dict[Loc, int]], reach: Mapping[Loc, AbstractSet[Loc]],
             seen: set[Loc]) -> bool:
    """Send one more unit from `a`: to a place still needing one, or to a place another source fills
    whose unit can move elsewhere (depth bounded by the number of places)."""
    targets = sorted(b for b in need if b in reach.get(a, ()))
    for b in targets:
        if need[b] > 0:
            need[b] -= 1
            assigned[a][b] = assigned[a].get(b, 0) + 1
            return True
    for b in targets:
        if b in seen:
            continue
        seen.add(b)
        for other, sent in assigned.items():
            if other != a and sent.get(b, 0) > 0 and _augment(other, need, assigned, reach, seen):
                sent[b] -= 1
                assigned[a][b] = assigned[a].get(b, 0) + 1
                return True
    return False


def flow_problems(before: AzulState, after: AzulState, action: Action | None, events: Sequence[Event]) -> list[str]:
    """Every movement of the step the flow table does not allow, and the offer's and marker's rules.
    The places each place may reach are worked out once per kind of step (`_closure`: the phases
    the step ran through and the action's own flows for the colour); a colour whose every departure
    place reaches every arrival place, or that left one place or reached one place, is then settled
    by reach alone (every unit can go any of the ways: `_one_way`), the others by the matching."""
    what = f"'{action}'" if action is not None else "the step"
    out: list[str] = []
    key: tuple[object, ...] | None = None
    take = action if action is not None and action.kind is Kind.TAKE and before.phase == OFFER else None
    for colour, change in sorted(table_delta(before, after).items()):
        out_of = {loc: -n for loc, n in change.items() if n < 0}
        into = {loc: n for loc, n in change.items() if n > 0}
        if not out_of or not into:
            continue                   # appeared or vanished: tile-conservation reports it
        if key is None:
            span = tiled_span(before, after, offer_ended(events))
            refill = after.round != before.round
            key = (before.players, len(before.factories), span, span is not None and after.phase != TILING,
                   refill, refill and any(e.kind == "bag-from-lid" for e in events))
        reach = _reach_of(key, take, take is not None and colour == take.args[1], before.to_move,
                          before.marker == CENTRE)
        if _one_way(out_of, into, reach) or _greedy_fits(out_of, into, reach):
            continue
        out += [f"{what} moved {COLOURS[colour]} {m}" for m in _routable(out_of, into, reach)]
    out += _wall_rules(before, after, what)
    out += _offer_rules(before, after, action, events, what)
    out += marker_problems(before, after, action, events, what)
    return out


@functools.lru_cache(maxsize=4096)
def _closure(phase: tuple[object, ...], extra: tuple[tuple[Loc, Loc], ...]) -> dict[Loc, frozenset[Loc]]:
    """Each place -> every other place its tiles may reach along the phases' flows (`phase`: the
    arguments of `_phase_edges`) and the action's `extra` flows."""
    succ: dict[Loc, set[Loc]] = {a: set(b) for a, b in _phase_edges(*phase).items()}
    for a, b in extra:
        succ.setdefault(a, set()).add(b)
    return {a: frozenset(_reach(succ, a)) for a in succ}


_NOWHERE: frozenset[Loc] = frozenset()


def _one_way(out_of: dict[Loc, int], into: dict[Loc, int], reach: Mapping[Loc, frozenset[Loc]]) -> bool:
    """A sufficient test that `_routable` finds nothing: every place the tiles left reaches every place
    that gained (each unit may go to any of them; it covers tiles that left one place, or reached one
    place). False means "not settled here", never "not routable"."""
    return all(into.keys() <= reach.get(a, _NOWHERE) for a in out_of)


def _greedy_fits(out_of: dict[Loc, int], into: dict[Loc, int], reach: Mapping[Loc, AbstractSet[Loc]]) -> bool:
    """A quick sufficient test that `_routable` finds nothing: the smaller side's units routed the way
    `_routable` routes them, the places with the fewest ways first, each taking what it can in
    turn. True is a routing found; False means "not found this way" (the matching then decides)."""
    if sum(into.values()) < sum(out_of.values()):        # arrivals back to departures
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


def _wall_rules(before: AzulState, after: AzulState, what: str) -> list[str]:
    out = []
    for who, (a, b) in enumerate(zip(before.boards, after.boards, strict=True)):
        if a.wall == b.wall:
            continue
        for row in range(ROWS):
            cells = range(row * ROWS, (row + 1) * ROWS)
            lost = [i for i in cells if a.wall[i] != EMPTY and b.wall[i] != a.wall[i]]
            gained = [i for i in cells if a.wall[i] == EMPTY and b.wall[i] != EMPTY]
            if lost:
                out.append(f"{what}: P{who + 1}'s wall row {row + 1} lost a tile")
            if len(gained) > 1:
                out.append(f"{what}: P{who + 1}'s wall row {row + 1} gained {len(gained)} tiles in one step")
    return out


def _offer_rules(before: AzulState, after: AzulState, action: Action | None, events: Sequence[Event],
                 what: str) -> list[str]:
    """A take that does not end the offer: the taken tiles reach the floor only when the line is full
    (or past the split), and the lid only when the floor is."""
    if action is None or action.kind is not Kind.TAKE or offer_ended(events):
        return []
    source, colour, dest = action.args[:3]
    split = action.args[3] if len(action.args) > 3 else 0
    me = before.to_move
    a, b = before.boards[me], after.boards[me]
    out = []
    to_floor = b.floor.count(colour) - a.floor.count(colour)
    if dest < FLOOR and to_floor > 0 and not split and b.line_count[dest] != dest + 1:
        out.append(f"{what}: {to_floor} tiles went to P{me + 1}'s floor with line {dest + 1} not full")
    to_lid = sum(after.lid) - sum(before.lid)
    if to_lid > 0 and len(b.floor) < FLOOR_SPACES:
        out.append(f"{what}: {to_lid} tiles went to the lid with P{me + 1}'s floor holding {len(b.floor)}")
    return out


def marker_problems(before: AzulState, after: AzulState, action: Action | None, events: Sequence[Event],
                    what: str = "the step") -> list[str]:
    """The marker leaves the centre with the round's first take from the centre, to the taker, and only
    then; it stays with its holder until the next round starts, then lies in the centre."""
    holder = marker_holder(before, action)
    if after.round != before.round and after.phase == OFFER:
        if after.marker != CENTRE:
            return [f"{what}: round {after.round} starts with the marker at P{after.marker + 1}, not in the centre"]
        return []
    if after.phase == OVER or after.round != before.round:
        return []                      # the game ended or stalled: the marker stays where it was or goes back
    if after.marker != holder:
        where = "the centre" if after.marker == CENTRE else f"P{after.marker + 1}"
        should = "the centre" if holder == CENTRE else f"P{holder + 1}"
        return [f"{what}: the marker is with {where}; the rules put it with {should}"]
    return []


def refill_problems(before: AzulState, after: AzulState, choices: Mapping[str, str] | None = None) -> list[str]:
    """A step that prepared a new round (the round number changed, the offer open): the factories
    hold min(4 x displays, tiles in bag and lid) tiles, at most 4 each, filled one display after
    another, or under azul.prep.fill-order=round-robin dealt one tile at a time (so no display holds
    two more than another; either, under a reading this check does not know); tiles come from the
    bag (bag as it was all round) and only when it runs out from the lid, all of which then goes
    into the bag."""
    if after.round == before.round or after.phase != OFFER:
        return []
    out: list[str] = []
    displays = len(after.factories)
    bag_before = before.bag                        # the bag changes only at a refill
    walls = [0] * NUM_COLOURS
    lines = [0] * NUM_COLOURS
    for b in after.boards:
        for t in b.wall:
            if t != EMPTY:
                walls[t] += 1
        for row in range(ROWS):
            if b.line_count[row] and 0 <= b.line_colour[row] < NUM_COLOURS:
                lines[b.line_colour[row]] += b.line_count[row]
    on_displays = [sum(f[c] for f in after.factories) for c in range(NUM_COLOURS)]
    floors = [sum(1 for b in after.boards for t in b.floor if t == c) for c in range(NUM_COLOURS)]
    if any(walls[c] + lines[c] + floors[c] + after.bag[c] + after.lid[c] + after.centre[c] + on_displays[c]
           != TILES_PER_COLOUR for c in range(NUM_COLOURS)):
        return []                      # tiles appeared or vanished: tile-conservation's finding
    lid_before = [TILES_PER_COLOUR - walls[c] - lines[c] - floors[c] - after.centre[c] - bag_before[c]
                  for c in range(NUM_COLOURS)]
    free = sum(bag_before) + sum(lid_before)
    want = min(FACTORY_TILES * displays, free)
    sizes = [sum(f) for f in after.factories]
    if sum(sizes) != want:
        out.append(f"round {after.round}: the displays hold {sum(sizes)} tiles, the rules give {want} "
                   f"({displays} displays x {FACTORY_TILES}, {free} tiles in bag and lid)")
    if any(n > FACTORY_TILES for n in sizes):
        out.append(f"round {after.round}: a display holds more than {FACTORY_TILES} tiles: {sizes}")
    order = (choices or {}).get("azul.prep.fill-order", "display-by-display")
    in_order = sizes == sorted(sizes, reverse=True)
    sequential = in_order and sum(1 for n in sizes if 0 < n < FACTORY_TILES) <= 1
    dealt = in_order and max(sizes) - min(sizes) <= 1
    allowed = {"display-by-display": sequential, "round-robin": dealt}.get(order, sequential or dealt)
    if not allowed:
        how = {"display-by-display": "one after another", "round-robin": "dealt one tile at a time"}.get(
            order, "one after another or dealt one tile at a time")
        out.append(f"round {after.round}: displays filled {sizes}, not {how} (azul.prep.fill-order={order})")
    if any(after.centre):
        out.append(f"round {after.round}: the centre holds tiles at the refill")
    if sum(bag_before) >= FACTORY_TILES * displays:
        if list(after.lid) != lid_before:
            out.append(f"round {after.round}: the lid went into a bag that still held {sum(bag_before)} tiles")
        drawn = [bag_before[c] - after.bag[c] for c in range(NUM_COLOURS)]
        if drawn != on_displays:
            out.append(f"round {after.round}: the bag lost {drawn} by colour, the displays gained {on_displays}")
    else:
        if any(after.lid):
            out.append(f"round {after.round}: the bag ran out ({sum(bag_before)} tiles) and the lid kept "
                       f"{sum(after.lid)}")
        pooled = [bag_before[c] + lid_before[c] - after.bag[c] for c in range(NUM_COLOURS)]
        if pooled != on_displays:
            out.append(f"round {after.round}: bag and lid lost {pooled} by colour, the displays gained {on_displays}")
    return out
