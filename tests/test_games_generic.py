"""Checks every game gets by registering (docs/adding-a-game.md): parametrized over the registry,
so a third game is checked as soon as its entry exists. Each runs a few seeded games of each
player count through the shared interface (model.protocol.Game) and the entry's hooks."""

from __future__ import annotations

import random

import pytest

from model.errors import IllegalAction
from model.protocol import Game
from properties.registry import game_names, get_game

CASES = [(name, n) for name in game_names() for n in get_game(name).players]
SEEDS = (0, 1)


def _start(name: str, players: int, seed: int) -> Game:
    game = get_game(name).load("new_game")(seed=seed, players=players)
    assert isinstance(game, Game)
    return game


def _walk(name: str, players: int, seed: int, every: int = 7):
    """The positions of one uniform random game (every `every`-th step), bounded by the step bound."""
    entry = get_game(name)
    game = _start(name, players, seed)
    rng = random.Random(seed)
    bound = entry.load("step_bound")(game)
    for step in range(bound):
        if game.is_over or game.is_stalled:
            break
        if step % every == 0:
            yield game
        game.apply(rng.choice(list(game.legal_actions())))
    else:
        pytest.fail(f"{name}: no end within the step bound {bound}")
    yield game


@pytest.mark.parametrize(("name", "players"), CASES)
def test_generator_and_predicate_agree(name: str, players: int) -> None:
    """Every generated action passes the predicate; every candidate the predicate accepts is generated."""
    candidates = get_game(name).load("candidates")
    for seed in SEEDS:
        for game in _walk(name, players, seed):
            legal = set(game.legal_actions())
            accepted = {a for a in candidates(game) if game.why_illegal(a) is None}
            assert legal == accepted, (name, seed, sorted(map(str, legal ^ accepted))[:5])


@pytest.mark.parametrize(("name", "players"), CASES)
def test_illegal_action_names_a_clause_and_leaves_the_state_unchanged(name: str, players: int) -> None:
    entry = get_game(name)
    candidates = entry.load("candidates")
    refused = 0
    for game in _walk(name, players, 0, every=5):
        illegal = [a for a in candidates(game) if game.why_illegal(a) is not None][:3]
        for action in illegal:
            before = game.copy().state
            with pytest.raises(IllegalAction) as err:
                game.apply(action)
            assert err.value.clause.startswith(entry.id_prefix), err.value
            assert game.state == before
            refused += 1
    assert refused


@pytest.mark.parametrize(("name", "players"), CASES)
def test_same_seed_same_game(name: str, players: int) -> None:
    def play(seed: int) -> tuple[list[str], tuple[float, ...]]:
        game = _start(name, players, seed)
        rng = random.Random(seed)
        log = []
        while not game.is_over and not game.is_stalled and len(log) < 2000:
            action = rng.choice(list(game.legal_actions()))
            log.append(str(action))
            game.apply(action)
        return log, game.returns()
    assert play(3) == play(3)


@pytest.mark.parametrize(("name", "players"), CASES)
def test_invariants_hold_in_random_play(name: str, players: int) -> None:
    """The shared simulation (every invariant after every step) passes seeded games of every game."""
    from properties.simulate import assert_games_hold

    assert_games_hold(SEEDS, game=name, players=players, deep_every=5)


@pytest.mark.parametrize("name", game_names())
def test_entry_supplies_what_the_shared_layers_ask(name: str) -> None:
    entry = get_game(name)
    for field in ("new_game", "invariants", "invariant_table", "step_bound", "implemented", "scores",
                  "candidates", "phase_graph", "format_tiles"):
        assert entry.has(field), f"{name} supplies no {field}"
        entry.load(field)
    assert "uniform" in {**entry.load("policies")} | {"uniform": None}
    graph = entry.load("phase_graph")()
    assert graph.number_of_edges() and all(d["clauses"] for _, _, d in graph.edges(data=True))
    for _, _, d in graph.edges(data=True):
        assert all(c.startswith(entry.id_prefix) for c in d["clauses"])


