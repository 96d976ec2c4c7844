"""Perft-style counts (properties/exhaustive.py), as chess engines pin their move generators: nodes,
distinct positions and paths per depth from three positions per game (Azul Duel; classic Azul at 2
and 4 players), the first depths derived by hand from the position, the rest derived from the model
and pinned. Also: an invariant broken at a planted depth is reported at that depth with a shortest
trace that replays; the chance enumerator yields each distinct outcome; the budgets stop cleanly;
the fast and the naive (deepcopy) search agree; `azul-rules perft` prints the table and verdict."""

from __future__ import annotations

import json
from typing import Any

import pytest

from properties.exhaustive import Checks, ChoiceChance, explore, explore_game
from properties.registry import get_game
from tests.cli_helpers import run_cli

DUEL, AZUL = get_game("duel"), get_game("azul")


def counts(result: Any) -> list[tuple[int, int, int]]:
    return [(level.nodes, level.distinct, level.paths) for level in result.levels]


def fingerprint_only(entry: Any) -> Checks:
    """Perft counts depend on the generator, the rules and the fingerprint, not on the invariants."""
    return Checks(fingerprint=entry.load("fingerprint"))


def scenario_position(path: str) -> Any:
    from harness.scenarios import scenario_api, scenario_game

    api = scenario_api(scenario_game(path), path)
    game, _ = api.build_game(api.load_scenario(path))
    return game


def after_last_actions(players: int, steps: int, seed: int = 5) -> Any:
    """A classic position a few turns in: always the last legal action (a fixed path, no policy)."""
    game = AZUL.load("new_game")(seed=seed, players=players)
    for _ in range(steps):
        game.apply(game.legal_actions()[-1])
    return game


# --- the first depths, by hand -----------------------------------------------------------------------
@pytest.mark.parametrize("players", [2, 4])
def test_classic_first_actions_follow_from_the_factories(players: int) -> None:
    """At set-up every pattern line and wall is empty, so each (Factory, colour it holds) can go to
    any of the 5 lines or the floor: 6 actions per distinct colour per Factory (all-or-floor)."""
    game = AZUL.load("new_game")(seed=0, players=players)
    by_hand = 6 * sum(1 for factory in game.state.factories for n in factory if n)
    result = explore(game, 1, fingerprint_only(AZUL))
    assert result.levels[1].nodes == result.levels[1].distinct == by_hand
    assert by_hand == {2: 96, 4: 168}[players]


def test_duel_opening_follows_from_the_display() -> None:
    """Duel opens with a plate from the display (3), then placing it on the empty Dome: any of the 9
    plate spaces in any of 4 rotations."""
    game = DUEL.load("new_game")(seed=0)
    shown = sum(1 for plate in game.state.display if plate)
    result = explore(game, 2, fingerprint_only(DUEL))
    assert result.levels[1].nodes == shown == 3
    assert result.levels[2].nodes == shown * 9 * 4


def test_classic_chance_outcomes_by_hand() -> None:
    """refill-partial's round 2 (F1 = 3 blue, bag and lid empty), with one yellow and one red moved
    from full-looking pattern lines to the lid (tiles conserved): `take F1 blue line 1` completes
    P1's first wall row (the game ends, nothing is drawn); `take F1 blue floor` puts 3 blue in the
    lid, and the refill draws all 5 lid tiles: 5!/3! = 20 orders, F1 takes four and F2 the fifth,
    so 3 distinct positions (F2 blue, yellow or red): 21 nodes, 4 distinct."""
    game = scenario_position("fixtures/azul/guide/refill-partial.toml")
    s = game.state
    s.boards[2].line_count[4] -= 1            # P3's yellow line 5
    s.boards[3].line_count[4] -= 1            # P4's red line 5
    s.lid[1] += 1
    s.lid[2] += 1
    result = explore(game, 2, checks := Checks(fingerprint=AZUL.load("fingerprint"),
                                               invariants=AZUL.load("invariants")), chance=True)
    assert checks.invariants is not None and result.complete
    assert counts(result)[1] == (21, 4, 21)
    assert counts(result)[2] == (20, 20, 144)   # pinned
    assert result.chance_steps == 1


# --- pinned from the model -------------------------------------------------------------------------------
def test_duel_perft_from_setup() -> None:
    result = explore(DUEL.load("new_game")(seed=0), 3, fingerprint_only(DUEL))
    assert counts(result) == [(1, 1, 1), (3, 3, 3), (108, 108, 108), (324, 324, 324)]


def test_duel_perft_rare_empty_round() -> None:
    game = scenario_position("fixtures/duel/edge-cases/rare-empty-round.toml")
    result = explore(game, 3, fingerprint_only(DUEL))
    assert counts(result) == [(1, 1, 1), (14, 14, 14), (113, 113, 113), (1322, 1321, 1322)]


