"""A replayable classic Azul game: the configuration, the chance outcomes in drawing order and the
actions. `text()` is a Python program that replays it and prints the invariants' findings;
`replay()` does the same in-process (strict scripted chance: a draw the script lacks is an error).
`MachineFailure` is how the shared Hypothesis machine reports a classic failure: the shared
`InvariantBroken` (its counterexample scenario file) carrying this program too."""

from __future__ import annotations

import attrs

from model.azul import Game, new_game, parse_action
from model.chance import ScriptedChance
from properties.azul.invariants import check_all
from properties.failure import InvariantBroken


@attrs.frozen
class Program:
    players: int
    wall: str
    overrides: dict[str, str]
    tiles: tuple[int, ...]
    first: int | None
    actions: tuple[str, ...]

    def new_game(self) -> Game:
        chance = ScriptedChance(tiles=self.tiles, first=self.first, strict=True)
        return new_game(self.players, wall=self.wall, interpretations=self.overrides, chance=chance)

    def replay(self) -> tuple[Game, list[str]]:
        """The game after every action, and the invariant violations found at the first step that
        has any (or at the end)."""
        g = self.new_game()
        problems = check_all(g)
        for text in self.actions:
            if problems:
                break
            g.apply(parse_action(text))
            problems = check_all(g)
        return g, problems

    def text(self) -> str:
        actions = "".join(f"    {a!r},\n" for a in self.actions)
        return (
            "from model.azul import new_game, parse_action\n"
            "from model.chance import ScriptedChance\n"
            "from properties.azul import check_all\n\n"
            f"chance = ScriptedChance(tiles={list(self.tiles)!r}, first={self.first!r}, strict=True)\n"
            f"g = new_game({self.players}, wall={self.wall!r},\n"
            f"             interpretations={dict(sorted(self.overrides.items()))!r}, chance=chance)\n"
            f"for text in [\n{actions}]:\n"
            "    g.apply(parse_action(text))\n"
            "    assert not check_all(g), (text, check_all(g))\n")


class MachineFailure(InvariantBroken):
    """A broken property found by the Hypothesis machine, with the program that replays the game up
    to it (printed in the message) and the counterexample scenario file of the shared failure."""

    def __init__(self, kind: str, message: str, program: Program, shared: InvariantBroken | None = None) -> None:
        self.kind = kind
        self.program = program
        super().__init__(kind, message, seed=None, step=len(program.actions),
                         scenario=shared.scenario if shared else None, overrides=program.overrides)

    def __str__(self) -> str:
        scenario = f"\nscenario file: {self.scenario}" if self.scenario else ""
        return (f"{self.kind}: {self.message}\n(after {len(self.program.actions)} actions)\n"
                f"replay with this program:\n{self.program.text()}{scenario}")
