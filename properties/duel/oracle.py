"""The scoring oracle: every score event of a step worked out again from the position alone.

Written apart from model.duel.scoring (nothing is imported from it) from the clauses of
spec/azul_duel/07-scoring.toml, 06-dome-tiling.toml (Special tiles), 09-end-of-game.toml and
10-tablets.toml, honouring the interpretation alternatives in force. For one step it looks at the
state before and after and the action, and says what each player should have scored:

- each regular tile new on a Dome, in row order (lines are resolved top to bottom): 1 if it touches
  nothing, else the horizontal run through it (if longer than 1) plus the vertical run (if longer
  than 1), Special tiles included (duel.score.isolated, duel.score.horizontal, duel.score.vertical);
- each Special tile new on a Dome, placed as soon as its plate's three other spaces are filled:
  the row points of duel.special.row-points;
- at the end of a player's Dome-tiling: the Broken tiles (those there before, the action's
  overflow, the tiles of lines broken as unplaceable; at most 4) cost the printed total
  (duel.broken.penalties), then the Starting player tile 2 (duel.score.start-player-tile), each
  stopping at 0 (duel.score.floor);
- a blind plate draw costs 1 point, nothing at 0 (duel.acquire.plate.draw, duel.plate.draw-at-zero);
- after round 5, every tablet side, gains and losses grouped as duel.end.tablet-floor says.

`check_scoring` compares this with the events and the scores; `check_outcome` compares the winner
with the scores and the tie-break (duel.end.winner, duel.end.tie-break, duel.end.tie-without-tile).
"""

from __future__ import annotations

from collections.abc import Sequence

from model.duel.actions import Action, Kind
from model.duel.colours import COLOURS, EMPTY, SPECIAL, WILD
from model.duel.engine import Game
from model.duel.ruleset import Ruleset
from model.duel.state import GameState
from model.events import Event

# Points-bearing events by the clause they cite: what the oracle calls them.
EVENT_CATEGORY: dict[str, str] = {
    "duel.tiling.move-rightmost": "tile",
    "duel.plate.special-space": "special",
    "duel.score.broken-penalty": "broken",
    "duel.score.start-player-tile": "start-tile",
    "duel.acquire.plate.draw": "pay",
    "duel.end.tablets-scored": "tablet",
}

ORACLE_CLAUSES: tuple[str, ...] = (
    "duel.score.isolated", "duel.score.horizontal", "duel.score.vertical", "duel.score.special-no-adjacency",
    "duel.plate.special-space", "duel.score.broken-penalty", "duel.score.start-player-tile", "duel.score.floor",
    "duel.acquire.plate.draw", "duel.end.tablets-scored",
)
OUTCOME_CLAUSES: tuple[str, ...] = ("duel.end.winner", "duel.end.tie-break")


# --- the Dome, read fresh --------------------------------------------------------------------

def _filled(tiles: Sequence[int], row: int, col: int) -> bool:
    return 0 <= row < 6 and 0 <= col < 6 and tiles[row * 6 + col] != EMPTY


def _run(tiles: Sequence[int], row: int, col: int, d_row: int, d_col: int) -> int:
    """Length of the unbroken line of tiles through (row, col) along (d_row, d_col), itself included."""
    length = 1
    for sign in (1, -1):
        r, c = row + sign * d_row, col + sign * d_col
        while _filled(tiles, r, c):
            length += 1
            r, c = r + sign * d_row, c + sign * d_col
    return length


def placement_points(tiles: Sequence[int], cell: int) -> tuple[int, str]:
    """Points for a regular tile already lying on `cell`, and how they were counted."""
    row, col = divmod(cell, 6)
    across, down = _run(tiles, row, col, 0, 1), _run(tiles, row, col, 1, 0)
    if across == 1 and down == 1:
        return 1, "alone [duel.score.isolated]"
    points = (across if across > 1 else 0) + (down if down > 1 else 0)
    return points, f"run {across} across + {down} down [duel.score.horizontal, duel.score.vertical]"


def special_row_value(rules: Ruleset, row: int) -> int:
    """Row points of a Special tile in Dome row `row` (0-based) under duel.special.row-points."""
    if rules.choices["duel.special.row-points"] == "band-double":
        return {0: 2, 1: 2, 2: 4, 3: 4, 4: 6, 5: 6}[row]
    return row + 1


def broken_total(rules: Ruleset, n: int) -> int:
    """The printed cost of n Broken tiles under duel.broken.penalties (slot by slot)."""
    slots = (1, 2, 3, 4) if rules.choices["duel.broken.penalties"] == "triangular" else (1, 2, 3, 3)
    return sum(slots[:n])


