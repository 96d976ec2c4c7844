"""Can any wall still change? The decidable condition behind azul.end.dead-game.

Only a completed pattern line moves a tile to a wall, so a wall can change again only if some
player's line r can still be completed with a colour c that row r of their wall can take. The
tiles that can still reach a line are the *free* ones (bag, box lid, factories, centre, floor
lines: floors go to the lid every round) plus those already on that line. Tiles on other lines are
stuck, except that a line whose colour has no space left in its wall row (gray side) goes whole to
the floor when it is completed, which frees its tiles (azul.wall.no-space) — possible only if
enough free tiles of its colour remain to complete it, and only when such lines may still be
filled (azul.gray.unplaceable-line=allowed). `walls_can_change` takes that release to a fixpoint
(releases only ever add free tiles and empty lines), then asks whether any (player, row, colour)
is completable. It is False exactly when no wall tile can ever be added again, so no row can ever
be completed and the game can never end by azul.end.trigger; once False it stays False (free
tiles then only circulate).

A path that exists here needs the bag's draws and the players' choices to cooperate; the question
is whether one exists. Bounded: at most players x 5 releases, each pass over players x 5 lines.

Whose lines count is the turn order's answer (`acting_seats`): when every free tile is of one colour,
each round puts them on the first factories (4 to a factory), nothing a take leaves goes to the
centre, so the round is exactly one take per filled factory, by the starter and the seats after them;
the centre stays untaken, and under azul.offer.marker-untaken=same-starter the same player starts
again, for ever. Only those seats can then ever move a tile to a line, so only their lines count
(docs/azul-dead-game.md, the same-starter loop). Under next-clockwise the start passes round the
table and every seat counts.
"""

from __future__ import annotations

from model.azul.colours import EMPTY, MARKER, NUM_COLOURS, ROWS
from model.azul.ruleset import Ruleset
from model.azul.state import CENTRE, FACTORY_TILES, AzulState
from model.azul.walls import free_columns
from model.clauses import cite_alternative


def free_tiles(state: AzulState) -> list[int]:
    """Tiles of each colour that can still be drawn or taken: bag, lid, factories, centre, floors."""
    free = list(map(sum, zip(state.bag, state.lid, state.centre, *state.factories, strict=True)))
    for board in state.boards:
        for token in board.floor:
            if token != MARKER:
                free[token] += 1
    return free


def acting_seats(state: AzulState, rules: Ruleset, free: list[int]) -> tuple[int, ...]:
    """The seats that can ever take tiles again, read at a round's end (factories and centre empty)
    before the next round is prepared: when the free tiles are of one colour and the start does not
    pass on, the next starter and the seats after them, one per factory the tiles fill; every seat
    otherwise."""
    colours = [c for c in range(NUM_COLOURS) if free[c]]
    if rules.next_clockwise or len(colours) != 1:
        return tuple(range(state.players))
    takes = min(-(-free[colours[0]] // FACTORY_TILES), len(state.factories))    # filled factories
    if takes >= state.players:
        return tuple(range(state.players))
    cite_alternative("azul.offer.marker-untaken", "same-starter")
    # the marker's holder starts the next round (azul.floor.marker-kept); nobody takes it from the
    # centre after that, so the same player starts every later round
    first = state.marker if state.marker != CENTRE else state.starter
    return tuple((first + i) % state.players for i in range(takes))


def walls_can_change(state: AzulState, rules: Ruleset) -> bool:
    free = free_tiles(state)
    seats = acting_seats(state, rules, free)
    # (player, row) -> (colour, count) of every non-empty pattern line
    lines = {(p, r): (b.line_colour[r], b.line_count[r]) for p, b in enumerate(state.boards)
             for r in range(ROWS) if b.line_count[r]}
    if _some_line_completable(state, rules, free, lines, seats):
        return True                                      # the usual case: no release needed
    if rules.refuse_unplaceable:
        return False
    # each pass releases at least one line (or stops): at most players x 5 passes; released tiles
    # can bring more seats into play
    while _release(state, rules, free, lines, seats):
        seats = acting_seats(state, rules, free)
        if _some_line_completable(state, rules, free, lines, seats):
            return True
    return False


def _release(state: AzulState, rules: Ruleset, free: list[int], lines: dict[tuple[int, int], tuple[int, int]],
             seats: tuple[int, ...]) -> bool:
    """Free the tiles of every line of an acting seat with no wall space that can be completed, to a
    fixpoint (at most players x 5 passes); True if any was freed."""
    any_released = False
    released = True
    while released:
        released = False
        for (p, r), (colour, count) in sorted(lines.items()):
            if p not in seats:
                continue
            unplaceable = not free_columns(state.boards[p].wall, r, colour, rules.gray)
            if unplaceable and free[colour] >= r + 1 - count:
                free[colour] += count                    # completed, then the whole line to the floor
                del lines[(p, r)]
                released = any_released = True
    return any_released


def _some_line_completable(state: AzulState, rules: Ruleset, free: list[int],
                           lines: dict[tuple[int, int], tuple[int, int]], seats: tuple[int, ...]) -> bool:
    for p in seats:
        board = state.boards[p]
        for r in range(ROWS):
            held_colour, held = lines.get((p, r), (EMPTY, 0))
            for colour in range(NUM_COLOURS):
                if held and held_colour != colour:
                    continue
                if free[colour] >= r + 1 - held and free_columns(board.wall, r, colour, rules.gray):
                    return True
    return False
