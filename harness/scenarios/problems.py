"""What is wrong with a scenario file: every problem names the file, the line and the field, and a
file's problems are reported together (one line each), not one per run."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

import attrs

from harness.scenarios.locate import Locator

UNKNOWN_KEY = "unknown key"


def chance_problem(exc: Exception, colours: Sequence[str]) -> str:
    """A scripted chance that cannot happen (model.chance.ChanceScriptError), with the tile's colour
    named in the game's words (`colours`, its colour names by index)."""
    colour = getattr(exc, "colour", None)
    if colour is not None and 0 <= colour < len(colours):
        return f"scripted tile {colours[colour]} is not in the bag"
    return str(exc)


@attrs.frozen
class Problem:
    file: str
    field: str
    message: str
    line: int | None = None

    def __str__(self) -> str:
        return f"{self.file}{':' + str(self.line) if self.line else ''}: field '{self.field}': {self.message}"


class ScenarioError(Exception):
    """One or more problems in a scenario file. `file`, `field`, `message`, `line` are the first
    problem's (by line); `problems` holds them all."""

    def __init__(self, file: str, field: str = "", message: str = "", line: int | None = None, *,
                 problems: Iterable[Problem] = ()) -> None:
        found = list(problems) or [Problem(file, field, message, line)]
        found.sort(key=lambda p: (p.line is None, p.line or 0))
        self.problems: tuple[Problem, ...] = tuple(dict.fromkeys(found))
        first = self.problems[0]
        self.file, self.field, self.message, self.line = first.file, first.field, first.message, first.line
        super().__init__("\n".join(map(str, self.problems)))


class Problems:
    """Collects a file's problems; `raise_if_any()` raises them all as one ScenarioError."""

    def __init__(self, file: str, locator: Locator) -> None:
        self.file = file
        self.locator = locator
        self.found: list[Problem] = []

    def error(self, field: str, message: str) -> ScenarioError:
        """A single-problem error (to raise where going on makes no sense)."""
        return ScenarioError(self.file, field, message, self.locator.line(field))

    def add(self, field: str, message: str) -> None:
        self.found.append(Problem(self.file, field, message, self.locator.line(field)))

    def absorb(self, error: ScenarioError) -> None:
        self.found.extend(error.problems)

    def attempt(self, fn: Callable[..., object], *args: object) -> bool:
        """Run one independent part; record its problems and say whether it succeeded."""
        try:
            fn(*args)
        except ScenarioError as exc:
            self.absorb(exc)
            return False
        return True

    def in_fields(self, *roots: str, but_unknown_keys: bool = False) -> bool:
        """Whether a problem was found in one of these top-level fields (optionally not counting
        unknown keys, which the readers of those fields skip anyway)."""
        return any(p.field.split(".")[0].split("[")[0] in roots
                   and not (but_unknown_keys and p.message.startswith(UNKNOWN_KEY)) for p in self.found)

    def raise_if_any(self) -> None:
        if self.found:
            raise ScenarioError(self.file, problems=self.found)


class LocatedInFile:
    """For a loaded scenario (which has `file` and `locator`): `error(field, message)` is a
    one-problem ScenarioError pointing at that field's line."""

    file: str
    locator: Locator

    def error(self, field: str, message: str) -> ScenarioError:
        return ScenarioError(self.file, field, message, self.locator.line(field))
