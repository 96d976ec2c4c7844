"""Classic Azul's scoring oracle and outcome check: every point of a step worked out again from the
position before and after it, and the winner worked out again from the final position.

Written apart from model.azul.scoring, model.azul.tiling, model.azul.offer and model.azul.outcome
(nothing is imported from them, nor from the peer engine) from the clauses of spec/azul/
05-wall-tiling.toml, 06-scoring.toml and 08-end-of-game.toml, honouring the interpretation
alternatives in force. For one step it says what each player should have scored:

- a take that brings the starting player marker costs 1 point at once under
  azul.floor.marker-cost=one-point-at-pick, wherever the marker then lies (on, off or beside a full
  floor line), never below 0 (azul.score.floor);
- each tile new on a wall, in row order per board (azul.wall.top-to-bottom): 1 if it touches nothing
  (azul.score.isolated), else the row run through it if longer than 1 plus the column run if longer
  than 1 (azul.score.row-run, azul.score.column-run); with neighbours along one axis only, the lone
  tile counts too under azul.score.single-axis=count-both;
- when the round's wall-tiling is over: the floor line as it stood then (the take's surplus, the
  marker, the lines a gray wall had no space for) costs 1, 1, 2, 2, 2, 3, 3 from the left
  (azul.floor.penalties; the marker's space as azul.floor.marker-cost says), the score stopping at 0
  (azul.score.floor); skipped in the last round under azul.end.final-floor=skipped; a marker kept
  beside a full floor line costs 1 more (azul.offer.marker-on-full-floor=beside-floor-one-point);
- at the game's end: 2 per complete row, 7 per complete column, 10 per colour with all 5 tiles on
  the wall (azul.end.bonus-row, azul.end.bonus-column, azul.end.bonus-colour); in a last round
  whose floor is scored, before the floor penalties under azul.end.bonus-order=bonuses-then-floor.

`check_scoring` compares this with the step's events and the scores; `check_outcome` compares the
game's outcome with the winner by points, then most complete rows among the tied players only, then
a shared win (azul.end.winner, azul.end.tie-break, azul.end.shared-win).

The oracle reads the interpretation points in ORACLE_READS and knows their alternatives; a point the
model offers that it neither reads nor has been told it may ignore (ORACLE_INDIFFERENT) is a test
failure (tests/azul/test_classic_checks.py), so a new reading cannot silently bypass it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import attrs

from model.azul.actions import CENTRE_SOURCE, FLOOR, Action, Kind
from model.azul.colours import EMPTY, MARKER, NUM_COLOURS, ROWS
from model.azul.game import Game
from model.azul.state import CENTRE, FLOOR_SPACES, OFFER, OVER, TILING, AzulState
from model.events import Event

# azul.floor.penalties: the printed value of each floor space, from the left (own copy: the oracle
# shares nothing with model.azul.scoring).
SPACE_VALUES: tuple[int, ...] = (1, 1, 2, 2, 2, 3, 3)
ROW_BONUS, COLUMN_BONUS, COLOUR_BONUS = 2, 7, 10

# The interpretation points whose alternatives change a point, and the alternatives the oracle knows.
ORACLE_READS: dict[str, tuple[str, ...]] = {
    "azul.score.single-axis": ("skip-single", "count-both"),
    "azul.floor.marker-cost": ("space-value", "one-point", "one-point-at-pick"),
    "azul.end.final-floor": ("scored", "skipped"),
    "azul.offer.marker-on-full-floor": ("marker-off-floor", "displace-to-lid", "beside-floor-one-point"),
    "azul.offer.marker-floor-order": ("marker-first", "tiles-first"),
    "azul.lines.voluntary-split": ("all-or-floor", "voluntary-split"),
    "azul.end.bonus-order": ("floor-then-bonuses", "bonuses-then-floor"),
}
# Points whose alternatives change which positions arise, never how a position is scored: the oracle
# reads the position, so it needs nothing from them.
ORACLE_INDIFFERENT: frozenset[str] = frozenset({
    "azul.offer.marker-untaken", "azul.prep.empty-round", "azul.gray.unplaceable-line",
    "azul.lines.full-line-choice", "azul.setup.starter-choice", "azul.end.dead-game",
    "azul.lines.floor-choice", "azul.prep.fill-order",
})

ORACLE_CLAUSES: tuple[str, ...] = (
    "azul.score.immediate", "azul.score.isolated", "azul.score.row-run", "azul.score.column-run",
    "azul.floor.penalties", "azul.floor.marker-kept", "azul.score.floor", "azul.end.trigger",
    "azul.end.bonus-row", "azul.end.bonus-column", "azul.end.bonus-colour",
)
OUTCOME_CLAUSES: tuple[str, ...] = ("azul.end.winner", "azul.end.tie-break", "azul.end.shared-win")

# Points-bearing events by the clause they cite: what the oracle calls them.
EVENT_CATEGORY: dict[str, str] = {
    "azul.score.immediate": "wall",
    "azul.floor.penalties": "floor",
    "azul.floor.marker-kept": "marker",
    "azul.end.bonus-row": "row bonus",
    "azul.end.bonus-column": "column bonus",
    "azul.end.bonus-colour": "colour bonus",
}


def known_readings(choices: Mapping[str, str]) -> bool:
    """Whether every alternative in force that changes points is one the oracle knows."""
    get = choices.get
    return all(get(point, alts[0]) in alts for point, alts in ORACLE_READS.items())


# --- the step, read from the position -------------------------------------------------------------

@attrs.frozen
class Take:
    """What a take did to the taker's board, worked out from the position before it."""

    actor: int
    source: int
    colour: int
    dest: int
    count: int                       # tiles of the colour at the source
    with_marker: bool                # the round's first take from the centre
    line_count: int                  # the destination line after the take (dest < FLOOR)
    floor: tuple[int, ...]           # the floor line after the take (MARKER for the marker)
    to_lid: int                      # taken tiles (and a displaced one) past the floor to the lid
    displaced: int                   # colour put in the lid to make room for the marker, or EMPTY
    marker_on_floor: bool
    marker_beside: bool              # kept beside the full floor line (beside-floor-one-point)


