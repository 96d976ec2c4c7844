"""Azul Duel's scenario support as the registry's `scenarios` field: the shared harness
(harness/scenarios/__init__.py, the report, the pytest plugin) reaches Duel's position schema only
through this object."""

from __future__ import annotations

from types import SimpleNamespace

from harness.duel.pictures import PictureError, pictures_page, scenario_pictures
from harness.duel.scenarios.loader import Scenario, load_scenario, with_readings
from harness.duel.scenarios.position import build_game
from harness.duel.scenarios.runner import ScenarioResult, run_scenario

API = SimpleNamespace(
    Scenario=Scenario, ScenarioResult=ScenarioResult, load_scenario=load_scenario, run_scenario=run_scenario,
    with_readings=with_readings, build_game=build_game, scenario_pictures=scenario_pictures,
    pictures_page=pictures_page, PictureError=PictureError,
)
