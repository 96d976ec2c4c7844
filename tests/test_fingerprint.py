"""The games' canonical position fingerprints (registry field `fingerprint`; model/duel/fingerprint.py,
model/azul/fingerprint.py): every field of the state counts (no blind spot), equal fingerprints
mean equal states over explored positions, the same position has the same fingerprint whatever
its history, and the bytes do not depend on PYTHONHASHSEED. A broken fingerprint is caught."""

from __future__ import annotations

import os
import random
import subprocess
import sys
from typing import Any

import pytest

from properties.exhaustive import fingerprint_blind_spots, fingerprint_soundness
from properties.registry import game_names, get_game

CASES = [(name, n) for name in game_names() for n in get_game(name).players]


def positions(name: str, players: int, seed: int = 3, every: int = 6, limit: int = 90) -> list[Any]:
    """Snapshots along one uniform random game (every `every`-th step)."""
    game = get_game(name).load("new_game")(seed=seed, players=players)
    rng = random.Random(seed)
    out = []
    for step in range(limit):
        if step % every == 0:
            out.append(game.snapshot())
        actions = game.legal_actions()
        if not actions:
            break
        game.apply(rng.choice(actions))
    out.append(game.snapshot())
    return out


@pytest.mark.parametrize(("name", "players"), CASES)
def test_every_field_counts(name: str, players: int) -> None:
    """Moving any one int, flag, list length or name of the state changes the fingerprint."""
    fingerprint = get_game(name).load("fingerprint")
    for game in positions(name, players):
        assert fingerprint_blind_spots(game, fingerprint) == []


@pytest.mark.parametrize("name", game_names())
def test_a_fingerprint_that_drops_whose_turn_it_is_is_caught(name: str) -> None:
    real = get_game(name).load("fingerprint")

    def turnless(game: Any) -> bytes:
        twin = game.copy()
        twin.state.to_move = 0
        return real(twin)

    game = get_game(name).load("new_game")(seed=0)
    assert any(spot.startswith("state.to_move") for spot in fingerprint_blind_spots(game, turnless))


@pytest.mark.parametrize(("name", "players", "depth"), [("duel", 2, 3), ("azul", 2, 2), ("azul", 4, 1)])
def test_equal_fingerprints_are_equal_states(name: str, players: int, depth: int) -> None:
    """Deduplicating by fingerprint and by whole-state equality finds the same positions."""
    entry = get_game(name)
    start = entry.load("new_game")(seed=0, players=players)
    report = fingerprint_soundness([start], depth, entry.load("fingerprint"))
    assert report.merged == ()
    assert report.by_fingerprint == report.by_state > 100


def test_a_fingerprint_that_drops_the_floor_merges_positions_and_is_caught() -> None:
    """Taking a lone tile to pattern line 1 or to the floor differ only on the board: a fingerprint
    that leaves the floor out merges such positions, and the soundness check meets both."""
    entry = get_game("azul")
    real = entry.load("fingerprint")

    def floorless(game: Any) -> bytes:
        twin = game.copy()
        for board in twin.state.boards:
            board.floor = []
        return real(twin)

    report = fingerprint_soundness([entry.load("new_game")(seed=0)], 2, floorless)
    assert report.merged and report.by_fingerprint < report.by_state


@pytest.mark.parametrize(("name", "players"), CASES)
def test_same_position_same_fingerprint_whatever_its_history(name: str, players: int) -> None:
    """A copy, a snapshot and a state rebuilt field by field (fresh lists) all give the same bytes.
    (Positions reached by different paths merge too: test_perft's classic counts have fewer distinct
    positions than paths, and test_equal_fingerprints_are_equal_states finds them equal states.)"""
    fingerprint = get_game(name).load("fingerprint")
    for game in positions(name, players, every=15):
        rebuilt = game.copy()
        rebuilt.state = type(game.state)(*[_fresh(getattr(game.state, f)) for f in _fields(game.state)])
        assert fingerprint(game) == fingerprint(game.copy()) == fingerprint(game.snapshot()) == fingerprint(rebuilt)


def _fields(state: Any) -> list[str]:
    import attrs

    return [f.name for f in attrs.fields(type(state)) if f.init]


def _fresh(value: Any) -> Any:
    import copy

    return copy.deepcopy(value)


def test_unordered_chips_are_canonical() -> None:
    """Duel's face-down chip supply and a player's chips are sets: their order does not count."""
    entry = get_game("duel")
    fingerprint = entry.load("fingerprint")
    game = entry.load("new_game")(seed=0)
    twin = game.copy()
    twin.state.chip_supply = list(reversed(twin.state.chip_supply))
    twin.state.players[0].chips = [4, 2]
    game.state.players[0].chips = [2, 4]
    assert fingerprint(twin) == fingerprint(game)


@pytest.mark.parametrize("name", game_names())
def test_readings_in_force_count(name: str) -> None:
    """The same table under another reading of the rules is another position (its future differs)."""
    entry = get_game(name)
    fingerprint = entry.load("fingerprint")
    point, alternatives = next(iter(entry.load("implemented").items()))
    default = entry.load("new_game")(seed=0)
    other = entry.load("new_game")(seed=0, overrides={point: alternatives[1]})
    other.state = default.state.copy()
    assert fingerprint(default) != fingerprint(other)


def test_fingerprint_bytes_do_not_depend_on_the_hash_seed() -> None:
    code = ("from properties.registry import get_game\n"
            "for name in ('duel', 'azul'):\n"
            "    e = get_game(name); g = e.load('new_game')(seed=7)\n"
            "    for _ in range(9): g.apply(g.legal_actions()[len(g.legal_actions()) // 2])\n"
            "    print(e.load('fingerprint')(g).hex())\n")
    outputs = {subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                              env={**os.environ, "PYTHONHASHSEED": seed}).stdout
               for seed in ("1", "2")}
    assert len(outputs) == 1 and len(next(iter(outputs)).split()) == 2