def take_of(before: AzulState, choices: Mapping[str, str], action: Action) -> Take:
    """The take `action` by the player to move, from the clauses: all tiles of the colour from the
    source; as many as fit (or the split) on the line, the rest on the floor from the left, past the
    7th space to the lid (azul.lines.capacity, azul.lines.to-floor, azul.floor.overflow-lid); the first
    take from the centre brings the marker too, before or after the surplus (azul.offer.
    marker-floor-order), onto a full floor as azul.offer.marker-on-full-floor says."""
    get = choices.get
    source, colour, dest = action.args[:3]
    split = action.args[3] if len(action.args) > 3 else 0
    who = before.to_move
    board = before.boards[who]
    count = before.centre[colour] if source == CENTRE_SOURCE else before.factories[source][colour]
    with_marker = source == CENTRE_SOURCE and before.marker == CENTRE
    line_count = board.line_count[dest] if dest < FLOOR else 0
    on_line = 0
    if dest < FLOOR:
        on_line = split or min(count, dest + 1 - line_count)
        line_count += on_line
    floor = list(board.floor)
    to_lid = 0
    displaced = EMPTY
    marker_on_floor = marker_beside = False

    def surplus() -> None:
        nonlocal to_lid
        for _ in range(count - on_line):
            if len(floor) < FLOOR_SPACES:
                floor.append(colour)
            else:
                to_lid += 1

    def marker() -> None:
        nonlocal displaced, marker_on_floor, marker_beside
        full_floor = get("azul.offer.marker-on-full-floor", "marker-off-floor")
        if len(floor) < FLOOR_SPACES:
            floor.append(MARKER)
            marker_on_floor = True
        elif full_floor == "displace-to-lid":
            displaced = floor[-1]
            floor[-1] = MARKER
            marker_on_floor = True
        elif full_floor == "beside-floor-one-point":
            marker_beside = True

    if with_marker and get("azul.offer.marker-floor-order", "marker-first") == "marker-first":
        marker()
        surplus()
    else:
        surplus()
        if with_marker:
            marker()
    return Take(who, source, colour, dest, count, with_marker, line_count, tuple(floor), to_lid, displaced,
                marker_on_floor, marker_beside)


def tiled_span(before: AzulState, after: AzulState, offer_ended: bool) -> tuple[tuple[int, int], tuple[int, int]] | None:
    """The (player, row) range of pattern lines wall-tiled during the step, end excluded; None when
    the step tiled nothing (azul.wall.top-to-bottom: board by board, each top to bottom)."""
    if before.phase == TILING:
        start = before.tiling
    elif offer_ended:
        start = (0, 0)
    else:
        return None
    end = after.tiling if after.phase == TILING else (before.players, 0)
    return start, end


def marker_holder(before: AzulState, action: Action | None) -> int:
    """Who holds the marker once the step's take is done (CENTRE: nobody took it this round)."""
    if before.marker != CENTRE or before.phase != OFFER:
        return before.marker
    if action is not None and action.kind is Kind.TAKE and action.args[0] == CENTRE_SOURCE:
        return before.to_move
    return CENTRE


