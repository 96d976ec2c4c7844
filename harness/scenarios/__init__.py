"""Scenarios: given / when / then files that pin a rule down with a replayable position."""

from harness.scenarios.loader import Scenario, ScenarioError, load_scenario, scenario_files
from harness.scenarios.runner import ScenarioResult, run_scenario

__all__ = ["Scenario", "ScenarioError", "ScenarioResult", "load_scenario", "run_scenario", "scenario_files"]
