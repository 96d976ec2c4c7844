"""What a game adds to the search (its registry entry's optional `search` field names a
`SearchHooks`, in properties/<game>/predicates.py). Every field has a default, so a game without
hooks is searched from set-up with its scenario files scripting chance from set-up.

    predicates: {name: Predicate}   the game's named `--where` conditions
    view(game) -> {name: value}     extra read-only names a `--where` expression may use (a
                                    properties/search/view.py `View` to work costly ones out only
                                    when read)
    replay: "game"                  the scenario script covers set-up too (`[chance] scope = "game"`)
            "steps"                 set-up comes from the file's seed (and scripted first seat); the
                                    script covers the steps only
    start(seed, overrides, players, chance) -> Game  the set-up a witness file builds (default: the
                                    entry's new_game); `overrides` may hold the context keys below
    chance_lines(record, format_tiles) -> [toml line]   the `[chance]` table's lines for a record
    context_lines(players, context) -> ([top-level line], [given line])   what a witness file says
                                    about its player count and context (default: `players = N`)
    contexts: {"ID=ALT": {key: value}}   what a reading needs in play to matter at all (a variant,
                                    tablets), applied under both readings of a `--decide` search
    readings: the scenario format has `[[readings]]` (both sides of a point in one file)
    steer: {"ID=ALT": predicate name}   the situation a reading needs, as a distance to steer toward
    unreachable: {goal key: reason}  questions shown unreachable ("decide ID=ALT", "clause ID"): the
                                    reason says why and where it is argued (a test that guards it);
                                    the search skips them and says so, the report shows the reason;
                                    "KEY @Np" holds at N players only (the search's, not the report's)
    explorers: {goal key: explore(seed, nodes) -> ((actions, record) | None, nodes used)}   the
                                    game's own explorer for a question the coverage-guided search
                                    does not reach, playing at most `nodes` actions (trials aside):
                                    its game is replayed (it must meet the goal) and shrunk and
                                    written like any found game; the search goes on with what is left
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import attrs

from model.protocol import Game
from properties.search.chance import ChanceRecord


@attrs.frozen
class Predicate:
    """A named `--where` condition: `holds(view)` on the position after a step (view: the names of
    properties/search/view.py), and optionally `distance(view)` (0 = met, smaller = closer), which
    the search uses to steer toward it."""

    doc: str
    holds: Callable[[Mapping[str, Any]], bool]
    distance: Callable[[Mapping[str, Any]], float] | None = None
    argument: Callable[[int], Predicate] | None = None      # NAME:N -> the predicate for N


def no_view(game: Game) -> Mapping[str, Any]:
    return {}


def default_chance_lines(record: ChanceRecord, format_tiles: Callable[[list[int]], str]) -> list[str]:
    lines = ['scope = "game"', f'tiles = "{format_tiles(list(record.tiles))}"']
    if record.plates is not None:
        lines.append("plates = [" + ", ".join(f'"P{p:02d}"' for p in record.plates) + "]")
    lines.append("chips = [" + ", ".join(f'"C{c:02d}"' for c in record.chips) + "]")
    if record.first is not None:
        lines.append(f'first = "P{record.first + 1}"')
    return lines


@attrs.frozen
class SearchHooks:
    predicates: Mapping[str, Predicate] = attrs.field(factory=dict)
    view: Callable[[Any], Mapping[str, Any]] = no_view
    replay: str = "game"
    start: Callable[..., Game] | None = None
    chance_lines: Callable[[ChanceRecord, Callable[[list[int]], str]], list[str]] = default_chance_lines
    context_lines: Callable[[int | None, Mapping[str, str]], tuple[Sequence[str], Sequence[str]]] = \
        lambda players, context: ([f"players = {players}"] if players else [], [])
    contexts: Mapping[str, Mapping[str, str]] = attrs.field(factory=dict)
    readings: bool = False
    steer: Mapping[str, str] = attrs.field(factory=dict)     # "ID=ALT" -> a predicate whose distance
                                    # steers a `--decide` search toward where the reading can matter
    unreachable: Mapping[str, str] = attrs.field(factory=dict)   # goal key -> why no game reaches it
    explorers: Mapping[str, Callable[[int, int], tuple[tuple[Sequence[str], ChanceRecord] | None, int]]] = \
        attrs.field(factory=dict)                                # goal key -> the game's own explorer


DEFAULT_SEARCH_HOOKS = SearchHooks()
