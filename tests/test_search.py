"""The search (properties/search/): it finds what random play does not, the same seed gives the same
witness, a bad `--where` is one line, a budget or Ctrl-C keeps what was found, and a witness replays
from its chance record as its scenario file will."""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import Any

import attrs
import pytest

from model.clauses import RECORDER
from model.errors import UserError
from properties.registry import get_game
from properties.search import chance as search_chance
from properties.search import engine
from properties.search.goals import ClauseGoal, DecideGoal
from properties.search.replay import Setup, met_at
from properties.search.run import clause_goal, decide_goal, hooks_of, search, where_goal
from tests.cli_helpers import run_cli

# Three small Factories each showing one colour only on their sun side: the bag's weighted draws
# almost never give it (0 of 70,419 positions of 300 uniform games, measured), chance chosen by the
# search does.
PLANTED = "sum(1 for f in state.small if sum(f.sun) >= 2 and max(f.sun) == sum(f.sun)) >= 3"


def _holds_in_random_play(expr: str, games: int) -> int:
    entry = get_game("duel")
    goal = where_goal(expr, hooks_of(entry), entry.load("new_game")(seed=0))
    from properties.search.view import step_view

    hits = 0
    for seed in range(games):
        game = entry.load("new_game")(seed=seed)
        rng = random.Random(seed)
        n = 0
        while True:
            view = step_view(game, [], "", -1, n, (0, 0), hooks_of(entry).view(game))
            hits += goal.holds(view)
            actions = game.legal_actions()
            if not actions:
                break
            game.apply(rng.choice(actions))
            n += 1
    return hits


def test_random_play_does_not_meet_the_planted_condition() -> None:
    assert _holds_in_random_play(PLANTED, 40) == 0


def test_search_finds_the_planted_condition_and_its_witness_replays() -> None:
    entry = get_game("duel")
    goal = where_goal(PLANTED, hooks_of(entry), entry.load("new_game")(seed=0))
    result = search("duel", [goal], cpu_seconds=600, nodes=5_000)
    assert [w.goal for w in result.witnesses] == [goal], "not found within 5,000 nodes"
    witness = result.witnesses[0]
    setup = Setup(entry, hooks_of(entry), None)
    at = met_at(setup, goal, witness.shrunk.actions, witness.shrunk.record)
    assert at == len(witness.shrunk.actions)       # the shrunk game meets it exactly at its end


def test_the_search_needs_its_own_chance_for_the_planted_condition(monkeypatch: pytest.MonkeyPatch) -> None:
    """With chance drawing only as the real bag does, the same budget finds nothing: it is chance
    the search controls that reaches the condition."""
    monkeypatch.setattr(engine, "TILE_STYLES", ("weighted",))
    entry = get_game("duel")
    goal = where_goal(PLANTED, hooks_of(entry), entry.load("new_game")(seed=0))
    result = search("duel", [goal], cpu_seconds=600, nodes=5_000)
    assert result.missing == [goal]
    assert search_chance.TILE_STYLES != ("weighted",)


def test_same_seed_same_witness() -> None:
    entry = get_game("duel")
    goal = where_goal(PLANTED, hooks_of(entry), entry.load("new_game")(seed=0))
    runs = [search("duel", [goal], seed=3, cpu_seconds=600, nodes=5_000) for _ in range(2)]
    found = [[(w.goal, w.shrunk.actions, w.shrunk.record.tiles) for w in r.witnesses] for r in runs]
    assert found[0] and found[0] == found[1]
    other = search("duel", [goal], seed=4, cpu_seconds=600, nodes=5_000)
    assert [w.shrunk.actions for w in other.witnesses] != [w.shrunk.actions for w in runs[0].witnesses]


