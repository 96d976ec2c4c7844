"""The games this harness knows. A game is one entry point in the `azul_rules.games` group
(pyproject.toml) naming a `GameEntry`; shared layers ask this module for a game by name and never
import a particular game themselves.

An entry supplies everything that is a rule rather than machinery: where its clause catalogue lives,
how to start a game, its invariants, its scenario folder and its renderers. Entries are loaded lazily
(importing a game's model only when it is used), so `azul-rules --help` stays fast.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import cache
from importlib import import_module
from importlib.metadata import entry_points
from typing import Any

import attrs

GROUP = "azul_rules.games"
DEFAULT_GAME = "duel"


class UnknownGame(LookupError):
    """A game name no entry point registers."""


@attrs.frozen
class GameEntry:
    """What a game brings to the shared harness. Callables are given as "module:attribute" strings
    and imported on first use."""

    name: str                      # the --game value, e.g. "duel"
    title: str                     # for people: "Azul Duel"
    id_prefix: str                 # every clause id of the game starts with it: "duel."
    spec_dir: str                  # its catalogue folder under spec/: "azul_duel"
    fixtures_dir: str              # its scenario folder under fixtures/: "duel"
    players: tuple[int, ...]       # the player counts it supports
    new_game: str                  # "module:function" starting a game
    invariants: str = ""           # "module:function" checking every invariant of a game ("" = none yet)
    renderers: Mapping[str, str] = attrs.field(factory=dict)   # kind ("text", "svg") -> "module:function"

    def load(self, what: str) -> Callable[..., Any]:
        """Import one of the entry's "module:attribute" references by field name."""
        ref = getattr(self, what) if what != "renderer" else None
        if not isinstance(ref, str) or ":" not in ref:
            raise UnknownGame(f"game {self.name!r} supplies no {what}")
        module, _, attribute = ref.partition(":")
        return getattr(import_module(module), attribute)

    def renderer(self, kind: str) -> Callable[..., Any]:
        ref = self.renderers.get(kind)
        if ref is None:
            raise UnknownGame(f"game {self.name!r} has no {kind} renderer "
                              f"(it has: {', '.join(sorted(self.renderers)) or 'none'})")
        module, _, attribute = ref.partition(":")
        return getattr(import_module(module), attribute)


@cache
def _entries() -> dict[str, GameEntry]:
    found: dict[str, GameEntry] = {}
    for ep in entry_points(group=GROUP):
        entry = ep.load()
        if not isinstance(entry, GameEntry) or entry.name != ep.name:
            raise UnknownGame(f"entry point {ep.name!r} ({ep.value}) is not a GameEntry named {ep.name!r}")
        found[ep.name] = entry
    return dict(sorted(found.items()))


def game_names() -> tuple[str, ...]:
    """The registered games, sorted; the default first."""
    names = sorted(_entries(), key=lambda n: (n != DEFAULT_GAME, n))
    return tuple(names)


def get_game(name: str = DEFAULT_GAME) -> GameEntry:
    """The entry for `name`, or UnknownGame with a "did you mean"."""
    entries = _entries()
    if name in entries:
        return entries[name]
    from spec.suggest import did_you_mean
    known = ", ".join(entries) or "none (is the package installed? `make venv`)"
    raise UnknownGame(f"unknown game {name!r}{did_you_mean(name, entries)}; known games: {known}")


def game_of_clause(clause_id: str) -> GameEntry | None:
    """The game whose id prefix the clause id carries."""
    for entry in _entries().values():
        if clause_id.startswith(entry.id_prefix):
            return entry
    return None
