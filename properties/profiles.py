"""Hypothesis settings profiles, chosen with HYPOTHESIS_PROFILE (default: ci).

- ci: deterministic (derandomized) and fast: the profile the test suite and CI use.
- dev: more games, random seeds, for local runs.
- deep: long campaigns for a designer's overnight run.
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

# Whole games are large examples by nature: the size health checks do not apply.
_COMMON: dict = dict(deadline=None, print_blob=True, suppress_health_check=[
    HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.large_base_example])

settings.register_profile("ci", max_examples=30, stateful_step_count=300, derandomize=True,
                          database=None, **_COMMON)
settings.register_profile("dev", max_examples=60, stateful_step_count=300, **_COMMON)
settings.register_profile("deep", max_examples=1000, stateful_step_count=400, **_COMMON)

PROFILE = os.environ.get("HYPOTHESIS_PROFILE", "ci")


def load_profile() -> str:
    settings.load_profile(PROFILE)
    return PROFILE
