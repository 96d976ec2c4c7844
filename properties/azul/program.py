"""A replayable classic Azul game: the configuration, the chance outcomes in drawing order and the
actions. `text()` is a Python program that replays it and prints the invariants' findings;
`replay()` does the same in-process (strict scripted chance: a draw the script lacks is an error)."""

from __future__ import annotations

import attrs

from model.azul import Game, new_game, parse_action
from model.chance import ScriptedChance
from properties.azul.invariants import check_all


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
