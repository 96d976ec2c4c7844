"""Write a position as a scenario's `given` section: every part spelled out, so loading it rebuilds
the same state. A designer can take any moment of a game (a simulated one, a counterexample) and
continue from there by hand."""

from __future__ import annotations

from collections.abc import Sequence

from harness.duel.scenarios.notation import format_counts, format_dome_row, format_tiles
from model.duel.colours import COLOURS
from model.duel.engine import Game


class ExportError(ValueError):
    pass


def _q(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _list(items: Sequence[str]) -> str:
    return "[" + ", ".join(_q(i) for i in items) + "]"


def _counts(counts: Sequence[int]) -> str:
    items = [f"{COLOURS[c]} = {n}" for c, n in enumerate(counts) if n]
    return "{ " + ", ".join(items) + " }" if items else "{}"


def position_toml(game: Game, *, scenario_id: str, description: str, clauses: Sequence[str]) -> str:
    s = game.state
    if s.phase != "acquisition" or s.pending is not None or game.current_player < 0:
        raise ExportError("positions can be written between turns of Acquisition only "
                          f"(now: {s.phase}{', deciding ' + s.pending.kind if s.pending else ''})")
    out = [f"id = {_q(scenario_id)}", f'description = """\n{description}"""', f"clauses = {_list(clauses)}"]
    overrides = game.rules.overrides
    if overrides:
        out.append("interpretations = { " + ", ".join(f"{_q(k)} = {_q(v)}" for k, v in overrides.items()) + " }")
    if tuple(game.rules.tablets) != ("rows-complete", "columns-complete", "diagonals"):
        out.append(f"tablets = {_list(game.rules.tablets)}")
    out += ["", "[given]", f"round = {s.round}", 'phase = "acquisition"', f'starter = "P{s.starter + 1}"',
            f'to_move = "P{s.to_move + 1}"',
            "display = " + _list([f"P{p:02d}" if p else "-" for p in s.display]),
            "pile = " + _list([f"P{p:02d}" for p in s.pile]),
            f"bag = {_counts(s.bag)}", f"tower = {_counts(s.tower)}", "", "[given.factories]"]
    large = s.large
    parts = []
    if any(large.sun):
        parts.append(f"sun = {_q(format_counts(large.sun))}")
    if any(large.moon):
        parts.append(f"moon = {_q(format_counts(large.moon))}")
    parts.append(f"start_tile = {'true' if large.start_tile else 'false'}")
    out.append("L = { " + ", ".join(parts) + " }")
    for f, fac in enumerate(s.small, 1):
        parts = []
        if any(fac.sun):
            parts.append(f"sun = {_q(format_counts(fac.sun))}")
        if fac.moon:
            parts.append(f"moon = {_q(format_tiles(fac.moon))}")
        if fac.chip:
            parts += [f'chip = "C{fac.chip:02d}"', f"revealed = {'true' if fac.chip_revealed else 'false'}"]
        if parts:
            out.append(f"{f} = {{ " + ", ".join(parts) + " }")
    for who, pl in enumerate(s.players):
        out += ["", f"[given.p{who + 1}]", f"score = {pl.score}",
                "plates = { " + ", ".join(f'{slot + 1} = "P{p:02d} r{pl.rotations[slot]}"'
                                          for slot, p in enumerate(pl.plates) if p) + " }",
                "dome = " + _list([format_dome_row(pl.dome_tile[r * 6:r * 6 + 6]) for r in range(6)]),
                "lines = " + _list([format_tiles([pl.line_colour[i]] * pl.line_count[i]) if pl.line_count[i]
                                    else "" for i in range(6)]),
                f"broken = {_q(format_tiles(pl.broken))}",
                "chips = " + _list([f"C{c:02d}" for c in pl.chips]),
                "used_chips = " + _list([f"C{c:02d}" for c in pl.used_chips]),
                f"tokens_used = {pl.tokens_used}", f"chips_this_round = {pl.chips_this_round}",
                f"start_tile = {'true' if pl.start_tile else 'false'}", f"passed = {'true' if pl.passed else 'false'}"]
    return "\n".join(out) + "\n"
