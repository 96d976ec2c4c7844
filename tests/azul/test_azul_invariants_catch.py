"""Every classic invariant clause is shown to fail on a deliberately broken model (issue 12), as
tests/test_invariants_catch.py does for Duel: each case breaks one rule of model/azul with monkeypatch,
plays seeded random games checking every invariant after each action, and expects its invariant among
those reported. These are the tests that guard an invariant clause in mutation analysis
(harness/mutation/analysis.py, CATCH_TESTS): invariants have no model site to plant bugs in.
"""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from model.azul import new_game, offer, tiling
from model.azul.colours import MARKER, ROWS
from model.azul.state import Board
from properties.azul.invariants import INVARIANTS

MAX_ACTIONS = 400          # a classic game takes well under 200 actions; the loop is bounded anyway


def _reported(seeds: range = range(4), players: int = 2) -> set[str]:
    """Every invariant broken at any point of seeded uniform random games."""
    found: set[str] = set()
    for seed in seeds:
        g = new_game(players, seed=seed)
        rng = random.Random(seed)
        for _ in range(MAX_ACTIONS):
            if g.is_over or found:
                break
            actions = g.legal_actions()
            if not actions:
                break
            g.apply(rng.choice(actions))
            found |= {inv.name for inv in INVARIANTS if inv(g)}
        if found:
            break
    return found


def break_conservation(mp: pytest.MonkeyPatch) -> None:      # one taken tile vanishes
    original = offer.place_taken

    def broken(board: Board, colour: int, n: int, dest: int, lid: list[int], rules, split: int = 0) -> None:  # type: ignore[no-untyped-def]
        original(board, colour, n - 1, dest, lid, rules, split)
    mp.setattr(offer, "place_taken", broken)


def break_floor_capacity(mp: pytest.MonkeyPatch) -> None:    # a full floor keeps taking tiles
    def broken(board: Board, colour: int, n: int, lid: list[int]) -> None:
        board.floor.extend([colour] * max(n, 0))
    mp.setattr(offer, "to_floor", broken)
    mp.setattr(tiling, "to_floor", broken)


def break_wall_colours(mp: pytest.MonkeyPatch) -> None:      # tiles go one space right of their printed space
    original = tiling.allowed_columns

    def broken(wall: list[int], row: int, colour: int, gray: bool) -> list[int]:
        return [(c + 1) % ROWS for c in original(wall, row, colour, gray)]
    mp.setattr(tiling, "allowed_columns", broken)


def break_marker(mp: pytest.MonkeyPatch) -> None:            # the marker is laid on the floor but stays in the centre
    def broken(state, rules, who: int, events) -> None:  # type: ignore[no-untyped-def]
        state.boards[who].floor.append(MARKER)
    mp.setattr(offer, "_take_marker", broken)


def break_round_end(mp: pytest.MonkeyPatch) -> None:         # the offer never ends
    def broken(state, events) -> bool:  # type: ignore[no-untyped-def]
        state.to_move = (state.to_move + 1) % state.players
        return False
    mp.setattr(offer, "end_turn", broken)


CASES: dict[str, tuple[str, Callable[[pytest.MonkeyPatch], None]]] = {
    "azul.invariant.tile-conservation": ("tile-conservation", break_conservation),
    "azul.invariant.floor-capacity": ("floor-capacity", break_floor_capacity),
    "azul.invariant.wall-colours": ("wall-colours", break_wall_colours),
    "azul.invariant.marker": ("marker", break_marker),
    "azul.invariant.round-end": ("round-end", break_round_end),
}


def test_every_invariant_clause_has_a_breaking_case() -> None:
    clauses = {c for inv in INVARIANTS for c in inv.clauses if c.startswith("azul.invariant.")}
    assert set(CASES) == clauses


def test_the_unbroken_model_reports_nothing() -> None:
    assert _reported() == set()


@pytest.mark.parametrize("clause", [pytest.param(c, marks=pytest.mark.clause(c)) for c in sorted(CASES)])
def test_invariant_catches_its_broken_rule(clause: str, monkeypatch: pytest.MonkeyPatch) -> None:
    name, breaker = CASES[clause]
    breaker(monkeypatch)
    found = _reported()
    assert name in found, f"breaking the rule for {name} was reported as {found or 'nothing'}"


def test_the_classic_catch_tests_guard_the_invariant_clauses(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """Mutation analysis counts these tests as the guard of the classic invariant clauses, and only a
    passing test of a catch file does: the same declaration elsewhere (a property test) does not."""
    import json
    from pathlib import Path

    from harness.mutation.analysis import verdicts
    from spec.loader import load_catalogue

    here = "tests/azul/test_azul_invariants_catch.py::test_invariant_catches_its_broken_rule"
    tests = {f"{here}[{c}]": {"declared": [c], "fired": {}, "outcome": "passed", "duration": 1.0} for c in CASES}
    tests["tests/azul/test_azul_machine.py::test_x"] = {"declared": sorted(CASES), "fired": {}, "outcome": "passed"}
    tests[f"{here}[azul.invariant.marker]"]["outcome"] = "failed"
    tracking = tmp_path / "tests.json"
    tracking.write_text(json.dumps({"tests": tests}))
    judged = verdicts(Path(__file__).resolve().parents[2], load_catalogue(game="azul"), {}, {}, tracking)
    assert {c: judged[c].status for c in CASES} == {c: "no-sites" if c == "azul.invariant.marker" else "guarded"
                                                    for c in CASES}
    assert judged["azul.invariant.round-end"].tests == (f"{here}[azul.invariant.round-end]",)
