"""Shrinking and progress of the search (properties/search/): a shrunk witness replays on its strict
script, dropping choices keeps the rest meaningful (lenient replay), and progress is reported per
node count while an exploration runs."""

from __future__ import annotations

import pytest

from properties.registry import get_game
from properties.search import engine
from properties.search.chance import ChanceRecord, SearchChance
from properties.search.goals import ClauseGoal
from properties.search.replay import Setup, lenient_play, met_at, replay, shrink
from properties.search.run import hooks_of, where_goal


def _setup() -> Setup:
    entry = get_game("duel")
    return Setup(entry, hooks_of(entry), None)


def _random_game(setup: Setup, steps: int, seed: int) -> tuple[tuple[str, ...], ChanceRecord]:
    import random

    chance = SearchChance(seed, "weighted")
    game = setup.start({}, chance)
    rng = random.Random(seed)
    actions = []
    for _ in range(steps):
        legal = game.legal_actions()
        if not legal or game.is_over:
            break
        action = rng.choice(legal)
        game.apply(action)
        actions.append(str(action))
    return tuple(actions), chance.record


def test_a_lenient_play_replays_on_its_strict_script() -> None:
    """Actions dropped and a script of draws the bag cannot give (all of one colour): what the
    lenient play gave out replays with ScriptedChance(strict=True), step for step."""
    setup = _setup()
    actions, record = _random_game(setup, 60, 3)
    bad = ChanceRecord([0] * len(record.tiles), record.plates, record.chips, record.first)
    played, drawn = lenient_play(setup, {}, actions[5:], bad, steps=60)
    assert played, "nothing was played"
    again = replay(setup, {}, played, drawn, strict=True)
    assert again.complete, again.problem
    assert again.draws_used == (len(drawn.tiles), len(drawn.chips))


def test_shrinking_drops_choices_and_the_witness_still_meets_its_goal() -> None:
    """The end of the first Acquisition in a random game: dropping choices (the rest played
    leniently) reaches it in fewer actions, and the shrunk file's strict replay meets it at its last
    step (fails with the old chunk-cutting shrinker: any dropped pick made a later one illegal)."""
    setup = _setup()
    actions, record = _random_game(setup, 200, 11)
    goal = ClauseGoal("duel.acquire.end")
    at = met_at(setup, goal, actions, record)
    assert at is not None and at > 10
    shrunk = shrink(setup, goal, actions, record, max_replays=200, max_steps=10**7)
    assert met_at(setup, goal, shrunk.actions, shrunk.record) == len(shrunk.actions)
    assert len(shrunk.actions) < at, (len(shrunk.actions), at)


def test_progress_is_reported_every_so_many_nodes(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(engine, "PROGRESS_EVERY", 500)
    setup = _setup()
    lines: list[int] = []
    goal = where_goal("step < 0", setup.hooks, setup.start({}, SearchChance(0)))      # never met
    explorer = engine.Explorer(setup, [goal], 0, engine.Budget(600, 2_600), overrides={},
                               progress=lambda explored, found: lines.append(explored.nodes))
    explorer.run()
    assert len(lines) == 5, lines                    # at 500, 1,000, ... 2,500 nodes
    assert lines == sorted(lines) and lines[0] >= 500


def test_the_shrink_budget_counts_work_not_seconds(monkeypatch: pytest.MonkeyPatch) -> None:
    """The same found game shrinks to the same witness on a slow or busy machine: the budget is
    replays and replayed actions, never the clock (with a CPU deadline, a clock that runs 100 s a call
    stopped the shrink at once, and a faster machine fitted more attempts)."""
    import time

    setup = _setup()
    actions, record = _random_game(setup, 200, 11)
    goal = ClauseGoal("duel.acquire.end")
    calm = shrink(setup, goal, actions, record)
    ticks = iter(range(0, 10**9, 100))
    monkeypatch.setattr(time, "process_time", lambda: float(next(ticks)))
    busy = shrink(setup, goal, actions, record)
    assert busy.actions == calm.actions and busy.record == calm.record
    assert len(calm.actions) < len(actions)
    few = shrink(setup, goal, actions, record, max_steps=len(actions))
    assert few.replays < calm.replays, "a step budget the first replay uses up stops the shrink"