def test_duel_perft_with_chance_at_a_round_end() -> None:
    """round-ends-after-preparation's last pick with the bag cut to 3 tiles (2 blue, 1 red) and the
    chip supply to 2, so the refill's draws branch a few ways (tiles are not conserved here: only
    the counts are checked)."""
    game = scenario_position("fixtures/duel/edge-cases/round-ends-after-preparation.toml")
    game.state.bag = [2, 0, 1, 0, 0]
    game.state.chip_supply = game.state.chip_supply[:2]
    result = explore(game, 3, fingerprint_only(DUEL), chance=True)
    assert counts(result) == [(1, 1, 1), (1, 1, 1), (37, 13, 37), (108, 100, 300)]
    assert result.chance_steps == 8
    without = explore(game, 3, fingerprint_only(DUEL), chance=False)
    assert [level.nodes for level in without.levels] == [1, 1, 7, without.levels[3].nodes]


def test_classic_two_player_perft() -> None:
    result = explore(AZUL.load("new_game")(seed=0, players=2), 2, fingerprint_only(AZUL))
    assert counts(result) == [(1, 1, 1), (96, 96, 96), (8640, 8136, 8640)]
    assert result.paths_exact
    result = explore(after_last_actions(2, 8), 2, fingerprint_only(AZUL))
    assert counts(result) == [(1, 1, 1), (54, 54, 54), (2340, 2016, 2340)]


def test_classic_four_player_perft() -> None:
    """Set-up (depth 1: test_classic_first_actions_follow_from_the_factories) and refill-partial's
    chance position (test_classic_chance_outcomes_by_hand) are the other two 4-player positions."""
    result = explore(after_last_actions(4, 8), 2, fingerprint_only(AZUL))
    assert counts(result) == [(1, 1, 1), (126, 126, 126), (14652, 12420, 14652)]


def test_invariants_checked_at_every_position() -> None:
    """With the registry's invariants (state and step) the counts are the same and nothing fires."""
    result = explore_game(AZUL, 2, game=after_last_actions(2, 8))
    assert result.complete and counts(result)[2] == (2340, 2016, 2340)
    assert result.verdict() == "holds in all 2,071 positions to depth 2"
    assert explore_game(DUEL, 3).verdict() == "holds in all 436 positions to depth 3"


# --- a planted violation: shortest trace -----------------------------------------------------------------
def _two_floors(game: Any) -> list[tuple[str, str, str]]:
    floors = sum(1 for board in game.state.boards if board.floor)
    return [("planted-two-floors", "azul.floor.capacity", "two players have tiles on their floor")] if floors >= 2 else []


def _both_domes(game: Any) -> list[tuple[str, str, str]]:
    domes = sum(1 for player in game.state.players if any(player.plates))
    return [("planted-both-domes", "duel.acquire.plate.placement", "both players have a plate")] if domes == 2 else []


@pytest.mark.parametrize(("entry", "planted", "depth"), [(AZUL, _two_floors, 2), (DUEL, _both_domes, 4)],
                         ids=["classic-two-floors", "duel-both-domes"])
def test_planted_violation_has_the_shortest_trace(entry: Any, planted: Any, depth: int) -> None:
    game = entry.load("new_game")(seed=0)
    checks = Checks(fingerprint=entry.load("fingerprint"), invariants=planted)
    assert explore(game, depth - 1, checks).complete          # nothing shallower breaks it
    result = explore(game, depth + 2, checks)
    cx = result.counterexample
    assert cx is not None and cx.depth == depth and len(cx.steps) == depth
    assert result.verdict().startswith("VIOLATED planted-")
    replay = game.copy()
    for step in cx.steps:                                     # the trace replays to the violation
        replay.apply(next(a for a in replay.legal_actions() if str(a) == step.action))
    assert planted(replay)


def test_crash_of_the_rules_is_a_counterexample(monkeypatch: pytest.MonkeyPatch) -> None:
    """A rule that raises (planted: the second player's take to the floor line) is reported like a
    broken invariant, at the first depth it can happen, with its trace."""
    from model.azul import game as classic
    from model.azul.actions import FLOOR, Kind

    real = classic._RULES[Kind.TAKE]

    def crashing(game: Any, action: Any, events: list[Any]) -> None:
        if action.args[2] == FLOOR and game.state.to_move == 1:
            raise ValueError("planted crash")
        real(game, action, events)

    monkeypatch.setitem(classic._RULES, Kind.TAKE, crashing)
    result = explore(AZUL.load("new_game")(seed=0), 3, fingerprint_only(AZUL))
    cx = result.counterexample
    assert cx is not None and cx.depth == 2 and cx.violation == ("no-crash", "", "ValueError: planted crash")
    assert cx.steps[-1].action.endswith("floor") and len(cx.steps) == 2


# --- chance ----------------------------------------------------------------------------------------------
def _all_runs(draw: Any) -> list[tuple[Any, ...]]:
    out, script = [], ()
    while script is not None:
        chance = ChoiceChance(script)
        out.append(draw(chance))
        script = chance.next_script()
    return out


