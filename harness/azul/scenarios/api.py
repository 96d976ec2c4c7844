"""Classic Azul's scenario support as the registry's `scenarios` field: the shared harness reaches
the classic position schema only through this object (no board pictures yet)."""

from __future__ import annotations

from types import SimpleNamespace

from harness.azul.scenarios.loader import ReadingError, Scenario, load_scenario, parse_readings, with_readings
from harness.azul.scenarios.position import build_game
from harness.azul.scenarios.runner import ScenarioResult, run_scenario
from harness.azul.scenarios.show import ShowError, show

API = SimpleNamespace(
    Scenario=Scenario, ScenarioResult=ScenarioResult, load_scenario=load_scenario, run_scenario=run_scenario,
    with_readings=with_readings, parse_readings=parse_readings, ReadingError=ReadingError, build_game=build_game,
    show=show, ShowError=ShowError,
)
