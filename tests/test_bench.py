"""`azul-rules bench`: repeated measurements, medians with their spread, CPU time, peak memory."""

from __future__ import annotations

from collections import Counter

import pytest
from click.testing import CliRunner

import harness.bench as bench
from harness.bench import BenchResult, Repeated


def test_medians_and_spread_of_repeated_runs() -> None:
    r = Repeated((BenchResult(10, 100, 2.0, 1.0), BenchResult(10, 100, 1.0, 0.5), BenchResult(10, 100, 4.0, 3.0)))
    assert r.seconds == 2.0 and r.cpu_seconds == 1.0 and r.games_per_s == 5.0
    assert r.spread("seconds") == (1.0, 4.0)
    assert r.spread("cpu_seconds") == (0.5, 3.0)


def test_off_and_on_are_taken_in_turn_repeat_times(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[bool] = []

    def fake(games: int, seed: int = 0, record: bool = False, game: str = "duel",
             players: int | None = None) -> BenchResult:
        calls.append(record)
        return BenchResult(games, 1, 1.0, 1.0)

    monkeypatch.setattr(bench, "run", fake)
    off, on = bench.interleaved(2, repeat=3)
    assert calls == [False, True] * 3
    assert len(off.runs) == len(on.runs) == 3


def test_a_run_measures_cpu_time_too() -> None:
    result = bench.run(1, seed=0)
    assert result.actions > 0 and 0 < result.cpu_seconds
    assert bench.peak_rss_mib() > 1


@pytest.mark.parametrize("game", ["duel", "azul"])
def test_bench_command_prints_medians_spread_cpu_and_peak_memory(game: str) -> None:
    from harness.cli import cli

    run = CliRunner().invoke(cli, ["bench", "--game", game, "--games", "1", "--repeat", "2"])
    assert run.exit_code == 0, run.output
    assert "2 run(s) each" in run.output
    assert "CPU s median" in run.output and "(min-max)" in run.output
    assert "recording cost (median on / median off):" in run.output
    assert "peak RSS of this process:" in run.output


def test_bench_refuses_zero_repeats() -> None:
    from harness.cli import cli

    run = CliRunner().invoke(cli, ["bench", "--games", "1", "--repeat", "0"])
    assert run.exit_code == 2 and "--repeat" in run.output


def test_the_loop_floor_has_the_measured_games_shape() -> None:
    measured = Repeated((BenchResult(10, 2330, 1.0, 1.0, offers=13980),))
    floor = bench.floor_of(measured, repeat=2)
    assert len(floor.runs) == 2
    for run in floor.runs:
        assert run.games == 10 and run.actions == 10 * 233 and run.offers == 10 * 233 * 6


def test_the_null_game_takes_only_what_it_just_offered() -> None:
    game = bench.NullGame(length=2, branching=3)
    stranger = object()
    offered = game.legal_actions()
    with pytest.raises(ValueError):
        game.apply(stranger)
    with pytest.raises(ValueError):               # the offer is spent by any apply, as in GameBase
        game.apply(offered[0])
    game.apply(game.legal_actions()[1])
    game.apply(game.legal_actions()[2])
    assert game.is_over


@pytest.mark.parametrize("game", ["duel", "azul"])
def test_a_run_counts_the_legal_actions_offered(game: str) -> None:
    import random

    from properties.registry import get_game

    played = get_game(game).load("new_game")(seed=4, players=None)
    rng, offered = random.Random(4), 0
    while not played.is_over:
        actions = played.legal_actions()
        offered += len(actions)
        played.apply(rng.choice(actions))
    result = bench.run(1, seed=4, game=game)
    assert result.offers == offered > result.actions > 0


def test_bench_command_prints_the_loop_floor_and_the_rules_share() -> None:
    from harness.cli import cli

    run = CliRunner().invoke(cli, ["bench", "--games", "2", "--repeat", "1"])
    assert run.exit_code == 0, run.output
    assert "loop floor" in run.output
    share = run.output.split("the rules take ")[1].split("%")[0]
    assert 0 < int(share) < 100


def test_recording_on_counts_the_clauses_and_off_counts_none(monkeypatch: pytest.MonkeyPatch) -> None:
    from model.clauses import RECORDER

    monkeypatch.setattr(RECORDER, "enabled", False)     # the test plugin records every test's clauses
    monkeypatch.setattr(RECORDER, "clauses", Counter())
    bench.run(1, seed=0, record=False)
    assert not RECORDER.clauses
    bench.run(1, seed=0, record=True)
    assert sum(RECORDER.clauses.values()) > 100


@pytest.mark.parametrize("game,policies", [("duel", ("uniform", "greedy")), ("azul", ("uniform",))])
def test_bench_reports_checked_play_per_policy(game: str, policies: tuple[str, ...]) -> None:
    """The figure designers feel (issue 24): checked play, uniform and the game's default policy."""
    from harness.cli import cli

    run = CliRunner().invoke(cli, ["bench", "--game", game, "--games", "1", "--repeat", "1"])
    assert run.exit_code == 0, run.output
    said = [line for line in run.output.splitlines() if line.startswith("checked play, ")]
    assert [line.split()[2] for line in said] == list(policies), run.output
    assert all("ms CPU per game" in line for line in said)
    none = CliRunner().invoke(cli, ["bench", "--game", game, "--games", "1", "--repeat", "1", "--checked-games", "0"])
    assert none.exit_code == 0 and "checked play" not in none.output and "checked," not in none.output


def test_a_checked_bench_run_refuses_a_failing_game(monkeypatch: pytest.MonkeyPatch) -> None:
    """A benched game that breaks an invariant is not a speed figure: the run says which seed failed."""
    import properties.simulate as simulate

    real = simulate.play_checked

    def failing(seed: int, *args: object, **kwargs: object) -> object:
        report = real(seed, *args, **kwargs)  # type: ignore[arg-type]
        report.failure = ("planted", "a planted failure")
        return report

    monkeypatch.setattr(simulate, "play_checked", failing)
    with pytest.raises(RuntimeError, match="seed 3: checked play failed: planted"):
        bench.checked_run(1, seed=3)