def offer_ended(events: Sequence[Event]) -> bool:
    return any(e.kind == "phase" and e.clause == "azul.offer.end" for e in events)


def _in_span(span: tuple[tuple[int, int], tuple[int, int]], who: int, row: int) -> bool:
    return span[0] <= (who, row) < span[1]


# --- points -----------------------------------------------------------------------------------------

def _run(wall: Sequence[int], row: int, col: int, d_row: int, d_col: int) -> int:
    """The unbroken line of wall tiles through (row, col) along one axis, itself included."""
    length = 1
    for sign in (1, -1):
        r, c = row + sign * d_row, col + sign * d_col
        while 0 <= r < ROWS and 0 <= c < ROWS and wall[r * ROWS + c] != EMPTY:
            length += 1
            r, c = r + sign * d_row, c + sign * d_col
    return length


def wall_points(wall: Sequence[int], row: int, col: int, count_both: bool) -> int:
    """Points of the tile lying at (row, col) of `wall`."""
    across, down = _run(wall, row, col, 0, 1), _run(wall, row, col, 1, 0)
    if across == 1 and down == 1:
        return 1
    if across > 1 and down > 1:
        return across + down
    return across + down if count_both else max(across, down)


def floor_cost(floor: Sequence[int], marker_cost: str) -> int:
    """What a floor line costs at the round's end, as a positive number."""
    total = 0
    for space, token in enumerate(floor):
        if token != MARKER or marker_cost == "space-value":
            total += SPACE_VALUES[space]
        elif marker_cost == "one-point":
            total += 1
    return total


def end_bonuses(wall: Sequence[int]) -> tuple[int, int, int]:
    """(row, column, colour) bonus points of a wall."""
    rows = sum(all(wall[r * ROWS + c] != EMPTY for c in range(ROWS)) for r in range(ROWS))
    cols = sum(all(wall[r * ROWS + c] != EMPTY for r in range(ROWS)) for c in range(ROWS))
    colours = sum(sum(1 for t in wall if t == colour) == ROWS for colour in range(NUM_COLOURS))
    return rows * ROW_BONUS, cols * COLUMN_BONUS, colours * COLOUR_BONUS


def expected_points(before: AzulState, after: AzulState, choices: Mapping[str, str], action: Action | None,
                    events: Sequence[Event]) -> dict[int, list[tuple[str, int]]]:
    """Per player, the (category, points) the step should have told, in the order the rules score."""
    get = choices.get
    count_both = get("azul.score.single-axis", "skip-single") == "count-both"
    marker_cost = get("azul.floor.marker-cost", "space-value")
    take_action = action if action is not None and action.kind is Kind.TAKE else None
    span = tiled_span(before, after, offer_ended(events))
    game_ends = after.phase == OVER and before.phase != OVER
    if span is None and not game_ends:            # a quiet step: only a take's marker can cost a point
        return _quiet_points(before, take_action, marker_cost)
    take = take_of(before, choices, take_action) if take_action is not None else None
    tiling_over = span is not None and after.phase != TILING
    ending = tiling_over and any(all(b.wall[r * ROWS + c] != EMPTY for c in range(ROWS))
                                 for b in after.boards for r in range(ROWS))
    floor_scored = tiling_over and not (ending and get("azul.end.final-floor", "scored") == "skipped")
    bonuses_first = (game_ends and ending and floor_scored
                     and get("azul.end.bonus-order", "floor-then-bonuses") == "bonuses-then-floor")
    beside_reading = (get("azul.offer.marker-on-full-floor", "marker-off-floor") == "beside-floor-one-point"
                      and marker_cost != "one-point-at-pick")
    holder = marker_holder(before, action)
    out: dict[int, list[tuple[str, int]]] = {}
    for who, (was, now) in enumerate(zip(before.boards, after.boards, strict=True)):
        told: list[tuple[str, int]] = []
        score = was.score
        floor = list(was.floor)
        lines = list(zip(was.line_colour, was.line_count, strict=True))
        if take is not None and take.actor == who:
            floor = list(take.floor)
            if take.dest < FLOOR:
                lines[take.dest] = (take.colour, take.line_count)
            if take.with_marker and marker_cost == "one-point-at-pick":      # wherever it then lies
                paid = min(1, score)
                score -= paid
                told.append(("marker", -paid))
        if span is not None:
            wall = list(was.wall)
            for row in range(ROWS):
                if not _in_span(span, who, row):
                    continue
                colour, n = lines[row]
                if n != row + 1:
                    continue                 # azul.wall.incomplete-stay
                new = [c for c in range(ROWS) if was.wall[row * ROWS + c] == EMPTY and now.wall[row * ROWS + c] != EMPTY]
                if new:
                    wall[row * ROWS + new[0]] = now.wall[row * ROWS + new[0]]
                    points = wall_points(wall, row, new[0], count_both)
                    score += points
                    told.append(("wall", points))
                else:                        # azul.wall.no-space: the whole line to the floor
                    for _ in range(row + 1):
                        if len(floor) < FLOOR_SPACES:
                            floor.append(colour)
        bonuses = [(category, points) for category, points in
                   zip(("row bonus", "column bonus", "colour bonus"), end_bonuses(now.wall), strict=True)
                   if points] if game_ends else []
        if bonuses_first:
            told += bonuses
            score += sum(points for _, points in bonuses)
        beside = beside_reading and holder == who and MARKER not in floor
        if floor_scored and (floor or beside):
            new_score = max(0, score - floor_cost(floor, marker_cost) - int(beside))
            told.append(("floor", new_score - score))
            score = new_score
        if game_ends and not bonuses_first:
            told += bonuses
        out[who] = told
    return out