def test_a_node_budget_is_an_answer_with_what_was_explored() -> None:
    goals = [decide_goal("duel", "duel.score.start=zero", hooks_of(get_game("duel"))),
             ClauseGoal("duel.prep.rare-empty")]
    result = search("duel", goals, cpu_seconds=600, nodes=400)
    assert [w.goal.key for w in result.witnesses] == ["decide duel.score.start=zero"]
    assert [g.key for g in result.missing] == ["clause duel.prep.rare-empty"]
    explored = sum(e.nodes for _, e in result.explored)
    assert 0 < explored <= 400
    assert max(e.deepest_round for _, e in result.explored) >= 1


def test_ctrl_c_keeps_what_was_found(monkeypatch: pytest.MonkeyPatch) -> None:
    branch = engine.Explorer._branch
    calls = {"n": 0}

    def interrupted(self: engine.Explorer, entry: object) -> None:
        calls["n"] += 1
        if calls["n"] > 30:
            raise KeyboardInterrupt
        branch(self, entry)

    monkeypatch.setattr(engine.Explorer, "_branch", interrupted)
    never = where_goal("round > 99", hooks_of(get_game("duel")), get_game("duel").load("new_game")(seed=0))
    goals = [ClauseGoal("duel.acquire.moon.start-player-tile"), never]
    was = RECORDER.enabled
    result = search("duel", goals, cpu_seconds=600, nodes=10**6)
    assert result.interrupted
    assert [w.goal.key for w in result.witnesses] == ["clause duel.acquire.moon.start-player-tile"]
    assert result.missing == [never]
    assert RECORDER.enabled == was          # clause recording is back as it was


@pytest.mark.parametrize("expr, says", [
    ("round >", "not a Python expression"),
    ("rund == 2", "did you mean 'round'"),
    ("__import__('os')", "unknown name"),
    ("state.__class__", "hidden"),
    ("[x := 1]", "not allowed"),
])
def test_a_bad_expression_is_one_line(expr: str, says: str) -> None:
    result = run_cli("search", "--where", expr, "--nodes", "10")
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and says in lines[0], result.stderr
    assert "Traceback" not in result.stderr


def test_an_expression_failing_while_searched_is_one_line() -> None:
    result = run_cli("search", "--where", "scores[7] > 1", "--nodes", "50")
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert "IndexError" in lines[-1] and "Traceback" not in result.stderr, result.stderr


@pytest.mark.parametrize("args, says", [
    (["--decide", "duel.score.strat=zero"], "did you mean 'duel.score.start'"),
    (["--decide", "duel.score.start=zro"], "did you mean 'zero'"),
    (["--decide", "duel.score.start=five"], "is the default"),
    (["--clause", "duel.end." + "winer"], "did you mean 'duel.end.winner'"),
    (["--where", "bag-empty-at-refil"], "did you mean 'bag-empty-at-refill'"),
    ([], "nothing to search for"),
])
def test_bad_options_are_one_line_before_any_work(args: list[str], says: str) -> None:
    result = run_cli("search", *args, "--nodes", "10")
    assert result.returncode == 2
    assert len(result.stderr.strip().splitlines()) == 1 and says in result.stderr, result.stderr


def test_the_goal_constructors_refuse_unknown_names() -> None:
    entry = get_game("azul")
    with pytest.raises(UserError, match="no model site|is no clause"):
        clause_goal(entry, "azul.nothing." + "here", hooks_of(entry))
    assert isinstance(decide_goal("azul", "azul.score.single-axis=count-both", hooks_of(entry)), DecideGoal)


def test_jobs_change_nothing_but_the_wall_time() -> None:
    """Also with another thread running (verify's status line), where the workers come from a fork
    server instead of being forked from the caller."""
    import threading

    hooks = hooks_of(get_game("duel"))
    goals = [decide_goal("duel", "duel.score.start=zero", hooks), decide_goal("duel", "duel.lines.voluntary-break=any-split", hooks)]
    one, two = (search("duel", goals, cpu_seconds=600, nodes=2_000, jobs=jobs) for jobs in (1, 2))
    stop = threading.Event()
    other = threading.Thread(target=stop.wait, daemon=True)
    other.start()
    try:
        beside_a_thread = search("duel", goals, cpu_seconds=600, nodes=2_000, jobs=2)
    finally:
        stop.set()
        other.join()
    found = [(w.goal, w.shrunk.actions) for w in one.witnesses]
    assert found and found == [(w.goal, w.shrunk.actions) for w in two.witnesses] == \
        [(w.goal, w.shrunk.actions) for w in beside_a_thread.witnesses]


