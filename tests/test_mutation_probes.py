"""Probe tests for tests/test_mutation_selection.py: they run only inside a mutation worker started
by that test (AZUL_MUTATION_PROBES=1), never in an ordinary run of the suite (skipped there, so the
tracking record never selects them for a clause)."""

from __future__ import annotations

import gc
import os
import subprocess
import sys
import time

import pytest

pytestmark = pytest.mark.skipif(os.environ.get("AZUL_MUTATION_PROBES") != "1",
                                reason="runs only inside a mutation worker (tests/test_mutation_selection.py)")


def test_probe_fails() -> None:
    raise AssertionError("a quick test that kills every mutant")


def test_probe_passes() -> None:
    pass


def test_probe_sleeps() -> None:
    time.sleep(60)


def test_probe_runs_under_the_mutation_profile_in_a_prepared_worker(request: pytest.FixtureRequest) -> None:
    from hypothesis import Phase, settings

    from properties.profiles import load_profile

    assert load_profile() == "mutation"            # what the property tests load (tests/test_properties.py)
    # ... while a test's own subprocess still finds its profile (tests/test_watchdog.py starts pytest in one)
    subprocess.run([sys.executable, "-c", "from properties.profiles import load_profile; load_profile()"],
                   check=True, capture_output=True, timeout=120)
    current = settings.default
    assert current.max_examples <= 10, current
    assert Phase.shrink not in current.phases, current
    assert request.config.getoption("assertmode") == "plain"
    assert gc.get_freeze_count() > 0               # the worker froze its heap before forking
