"""Dispatch to workers (properties.cluster): the same games and rows on one process, on local
processes and on a Dask cluster (a LocalCluster of worker processes started by the test)."""

from __future__ import annotations

import importlib.util
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from properties.cluster import Outcome, Workers, executor, map_ordered, opened

# dask.distributed is imported by the tests that start a cluster, not at collection (about 1 CPU s
# in every xdist worker that collects this file; issue 13).
pytestmark = [pytest.mark.skipif(importlib.util.find_spec("distributed") is None,
                                 reason="could not import 'distributed'"),
              pytest.mark.process]          # a Dask cluster's processes


# What the mutant test's sandboxes see, on the cluster and locally: the probe tests, and no hot swap
# (the probes never run the mutated module, so importing the whole project up front to hot-swap it
# would only cost each sandbox about 3 CPU s; issue 13).
PROBES = {"AZUL_MUTATION_PROBES": "1", "AZUL_MUTATE_HOTSWAP": "0"}


@pytest.fixture(scope="module")
def scheduler() -> Iterator[str]:
    """The address of a small Dask cluster: 2 worker processes of 1 thread. Its workers see
    PROBES (only the mutant test's sandboxes read them), so the mutant test uses this
    cluster too instead of starting its own (issue 13)."""
    import distributed

    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None, env=dict(PROBES)) as cluster:
        yield cluster.scheduler_address


def _slow_square(n: int) -> int:
    import time

    time.sleep(0.05 * (5 - n))             # later items finish first
    return n * n


@pytest.mark.parametrize("workers", [Workers(1), Workers(2)])
def test_results_come_back_in_the_order_of_the_items(workers: Workers) -> None:
    with executor(workers) as pool:
        outcomes = map_ordered(pool, _slow_square, [1, 2, 3, 4])
    assert [o.result for o in outcomes] == [1, 4, 9, 16]


def test_results_come_back_in_the_order_of_the_items_on_dask(scheduler: str) -> None:
    with executor(Workers(2, scheduler)) as pool:
        outcomes = map_ordered(pool, _slow_square, [1, 2, 3, 4])
    assert [o.result for o in outcomes] == [1, 4, 9, 16]


def test_a_stop_reason_skips_the_items_not_run() -> None:
    outcomes = map_ordered(None, _slow_square, [1, 2, 3], stop=lambda n: "budget" if n > 1 else None)
    assert outcomes == [Outcome(1, 1), Outcome(2, stopped="budget"), Outcome(3, stopped="budget")]


def test_simulate_on_a_dask_cluster_equals_one_process(scheduler: str) -> None:
    from properties.simulate import run_campaign

    serial = run_campaign(6, seed=11, jobs=1)
    farmed = run_campaign(6, seed=11, jobs=Workers(2, scheduler))
    assert [g.seed for g in farmed.games] == list(range(11, 17))
    assert farmed.games == serial.games
    assert farmed.totals("clause_hits") == serial.totals("clause_hits")


def test_matrix_on_a_dask_cluster_equals_one_process(scheduler: str, tmp_path: Path) -> None:
    from properties.matrix import run_matrix

    serial = run_matrix(1, seed=3, jobs=1, out=tmp_path / "a", game="azul")
    farmed = run_matrix(1, seed=3, jobs=Workers(2, scheduler), out=tmp_path / "b", game="azul")
    strip = [(r.label, r.games, sorted(r.broken), r.messages, r.stalled, r.decided, r.scores) for r in serial]
    assert [(r.label, r.games, sorted(r.broken), r.messages, r.stalled, r.decided, r.scores)
            for r in farmed] == strip


def test_an_opened_cluster_is_reached_once_for_several_campaigns(scheduler: str) -> None:
    from properties.simulate import run_campaign

    with opened(Workers(2, scheduler)) as workers:
        first = run_campaign(2, seed=0, jobs=workers)
        client_pool = workers.pool
        second = run_campaign(2, seed=0, jobs=workers)
        assert workers.pool is client_pool
    assert first.games == second.games


