"""Board pictures: a game position drawn as a standalone SVG.

`board_svg(state, tables)` is a pure function of the position: it reads the GameState (and the
component tables, for chip colours and plate ids) and returns SVG text; it never changes the state.
Drawn: both Domes (9 plate slots, 36 cells, coloured / wild / special spaces, tiles), pattern lines,
Broken tiles, chips (face up, used = face down), scores, the Starting player tile; the Large Factory
(sun, moon spaces, Starting player tile); the four small Factories (sun, moon stack with its chip
under it, face up or down); the plate display and the pile; bag, tower and the round/phase/pending.
"""

from __future__ import annotations

from html import escape

from model.duel.colours import COLOURS, EMPTY, NUM_COLOURS, SPECIAL, WILD
from model.duel.components import ComponentTables
from model.duel.state import LINES, GameState, Player

FILL: dict[int, str] = {0: "#2f6fdf", 1: "#f2c12e", 2: "#d6362f", 3: "#26262b", 4: "#25b5ad",
                        SPECIAL: "#d8cfbf"}
PALE: dict[int, str] = {0: "#d4e2fa", 1: "#fbeec4", 2: "#f6d0cd", 3: "#cfcfd4", 4: "#c9eeeb",
                        SPECIAL: "#efeae1", WILD: "url(#wild)"}
INK = "#1d2433"
CELL = 22


def _rect(x: float, y: float, w: float, h: float, fill: str, stroke: str = INK, sw: float = 0.6,
          rx: float = 2, extra: str = "") -> str:
    return (f'<rect x="{x:.1f}" y="{y:.1f}" width="{w:.1f}" height="{h:.1f}" rx="{rx}" fill="{fill}" '
            f'stroke="{stroke}" stroke-width="{sw}"{extra}/>')


def _text(x: float, y: float, s: str, size: float = 11, anchor: str = "start", weight: str = "normal",
          fill: str = INK) -> str:
    return (f'<text x="{x:.1f}" y="{y:.1f}" font-size="{size}" text-anchor="{anchor}" font-weight="{weight}" '
            f'fill="{fill}">{escape(s)}</text>')


def _tile(x: float, y: float, colour: int, size: float = CELL - 4) -> str:
    title = "special tile" if colour == SPECIAL else f"{COLOURS[colour]} tile"
    body = _rect(x, y, size, size, FILL[colour], sw=0.8, rx=3)
    mark = _text(x + size / 2, y + size * 0.7, "S", size * 0.6, "middle", "bold") if colour == SPECIAL else ""
    return f'<g class="tile"><title>{title}</title>{body}{mark}</g>'


def _tiles_row(x: float, y: float, counts: list[int], size: float = 14, limit: int = 12) -> tuple[list[str], float]:
    """Counts per colour as a row of small tiles; returns the parts and the row's width."""
    parts, n = [], 0
    for colour in range(NUM_COLOURS):
        for _ in range(counts[colour]):
            if n < limit:
                parts.append(_tile(x + n * (size + 2), y, colour, size))
            n += 1
    if n > limit:
        parts.append(_text(x + limit * (size + 2) + 2, y + size - 3, f"+{n - limit}", 10))
    return parts, max(n, 1) * (size + 2)


