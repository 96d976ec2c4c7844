"""How components move: the table of allowed flows, and the check that a step made no other.

Every component lies somewhere: a location is (place, owner, row) - e.g. ("line", 1, 3) is pattern
line 4 of P2, ("sun", 0, -1) the large Factory's sun, ("bag", -1, -1) the bag. A step's flow is the
difference between where things lay before and after it; it is allowed when it can be explained by
the flows of the step's action (done by the acting player) and of every phase the step ran through
(work the rules do by themselves, for any player) - see ACTION_FLOWS and PHASE_FLOWS. Chained moves
inside one step (a line's tiles to the Tower, the Tower into the bag, the bag onto a Factory) are
explained by a path of allowed flows.

Two Preparation flows happen only when the step says so by its events (FLOW_EVIDENCE): the Tower
goes into the bag only with a `restock` event, the large sun back into the bag only with a `redraw`
event. Otherwise a line's tiles could reach the bag (via the Tower) unnoticed in any step that runs
through Preparation.

Pattern notation in the tables: `place[owner.row]`, where owner is `me` (the acting player), `F`
(the Factory the action names), `P` (any player or Factory, the same at both ends), `*` (any); row
`r` is the same row at both ends.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator, Sequence

from model.duel.actions import Action, Kind
from model.duel.colours import COLOURS, SPECIAL
from model.duel.state import GameState, Pending, Player
from model.events import Event

Loc = tuple[str, int, int]
Flow = tuple[str, str, tuple[str, ...]]          # (from pattern, to pattern, clauses)

PLAYER_PLACES = frozenset({"hand", "line", "broken", "dome", "chips", "used-chips", "tokens", "token-board",
                           "start", "plate-hand", "dome-plates"})
FACTORY_PLACES = {"sun": range(5), "moon": range(5), "chip-hidden": range(1, 5), "chip-revealed": range(1, 5)}
ROW_PLACES = frozenset({"line", "dome"})
GLOBAL_PLACES = ("bag", "tower", "special-supply", "chip-supply", "start-large", "pile", "display")

# --- the tables ---------------------------------------------------------------------------------

ACTION_FLOWS: dict[Kind, tuple[Flow, ...]] = {
    Kind.TAKE_PLATE: (
        ("display", "plate-hand[me]", ("duel.acquire.plate.display", "duel.setup.opening-plates")),
        ("tokens[me]", "token-board[me]", ("duel.acquire.plate.token",)),
    ),
    Kind.DRAW_PLATE: (
        ("pile", "plate-hand[me]", ("duel.acquire.plate.draw",)),
        ("tokens[me]", "token-board[me]", ("duel.acquire.plate.token",)),
    ),
    Kind.KEEP_PLATE: (),
    Kind.PLACE_PLATE: (
        ("plate-hand[me]", "dome-plates[me]", ("duel.acquire.plate.placement",)),
        ("plate-hand[me]", "pile", ("duel.acquire.plate.keep-one",)),
    ),
    Kind.RETURN_PLATE: (("plate-hand[me]", "pile", ("duel.acquire.plate.keep-one",)),),
    Kind.SUN: (
        ("sun[F]", "hand[me]", ("duel.acquire.sun.take-colour",)),
        ("sun[F]", "moon[F]", ("duel.acquire.sun.large-leftovers", "duel.acquire.sun.small-leftovers")),
        ("chip-hidden[F]", "chip-revealed[F]", ("duel.acquire.sun.reveal-monochrome",)),
    ),
    Kind.STACK: (("hand[me]", "moon[F]", ("duel.acquire.sun.small-leftovers",)),),
    Kind.MOON: (
        ("moon[*]", "hand[me]", ("duel.acquire.moon.take-colour",)),
        ("chip-hidden[P]", "chip-revealed[P]", ("duel.acquire.moon.reveal-chip",)),
        ("start-large", "start[me]", ("duel.acquire.moon.start-player-tile",)),
    ),
    Kind.LINE: (
        ("hand[me]", "line[me]", ("duel.lines.one-line",)),
        ("hand[me]", "broken[me]", ("duel.broken.stack", "duel.lines.overflow")),
        ("hand[me]", "tower", ("duel.broken.capacity",)),
    ),
    Kind.CHIP: (("chip-revealed[F]", "chips[me]", ("duel.acquire.chip.take",)),),
    Kind.PASS: (),
    Kind.BONUS: (("chips[me]", "used-chips[me]", ("duel.bonus.complete-line",)),),
    Kind.NO_BONUS: (),
    Kind.TILE: (
        ("line[me.r]", "dome[me.r]", ("duel.tiling.move-rightmost",)),
        ("line[me]", "tower", ("duel.tiling.discard-rest",)),
    ),
}

PHASE_FLOWS: dict[str, tuple[Flow, ...]] = {
    "setup": (("pile", "display", ("duel.setup.opening-plates",)),),
    "acquisition": (),
    "dome_tiling": (
        ("line[P.r]", "dome[P.r]", ("duel.tiling.move-rightmost",)),
        ("line[P]", "tower", ("duel.tiling.discard-rest", "duel.broken.capacity")),
        ("line[P]", "broken[P]", ("duel.tiling.unplaceable",)),
        ("broken[P]", "tower", ("duel.score.broken-penalty",)),
        ("special-supply", "dome[P]", ("duel.plate.special-space",)),
    ),
    "preparation": (
        ("tower", "bag", ("duel.prep.bag-restock",)),
        ("bag", "sun[*]", ("duel.prep.factories-refill",)),
        ("sun[0]", "bag", ("duel.setup.large-factory.monochrome-redraw",)),
        ("chip-supply", "chip-hidden[*]", ("duel.prep.factories-refill",)),
        ("chip-supply", "chip-revealed[*]", ("duel.prep.rare-empty",)),
        ("pile", "display", ("duel.prep.display-refill",)),
        ("token-board[P]", "tokens[P]", ("duel.prep.tokens-back",)),
        ("chips[P]", "used-chips[P]", ("duel.bonus.storage",)),          # duel.chips.carry-over=expire
        ("start[*]", "start-large", ("duel.prep.start-player",)),
    ),
    "tablet_scoring": (),
    "game_over": (),
}

# Flows that need an event of the step as evidence that they happened (the event kind).
FLOW_EVIDENCE: dict[tuple[str, str], str] = {
    ("tower", "bag"): "restock",
    ("sun[0]", "bag"): "redraw",
}

FLOW_CLAUSES: tuple[str, ...] = tuple(sorted({c for table in (ACTION_FLOWS, PHASE_FLOWS)
                                              for flows in table.values() for _, _, cs in flows for c in cs}))


# --- where everything lies ----------------------------------------------------------------------

def changed_regions(a: GameState, b: GameState) -> frozenset[str]:
    """The parts of the table that differ between two states (only those can hold a movement)."""
    out = set()
    for name in ("bag", "tower", "large", "special_supply", "chip_supply", "pile", "display", "pending"):
        if getattr(a, name) != getattr(b, name):
            out.add(name)
    for f in range(len(a.small)):
        if a.small[f] != b.small[f]:
            out.add(f"small{f + 1}")
    for who in (0, 1):
        pa, pb = a.players[who], b.players[who]
        if pa.dome_tile != pb.dome_tile:
            out.add(f"dome{who}")
        if (pa.line_count != pb.line_count or pa.line_colour != pb.line_colour or pa.broken != pb.broken
                or pa.start_tile != pb.start_tile or pa.tokens_used != pb.tokens_used):
            out.add(f"player{who}")
        if pa.chips != pb.chips or pa.used_chips != pb.used_chips or pa.plates != pb.plates:
            out.add(f"storage{who}")
    return frozenset(out)


def census(s: GameState, regions: frozenset[str] | None = None) -> dict[tuple[str, Loc], int]:
    """Anonymous components, (kind, place) -> count, over `regions` (default: the whole table).
    Kinds: 'tile:0'..'tile:4' (by colour), 'special', 'start' (the Starting player tile), 'token'."""
    everywhere = regions is None
    regions = regions or frozenset()
    out: dict[tuple[str, Loc], int] = {}

    def add(kind: str, loc: Loc, n: int) -> None:
        if n:
            key = (kind, loc)
            out[key] = out.get(key, 0) + n
    tile = _TILE_KIND
    if everywhere or "bag" in regions:
        for c in range(5):
            add(tile[c], ("bag", -1, -1), s.bag[c])
    if everywhere or "tower" in regions:
        for c in range(5):
            add(tile[c], ("tower", -1, -1), s.tower[c])
    if everywhere or "large" in regions:
        for c in range(5):
            add(tile[c], ("sun", 0, -1), s.large.sun[c])
            add(tile[c], ("moon", 0, -1), s.large.moon[c])
        add("start", ("start-large", -1, -1), int(s.large.start_tile))
    for f, fac in enumerate(s.small, 1):
        if everywhere or f"small{f}" in regions:
            for c in range(5):
                add(tile[c], ("sun", f, -1), fac.sun[c])
            for c in fac.moon:
                add(tile[c], ("moon", f, -1), 1)
    if everywhere or "special_supply" in regions:
        add("special", ("special-supply", -1, -1), s.special_supply)
    for who, pl in enumerate(s.players):
        if everywhere or f"dome{who}" in regions:
            for cell, t in enumerate(pl.dome_tile):
                if 0 <= t < 5:
                    add(tile[t], ("dome", who, cell // 6), 1)
                elif t == SPECIAL:
                    add("special", ("dome", who, cell // 6), 1)
        if everywhere or f"player{who}" in regions:
            for line in range(6):
                if pl.line_count[line] and 0 <= pl.line_colour[line] < 5:
                    add(tile[pl.line_colour[line]], ("line", who, line), pl.line_count[line])
            for c in pl.broken:
                add(tile[c], ("broken", who, -1), 1)
            add("start", ("start", who, -1), int(pl.start_tile))
            add("token", ("token-board", who, -1), pl.tokens_used)
            add("token", ("tokens", who, -1), 2 - pl.tokens_used)
    p = s.pending
    if (everywhere or "pending" in regions) and p is not None and p.kind in ("line", "stack"):
        colour, n = p.data[-2], p.data[-1]
        add(tile[colour], ("hand", p.player, -1), n)
        if p.kind == "stack":
            for c in p.extra:
                add(tile[c], ("hand", p.player, -1), 1)
    return out


_TILE_KIND = tuple(f"tile:{c}" for c in range(5))


Delta = dict[tuple[str, Loc], int]


def _add(d: Delta, kind: str, loc: Loc, n: int) -> None:
    if n:
        key = (kind, loc)
        d[key] = d.get(key, 0) + n


def _counts(d: Delta, loc: Loc, old: list[int], new: list[int]) -> None:
    """Per-colour tile counts at `loc` before and after, into the change `d`."""
    if old != new:
        for c in range(5):
            n = new[c] - old[c]
            if n:
                key = (_TILE_KIND[c], loc)
                d[key] = d.get(key, 0) + n


def _dome_kind(t: int) -> str | None:
    return _TILE_KIND[t] if 0 <= t < 5 else ("special" if t == SPECIAL else None)


def _player_change(d: Delta, who: int, pa: Player, pb: Player) -> None:
    """The `player` region's change: the lines, Broken tiles, tile and tokens that differ."""
    for line in range(6):
        if pa.line_count[line] != pb.line_count[line] or pa.line_colour[line] != pb.line_colour[line]:
            for sign, pl in ((-1, pa), (1, pb)):
                if pl.line_count[line] and 0 <= pl.line_colour[line] < 5:
                    _add(d, _TILE_KIND[pl.line_colour[line]], ("line", who, line), sign * pl.line_count[line])
    if pa.broken != pb.broken:
        for sign, pl in ((-1, pa), (1, pb)):
            for c in pl.broken:
                _add(d, _TILE_KIND[c], ("broken", who, -1), sign)
    _add(d, "start", ("start", who, -1), int(pb.start_tile) - int(pa.start_tile))
    if pa.tokens_used != pb.tokens_used:
        _add(d, "token", ("token-board", who, -1), pb.tokens_used - pa.tokens_used)
        _add(d, "token", ("tokens", who, -1), pa.tokens_used - pb.tokens_used)


