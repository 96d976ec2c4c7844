"""Phase 1, the factory offer: a take moves tiles from a factory or the centre to one pattern line
(excess to the floor), the first take from the centre also takes the starting player marker (which of
the two reaches the floor line first: azul.offer.marker-floor-order)."""

from __future__ import annotations

from operator import add

from model.azul.actions import CENTRE_SOURCE, FLOOR, Action
from model.azul.colours import COLOURS, MARKER, NUM_COLOURS
from model.azul.floor import to_floor
from model.azul.ruleset import Ruleset
from model.azul.scoring import FLOOR_PENALTIES
from model.azul.state import CENTRE, FLOOR_SPACES, AzulState, Board
from model.clauses import cite, cite_alternative
from model.events import Event, ev


def take_tiles(state: AzulState, rules: Ruleset, action: Action, events: list[Event]) -> None:
    """Apply a legal take for the player to move (the turn passes on in `end_turn`)."""
    source, colour, dest = action.args[:3]
    split = action.args[3] if len(action.args) > 3 else 0
    who = state.to_move
    board = state.boards[who]
    with_marker = False
    if source == CENTRE_SOURCE:
        cite("azul.offer.take-centre")
        n = state.centre[colour]
        state.centre[colour] = 0
        with_marker = state.marker == CENTRE
    else:
        cite("azul.offer.take-factory")
        factory = state.factories[source]
        n = factory[colour]
        factory[colour] = 0
        state.centre[:] = map(add, state.centre, factory)     # the rest of the factory to the centre
        factory[:] = _NO_TILES
    taken = ev("take", "azul.offer.actions", who, 0, f"{n} {COLOURS[colour]} ({action.text})")
    if not with_marker:
        events.append(taken)
        place_taken(board, colour, n, dest, state.lid, rules, split)
        return
    # the round's first take from the centre: the marker and the pick's surplus tiles both go to the
    # floor line, in the order azul.offer.marker-floor-order chooses
    free = FLOOR_SPACES - len(board.floor)
    if rules.tiles_first:
        events.append(taken)
        surplus = _place_counting_surplus(board, colour, n, dest, state.lid, rules, split)
        _take_marker(state, rules, who, events)
    else:
        _take_marker(state, rules, who, events)
        events.append(taken)
        surplus = _place_counting_surplus(board, colour, n, dest, state.lid, rules, split)
    if _order_decides(free, surplus, rules):
        cite_alternative("azul.offer.marker-floor-order", "tiles-first" if rules.tiles_first else "marker-first")


_NO_TILES = (0,) * NUM_COLOURS


def _place_counting_surplus(board: Board, colour: int, n: int, dest: int, lid: list[int], rules: Ruleset,
                            split: int) -> int:
    """`place_taken`; how many of the tiles went to the floor line or past it to the lid."""
    before = len(board.floor) + lid[colour]
    place_taken(board, colour, n, dest, lid, rules, split)
    return len(board.floor) + lid[colour] - before


def _order_decides(free: int, surplus: int, rules: Ruleset) -> bool:
    """Whether marker-first and tiles-first charge the player differently: only when the floor line
    had room (`free` spaces) and the pick sent `surplus` tiles to it. Marker-first lays the marker on
    the first free space and the tiles after it; tiles-first lays the tiles first and the marker on
    the next space, or, when the tiles filled the floor, where azul.offer.marker-on-full-floor puts
    it. Under space-value every covered space costs its value whatever covers it, so only a marker
    beside the full floor (beside-floor-one-point) can make the orders differ; under one-point(-at-pick)
    the marker costs 1 wherever it lies, instead of its space's value."""
    if not free or not surplus:
        return False
    taken = FLOOR_SPACES - free

    def marker(space: int) -> int:
        return FLOOR_PENALTIES[space] if rules.marker_cost == "space-value" else 1

    marker_first = sum(FLOOR_PENALTIES[taken + 1:taken + 1 + min(surplus, free - 1)]) + marker(taken)
    if surplus < free:
        tiles_first = sum(FLOOR_PENALTIES[taken:taken + surplus]) + marker(taken + surplus)
    elif rules.displace_to_lid:
        tiles_first = sum(FLOOR_PENALTIES[taken:FLOOR_SPACES - 1]) + marker(FLOOR_SPACES - 1)
    elif rules.marker_beside_floor:
        tiles_first = sum(FLOOR_PENALTIES[taken:FLOOR_SPACES]) + 1
    else:
        tiles_first = sum(FLOOR_PENALTIES[taken:FLOOR_SPACES]) + (rules.marker_cost == "one-point-at-pick")
    return marker_first != tiles_first


