"""The games this harness knows. A game is one entry point in the `azul_rules.games` group
(pyproject.toml) naming a `GameEntry`; shared layers ask this module for a game by name and never
import a particular game themselves.

An entry supplies everything that is a rule rather than machinery: how to start a game, its invariants, its scenario folder and its renderers. Entries are loaded lazily
(importing a game's model only when it is used), so `azul-rules --help` stays fast. What the game's
catalogue says about it (title, clause id prefix, folder) is read from its spec/*/catalogue.toml
(`catalogue_facts`), never repeated in the entry.
"""

from __future__ import annotations

import tomllib
from collections.abc import Callable, Mapping
from functools import cache
from importlib import import_module
from importlib.metadata import entry_points
from pathlib import Path
from typing import Any

import attrs

GROUP = "azul_rules.games"
DEFAULT_GAME = "duel"


class UnknownGame(LookupError):
    """A game name no entry point registers."""


@attrs.frozen
class CatalogueFacts:
    """What a game's spec/<folder>/catalogue.toml says about the game itself: the one place its title
    and clause id prefix are written (the registry entry reads them, never repeats them)."""

    folder: str                    # the catalogue folder under spec/: "azul_duel"
    title: str                     # for people: "Azul Duel"
    id_prefix: str                 # every clause id of the game starts with it: "duel."


@cache
def catalogue_facts(game: str) -> CatalogueFacts:
    """The facts of the catalogue whose catalogue.toml says `game = <game>`; UnknownGame (one line,
    naming the file and field) when no catalogue claims the game or one lacks a field. Only the
    catalogue.toml files are read (no chapter), so listing the games stays fast; `azul-rules spec
    lint --game NAME` validates the rest."""
    from spec.loader import CATALOGUE_FILE, SPEC_ROOT, catalogue_games

    folders = catalogue_games(SPEC_ROOT)
    if game not in folders:
        raise UnknownGame(f"game {game!r} has no catalogue: no spec/*/{CATALOGUE_FILE} says game = {game!r} "
                          f"(catalogues found for: {', '.join(sorted(folders)) or 'none'})")
    path = Path(folders[game]) / CATALOGUE_FILE
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    for field in ("title", "id_prefix"):
        if not isinstance(data.get(field), str) or not data[field]:
            raise UnknownGame(f"{path}: field {field!r}: game {game!r}'s catalogue names no {field}")
    return CatalogueFacts(folder=path.parent.name, title=data["title"], id_prefix=data["id_prefix"])


