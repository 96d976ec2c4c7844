"""Scenarios: given / when / then files that pin a rule down with a replayable position.

Shared: finding files (`files.py`), line numbers (`locate.py`) and problems (`problems.py`). Each
game reads its own position schema (registry field `scenarios`, e.g. harness/duel/scenarios/api.py);
a file says which game it describes with a `game` key (default: the default game)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from harness.scenarios.files import is_scenario_file, looks_like_scenario, scenario_files, scenario_game
from harness.scenarios.problems import ScenarioError
from properties.registry import DEFAULT_GAME, UnknownGame, get_game

__all__ = ["ScenarioError", "is_scenario_file", "load_scenario", "looks_like_scenario", "run_scenario",
           "scenario_api", "scenario_files", "scenario_game"]


def scenario_api(game: str = DEFAULT_GAME, file: str = "") -> Any:
    """The game's scenario support (load, run, build a position, views), or a one-line ScenarioError."""
    try:
        entry = get_game(game)
    except UnknownGame as exc:
        raise ScenarioError(file, "game", str(exc)) from None
    if not entry.has("scenarios"):
        raise ScenarioError(file, "game", f"game {game!r} has no scenario support yet (its registry entry "
                                          "has no `scenarios`; docs/adding-a-game.md)")
    return entry.load("scenarios")


def load_scenario(path: Path | str) -> Any:
    """Load a scenario file with its game's loader (strict: every problem named by file/line/field)."""
    return scenario_api(scenario_game(Path(path)), str(path)).load_scenario(path)


def run_scenario(scenario: Any) -> Any:
    """Run a loaded scenario with its game's runner."""
    return scenario_api(getattr(scenario, "game", DEFAULT_GAME), str(getattr(scenario, "file", ""))).run_scenario(scenario)