def _take_marker(state: AzulState, rules: Ruleset, who: int, events: list[Event]) -> None:
    cite("azul.offer.first-from-centre")
    # rule: azul.offer.first-from-centre
    # rule: azul.component.starting-marker
    board = state.boards[who]
    state.marker = who
    if len(board.floor) < FLOOR_SPACES:
        board.floor.append(MARKER)
        if rules.marker_cost == "one-point-at-pick":
            _pay_for_marker(board, who, events)
    elif rules.displace_to_lid:
        cite_alternative("azul.offer.marker-on-full-floor", "displace-to-lid")
        state.lid[board.floor[-1]] += 1
        board.floor[-1] = MARKER
        if rules.marker_cost == "one-point-at-pick":       # on the floor like any taken marker
            _pay_for_marker(board, who, events)
    elif rules.marker_beside_floor:
        # kept beside the full floor: it costs 1 with the floor penalties (azul.round_end.score_floors)
        cite_alternative("azul.offer.marker-on-full-floor", "beside-floor-one-point")
        if rules.marker_cost == "one-point-at-pick":
            _pay_for_marker(board, who, events)
    else:
        cite_alternative("azul.offer.marker-on-full-floor", "marker-off-floor")
        if rules.marker_cost == "one-point-at-pick":       # the point is for taking it, not for a space
            _pay_for_marker(board, who, events)
    events.append(ev("marker", "azul.offer.first-from-centre", who, 0, "takes the starting player marker"))


def _pay_for_marker(board: Board, who: int, events: list[Event]) -> None:
    cite_alternative("azul.floor.marker-cost", "one-point-at-pick")
    paid = min(1, board.score)
    if not paid:
        cite("azul.score.floor")
    board.score -= paid
    events.append(ev("penalty", "azul.floor.marker-kept", who, -paid, "the marker costs 1 at once"))


def place_taken(board: Board, colour: int, n: int, dest: int, lid: list[int], rules: Ruleset,
                split: int = 0) -> None:
    """All `n` taken tiles go to one pattern line (what does not fit to the floor) or to the floor;
    `split` > 0 (voluntary-split): only that many go on the line."""
    cite("azul.lines.one-line")
    if dest == FLOOR:
        to_floor(board, colour, n, lid)
        return
    cite("azul.lines.capacity")
    if board.line_count[dest]:
        cite("azul.lines.same-colour")
    room = dest + 1 - board.line_count[dest]
    if not room:
        cite_alternative("azul.lines.full-line-choice", "allowed")
    put = min(n, room)
    if split:
        cite_alternative("azul.lines.voluntary-split", "voluntary-split")
        put = split
    board.line_colour[dest] = colour
    board.line_count[dest] += put
    to_floor(board, colour, n - put, lid)


def end_turn(state: AzulState, events: list[Event]) -> bool:
    """Pass the turn clockwise; True when the offer is over (factories and centre empty)."""
    if not state.tiles_on_offer():
        cite("azul.offer.end")
        events.append(ev("phase", "azul.offer.end", None, 0, f"factory offer of round {state.round} ends"))
        return True
    cite("azul.offer.turn-order")
    state.to_move = (state.to_move + 1) % len(state.boards)
    return False