def test_a_step_ahead_takes_the_action_closest_by_the_distance_and_cites_nothing() -> None:
    """A branch looking ahead (engine.Explorer._closest) tries actions on copies: with no more
    than AHEAD_TRIES to choose from it returns one whose position is closest by the distance (here:
    fewest Broken tiles of the player placing tiles, i.e. the line that keeps the most), and the
    trials' rule sites are not recorded (they would count as coverage the search never reached)."""
    from model.chance import SeededChance
    from properties.search.view import step_view

    entry = get_game("duel")
    setup = Setup(entry, hooks_of(entry), None)
    game = entry.load("new_game")(seed=3, chance=SeededChance(3))
    rng = random.Random(3)
    for _ in range(500):                   # to a line choice for three tiles or more
        p = game.state.pending
        if p is not None and p.kind == "line" and p.data[-1] >= 3:
            break
        game.apply(rng.choice(game.legal_actions()))
    who = game.state.pending.player

    def broken(v: object) -> float:
        return float(len(v["state"].players[who].broken))            # type: ignore[index]

    explorer = engine.Explorer(setup, [ClauseGoal("duel.prep.rare-empty")], 0, engine.Budget(60, 10**6), overrides={})
    legal = game.legal_actions()
    assert len(legal) <= engine.AHEAD_TRIES, "every action is tried"
    after = {}
    for action in legal:
        ahead = game.copy()
        events = ahead.apply(action)
        after[str(action)] = broken(step_view(ahead, events, str(action), who, 1, (0, 0), {}))
    assert len(set(after.values())) > 1, "the choice matters here"
    RECORDER.reset()
    was = RECORDER.enabled
    RECORDER.enabled = True
    try:
        picked = explorer._closest(game, legal, broken, 0)
        assert not RECORDER.clauses, f"the look-ahead recorded {sorted(RECORDER.clauses)}"
    finally:
        RECORDER.enabled = was
    assert after[str(picked)] == min(after.values()), (str(picked), after)


def test_only_a_goal_with_a_distance_looks_ahead(monkeypatch: pytest.MonkeyPatch) -> None:
    """A `--where` expression has no distance, so no branch looks a step ahead for it (a look-ahead
    with nothing to measure would cost ten trial moves a step and pick an arbitrary action); a named
    predicate with a distance does."""
    calls = {"n": 0}
    real = engine.Explorer._closest

    def counting(self, *args, **kwargs):  # type: ignore[no-untyped-def]
        calls["n"] += 1
        return real(self, *args, **kwargs)

    monkeypatch.setattr(engine.Explorer, "_closest", counting)
    hooks = hooks_of(get_game("duel"))
    sample = get_game("duel").load("new_game")(seed=0)
    search("duel", [where_goal("round <= 3 and tokens_left[0] == 2 and 'pass' in kinds", hooks, sample)],
           cpu_seconds=600, nodes=2_000)
    assert calls["n"] == 0, f"an expression without a distance looked ahead {calls['n']} times"
    search("duel", [where_goal("one-colour-bag", hooks, sample)], cpu_seconds=600, nodes=2_000)
    assert calls["n"] > 0, "a named predicate with a distance looks ahead"


TIE_READING = "duel.end.tie-without-tile=round-starter"      # parts the readings only in who wins a tie


