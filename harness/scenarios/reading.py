"""The start every game's scenario loader shares: read the file as UTF-8 TOML (a one-line error
naming the file, and the line when TOML says it) and check the identity keys every scenario has
(`id`, `description`, `clauses` present; id shape; a description that says something)."""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from harness.scenarios.locate import Locator
from harness.scenarios.problems import Problems, ScenarioError
from harness.scenarios.schema import typed

REQUIRED = ("id", "description", "clauses")
ID_SHAPE = r"[a-z0-9][a-z0-9.\-]*"


def read_toml(path: Path | str) -> tuple[str, Locator, Problems, dict[str, Any]]:
    """(file name, line locator, an empty problem list, the parsed table); unreadable files, text
    that is not UTF-8 and malformed TOML are a ScenarioError at once."""
    path = Path(path)
    file = str(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise ScenarioError(file, "-", f"cannot read: {exc.strerror}") from None
    except UnicodeDecodeError:
        raise ScenarioError(file, "-", "not UTF-8 text") from None
    loc = Locator(text)
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        m = re.search(r"line (\d+)", str(exc))
        raise ScenarioError(file, "-", f"malformed TOML: {exc}", int(m[1]) if m else None) from None
    return file, loc, Problems(file, loc), data


def check_identity(data: Mapping[str, Any], problems: Problems,
                   required: Iterable[str] = REQUIRED) -> tuple[str, str]:
    """(id, description): the required keys are present, the id is lower-case words with dots and
    dashes, the description is not blank."""
    for key in required:
        if key not in data:
            hint = " (a sentence or two saying what the scenario shows)" if key == "description" else ""
            problems.add(key, "required key is missing" + hint)
    sid = typed(data.get("id", "x"), str, "id", problems, "x")
    if not re.fullmatch(ID_SHAPE, sid):
        problems.add("id", "ids are lower-case words with dots and dashes")
    description = typed(data.get("description", ""), str, "description", problems, "")
    if "description" in data and isinstance(data["description"], str) and not description.strip():
        problems.add("description", "say what the scenario shows")
    return sid, description
