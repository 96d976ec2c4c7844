"""Finding scenario files, and which game a file describes (its `game` key; the default game when it
has none): shared by every game's scenario format."""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterator
from pathlib import Path

from properties.registry import DEFAULT_GAME


def scenario_game(path: Path) -> str:
    """The `game = "..."` of a scenario file (the default game when absent or unreadable: that
    game's loader then reports what is wrong with the file)."""
    try:
        data = tomllib.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        return DEFAULT_GAME
    game = data.get("game", DEFAULT_GAME)
    return game if isinstance(game, str) else DEFAULT_GAME


_TOP_ID = re.compile(r"^id\s*=", re.M)
_SCENARIO_PART = re.compile(r"^(when\s*=|given\s*=|then\s*=|\[given[\].]|\[then[\].])", re.M)


def looks_like_scenario(path: Path) -> bool:
    """A top-level `id` (before any table header) and a `given`, `when` or `then` part: tells
    scenarios from other TOML (pyproject.toml, spec chapters) without parsing it."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return False
    head = re.split(r"^\s*\[", text, maxsplit=1, flags=re.M)[0]
    return bool(_TOP_ID.search(head)) and bool(_SCENARIO_PART.search(text))


def is_scenario_file(path: Path) -> bool:
    """Found in a folder walk: a *.toml under a `fixtures` folder (the scenarios' home, so a broken
    one is reported, not skipped), or any other *.toml that looks like a scenario."""
    return path.suffix == ".toml" and ("fixtures" in path.resolve().parts or looks_like_scenario(path))


def scenario_files(paths: list[Path]) -> Iterator[Path]:
    """Files as given (always, whatever they look like); folders: their scenario files."""
    for path in paths:
        if path.is_dir():
            yield from (p for p in sorted(path.rglob("*.toml")) if is_scenario_file(p))
        else:
            yield path


def files_by_game(paths: list[Path]) -> dict[str, int]:
    """How many scenario files each game has among `paths` (verify's stage line shows it)."""
    counts: dict[str, int] = {}
    for path in paths:
        game = scenario_game(path)
        counts[game] = counts.get(game, 0) + 1
    return dict(sorted(counts.items()))