def _plate_cells(slot: int) -> list[int]:
    top, left = 2 * (slot // 3), 2 * (slot % 3)
    return [(top + dr) * 6 + left + dc for dr in (0, 1) for dc in (0, 1)]


def tablet_value(side: str, rules: Ruleset, spaces: Sequence[int], tiles: Sequence[int]) -> int:
    """Points (negative for a loss) of one tablet side for one Dome, from 10-tablets.toml."""
    full = [t != EMPTY for t in tiles]
    if side == "rows-complete":
        return 3 * sum(all(full[r * 6:r * 6 + 6]) for r in range(6))
    if side == "columns-complete":
        return 7 * sum(all(full[c::6]) for c in range(6))
    if side == "diagonals":
        return 10 * (all(full[i * 7] for i in range(6)) + all(full[5 + i * 5] for i in range(6)))
    if side == "wild-spaces":
        wild = [i for i in range(36) if spaces[i] == WILD]
        return 2 * len(wild) if all(full[i] for i in wild) else 0
    if side == "colourful-rows":
        special_counts = rules.choices["duel.tablet.colourful-rows.special"] == "counts-as-colour"
        need_full = rules.choices["duel.tablet.colourful-rows.full"] == "full-row"
        points = 0
        for r in range(6):
            row = [t for t in tiles[r * 6:r * 6 + 6] if t != EMPTY]
            kinds = {t for t in row if t != SPECIAL or special_counts}
            if len(kinds) >= 5 and (len(row) == 6 or not need_full):
                points += 4
        return points
    if side == "outer-spaces":
        if rules.choices["duel.tablet.outer-scope"] == "outer-plates":      # all but the central plate
            return sum(full[i] for slot in range(9) if slot != 4 for i in _plate_cells(slot))
        return sum(full[i] for i in range(36) if i // 6 in (0, 5) or i % 6 in (0, 5))
    if side == "corner-plates":
        upper, lower = (3, 8) if rules.choices["duel.tablet.corner-values"] == "upper-3-lower-8" else (8, 3)
        value = {0: upper, 2: upper, 6: lower, 8: lower}
        return sum(v for slot, v in value.items() if all(full[i] for i in _plate_cells(slot)))
    if side == "empty-special-spaces":
        return -3 * sum(1 for i in range(36) if spaces[i] == SPECIAL and tiles[i] != SPECIAL)
    raise ValueError(f"the oracle does not know tablet side {side!r}")


# --- one step ----------------------------------------------------------------------------------

def _tilings_done(s: GameState, who: int) -> int:
    """How many Dome-tilings `who` has finished (penalties are scored at the end of each)."""
    if s.phase == "setup":
        return 0
    if s.phase == "acquisition":
        return s.round - 1
    if s.phase == "dome_tiling":
        order = 0 if who == s.starter else 1
        return s.round - 1 + (1 if s.tiling[0] > order else 0)
    return s.round


def _line_action(before: GameState, action: Action | None, who: int) -> tuple[list[int], int]:
    """Pattern line counts after `action` places the picked tiles, and the tiles it breaks."""
    counts = list(before.players[who].line_count)
    p = before.pending
    if action is None or action.kind is not Kind.LINE or p is None or p.kind != "line" or p.player != who:
        return counts, 0
    n = p.data[1]
    line = action.args[0]
    if line == 0:
        return counts, n
    room = line - counts[line - 1]
    placed = min(n, room) if len(action.args) == 1 else action.args[1]
    counts[line - 1] += placed
    return counts, n - placed


def expected_events(before: GameState, after: GameState, action: Action | None, rules: Ruleset,
                    who: int) -> tuple[list[tuple[str, int, str]], int]:
    """(category, points, why) the oracle expects for `who` in this step, and the score after it."""
    old, new = before.players[who], after.players[who]
    out: list[tuple[str, int, str]] = []
    score = old.score
    actor = before.pending.player if before.pending is not None else before.to_move
    if action is not None and action.kind is Kind.DRAW_PLATE and actor == who:
        cost = 1 if score > 0 else 0
        out.append(("pay", -cost, "blind draw [duel.acquire.plate.draw]"))
        score -= cost
    # Dome-tiling: tiles new on the Dome, top row first.
    tiles = list(old.dome_tile)
    fresh = [c for c in range(36) if old.dome_tile[c] == EMPTY and new.dome_tile[c] != EMPTY]
    specials = {c for c in fresh if new.dome_tile[c] == SPECIAL}
    for cell in sorted(c for c in fresh if c not in specials):
        tiles[cell] = new.dome_tile[cell]
        pts, why = placement_points(tiles, cell)
        out.append(("tile", pts, f"{COLOURS[tiles[cell]]} to row {cell // 6 + 1} column {cell % 6 + 1}: {why}"))
        score += pts
        for sp in sorted(specials):
            plate = next(_plate_cells(s) for s in range(9) if sp in _plate_cells(s))
            if tiles[sp] == EMPTY and all(tiles[c] != EMPTY for c in plate if c != sp):
                tiles[sp] = SPECIAL
                # duel.special.which-row: the Special space's own row, or the completing tile's
                row = cell // 6 if rules.choices["duel.special.which-row"] == "completing-tile-row" else sp // 6
                value = special_row_value(rules, row)
                out.append(("special", value, f"Special tile in row {sp // 6 + 1} (row {row + 1}'s points) "
                                              "[duel.special.row-points, duel.special.which-row]"))
                score += value
    for sp in specials:
        if tiles[sp] == EMPTY:
            out.append(("special", 0, f"a Special tile appeared in row {sp // 6 + 1} with its plate unfilled"))
    # End of this player's Dome-tiling: Broken tiles, then the Starting player tile.
    if _tilings_done(after, who) > _tilings_done(before, who):
        counts, broken = _line_action(before, action, who)
        new_rows = {c // 6 for c in fresh if c not in specials}
        broken += sum(counts[r] for r in range(6) if counts[r] and not new.line_count[r] and r not in new_rows)
        n = min(4, len(old.broken) + broken)
        if n:
            loss = min(broken_total(rules, n), score)
            out.append(("broken", -loss, f"{n} Broken tiles [duel.score.broken-penalty]"))
            score -= loss
        if old.start_tile:
            loss = min(2, score)
            out.append(("start-tile", -loss, "Starting player tile [duel.score.start-player-tile]"))
            score -= loss
    # The end of the game: the tablets, gains and losses grouped (duel.end.tablet-floor).
    if after.phase == "game_over" and before.phase != "game_over":
        values = {side: tablet_value(side, rules, new.dome_space, new.dome_tile) for side in rules.tablets}
        gain = sum(v for v in values.values() if v > 0)
        loss = -sum(v for v in values.values() if v < 0)
        for side, v in sorted(values.items()):
            if v > 0:
                out.append((f"tablet {side}", v, f"tablet {side} [duel.end.tablets-scored]"))
        if rules.choices.get("duel.end.tablet-floor", "net-then-floor") == "losses-first":
            final = max(0, score - loss) + gain
        else:
            final = max(0, score + gain - loss)
        if loss:
            out.append(("tablet losses", final - score - gain,
                        f"tablet losses {loss} due [duel.end.tablets-scored, duel.end.tablet-floor]"))
        score = final
    return out, score


def _model_events(events: list[Event], who: int) -> list[tuple[str, int]]:
    out: list[tuple[str, int]] = []
    losses = 0
    has_loss = False
    for e in events:
        if e.player != who or e.clause not in EVENT_CATEGORY or e.kind not in ("score", "penalty", "pay", "tablet"):
            continue
        cat = EVENT_CATEGORY[e.clause]
        if cat == "tablet":
            if e.kind == "tablet":
                out.append((f"tablet {e.detail}", e.points))
            else:
                losses += e.points
                has_loss = True
            continue
        out.append((cat, e.points))
    if has_loss:
        out.append(("tablet losses", losses))
    return out


def check_scoring(before: GameState, game: Game, events: list[Event], action: Action | None) -> list[str]:
    """Differences between the oracle and the model's score events and scores for one step."""
    s = game.state
    if (before.phase == "acquisition" and s.phase == "acquisition" and before.round == s.round
            and (action is None or action.kind is not Kind.DRAW_PLATE)
            and before.players[0].score == s.players[0].score and before.players[1].score == s.players[1].score
            and not any(e.points for e in events)):
        return []          # an Acquisition turn that is not a draw: the oracle expects no points, none came
    out: list[str] = []
    for who in (0, 1):
        want, final = expected_events(before, game.state, action, game.rules, who)
        got = _model_events(events, who)
        want_pts = [(c, p) for c, p, _ in want if p or c.startswith("tablet")]
        got_pts = [(c, p) for c, p in got if p or c.startswith("tablet")]
        for cat in dict.fromkeys([c for c, _ in want_pts] + [c for c, _ in got_pts]):
            w = [p for c, p in want_pts if c == cat]
            g = [p for c, p in got_pts if c == cat]
            if w != g:
                why = "; ".join(f"{p:+d} for {text}" for c, p, text in want if c == cat) or "nothing"
                out.append(f"P{who + 1} {cat}: the oracle expects {why}; the model scored "
                           f"{', '.join(f'{p:+d}' for p in g) or 'nothing'}")
        if not out and game.state.players[who].score != final:
            out.append(f"P{who + 1} ends the step on {game.state.players[who].score} points; "
                       f"the oracle expects {final}")
    return out


def expected_winner(s: GameState, rules: Ruleset) -> tuple[int | None, str]:
    """The winner (None: a draw) from the final scores and the tie-break, with the clause deciding."""
    a, b = s.players[0].score, s.players[1].score
    if a != b:
        return (0 if a > b else 1), "duel.end.winner"
    holders = [i for i in (0, 1) if s.players[i].start_tile]
    if holders:
        return holders[0], "duel.end.tie-break"
    if rules.choices["duel.end.tie-without-tile"] == "round-starter":
        return s.starter, "duel.end.tie-without-tile"
    return None, "duel.end.tie-without-tile"


def check_outcome(game: Game) -> list[str]:
    if not game.is_over:
        return []
    outcome = game.outcome()
    want, clause = expected_winner(game.state, game.rules)
    got = outcome.winner if outcome is not None else "no outcome"
    if got != want:
        name: dict[int | str | None, str] = {None: "a draw", 0: "P1", 1: "P2"}
        return [f"scores {game.state.players[0].score}-{game.state.players[1].score}: {name.get(want)} should win "
                f"[{clause}], the model says {name.get(got, str(got))}"]
    return []