def test_choice_chance_yields_each_distinct_outcome() -> None:
    """Two tiles from a bag of 2 blue and 1 yellow: blue-blue, blue-yellow, yellow-blue (never two
    yellows); a first player of 4; every order of 3 plates; a chip of a supply with a repeat."""
    def two_tiles(c: ChoiceChance) -> tuple[int, ...]:
        bag = [2, 1, 0, 0, 0]
        out = []
        for _ in range(2):
            colour = c.draw_tile(bag)
            bag[colour] -= 1
            out.append(colour)
        return tuple(out)

    assert _all_runs(two_tiles) == [(0, 0), (0, 1), (1, 0)]
    assert _all_runs(lambda c: (c.first_player(4),)) == [(0,), (1,), (2,), (3,)]
    assert sorted(_all_runs(lambda c: tuple(c.shuffle_plates([3, 1, 2])))) == \
        [(1, 2, 3), (1, 3, 2), (2, 1, 3), (2, 3, 1), (3, 1, 2), (3, 2, 1)]
    assert _all_runs(lambda c: (c.draw_chip([5, 2, 5]),)) == [(2,), (5,)]


def test_chance_cap_stops_with_a_reason() -> None:
    game = scenario_position("fixtures/azul/guide/refill-partial.toml")
    game.state.lid = [0, 2, 2, 2, 0]                        # 9 tiles to draw: more orders than the cap
    result = explore(game, 1, fingerprint_only(AZUL), chance=True, max_chance_runs=50)
    assert "more than 50 chance outcomes" in result.stopped and not result.complete


# --- budgets, determinism, the naive baseline -------------------------------------------------------------
def test_node_budget_stops_cleanly_and_deterministically() -> None:
    game = AZUL.load("new_game")(seed=0)
    first = explore(game, 3, fingerprint_only(AZUL), max_nodes=1000)
    again = explore(game, 3, fingerprint_only(AZUL), max_nodes=1000)
    assert first.stopped == "1,000 nodes (max_nodes)" and first.nodes == 1001
    assert (first.levels, first.partial) == (again.levels, again.partial)
    assert "incomplete" in first.verdict()


def test_frontier_and_position_caps() -> None:
    game = AZUL.load("new_game")(seed=0)
    assert "max_frontier" in explore(game, 3, fingerprint_only(AZUL), max_frontier=50).stopped
    assert "max_positions" in explore(game, 3, fingerprint_only(AZUL), max_positions=50).stopped


@pytest.mark.parametrize("mode", ["game", "deepcopy"])
def test_naive_search_visits_the_same_positions(mode: str) -> None:
    game = DUEL.load("new_game")(seed=0)
    fast = explore(game, 3, fingerprint_only(DUEL), max_nodes=200)
    slow = explore(game, 3, fingerprint_only(DUEL), copy_mode=mode, max_nodes=200)
    assert fast.partial == slow.partial
    assert fast.levels == slow.levels


# --- the command -----------------------------------------------------------------------------------------
def test_perft_command_table_and_verdict() -> None:
    done = run_cli("perft", "--game", "azul", "--players", "4", "--depth", "1", "--json", "-")
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert [(lv["nodes"], lv["distinct"]) for lv in data["levels"]] == [(1, 1), (168, 168)]
    assert data["verdict"] == "holds in all 169 positions to depth 1"
    assert "holds in all 169 positions to depth 1" in done.stderr


def test_perft_command_naive_comparison() -> None:
    done = run_cli("perft", "--depth", "2", "--naive", "--naive-nodes", "40", "--no-invariants")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "same counts and verdict all three ways: yes" in done.stdout
    assert "copy.deepcopy(game)" in done.stdout


def test_perft_command_from_a_scenario_and_bad_input(tmp_path: Any) -> None:
    done = run_cli("perft", "--from", "fixtures/duel/edge-cases/rare-empty-round.toml", "--depth", "1")
    assert done.returncode == 0 and "holds in all 15 positions to depth 1" in done.stdout
    missing = run_cli("perft", "--from", str(tmp_path / "nope.toml"))
    assert missing.returncode != 0 and "no such scenario file" in missing.stderr
    assert "Traceback" not in missing.stderr
    wrong = run_cli("perft", "--game", "azul", "--from", "fixtures/duel/edge-cases/rare-empty-round.toml")
    assert wrong.returncode != 0 and "not 'azul'" in wrong.stderr


def test_perft_command_prints_the_counterexample(monkeypatch: pytest.MonkeyPatch) -> None:
    import harness.perft_commands as perft

    monkeypatch.setattr(perft, "checks_for", lambda entry, **_: Checks(
        fingerprint=entry.load("fingerprint"), invariants=_two_floors))
    done = run_cli("perft", "--game", "azul", "--depth", "3")
    assert done.returncode == 1
    assert "VIOLATED planted-two-floors [azul.floor.capacity] at depth 2" in done.stdout
    assert "  2. take" in done.stdout and "floor" in done.stdout