def test_readings_that_part_only_in_who_wins_are_told_apart(monkeypatch: pytest.MonkeyPatch) -> None:
    """Two readings can play the same last step with the same events, scores and legal actions
    and still end the game differently (a tie's winner): the replay compares the outcome too, the
    witness says it as the outcome's `reason`. Without the comparison the readings never part."""
    from properties.search import replay as search_replay
    from properties.search.replay import divergence
    from properties.search.witness import expectations

    entry = get_game("duel")
    goal = decide_goal("duel", TIE_READING, hooks_of(entry))
    result = search("duel", [goal], cpu_seconds=600, nodes=6_000)
    assert not result.missing, "not found within 6,000 nodes"
    shrunk = result.witnesses[0].shrunk
    setup = Setup(entry, hooks_of(entry), None)
    step, alt, default = divergence(setup, goal, shrunk.actions, shrunk.record)
    assert step == len(shrunk.actions) and alt is not None and default is not None
    mine, theirs = alt.steps[step], default.steps[step]
    assert (mine.events, mine.scores, mine.legal) == (theirs.events, theirs.scores, theirs.legal)
    assert expectations(alt, default, step) == {"reason": mine.outcome}
    assert "round-5 starter wins" in mine.outcome and "a draw" in theirs.outcome
    monkeypatch.setattr(search_replay, "outcome_of", lambda game: "")
    assert divergence(setup, goal, shrunk.actions, shrunk.record)[0] is None


def test_the_explorer_needs_the_outcome_to_find_a_reading_that_only_changes_the_winner(
        monkeypatch: pytest.MonkeyPatch) -> None:
    entry = get_game("duel")
    goal = decide_goal("duel", TIE_READING, hooks_of(entry))
    monkeypatch.setattr(engine, "outcome_of", lambda game: "")
    assert search("duel", [goal], cpu_seconds=600, nodes=6_000).missing == [goal]


def test_a_games_own_explorer_answers_its_goal_once_its_game_replays(monkeypatch: pytest.MonkeyPatch) -> None:
    """A goal with an explorer in the game's hooks (`SearchHooks.explorers`) is answered by the game
    it returns, shrunk and written like any found game, its nodes spent from the budget; a game whose
    replay does not meet the goal answers nothing (three nodes of search cannot find it either)."""
    import attrs

    from properties.search import run

    entry = get_game("duel")
    hooks = hooks_of(entry)
    goal = clause_goal(entry, "duel.prep.bag-restock", hooks)
    found = search("duel", [goal], cpu_seconds=600, nodes=20_000).witnesses[0].found
    planted = attrs.evolve(hooks, explorers={goal.key: lambda seed, nodes: ((found.actions, found.record), 2)})
    monkeypatch.setattr(run, "hooks_of", lambda entry: planted)
    result = search("duel", [goal], cpu_seconds=600, nodes=3)
    assert not result.missing and result.witnesses[0].found.nodes == 2
    short = attrs.evolve(hooks, explorers={goal.key: lambda seed, nodes: ((found.actions[:3], found.record), 1)})
    monkeypatch.setattr(run, "hooks_of", lambda entry: short)
    assert search("duel", [goal], cpu_seconds=600, nodes=3).missing == [goal]


def test_a_games_own_explorer_spends_its_own_share_not_its_neighbours(monkeypatch: pytest.MonkeyPatch) -> None:
    """An own explorer that plays every node it is given and finds nothing (as Duel's hoarding explorer
    does on an unlucky seed) explores alone: the other goals asked with it are still searched with
    their own share (before, they shared one exploration and the explorer left them 0 nodes)."""
    import attrs

    from properties.search import run

    entry = get_game("duel")
    hooks = hooks_of(entry)
    greedy = clause_goal(entry, "duel.prep.rare-empty", hooks)
    other = clause_goal(entry, "duel.prep.bag-restock", hooks)
    planted = attrs.evolve(hooks, explorers={greedy.key: lambda seed, nodes: (None, nodes)})
    monkeypatch.setattr(run, "hooks_of", lambda entry: planted)
    result = search("duel", [greedy, other], cpu_seconds=600, nodes=40_000)
    assert [w.goal for w in result.witnesses] == [other], result.missing
    searched = {label.split(" (pass")[0]: e.nodes for label, e in result.explored}
    assert searched["defaults"] > 0 and searched[f"{greedy.key} (its own explorer)"] > 0, searched