def _quiet_points(before: AzulState, take: Action | None, marker_cost: str) -> dict[int, list[tuple[str, int]]]:
    """`expected_points` of a take that tiles nothing and ends nothing: no wall, floor or bonus
    points; the round's first take from the centre costs its taker 1 point at once (never below 0)
    under azul.floor.marker-cost=one-point-at-pick."""
    out: dict[int, list[tuple[str, int]]] = {who: [] for who in range(before.players)}
    if (take is not None and marker_cost == "one-point-at-pick" and take.args[0] == CENTRE_SOURCE
            and before.marker == CENTRE):
        who = before.to_move
        out[who] = [("marker", -min(1, before.boards[who].score))]
    return out


def check_scoring(before: Game, game: Game, events: Sequence[Event], action: Action | None) -> list[str]:
    """Where the step's points differ from the oracle's: each player's told points by category, in
    order, and the score change. Nothing is checked under an alternative the oracle does not know."""
    choices = game.rules.choices
    if action is None or not known_readings(choices):
        return []
    a, s = before.state, game.state
    expected = expected_points(a, s, choices, action, events)
    if (not any(expected.values()) and not any(e.points for e in events)
            and all(x.score == y.score for x, y in zip(a.boards, s.boards, strict=True))):
        return []                # nothing due, nothing told, no score changed (most steps)
    out: list[str] = []
    told: dict[int, list[tuple[str, int]]] = {who: [] for who in range(s.players)}
    for e in events:
        if not e.points:
            continue
        category = EVENT_CATEGORY.get(e.clause)
        if category is None or e.player is None:
            out.append(f"'{e}' changes points under a clause the scoring rules do not name")
            continue
        told[e.player].append((category, e.points))
    for who in range(s.players):
        want = [(c, p) for c, p in expected[who] if p]
        got = told[who]
        if sorted(got) != sorted(want):
            out.append(f"'{action}': P{who + 1} was told {_show(got)}, the rules give {_show(want)}")
        change = s.boards[who].score - a.boards[who].score
        if change != sum(p for _, p in want):
            out.append(f"'{action}': P{who + 1}'s score changed by {change:+d}, the rules give "
                       f"{sum(p for _, p in want):+d}")
    return out


def _show(points: list[tuple[str, int]]) -> str:
    return ", ".join(f"{c} {p:+d}" for c, p in points) or "nothing"


# --- the winner -------------------------------------------------------------------------------------

def expected_winners(state: AzulState) -> tuple[int, ...]:
    """The most points; among the players tied on them only, the most complete wall rows; still tied:
    all of them share the win."""
    scores = [b.score for b in state.boards]
    best = max(scores)
    tied = [i for i, sc in enumerate(scores) if sc == best]
    rows = {i: sum(all(state.boards[i].wall[r * ROWS + c] != EMPTY for c in range(ROWS)) for r in range(ROWS))
            for i in tied}
    most = max(rows.values())
    return tuple(i for i in tied if rows[i] == most)


def check_outcome(game: Game) -> list[str]:
    """The game's outcome against expected_winners (the sole winner, or None for a shared win)."""
    outcome = game.outcome()
    if outcome is None:
        return ["the game is over but has no outcome"]
    want = expected_winners(game.state)
    got = tuple(getattr(outcome, "winners", ()) or (() if outcome.winner is None else (outcome.winner,)))
    sole = want[0] if len(want) == 1 else None
    scores = [b.score for b in game.state.boards]
    if tuple(sorted(got)) != want or outcome.winner != sole:
        return [f"scores {scores}: the outcome names winner {outcome.winner} of {list(got)} "
                f"({outcome.reason}); the rules give {list(want)}"]
    return []
