"""`azul-rules bench`: repeated measurements, medians with their spread, CPU time, peak memory."""

from __future__ import annotations

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
