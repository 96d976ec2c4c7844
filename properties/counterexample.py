"""Write a failing game as a scenario file (the fixture format), replayable with one command."""

from __future__ import annotations

import os
import re
import threading
from collections.abc import Mapping, Sequence
from pathlib import Path

from properties.registry import DEFAULT_GAME, get_game

DEFAULT_DIR = Path("counterexamples")


def _toml_str(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def scenario_text(*, scenario_id: str, description: str, clauses: Sequence[str],
                  overrides: Mapping[str, str], actions: Sequence[str], seed: int | None = None,
                  tiles: Sequence[int] = (), plates: Sequence[int] | None = None, chips: Sequence[int] = (),
                  first: int | None = None, game: str | None = None, players: int | None = None,
                  top_lines: Sequence[str] = (), given_lines: Sequence[str] = (),
                  seeded_scope: bool = True) -> str:
    """The scenario file of a failing game. `game` (None: the default game) is written as the file's
    `game` key, `players` when not the game's default count; drawn tiles are written in the game's
    own notation (its registry entry's `format_tiles`). `top_lines` and `given_lines`: what the game
    writes for the keys of `overrides` that are no interpretation (its search hooks' context_lines).
    `seeded_scope`: a seeded file says `[chance] scope = "game"` (the game's scenarios script set-up
    too, its search hooks' replay "game"); otherwise the seed alone replays set-up and no `[chance]`."""
    lines = [f"id = {_toml_str(scenario_id)}", f'description = """\n{description}"""',
             "clauses = [" + ", ".join(_toml_str(c) for c in clauses) + "]"]
    if game is not None:
        lines.insert(0, f"game = {_toml_str(game)}")
    if players is not None:
        lines.append(f"players = {players}")
    lines += top_lines
    if overrides:
        lines.append("interpretations = { " + ", ".join(f"{_toml_str(k)} = {_toml_str(v)}"
                                                        for k, v in sorted(overrides.items())) + " }")
    if seed is not None:
        lines.append(f"seed = {seed}")
    lines.append("when = [")
    lines += [f"  {_toml_str(a)}," for a in actions]
    lines.append("]")
    if given_lines:
        lines += ["", "[given]", *given_lines]
    if seed is None or seeded_scope:
        lines += ["", "[chance]", 'scope = "game"']
    if seed is None:
        lines.append("strict = true")
        format_tiles = get_game(game or DEFAULT_GAME).load("format_tiles")
        lines.append(f'tiles = "{format_tiles(list(tiles))}"')
        if plates is not None:
            lines.append("plates = [" + ", ".join(f'"P{p:02d}"' for p in plates) + "]")
        lines.append("chips = [" + ", ".join(f'"C{c:02d}"' for c in chips) + "]")
        if first is not None:
            lines.append(f'first = "P{first + 1}"')
    lines += ["", "[then]", 'invariants = "all"', ""]
    return "\n".join(lines)


def write_counterexample(text: str, name: str, directory: Path | None = None) -> Path:
    directory = directory or DEFAULT_DIR
    directory.mkdir(parents=True, exist_ok=True)
    safe = re.sub(r"[^a-z0-9.\-]+", "-", name.lower()).strip("-")
    path = directory / f"{safe}.toml"
    partial = path.with_name(f".{path.name}.{os.getpid()}-{threading.get_ident()}")
    partial.write_text(text)
    os.replace(partial, path)           # whole or not at all, even with two writers
    return path