def test_ctrl_c_inside_a_games_own_explorer_keeps_what_was_found(monkeypatch: pytest.MonkeyPatch) -> None:
    """Ctrl-C while a game's own explorer runs ends the search as interrupted and keeps the witnesses
    of the explorations before it (one process: they run one after another)."""
    import attrs

    from properties.search import run

    entry = get_game("duel")
    hooks = hooks_of(entry)
    stopped = clause_goal(entry, "duel.prep.rare-empty", hooks)
    other = clause_goal(entry, "duel.prep.bag-restock", hooks)

    def interrupt(seed: int, nodes: int) -> Any:
        raise KeyboardInterrupt

    monkeypatch.setattr(run, "hooks_of", lambda entry: attrs.evolve(hooks, explorers={stopped.key: interrupt}))
    result = search("duel", [other, stopped], cpu_seconds=600, nodes=40_000)
    assert result.interrupted
    assert [w.goal for w in result.witnesses] == [other] and result.missing == [stopped]


def test_a_distance_is_retired_once_every_goal_it_steers_for_is_found() -> None:
    """Two readings steered by one distance (classic's fill-order=round-robin and clause partial-fill,
    both toward a Factory left unfilled): finding one keeps the distance, finding both retires it and
    forgets the per-round closest positions it chose, so later branches go where questions remain."""
    entry = get_game("azul")
    hooks = hooks_of(entry)
    reading = decide_goal("azul", "azul.prep.fill-order=round-robin", hooks)
    clause = clause_goal(entry, "azul.prep.partial-fill", hooks)
    explorer = engine.Explorer(Setup(entry, hooks, 4), [reading, clause], 0, engine.Budget(600, 10), overrides={})
    assert len(explorer.distances) == 1
    explorer.round_best[1] = (3.0, None)                      # type: ignore[assignment]
    explorer._retire(reading)
    assert len(explorer.distances) == 1 and explorer.round_best, "the clause still wants it"
    explorer._retire(clause)
    assert explorer.distances == [] and not explorer.round_best and explorer.retired == {0}


def test_each_round_keeps_its_closest_position_and_branches_start_there(monkeypatch: pytest.MonkeyPatch) -> None:
    """Go-Explore's best per cell: with a goal that has a distance, the explorer keeps per round the
    position closest by it after any step of that round (Explorer.round_best), and branches start
    from those. Look-ahead is off here, so every distance measured is of a position played."""
    monkeypatch.setattr(engine, "AHEAD_SHARE", 0.0)
    hooks = hooks_of(get_game("duel"))
    seen: dict[int, float] = {}
    predicate = hooks.predicates["one-colour-bag"]
    assert predicate.distance is not None
    distance: Callable[[Mapping[str, Any]], float] = predicate.distance

    def measured(v: Mapping[str, Any]) -> float:
        d = distance(v)
        if v["step"] > 0:                  # not a set-up position (never kept as a round's best)
            seen[v["round"]] = min(seen.get(v["round"], d), d)
        return d

    goal = where_goal("one-colour-bag", hooks, get_game("duel").load("new_game")(seed=0))
    # never met, so its distance is never retired and the per-round closest positions stay
    goal = attrs.evolve(goal, predicate=attrs.evolve(predicate, holds=lambda v: False, distance=measured))
    started: list[object] = []
    real = engine.Explorer._branch

    def branch(self: engine.Explorer, entry: Any) -> None:
        started.append(entry)
        real(self, entry)

    monkeypatch.setattr(engine.Explorer, "_branch", branch)
    explorer = engine.Explorer(Setup(get_game("duel"), hooks, None), [goal], 0, engine.Budget(600, 3_000),
                               overrides={})
    explorer.run()
    assert len(seen) > 2 and {r: d for r, (d, _) in explorer.round_best.items()} == seen
    assert all(entry.game.state.round == r for r, (_, entry) in explorer.round_best.items())
    best = {id(entry) for _, entry in explorer.round_best.values()}
    from_best = sum(id(e) in best for e in started)
    assert from_best > len(started) // 5, (from_best, len(started))