def test_simulate_command_takes_a_cluster_address(scheduler: str, tmp_path: Path) -> None:
    """Plumbing only: `--cluster ADDRESS` plays the games a one-process run plays and prints the same
    report. Whether the games pass is the rules' tests' business (a broken rule fails both runs alike,
    so this test never is the one that names it)."""
    from harness.cli import cli

    args = ["simulate", "--games", "3", "--out", str(tmp_path)]      # the same folder: the same paths printed
    farmed = CliRunner().invoke(cli, [*args, "--cluster", scheduler])
    serial = CliRunner().invoke(cli, [*args, "--jobs", "1"])
    assert farmed.exception is None or isinstance(farmed.exception, SystemExit), farmed.output
    assert (farmed.exit_code, farmed.output) == (serial.exit_code, serial.output)
    assert "3 games" in farmed.output and re.search(r"\b\d passed, \d failed", farmed.output), farmed.output


def test_an_unreachable_scheduler_is_one_readable_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A UserError, which the CLI's entry point prints as one line with exit status 2."""
    import properties.cluster
    from harness.cli import cli
    from harness.errors import UserError

    monkeypatch.setattr(properties.cluster, "CONNECT_SECONDS", 0.5)
    run = CliRunner().invoke(cli, ["simulate", "--games", "1", "--cluster", "tcp://127.0.0.1:9",
                                   "--out", str(tmp_path)])
    assert isinstance(run.exception, UserError), run.output
    assert str(run.exception).startswith("--cluster tcp://127.0.0.1:9: cannot reach a Dask scheduler there")
    assert "\n" not in str(run.exception)


def test_differential_on_a_dask_cluster_equals_one_process(scheduler: str) -> None:
    from properties.azul.peer import PEER_MISSING

    if PEER_MISSING:
        pytest.skip(PEER_MISSING)
    from harness.azul.differential import campaign

    serial = campaign(4, 0, (2, 3), workarounds=(), seconds=600)          # raw: the peer's bugs are findings
    farmed = campaign(4, 0, (2, 3), workarounds=(), seconds=600, jobs=Workers(2, scheduler))
    assert farmed.games == serial.games == 4 and not farmed.timed_out
    assert farmed.results == serial.results
    assert any(r.finding for r in farmed.results)


@pytest.mark.timeout(900)          # two private copies of the project, each warming a fork server
def test_mutants_on_a_dask_cluster_get_the_verdicts_of_one_process(monkeypatch: pytest.MonkeyPatch, scheduler: str,
                                                                   untracked_duel_plans: dict) -> None:
    """Two probe 'mutants' (a test that fails: killed; one that passes: survived) run in each Dask
    worker's private copy of the project, with the verdicts of a local run on two private copies,
    in the order of the work."""
    from harness.mutation.runner import run_all
    from harness.mutation.selection import Stage

    for name, value in PROBES.items():                      # the local run's (the cluster's workers have them)
        monkeypatch.setenv(name, value)
    root = Path(__file__).resolve().parents[1]
    mutant = untracked_duel_plans["duel.score.horizontal"].mutants[0]
    probes = "tests/test_mutation_probes.py::"
    work = [(mutant, (Stage((probes + "test_probe_fails",), 60.0),), 60.0),
            (mutant, (Stage((probes + "test_probe_passes",), 60.0),), 60.0)]
    local = run_all(root, work, 2, lambda _r: None)           # the local pool's parallel path: two copies
    seen: list[str] = []
    farmed = run_all(root, work, Workers(2, scheduler), lambda r: seen.append(r.status))
    assert [(r.status, r.killer) for r in farmed if r] == [(r.status, r.killer) for r in local if r] \
        == [("killed", probes + "test_probe_fails"), ("survived", None)]
    assert seen == ["killed", "survived"]
