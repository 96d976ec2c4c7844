"""The Hypothesis state machines as HypoFuzz targets (not collected by the test suite: the file name
does not start with test_). Run them with a shared example database, e.g.

    AZUL_HYPOTHESIS_DB=/shared/hypothesis HYPOTHESIS_PROFILE=fuzz hypothesis fuzz -n 2 -- tests/fuzz_targets.py

(docs/scaling.md). Every worker replays what any worker found: the database is a directory."""

from __future__ import annotations

import os

from properties.machine import GameMachine, machine_for
from properties.profiles import load_profile

load_profile()

# The fuzzer traces every line it runs (coverage-guided): one example is many times slower than in
# the test suite, so the machine's per-example clock (20 s) is widened here.
FUZZ_GAME_SECONDS = float(os.environ.get("AZUL_FUZZ_GAME_SECONDS", "600"))


def _fuzzed(machine: type[GameMachine]) -> type[GameMachine]:
    machine.game_seconds = FUZZ_GAME_SECONDS
    return machine


TestDuelMachine = _fuzzed(machine_for({})).TestCase
TestAzulMachine = _fuzzed(machine_for({}, game="azul")).TestCase
