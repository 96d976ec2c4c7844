"""Write a classic Azul position as a scenario: every part of `given` spelled out, so loading it
rebuilds the same state (between turns of the factory offer). A designer can take any moment of
a game (a simulated one, a counterexample) and continue from there by hand."""

from __future__ import annotations

from collections.abc import Sequence

from harness.azul.scenarios.notation import format_counts, format_tiles
from model.azul.colours import COLOURS, ROWS
from model.azul.game import Game
from model.azul.state import CENTRE, OFFER


class ExportError(ValueError):
    pass


def _q(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _counts(counts: Sequence[int]) -> str:
    items = [f"{COLOURS[c]} = {n}" for c, n in enumerate(counts) if n]
    return "{ " + ", ".join(items) + " }" if items else "{}"


def position_toml(game: Game, *, scenario_id: str, description: str, clauses: Sequence[str]) -> str:
    s = game.state
    if s.phase != OFFER or game.current_player < 0:
        raise ExportError(f"positions can be written between turns of the factory offer only (now: {s.phase})")
    out = ['game = "azul"', f"id = {_q(scenario_id)}", f'description = """\n{description}"""',
           "clauses = [" + ", ".join(map(_q, clauses)) + "]"]
    overrides = game.rules.overrides
    if overrides:
        out.append("interpretations = { " + ", ".join(f"{_q(k)} = {_q(v)}" for k, v in overrides.items()) + " }")
    out += ["", "[given]", f"players = {s.players}", f"wall = {_q(game.rules.wall)}", f"round = {s.round}",
            f'starter = "P{s.starter + 1}"', f'to_move = "P{s.to_move + 1}"',
            "marker = " + (_q("centre") if s.marker == CENTRE else _q(f"P{s.marker + 1}")),
            f"centre = {_q(format_counts(s.centre))}", f"bag = {_counts(s.bag)}", f"lid = {_counts(s.lid)}",
            "factories = { " + ", ".join(f"F{n + 1} = {_q(format_counts(f))}" for n, f in enumerate(s.factories)
                                         if any(f)) + " }"]
    for who, b in enumerate(s.boards):
        out += ["", f"[given.p{who + 1}]", f"score = {b.score}",
                "lines = [" + ", ".join(_q(format_tiles([b.line_colour[i]] * b.line_count[i])) for i in range(ROWS)) + "]",
                "wall = [" + ", ".join(_q(format_tiles(b.wall[r * ROWS:(r + 1) * ROWS])) for r in range(ROWS)) + "]",
                f"floor = {_q(format_tiles(b.floor))}"]
    return "\n".join(out) + "\n"
