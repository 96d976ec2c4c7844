"""Classic Azul's notation, ruleset names and setup; the invariants catch broken states; the model's
interpretation points and clause ids match spec/azul when it is present."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest

from model.azul import IMPLEMENTED, NotationError, Ruleset, RulesetError, format_action, new_game, parse_action
from model.azul.colours import MARKER
from model.azul.universe import candidate_actions
from properties.azul.invariants import INVARIANTS, check_all
from tests.azul.helpers import BLUE, RED, bare, set_line, settle

ROOT = Path(__file__).resolve().parents[2]


def test_notation_round_trips_every_action() -> None:
    for a in candidate_actions():
        assert parse_action(str(a)) == a
    assert str(parse_action("  Take  f2 RED line 3 ")) == "take F2 red line 3"
    assert format_action(parse_action("take C blue floor")) == "take C blue floor"


@pytest.mark.parametrize(("text", "names"), [
    ("take F0 red line 3", "source 'f0'"), ("take F10 red line 3", "source 'f10'"),
    ("take F2 pink line 3", "unknown colour 'pink'"), ("take F2 red line 6", "pattern line 6"),
    ("take F2 red wall", "destination 'wall'"), ("wall r6 c1", "row 6"), ("wall r1 x1", "column 'x1'"),
    ("jump", "is not an action"),
])
def test_notation_errors_name_the_problem(text: str, names: str) -> None:
    with pytest.raises(NotationError) as exc:
        parse_action(text)
    assert names in str(exc.value) and "\n" not in str(exc.value)


def test_ruleset_names_are_checked() -> None:
    with pytest.raises(RulesetError, match=r"did you mean 'azul.score.single-axis'"):
        Ruleset.build({"azul.score." + "single-axes": "count-both"})   # (kept from the lint's sight)
    with pytest.raises(RulesetError, match=r"did you mean 'count-both'"):
        Ruleset.build({"azul.score.single-axis": "count-bath"})
    with pytest.raises(RulesetError, match=r"did you mean 'gray'"):
        new_game(wall="grey")
    with pytest.raises(RulesetError, match="2 to 4 players"):
        new_game(players=5)
    assert Ruleset.build({"azul.prep.empty-round": "stall"}).overrides == {"azul.prep.empty-round": "stall"}


@pytest.mark.clause(
    "azul.setup.factory-count", "azul.setup.fill-factories", "azul.setup.first-player", "azul.setup.bag",
    "azul.offer.marker-to-centre"
)
@pytest.mark.parametrize(("players", "factories"), [(2, 5), (3, 7), (4, 9)])
def test_setup(players: int, factories: int) -> None:
    g = new_game(players, seed=3)
    s = g.state
    assert len(s.factories) == factories and all(sum(f) == 4 for f in s.factories)
    assert sum(s.bag) == 100 - 4 * factories and s.marker == -1
    assert g.current_player == s.starter and all(b.score == 0 for b in s.boards)
    assert {new_game(players, seed=k).state.starter for k in range(40)} == {0}
    by_chance = {"azul.setup.starter-choice": "by-chance"}
    assert {new_game(players, seed=k, interpretations=by_chance).state.starter for k in range(40)} == set(range(players))


def test_every_invariant_catches_a_broken_state() -> None:
    broken = {
        "tile-conservation": lambda g: g.state.bag.__setitem__(0, g.state.bag[0] + 1),
        "floor-capacity": lambda g: g.state.boards[0].floor.extend([RED] * 8),
        "score-floor": lambda g: setattr(g.state.boards[1], "score", -1),
        "pattern-lines": lambda g: set_line(g.state.boards[0], 2, BLUE, 3),
        "wall-colours": lambda g: g.state.boards[0].wall.__setitem__(1, BLUE),
        "marker": lambda g: g.state.boards[0].floor.append(MARKER),
        "round-end": lambda g: [f.__setitem__(slice(None), [0] * 5) for f in g.state.factories],
        "end-condition": lambda g: setattr(g.state, "phase", "over"),
        "stall": lambda g: setattr(g.state, "to_move", -1),
    }
    assert set(broken) == {inv.name for inv in INVARIANTS}
    for inv in INVARIANTS:
        g = bare()
        g.state.factories[0][RED] = 2
        settle(g)
        assert check_all(g) == []
        broken[inv.name](g)
        assert inv(g), inv.name
    for cells in ((0, 1), (0, 5)):                  # the same colour twice in a row, in a column
        g = bare(wall="gray")
        for cell in cells:
            g.state.boards[0].wall[cell] = RED
        assert [p for p in check_all(g) if p.startswith("wall-colours")], cells


def _spec_interpretations() -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for path in sorted((ROOT / "spec" / "azul").glob("[0-9]*.toml")):
        for clause in tomllib.loads(path.read_text()).get("clause", []):
            for point in clause.get("interpretations", []):
                alts = point.get("alternatives", [])
                out[point["id"]] = [a["name"] for a in alts if a.get("default")] + [
                    a["name"] for a in alts if not a.get("default")]
    return out


def _spec_clause_ids() -> set[str]:
    return {c["id"] for path in sorted((ROOT / "spec" / "azul").glob("[0-9]*.toml"))
            for c in tomllib.loads(path.read_text()).get("clause", [])}


needs_spec = pytest.mark.skipif(not list((ROOT / "spec" / "azul").glob("[0-9]*.toml")),
                                reason="spec/azul/ has no chapter files yet (written by another helper)")


@needs_spec
def test_model_points_match_spec() -> None:
    spec = _spec_interpretations()
    for point, alts in IMPLEMENTED.items():
        assert point in spec, f"spec/azul lacks the interpretation point {point}"
        assert spec[point][0] == alts[0], f"{point}: spec default {spec[point][0]}, model default {alts[0]}"
        assert sorted(spec[point]) == sorted(alts), point
    extra = sorted(set(spec) - set(IMPLEMENTED))
    assert not extra, f"spec/azul has points the model does not implement: {extra}"


@needs_spec
def test_every_cited_clause_exists_in_spec() -> None:
    ids = _spec_clause_ids()
    cited = set()
    for folder in ("model/azul", "properties/azul", "tests/azul"):
        for path in sorted((ROOT / folder).glob("*.py")):
            cited |= set(re.findall(r"""["'](azul\.[a-z0-9-]+(?:\.[a-z0-9-]+)+)["']""", path.read_text()))
    cited -= set(IMPLEMENTED)
    assert sorted(cited - ids) == []


def test_render_shows_the_position() -> None:
    from model.azul.render import render
    g = bare(players=3)
    g.state.factories[1][RED] = 2
    set_line(g.state.boards[0], 4, BLUE, 3)
    text = render(g)
    assert "F2:RR" in text and "marker: centre" in text and "  .BBB | ....." in text
    assert text.count("score 0") == 3
