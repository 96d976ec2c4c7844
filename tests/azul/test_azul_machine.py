"""The classic Azul Hypothesis state machine (properties/azul/machine.py): it runs clean on the model
with a small budget, and it catches planted model bugs, printing a program that replays them."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, Phase, settings

from model.azul import tiling
from model.azul.state import Board
from properties.azul.machine import AzulMachine, MachineFailure, machine_for

FAST = dict(deadline=None, database=None, derandomize=True, suppress_health_check=list(HealthCheck))


def run(machine: type[AzulMachine], examples: int, steps: int, *, shrink: bool = False) -> None:
    phases = [Phase.generate, Phase.shrink] if shrink else [Phase.generate]
    machine.TestCase.settings = settings(max_examples=examples, stateful_step_count=steps, phases=phases, **FAST)
    machine.TestCase().runTest()


@pytest.mark.clause("azul.invariant.tile-conservation", "azul.invariant.floor-capacity", "azul.invariant.marker",
                    "azul.invariant.round-end", "azul.invariant.wall-colours", "azul.offer.actions")
def test_machine_runs_clean_over_players_walls_and_alternatives() -> None:
    run(machine_for(), examples=12, steps=80)


@pytest.mark.clause("azul.end.trigger", "azul.invariant.round-end")
@pytest.mark.parametrize("alt", ("end-game", "stall"))
def test_machine_runs_clean_on_four_player_gray(alt: str) -> None:
    run(machine_for(4, "gray", {"azul.end.dead-game": alt}), examples=3, steps=120)


def _drop_discarded_tiles(monkeypatch: pytest.MonkeyPatch) -> None:
    """A planted bug: a tiled line's other tiles vanish instead of going to the lid
    (azul.wall.discard-rest broken): tiles are lost as soon as a line of 2 or more is tiled."""
    real = tiling.move_line

    def leaky(board: Board, who: int, row: int, col: int, lid: list[int], *rest):  # type: ignore[no-untyped-def]
        real(board, who, row, col, [0] * len(lid), *rest)
    monkeypatch.setattr(tiling, "move_line", leaky)


@pytest.mark.clause("azul.invariant.tile-conservation", "azul.wall.discard-rest")
def test_machine_catches_a_planted_bug_and_prints_a_replay(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    _drop_discarded_tiles(monkeypatch)
    with pytest.raises(MachineFailure) as caught:
        run(machine_for(2, "coloured", {}, tmp_path), examples=20, steps=40)
    assert list(tmp_path.iterdir())                           # its counterexample: here, not in the work tree
    failure = caught.value
    assert failure.kind == "tile-conservation"
    assert "replay with this program:" in str(failure) and "ScriptedChance(tiles=[" in str(failure)
    game, problems = failure.program.replay()                 # the program reproduces it
    assert problems and problems[0].startswith("tile-conservation")
    namespace: dict[str, object] = {}
    with pytest.raises(AssertionError, match="tile-conservation"):
        exec(failure.program.text(), namespace)               # and so does its printed text
    monkeypatch.undo()
    assert failure.program.replay()[1] == []                   # the fixed model passes the same game


@pytest.mark.clause("azul.setup.first-player")
def test_the_shared_machine_and_chance_draw_a_first_player_among_all_seats(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """One chance module for both games (properties/chance.py): classic's by-chance starter asks it
    for one of `players` seats; the shared machine plays a 4-player by-chance game with it."""
    from properties.machine import machine_for as shared_machine_for

    machine = shared_machine_for({"azul.setup.starter-choice": "by-chance"}, tmp_path, game="azul", players=4)
    machine.TestCase.settings = settings(max_examples=8, stateful_step_count=20, phases=[Phase.generate], **FAST)
    machine.TestCase().runTest()
    assert not list(tmp_path.iterdir())                       # no counterexample written