def _chip(x: float, y: float, chip_id: int, tables: ComponentTables | None, face_up: bool, used: bool = False) -> str:
    """A Bonus chip as a disc; face up shows its colours, face down (or used) is grey."""
    r = 9
    label = f"C{chip_id:02d}" + (" used" if used else "" if face_up else " face down")
    if not face_up or tables is None:
        fill = "#9aa1ad" if used else "#6b7280"
        return (f'<g class="chip"><title>{label}</title><circle cx="{x:.1f}" cy="{y:.1f}" r="{r}" fill="{fill}" '
                f'stroke="{INK}" stroke-width="0.6"/>{_text(x, y + 3, "✕" if used else "?", 9, "middle", fill="#fff")}</g>')
    colours = tables.chip(chip_id).colours
    parts = [f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{r}" fill="#fff" stroke="{INK}" stroke-width="0.8"/>']
    for k, c in enumerate(colours):
        dx = (k - (len(colours) - 1) / 2) * 6
        parts.append(f'<circle cx="{x + dx:.1f}" cy="{y:.1f}" r="3" fill="{FILL[c]}"/>')
    return f'<g class="chip"><title>{label}</title>{"".join(parts)}</g>'


def _plate(x: float, y: float, plate_id: int, tables: ComponentTables | None, size: float = 12) -> list[str]:
    """A plate (display or hand): its four spaces unrotated, with its label."""
    parts = [_rect(x - 1, y - 1, 2 * size + 2, 2 * size + 2, "#fff", sw=1.2, rx=3)]
    if tables is not None:
        for k, space in enumerate(tables.plate(plate_id).spaces):
            parts.append(_rect(x + (k % 2) * size, y + (k // 2) * size, size, size, PALE[space], sw=0.3, rx=1))
    parts.append(_text(x + size, y + 2 * size + 11, f"P{plate_id:02d}", 9, "middle"))
    return parts


def _player(x: float, y: float, who: int, pl: Player, state: GameState, tables: ComponentTables | None) -> list[str]:
    parts = [f'<g class="player" id="player-{who + 1}">']
    to_move = state.pending.player if state.pending else state.to_move
    head = f"Player {who + 1}" + (" (starter)" if who == state.starter else "")
    parts.append(_rect(x, y, 430, 250, "#f8f9fb", stroke="#c3c9d5", sw=1, rx=8))
    parts.append(_text(x + 10, y + 18, head, 13, weight="bold"))
    parts.append(_text(x + 420, y + 18, f"score {pl.score}", 13, "end", "bold"))
    flags = []
    if pl.passed:
        flags.append("passed")
    if state.phase == "acquisition" and to_move == who:
        flags.append("to move")
    if pl.tokens_used:
        flags.append(f"tokens used {pl.tokens_used}")
    parts.append(_text(x + 10, y + 31, " · ".join(flags), 10, fill="#5b6475"))
    if pl.start_tile:
        parts.append('<g class="start-tile"><title>Starting player tile</title>'
                     + _rect(x + 330, y + 6, 18, 18, "#fff", sw=1.2, rx=3)
                     + _text(x + 339, y + 20, "1", 12, "middle", "bold") + "</g>")
    # pattern lines: right-aligned staircase, line r has r+1 spaces
    lx, ly = x + 10, y + 52
    parts.append(_text(lx, ly - 2, "pattern lines", 9, fill="#5b6475"))
    for r in range(LINES):
        for k in range(r + 1):
            cx = lx + (LINES - 1 - k) * CELL
            cy = ly + 2 + r * CELL
            filled = k < pl.line_count[r]
            parts.append(_rect(cx, cy, CELL - 2, CELL - 2, "#ffffff", stroke="#aab2c0", sw=0.6))
            if filled and pl.line_colour[r] != EMPTY:
                parts.append(_tile(cx + 1, cy + 1, pl.line_colour[r], CELL - 4))
    # the Dome: 6x6 cells on 9 plate slots
    dx, dy = x + 10 + LINES * CELL + 14, y + 54
    parts.append(_text(dx, dy - 4, "Dome", 9, fill="#5b6475"))
    for slot in range(9):
        sx, sy = dx + (slot % 3) * 2 * CELL, dy + (slot // 3) * 2 * CELL
        plate = pl.plates[slot]
        title = f"slot {slot + 1}: " + (f"P{plate:02d} rotated {pl.rotations[slot]}" if plate else "no plate")
        parts.append(f'<g class="slot"><title>{title}</title>'
                     + _rect(sx, sy, 2 * CELL, 2 * CELL, "#ffffff" if plate else "#eceef2",
                             stroke=INK if plate else "#c3c9d5", sw=1.6 if plate else 0.8, rx=3,
                             extra='' if plate else ' stroke-dasharray="3 2"') + "</g>")
    for cell in range(36):
        r, c = divmod(cell, 6)
        cx, cy = dx + c * CELL, dy + r * CELL
        space, tile = pl.dome_space[cell], pl.dome_tile[cell]
        if space != EMPTY:
            parts.append(_rect(cx + 1.5, cy + 1.5, CELL - 3, CELL - 3, PALE[space], stroke="#aab2c0", sw=0.4))
            if space == SPECIAL and tile == EMPTY:
                parts.append(_text(cx + CELL / 2, cy + CELL * 0.68, "S", 10, "middle", fill="#8a826f"))
        if tile != EMPTY:
            parts.append(_tile(cx + 2, cy + 2, tile, CELL - 4))
    # broken tiles and chips
    bx, by = x + 10, y + 54 + LINES * CELL + 8
    parts.append(_text(bx, by + 10, "broken", 9, fill="#5b6475"))
    for k, colour in enumerate(pl.broken[:14]):
        parts.append(_tile(bx + 40 + k * 16, by, colour, 14))
    if len(pl.broken) > 14:
        parts.append(_text(bx + 40 + 14 * 16, by + 11, f"+{len(pl.broken) - 14}", 10))
    cy = by + 28
    parts.append(_text(bx, cy + 4, "chips", 9, fill="#5b6475"))
    for k, chip in enumerate(pl.chips[:10]):
        parts.append(_chip(bx + 50 + k * 21, cy, chip, tables, face_up=True))
    for k, chip in enumerate(pl.used_chips[:8]):
        parts.append(_chip(bx + 50 + (len(pl.chips[:10]) + k) * 21 + 8, cy, chip, tables, face_up=False, used=True))
    parts.append("</g>")
    return parts


def _factories(x: float, y: float, state: GameState, tables: ComponentTables | None) -> list[str]:
    parts = ['<g class="factories">']
    lf = state.large
    parts.append(_rect(x, y, 250, 92, "#fffaf0", stroke="#c3a96a", sw=1, rx=8))
    parts.append(_text(x + 8, y + 15, "Large Factory", 11, weight="bold"))
    parts.append(_text(x + 8, y + 36, "☀ sun", 10))
    parts.extend(_tiles_row(x + 50, y + 25, lf.sun)[0])
    parts.append(_text(x + 8, y + 62, "☾ moon", 10))
    parts.extend(_tiles_row(x + 50, y + 51, lf.moon)[0])
    if lf.start_tile:
        parts.append('<g class="start-tile"><title>Starting player tile</title>'
                     + _rect(x + 222, y + 66, 18, 18, "#fff", sw=1.2, rx=3)
                     + _text(x + 231, y + 80, "1", 12, "middle", "bold") + "</g>")
    for f, fac in enumerate(state.small):
        fx = x + 262 + f * 150
        parts.append(f'<g class="small-factory" id="factory-{f + 1}">')
        parts.append(_rect(fx, y, 140, 92, "#fffaf0", stroke="#c3a96a", sw=1, rx=8))
        parts.append(_text(fx + 8, y + 15, f"Factory {f + 1}", 11, weight="bold"))
        parts.append(_text(fx + 8, y + 36, "☀", 11))
        parts.extend(_tiles_row(fx + 22, y + 25, fac.sun, 13, 7)[0])
        parts.append(_text(fx + 8, y + 62, "☾", 11))
        # small moons are stacks: bottom -> top drawn left to right, the top one outlined
        for k, colour in enumerate(fac.moon[:7]):
            parts.append(_tile(fx + 22 + k * 12, y + 52, colour, 13))
        if fac.moon:
            k = min(len(fac.moon), 7) - 1
            parts.append(_rect(fx + 21 + k * 12, y + 51, 15, 15, "none", stroke="#000", sw=1.4, rx=3))
            parts.append(_text(fx + 8, y + 84, f"stack of {len(fac.moon)} (top right)", 8, fill="#5b6475"))
        if fac.chip:
            parts.append(_chip(fx + 126, y + 60, fac.chip, tables, face_up=fac.chip_revealed))
        parts.append("</g>")
    parts.append("</g>")
    return parts


def _hand(state: GameState) -> list[int]:
    """Plates a player holds during a plate decision (drawn, kept and being placed, or to return)."""
    p = state.pending
    if p is None:
        return []
    if p.kind == "place":
        return [p.data[0], *p.extra] if p.data else list(p.extra)
    if p.kind in ("draw", "return"):
        return list(p.extra)
    return []


def board_svg(state: GameState, tables: ComponentTables | None = None, title: str = "") -> str:
    """The position as a standalone SVG document (no scripts, no external resources)."""
    width, height = 900, 470
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" width="{width}" '
             f'height="{height}" font-family="Helvetica, Arial, sans-serif" class="board">',
             '<defs><linearGradient id="wild" x1="0" y1="0" x2="1" y2="1">'
             + "".join(f'<stop offset="{k / 4:.2f}" stop-color="{FILL[k]}" stop-opacity="0.55"/>' for k in range(5))
             + "</linearGradient></defs>",
             _rect(0, 0, width, height, "#ffffff", stroke="none", rx=0)]
    if title:
        parts.append(f"<title>{escape(title)}</title>")
    pending = f" · deciding: {state.pending.kind} (player {state.pending.player + 1})" if state.pending else ""
    parts.append(_text(10, 18, f"Round {state.round} · {state.phase.replace('_', ' ')}{pending}", 13, weight="bold"))
    parts.append(_text(890, 18, f"bag {sum(state.bag)} · tower {sum(state.tower)} · special tiles {state.special_supply}"
                       f" · chips in supply {len(state.chip_supply)}", 10, "end", fill="#5b6475"))
    parts.extend(_factories(10, 28, state, tables))
    # plate display and pile
    parts.append('<g class="display">')
    parts.append(_text(10, 140, "display", 9, fill="#5b6475"))
    for k, plate in enumerate(state.display):
        if plate:
            parts.extend(_plate(50 + k * 40, 130, plate, tables))
        else:
            parts.append(_rect(50 + k * 40, 130, 24, 24, "#eceef2", stroke="#c3c9d5", rx=3,
                               extra=' stroke-dasharray="3 2"'))
    parts.append(_text(180, 146, f"pile {len(state.pile)} plates", 10, fill="#5b6475"))
    hand = _hand(state)
    if hand:
        parts.append(f'<g class="hand"><title>plates in the hand of player {state.pending.player + 1}</title>'
                     if state.pending else '<g class="hand">')
        parts.append(_text(290, 140, f"in hand (P{state.pending.player + 1})" if state.pending else "in hand", 9,
                           fill="#5b6475"))
        for k, plate in enumerate(hand[:6]):
            parts.extend(_plate(360 + k * 40, 130, plate, tables))
        parts.append("</g>")
    parts.append("</g>")
    for who, pl in enumerate(state.players):
        parts.extend(_player(10 + who * 445, 172, who, pl, state, tables))
    parts.append(_text(10, 462, "small squares: tiles · pale: Dome spaces (gradient = wild, S = special) · "
                       "dashed: no plate yet · discs: Bonus chips (? face down, ✕ used)", 9, fill="#5b6475"))
    parts.append("</svg>")
    return "\n".join(parts)
