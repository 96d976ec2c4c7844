"""Hypothesis settings profiles, chosen with HYPOTHESIS_PROFILE (default: ci).

- ci: deterministic (derandomized) and fast: the profile the test suite and CI use.
- dev: more games, random seeds, for local runs.
- deep: long campaigns for a designer's overnight run.
- fuzz: random seeds, for HypoFuzz (`hypothesis fuzz`); with AZUL_HYPOTHESIS_DB every worker shares
  one example database (dev and deep use it too).
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

from properties.example_db import example_database

# Whole games are large examples by nature: the size health checks do not apply.
_COMMON: dict = dict(deadline=None, print_blob=True, suppress_health_check=[
    HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.large_base_example])

settings.register_profile("ci", max_examples=30, stateful_step_count=300, derandomize=True,
                          database=None, **_COMMON)
# AZUL_HYPOTHESIS_DB: the example database every worker shares (properties/example_db.py, docs/scaling.md);
# ci stays derandomized and without one.
_SHARED_DB: dict = {} if (_db := example_database()) is None else {"database": _db}
settings.register_profile("dev", max_examples=60, stateful_step_count=300, **_SHARED_DB, **_COMMON)
settings.register_profile("deep", max_examples=1000, stateful_step_count=400, **_SHARED_DB, **_COMMON)
settings.register_profile("fuzz", max_examples=100, stateful_step_count=300, **_SHARED_DB, **_COMMON)

PROFILE = os.environ.get("HYPOTHESIS_PROFILE", "ci")


def load_profile() -> str:
    settings.load_profile(PROFILE)
    return PROFILE
