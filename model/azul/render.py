"""A text view of a classic Azul position (a pure function of the game, for people and reports)."""

from __future__ import annotations

from model.azul.colours import COLOURS, EMPTY, MARKER, ROWS
from model.azul.game import Game
from model.azul.state import CENTRE

_LETTER = {i: name[0].upper() if name != "black" else "K" for i, name in enumerate(COLOURS)}
_LETTER[MARKER] = "1"          # the starting player marker


def _tiles(counts: list[int]) -> str:
    return "".join(_LETTER[c] * n for c, n in enumerate(counts)) or "-"


def render(game: Game) -> str:
    s = game.state
    marker = "centre" if s.marker == CENTRE else f"P{s.marker + 1}"
    who = game.current_player
    lines = [f"round {s.round}, {s.phase}, to move: {'nobody' if who < 0 else f'P{who + 1}'}, "
             f"{game.rules.wall} wall, marker: {marker}",
             "factories: " + " ".join(f"F{i + 1}:{_tiles(f)}" for i, f in enumerate(s.factories)),
             f"centre: {_tiles(s.centre)}   bag: {sum(s.bag)}   lid: {sum(s.lid)}"]
    for i, b in enumerate(s.boards):
        lines.append(f"P{i + 1} score {b.score}  floor: {''.join(_LETTER[t] for t in b.floor) or '-'}")
        for r in range(ROWS):
            n, c = b.line_count[r], b.line_colour[r]
            line = "." * (r + 1 - n) + (_LETTER[c] * n if n else "")
            wall = "".join(_LETTER[t] if t != EMPTY else "." for t in b.wall[r * ROWS:(r + 1) * ROWS])
            lines.append(f"  {line:>5} | {wall}")
    return "\n".join(lines)
