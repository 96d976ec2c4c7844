"""Hypothesis stateful play under the selected profile (HYPOTHESIS_PROFILE, default ci)."""

from __future__ import annotations

import pytest

from properties.machine import DuelMachine
from properties.profiles import load_profile

load_profile()

TestDuelRandomPlay = DuelMachine.TestCase
TestDuelRandomPlay = pytest.mark.clause(
    "duel.invariant.tile-conservation", "duel.invariant.component-conservation",
    "duel.invariant.dome-consistency", "duel.score.floor", "duel.acquire.chip.limit",
    "duel.acquire.plate.tokens-required", "duel.round.structure",
)(TestDuelRandomPlay)