@attrs.frozen
class GameEntry:
    """What a game brings to the shared harness. Callables and tables are "module:attribute" strings,
    imported on first use (`load`), so listing the games imports none of them.

    The signatures the shared layers rely on (docs/adding-a-game.md):
      new_game(seed=0, overrides=None, players=None, chance=None) -> a model.protocol.Game
      invariants(game) -> [(invariant name, clause id, message)]           (state invariants)
      step_invariants(before, game, events, step, action, deep_every) -> [(name, clause id, message)]
      incremental_invariants(before, game, events) -> [(name, clause id, message)]   (optional: state
        invariants checked only where the step changed the table; with them, checked play runs the
        full state invariants every `full_every` steps and at every phase end, not after each step)
      invariant_table -> {invariant name: (clause ids...)}   (state and step: the matrix columns)
      policies -> {name: policy(game, actions, rng) -> action}   ("uniform" at least)
      phase_graph() -> networkx.DiGraph                  (built with model.phases)
      step_bound(game) -> int                             (the longest game its components allow)
      implemented -> {interpretation id: (alternatives the model runs, default first)}
      scores(game) -> (score per seat)
      candidates(game) -> every action that could be asked (the generator/predicate comparison space)
      format_tiles([colour...]) -> str                    (the scenario notation of drawn tiles)
    Optional: statistics(game, action, events, branches, draws) (designer counts), substep(game) -> str,
    fingerprint(game) -> bytes (a canonical, deterministic key of the position: equal exactly when the
    positions are the same; properties/exhaustive.py deduplicates by it),
    machine_hooks -> a properties.machine_hooks.MachineHooks (what the Hypothesis machine draws at setup,
    the game's own step checks, its replayable failure),
    scenarios -> an object with load_scenario, run_scenario, with_readings, build_game, scenario_pictures,
    pictures_page, PictureError (harness/duel/scenarios/api.py), renderers.
    """

    name: str                      # the --game value, e.g. "duel"; its catalogue.toml says `game = <name>`
    fixtures_dir: str              # its scenario folder under fixtures/: "duel"
    players: tuple[int, ...]       # the player counts it supports (the first is the default)
    new_game: str                  # "module:function" starting a game
    invariants: str = ""           # "module:function": state invariants ("" = none yet)
    step_invariants: str = ""      # "module:function": invariants over one step
    incremental_invariants: str = ""  # "module:function": state invariants where a step changed things (optional)
    invariant_table: str = ""      # "module:attr": invariant name -> clause ids
    policies: str = "properties.policies:BASE_POLICIES"
    default_policy: str = "uniform"
    phase_graph: str = ""          # "module:function" returning the phase DiGraph
    step_bound: str = ""           # "module:function": the watchdog's step bound for a game
    implemented: str = ""          # "module:attr": interpretation alternatives the model runs
    combinations: str = ""         # "module:attr": extra matrix rows (override dicts) designers ask about
    row_setups: str = ""           # "module:attr": matrix row label -> properties.matrix.RowSetup (rare situations)
    scores: str = ""               # "module:function": scores by seat
    candidates: str = ""           # "module:function": the candidate action universe
    format_tiles: str = ""         # "module:function": tile colours in scenario notation
    statistics: str = ""           # "module:function": designer statistics of one step (optional)
    fingerprint: str = ""          # "module:function": canonical position key, bytes (optional; exhaustive search)
    substep: str = ""              # "module:function": where play stands, finer than the phase (optional)
    substeps: str = ""             # "module:attr": phase -> ((substep key, label), ...) for the diagram (optional)
    scenarios: str = ""            # "module:attr": the game's scenario support (load, run, build, pictures)
    machine_hooks: str = ""        # "module:attr": properties.machine_hooks.MachineHooks (setup draws, own
                                   # step checks, replayable failure) for the Hypothesis machine (optional)
    progress_clauses: tuple[str, ...] = ()   # what a game that never ends breaks (the watchdog's livelock)
    mutation_piles: tuple[tuple[str, str], ...] = ()   # state attributes the wrong-pile mutant swaps
    mutation_other_seat: str = ""  # the wrong-player mutant: `who` -> this expression ("" = none)
    draws_label: str = ""          # what `statistics` counts in `draws` (simulate's table), "" = nothing
    decided_by: Mapping[str, str] = attrs.field(factory=dict)   # simulate's table: label -> interpretation id
    renderers: Mapping[str, str] = attrs.field(factory=dict)   # kind ("text", "svg") -> "module:function"
    commands: tuple[str, ...] = ()  # "module:attr" click commands only this game has (azul: differential)
    search: str = ""               # "module:attr": properties.search.hooks.SearchHooks (named --where
                                   # conditions, how a witness file builds its game) (optional)
    peer_bench: str = ""            # "module:function": (games, seed, players) -> a peer engine's random
                                   # games (.games_per_s, .actions_per_s, .seconds) for `bench` (optional)

    # Facts the catalogue owns (spec/<folder>/catalogue.toml): read from it, so they cannot disagree.
    @property
    def title(self) -> str:
        return catalogue_facts(self.name).title

    @property
    def id_prefix(self) -> str:
        return catalogue_facts(self.name).id_prefix

    @property
    def spec_dir(self) -> str:
        return catalogue_facts(self.name).folder

    def has(self, what: str) -> bool:
        """Whether the entry supplies `what` (a field name)."""
        return bool(getattr(self, what, ""))

    def load(self, what: str) -> Any:
        """Import one of the entry's "module:attribute" references by field name; UnknownGame (one
        line, for the CLI) when the game does not supply it."""
        ref = getattr(self, what, None)
        if not isinstance(ref, str) or ":" not in ref:
            raise UnknownGame(f"game {self.name!r} supplies no {what} yet")
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
        catalogue_facts(ep.name)                 # a game without a catalogue is flagged here, by name
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