@pytest.mark.parametrize("name", game_names())
def test_committed_phase_diagram_shows_every_edge_clause(name: str) -> None:
    """docs/phases.svg (the default game) and docs/phases-GAME.svg are drawn from the phase graph:
    every edge's clauses appear in the committed picture (`azul-rules graph --game GAME` redraws it)."""
    import html
    from pathlib import Path

    from properties.registry import DEFAULT_GAME

    root = Path(__file__).resolve().parents[1]
    path = root / "docs" / ("phases.svg" if name == DEFAULT_GAME else f"phases-{name}.svg")
    svg = html.unescape(path.read_text())
    for _, _, data in get_game(name).load("phase_graph")().edges(data=True):
        for clause in data["clauses"]:
            assert clause in svg, f"{path.name} lacks {clause}: run azul-rules graph --game {name}"


@pytest.mark.parametrize("name", game_names())
def test_the_shared_state_machine_plays_every_game(name: str, tmp_path) -> None:  # type: ignore[no-untyped-def]
    """properties.machine drives any registered game: Hypothesis picks actions and chance, every
    invariant after every step (a few short examples here; the profiles run more)."""
    from hypothesis import HealthCheck, settings

    from properties.machine import machine_for

    case = machine_for({}, tmp_path, game=name).TestCase
    case.settings = settings(max_examples=3, stateful_step_count=40, deadline=None, database=None,
                             derandomize=True, suppress_health_check=list(HealthCheck))
    case().runTest()


def test_verify_applies_each_games_own_thresholds() -> None:
    """The default game's thresholds are [tool.azul-rules]; another game's are its own table
    [tool.azul-rules.games.NAME] (0 when it has none)."""
    import tomllib
    from pathlib import Path

    from harness.verify import asserted_threshold, guarded_threshold
    from properties.registry import DEFAULT_GAME

    table = tomllib.loads((Path(__file__).resolve().parents[1] / "pyproject.toml").read_text())["tool"]["azul-rules"]
    assert asserted_threshold(DEFAULT_GAME) == asserted_threshold() == table["asserted_threshold"]
    for name in game_names():
        if name != DEFAULT_GAME:
            own = table.get("games", {}).get(name, {})
            assert asserted_threshold(name) == own.get("asserted_threshold", 0.0)
            assert guarded_threshold(name) == own.get("guarded_threshold", 0.0)


def _play_out(game: Game, rng: random.Random, bound: int) -> list[str]:
    """Uniform random play to the end (or a stall); the actions as text."""
    log: list[str] = []
    while not (game.is_over or game.is_stalled) and len(log) < bound:
        action = rng.choice(list(game.legal_actions()))
        log.append(str(action))
        game.apply(action)
    return log


@pytest.mark.parametrize(("name", "players"), CASES)
def test_a_copy_is_an_independent_game_with_the_same_future_draws(name: str, players: int) -> None:
    """Playing a copy through round ends (so it draws) leaves the original's draws where they were:
    the original still plays exactly as an untouched game of the same seed, and the copy, given the
    original's actions, draws what the original drew (audit F1: copies shared one chance)."""
    bound = get_game(name).load("step_bound")(_start(name, players, 3))
    untouched, copied = _start(name, players, 3), _start(name, players, 3)
    warm = random.Random(9)
    for _ in range(5):                                  # into the first round, before copying
        action = warm.choice(list(untouched.legal_actions()))
        untouched.apply(action)
        copied.apply(action)
    twin = copied.copy()
    assert _play_out(twin.copy(), random.Random(1), bound)      # a copy of the copy, played to the end
    assert len(_play_out(copied.copy(), random.Random(2), bound)) > 20
    expected = _play_out(untouched, random.Random(5), bound)
    assert _play_out(copied, random.Random(5), bound) == expected
    assert copied.state == untouched.state
    replay = iter(expected)
    while not (twin.is_over or twin.is_stalled):
        step = next(replay)
        twin.apply(next(a for a in twin.legal_actions() if str(a) == step))
    assert twin.state == untouched.state


@pytest.mark.parametrize(("name", "players"), CASES)
def test_a_snapshot_is_the_position_and_refuses_to_draw(name: str, players: int) -> None:
    from model.chance import ChanceScriptError

    game = _start(name, players, 4)
    snap = game.snapshot()
    assert snap.state == game.state and snap.state is not game.state
    with pytest.raises(ChanceScriptError, match="snapshot cannot draw"):
        _play_out(snap, random.Random(0), 10_000)        # its first draw (a round's refill) is refused
    assert game.state == _start(name, players, 4).state  # and the game it came from is untouched
