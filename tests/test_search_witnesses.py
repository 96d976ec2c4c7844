"""The committed search witnesses (fixtures/<game>/witnesses/): every `--decide` witness holds under
the reading it states and fails when its expectations are checked under the other alternative, so
each one really shows the alternative changing what happens. (The scenario runner's own tests run
every witness file as it is, with everything else under fixtures/.)"""

from __future__ import annotations

from pathlib import Path

import pytest

from harness.scenarios import load_scenario, run_scenario, scenario_api, scenario_game
from properties.search.run import interpretations

ROOT = Path(__file__).resolve().parents[1]
DECIDE = sorted(ROOT.glob("fixtures/*/witnesses/decide-*.toml"))


def _sides(scenario: object, game: str) -> list[tuple[str, dict[str, str], object]]:
    """(label, the reading its expectations are for, the scenario checked under that reading only)."""
    own = dict(scenario.interpretations)       # type: ignore[attr-defined]
    out = [("file", own, scenario)]
    for reading in getattr(scenario, "readings", ()):
        out.append((f"readings {reading.interpretations}", {**own, **reading.interpretations},
                    scenario.under(reading)))  # type: ignore[attr-defined]
    return out


def _other(game: str, point: str, alternative: str, sibling: dict[str, str] | None) -> str:
    default, _ = interpretations(game)[point]
    if alternative != default:
        return default
    assert sibling is not None, "a default side needs the file stating the alternative"
    return sibling[point]


def test_there_are_decide_witnesses() -> None:
    assert DECIDE, "no fixtures/*/witnesses/decide-*.toml: run `azul-rules search --all`"


@pytest.mark.parametrize("path", DECIDE, ids=lambda p: f"{p.parent.parent.name}/{p.name}")
def test_decide_witness_fails_under_the_other_alternative(path: Path) -> None:
    scenario = load_scenario(path)
    game = scenario_game(path)
    api = scenario_api(game)
    points = interpretations(game)
    sibling = None
    if path.name.endswith(".default.toml"):
        sibling = dict(load_scenario(path.with_name(path.name.replace(".default.toml", ".toml"))).interpretations)
    # the point the file answers is in its name (decide-ID-ALT[-Np]); a context the reading needs
    # (another point's alternative, e.g. a marker cost) is stated beside it and stays
    point = next(p for p in sorted(points, key=len, reverse=True) if path.name.startswith(f"decide-{p}-"))
    for label, reading, side in _sides(scenario, game):
        alternative = reading[point]
        assert run_scenario(side).passed, f"{path.name} {label}: does not hold under {point}={alternative}"
        flipped = api.with_readings(side, {point: _other(game, point, alternative, sibling or dict(scenario.interpretations))})
        result = run_scenario(flipped)
        assert not result.passed, (f"{path.name} {label}: its expectations under {point}={alternative} also hold "
                                   f"under the other alternative, so it shows nothing")