def _hand(d: Delta, p: Pending | None, sign: int) -> None:
    if p is not None and p.kind in ("line", "stack"):
        colour, n = p.data[-2], p.data[-1]
        _add(d, _TILE_KIND[colour], ("hand", p.player, -1), sign * n)
        if p.kind == "stack":
            for c in p.extra:
                _add(d, _TILE_KIND[c], ("hand", p.player, -1), sign)


def table_delta(a: GameState, b: GameState) -> tuple[Delta, frozenset[str]]:
    """What a step changed, in one pass over the table: the anonymous components' change per (kind,
    place), non-zero entries only (= census(b) - census(a)), and the regions that differ
    (= changed_regions(a, b)). Fields are compared directly (a step changes few of them; this runs
    after every step of checked play)."""
    d: Delta = {}
    regions: set[str] = set()
    if a.bag != b.bag:
        regions.add("bag")
        _counts(d, _BAG, a.bag, b.bag)
    if a.tower != b.tower:
        regions.add("tower")
        _counts(d, _TOWER, a.tower, b.tower)
    la, lb = a.large, b.large
    if la.sun != lb.sun or la.moon != lb.moon or la.start_tile != lb.start_tile:
        regions.add("large")
        _counts(d, _SUN[0], la.sun, lb.sun)
        _counts(d, _MOON[0], la.moon, lb.moon)
        _add(d, "start", _START_LARGE, int(lb.start_tile) - int(la.start_tile))
    for f, (fa, fb) in enumerate(zip(a.small, b.small, strict=True)):
        if fa.sun != fb.sun or fa.moon != fb.moon or fa.chip != fb.chip or fa.chip_revealed != fb.chip_revealed:
            regions.add(_SMALL[f])
            _counts(d, _SUN[f + 1], fa.sun, fb.sun)
            if fa.moon != fb.moon:
                loc = _MOON[f + 1]
                for c in fa.moon:
                    _add(d, _TILE_KIND[c], loc, -1)
                for c in fb.moon:
                    _add(d, _TILE_KIND[c], loc, 1)
    if a.special_supply != b.special_supply:
        regions.add("special_supply")
        _add(d, "special", ("special-supply", -1, -1), b.special_supply - a.special_supply)
    if a.chip_supply != b.chip_supply:
        regions.add("chip_supply")
    if a.pile != b.pile:
        regions.add("pile")
    if a.display != b.display:
        regions.add("display")
    for who in (0, 1):
        pa, pb = a.players[who], b.players[who]
        if pa.dome_tile != pb.dome_tile:
            regions.add(_DOME_REGION[who])
            for cell, (ta, tb) in enumerate(zip(pa.dome_tile, pb.dome_tile, strict=True)):
                if ta != tb:
                    row = ("dome", who, cell // 6)
                    was, now = _dome_kind(ta), _dome_kind(tb)
                    if was is not None:
                        _add(d, was, row, -1)
                    if now is not None:
                        _add(d, now, row, 1)
        if (pa.line_count != pb.line_count or pa.line_colour != pb.line_colour or pa.broken != pb.broken
                or pa.start_tile != pb.start_tile or pa.tokens_used != pb.tokens_used):
            regions.add(_PLAYER_REGION[who])
            _player_change(d, who, pa, pb)
        if pa.chips != pb.chips or pa.used_chips != pb.used_chips or pa.plates != pb.plates:
            regions.add(_STORAGE_REGION[who])
    pa_, pb_ = a.pending, b.pending
    if pa_ is not pb_ and (pa_ is None or pb_ is None or pa_.kind != pb_.kind or pa_.player != pb_.player
                           or pa_.data != pb_.data or pa_.extra != pb_.extra):
        regions.add("pending")
        _hand(d, pa_, -1)
        _hand(d, pb_, 1)
    return {k: n for k, n in d.items() if n}, frozenset(regions)


_BAG: Loc = ("bag", -1, -1)
_TOWER: Loc = ("tower", -1, -1)
_START_LARGE: Loc = ("start-large", -1, -1)
_SUN: tuple[Loc, ...] = tuple(("sun", f, -1) for f in range(5))
_MOON: tuple[Loc, ...] = tuple(("moon", f, -1) for f in range(5))
_SMALL: tuple[str, ...] = tuple(f"small{f + 1}" for f in range(4))
_DOME_REGION = ("dome0", "dome1")
_PLAYER_REGION = ("player0", "player1")
_STORAGE_REGION = ("storage0", "storage1")


def whereabouts(s: GameState, regions: frozenset[str] | None = None) -> dict[int, list[Loc]]:
    """Components with an identity (keys: `_chip(id)`, `_plate(id)`; `item_name` says them) -> the
    places they lie (one, if conserved), over `regions` (default: the whole table)."""
    out: dict[int, list[Loc]] = {}
    if regions is None or "chip_supply" in regions:
        for chip in s.chip_supply:
            out.setdefault(chip, []).append(_CHIP_SUPPLY)
    for f, fac in enumerate(s.small, 1):
        if fac.chip and (regions is None or _SMALL[f - 1] in regions):
            out.setdefault(fac.chip, []).append(("chip-revealed" if fac.chip_revealed else "chip-hidden", f, -1))
    if regions is None or "pile" in regions:
        for pid in s.pile:
            out.setdefault(_PLATE + pid, []).append(_PILE)
    if regions is None or "display" in regions:
        for pid in s.display:
            if pid:
                out.setdefault(_PLATE + pid, []).append(_DISPLAY)
    p = s.pending
    if p is not None and p.kind in _PLATE_DECISIONS and (regions is None or "pending" in regions):
        hand = ("plate-hand", p.player, -1)
        for pid in ((p.data[0],) if p.kind == "place" else ()) + tuple(p.extra):
            out.setdefault(_PLATE + pid, []).append(hand)
    for who, pl in enumerate(s.players):
        if not (regions is None or _STORAGE_REGION[who] in regions):
            continue
        for chip in pl.chips:
            out.setdefault(chip, []).append(_CHIPS[who])
        for chip in pl.used_chips:
            out.setdefault(chip, []).append(_USED_CHIPS[who])
        for pid in pl.plates:
            if pid:
                out.setdefault(_PLATE + pid, []).append(_DOME_PLATES[who])
    return out


# Identity keys of whereabouts: a chip by its id, a plate by _PLATE + its id (chip ids stay below it).
_PLATE = 1000
_CHIP_SUPPLY: Loc = ("chip-supply", -1, -1)
_PILE: Loc = ("pile", -1, -1)
_DISPLAY: Loc = ("display", -1, -1)
_CHIPS: tuple[Loc, ...] = (("chips", 0, -1), ("chips", 1, -1))
_USED_CHIPS: tuple[Loc, ...] = (("used-chips", 0, -1), ("used-chips", 1, -1))
_DOME_PLATES: tuple[Loc, ...] = (("dome-plates", 0, -1), ("dome-plates", 1, -1))


def item_name(key: int) -> str:
    """'chip C03' or 'plate P12': a whereabouts key in words."""
    return f"plate P{key - _PLATE:02d}" if key >= _PLATE else f"chip C{key:02d}"


# --- resolving the tables into a graph of locations --------------------------------------------

def _all_locations() -> list[Loc]:
    out: list[Loc] = [(g, -1, -1) for g in GLOBAL_PLACES]
    for place in sorted(PLAYER_PLACES):
        for who in (0, 1):
            if place in ROW_PLACES:
                out += [(place, who, r) for r in range(6)]
            else:
                out.append((place, who, -1))
    for place, owners in FACTORY_PLACES.items():
        out += [(place, f, -1) for f in owners]
    return out


LOCATIONS: tuple[Loc, ...] = tuple(_all_locations())
_BY_PLACE: dict[str, list[Loc]] = {}
for _loc in LOCATIONS:
    _BY_PLACE.setdefault(_loc[0], []).append(_loc)


def _parse(pattern: str) -> tuple[str, str | None, str | None]:
    if "[" not in pattern:
        return pattern, None, None
    place, _, rest = pattern.partition("[")
    owner, _, row = rest.rstrip("]").partition(".")
    return place, owner, row or None


def _matches(pattern: tuple[str, str | None, str | None], loc: Loc, actor: int, factory: int | None) -> bool:
    place, owner, _ = pattern
    if loc[0] != place:
        return False
    if owner in (None, "*", "P"):
        return True
    if owner == "me":
        return loc[1] == actor
    if owner == "F":
        return loc[1] == factory
    return loc[1] == int(owner)


def _edges(flow: Flow, actor: int, factory: int | None) -> Iterator[tuple[Loc, Loc]]:
    src, dst = _parse(flow[0]), _parse(flow[1])
    for a in _BY_PLACE.get(src[0], ()):
        if not _matches(src, a, actor, factory):
            continue
        for b in _BY_PLACE.get(dst[0], ()):
            if not _matches(dst, b, actor, factory):
                continue
            if src[1] == "P" and dst[1] == "P" and a[1] != b[1]:
                continue
            if src[2] == "r" and dst[2] == "r" and a[2] != b[2]:
                continue
            yield a, b


@functools.lru_cache(maxsize=1024)
def allowed_reach(kind: Kind | None, phases: tuple[str, ...], actor: int, factory: int | None,
                  evidence: frozenset[str] = frozenset()) -> dict[Loc, frozenset[Loc]]:
    """The allowed flows of a step (its action plus the phases it ran through, the flows needing
    evidence only when the step's events include it), closed: each place -> every place its
    components may reach along them (a place off the flows reaches nothing). A plain walk over the
    edges: checked play imports no graph library (start-up time, issue 13)."""
    succ: dict[Loc, set[Loc]] = {}
    flows = list(ACTION_FLOWS.get(kind, ())) if kind is not None else []
    for phase in phases:
        flows += PHASE_FLOWS.get(phase, ())
    for flow in flows:
        needs = FLOW_EVIDENCE.get((flow[0], flow[1]))
        if needs is not None and needs not in evidence:
            continue
        for a, b in _edges(flow, actor, factory):
            succ.setdefault(a, set()).add(b)
            succ.setdefault(b, set())
    return {n: _descendants(succ, n) for n in succ}


def _descendants(succ: dict[Loc, set[Loc]], start: Loc) -> frozenset[Loc]:
    """Every other place reachable from `start` along the edges (bounded: each place is seen once)."""
    seen: set[Loc] = set()
    todo = list(succ[start])
    while todo:
        n = todo.pop()
        if n not in seen:
            seen.add(n)
            todo.extend(succ[n])
    seen.discard(start)
    return frozenset(seen)


# --- the check ------------------------------------------------------------------------------------

def _label(loc: Loc) -> str:
    place, owner, row = loc
    if owner < 0:
        return place
    who = f"P{owner + 1}" if place in PLAYER_PLACES else ("L" if owner == 0 else str(owner))
    return f"{place}[{who}{f' row {row + 1}' if row >= 0 else ''}]"


def _greedy_fits(out_of: dict[Loc, int], into: dict[Loc, int], reach: dict[Loc, frozenset[Loc]]) -> bool:
    """A quick sufficient test: route the most constrained places first. False means 'not found',
    not 'impossible' (the exact maximum-flow test then decides)."""
    need = dict(into)
    for a in sorted(out_of, key=lambda x: sum(b in reach.get(x, ()) for b in into)):
        left = out_of[a]
        for b in sorted((b for b in need if need[b] and b in reach.get(a, ())),
                        key=lambda y: sum(y in reach.get(x, ()) for x in out_of)):
            moved = min(left, need[b])
            need[b] -= moved
            left -= moved
            if not left:
                break
        if left:
            return False
    return True


_NOWHERE: frozenset[Loc] = frozenset()


def _feasible(out_of: dict[Loc, int], into: dict[Loc, int], reach: dict[Loc, frozenset[Loc]]) -> list[str]:
    """Can every unit leaving `out_of` reach a place in `into` along allowed flows? Messages if not."""
    if all(into.keys() <= reach.get(a, _NOWHERE) for a in out_of) or _greedy_fits(out_of, into, reach):
        return []                # every place left can reach every place entered (most steps), or a routing fits
    pairs = [(a, b) for a in out_of for b in into]
    import networkx as nx  # only when the quick tests do not settle it (rare)

    g = nx.DiGraph()
    for a, n in out_of.items():
        g.add_edge("src", ("out", a), capacity=n)
    for b, n in into.items():
        g.add_edge(("in", b), "sink", capacity=n)
    for a, b in pairs:
        if b in reach.get(a, ()):
            g.add_edge(("out", a), ("in", b))             # no capacity: unbounded
    if "sink" not in g:
        g.add_node("sink")
    value, flow = nx.maximum_flow(g, "src", "sink")
    if value == sum(out_of.values()):
        return []
    stuck = {a: n - flow["src"][("out", a)] for a, n in out_of.items() if flow["src"][("out", a)] < n}
    unfed = {b: n - flow[("in", b)]["sink"] for b, n in into.items() if flow[("in", b)]["sink"] < n}
    return [f"{n} from {_label(a)} to {' / '.join(_label(b) for b in unfed)}" for a, n in stuck.items()]


def step_context(before: GameState, action: Action | None, phases: tuple[str, ...]
                 ) -> tuple[Kind | None, tuple[str, ...], int, int | None]:
    p = before.pending
    actor = p.player if p is not None else before.to_move
    factory: int | None = None
    if action is not None and action.kind in (Kind.SUN, Kind.CHIP):
        factory = action.args[0]
    elif action is not None and action.kind is Kind.STACK and p is not None:
        factory = p.data[0]
    return (action.kind if action is not None else None), phases, actor, factory


_EVIDENCE_KINDS = frozenset(FLOW_EVIDENCE.values())
_IDENTITY_REGIONS = frozenset({"chip_supply", "pile", "display", "storage0", "storage1",
                               "small1", "small2", "small3", "small4"})
_PLATE_DECISIONS = frozenset({"place", "draw", "return"})


def _identity_regions(a: GameState, b: GameState, regions: frozenset[str]) -> frozenset[str]:
    """The changed regions where a component with an identity can have moved: a small Factory only
    when its chip changed (its tiles have none)."""
    if regions.isdisjoint(_SMALL):
        return regions           # no small Factory changed
    same_chip = {_SMALL[f] for f, (x, y) in enumerate(zip(a.small, b.small, strict=True))
                 if x.chip == y.chip and x.chip_revealed == y.chip_revealed}
    return regions - same_chip if same_chip & regions else regions


def _plates_in_hand(a: GameState, b: GameState) -> bool:
    return any(s.pending is not None and s.pending.kind in _PLATE_DECISIONS for s in (a, b))


def _context(action: Action | None, phases: tuple[str, ...]) -> str:
    what = f"'{action}'" if action is not None else "the step"
    return f"{what} ({' -> '.join(phases)})"


_KIND_NAMES = {"special": "Special tile", "start": "Starting player tile", "token": "Player token"}


def flow_violations(before: GameState, after: GameState, action: Action | None,
                    phases: tuple[str, ...], events: Sequence[Event] = ()) -> list[str]:
    """Every movement of the step that the tables do not allow (empty: the step moved things lawfully).

    `phases`: the phase the step started in, then every phase it entered. Without an action (a
    scenario's free position) only the phases' own flows are allowed."""
    kind, phases, actor, factory = step_context(before, action, phases)
    delta, regions = table_delta(before, after)
    if not regions:
        return []
    evidence = frozenset(e.kind for e in events if e.kind in _EVIDENCE_KINDS)
    reach = allowed_reach(kind, phases, actor, factory, evidence)
    out: list[str] = []
    moved: dict[str, tuple[dict[Loc, int], dict[Loc, int]]] = {}
    for (piece, loc), d in delta.items():                # non-zero changes only
        pair = moved.get(piece)
        if pair is None:
            pair = moved[piece] = ({}, {})
        if d < 0:
            pair[0][loc] = -d
        else:
            pair[1][loc] = d
    for piece, (out_of, into) in sorted(moved.items()):
        if not out_of or not into:
            continue                 # appeared or vanished: the conservation invariants report it
        problems = _feasible(out_of, into, reach)
        if problems:
            name = _KIND_NAMES.get(piece) or f"{COLOURS[int(piece[5:])]} tile"
            out += [f"{_context(action, phases)} moved {name}s {msg}, which no flow allows" for msg in problems]
    regions = _identity_regions(before, after, regions)
    if not regions & _IDENTITY_REGIONS and not _plates_in_hand(before, after):
        return out
    old_ids, new_ids = whereabouts(before, regions), whereabouts(after, regions)
    everywhere: dict[int, list[Loc]] | None = None
    for item, locs in new_ids.items():
        was = old_ids.get(item)
        if was is None:                                  # it came from a region that did not change
            if everywhere is None:
                everywhere = whereabouts(before)
            was = everywhere.get(item)
        if not was or len(was) != 1 or len(locs) != 1 or was == locs:
            continue                 # conservation invariants report duplicates and losses
        a, b = was[0], locs[0]
        if b not in reach.get(a, ()):
            out.append(f"{_context(action, phases)} moved {item_name(item)} from {_label(a)} to {_label(b)}, "
                       "which no flow allows")
    return out


def flow_table_rows() -> list[tuple[str, str, str, str]]:
    """(when, from, to, clauses) for the docs."""
    rows = []
    for kind, flows in ACTION_FLOWS.items():
        for a, b, cs in flows:
            rows.append((f"action {kind.name.lower().replace('_', '-')}", a, b, ", ".join(cs)))
    for phase, flows in PHASE_FLOWS.items():
        for a, b, cs in flows:
            rows.append((f"phase {phase}", a, b, ", ".join(cs)))
    return rows

