"""Classic checked play with incremental invariants (issue 13): after each step only the places the step
changed are checked (properties.azul.invariants.incremental), the full state invariants every
`full_every` steps and at each phase end. Each planted bug of the classic catch tests must still be
reported at the very step it first shows, as a check of every invariant after every step reports
it, with the full check pushed out of reach mid-round (`full_every` far beyond any game)."""

from __future__ import annotations

import pytest

from model.azul.colours import ROWS
from properties.azul import hooks
from properties.simulate import play_checked
from tests.azul.test_azul_invariants_catch import CASES
from tests.catch_helpers import corrupt_at

NEVER = 10**6          # no step of a game is a multiple: mid-round, only the incremental check runs


@pytest.fixture(autouse=True)
def _state_invariants_only(monkeypatch: pytest.MonkeyPatch) -> None:
    """These tests compare the incremental state check with the full one; the rule step invariants
    (properties/azul/steps.py, run before them) see several planted bugs first and are tested apart
    (tests/azul/test_classic_checks.py), so they are switched off here."""
    monkeypatch.setattr(hooks, "rule_step_problems", lambda *args, **kwargs: [])


def _first_failure(seed: int, full_every: int) -> tuple[str | None, int]:
    report = play_checked(seed, record=False, deep_every=0, policy="uniform", game="azul", players=2,
                          full_every=full_every, max_steps=400)
    return (report.failure[0] if report.failure else None), report.failure_step


@pytest.mark.parametrize("clause", [pytest.param(c, marks=pytest.mark.clause(c)) for c in sorted(CASES)])
def test_the_incremental_check_reports_a_broken_rule_at_its_step(clause: str,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    name, breaker = CASES[clause]
    breaker(monkeypatch)
    every_step = _first_failure(0, 1)
    assert every_step[0] == name, f"the full check every step reported {every_step}"
    assert _first_failure(0, NEVER) == every_step


def test_the_unbroken_model_passes_the_incremental_check() -> None:
    for seed in range(3):
        assert _first_failure(seed, NEVER) == (None, _first_failure(seed, 1)[1])


def test_classic_checked_play_runs_the_incremental_check() -> None:
    from properties.registry import get_game

    assert get_game("azul").load("incremental_invariants") is hooks.incremental_invariants


def _corrupt_at(monkeypatch: pytest.MonkeyPatch, step: int, corrupt) -> None:  # type: ignore[no-untyped-def]
    """A broken classic engine: the `step`-th action played also runs `corrupt` on the state."""
    from model.azul.game import Game

    corrupt_at(monkeypatch, Game, step, corrupt)


def _negative_score(state) -> None:  # type: ignore[no-untyped-def]
    state.boards[state.to_move].score = -3        # a board the step did not touch: only its score changes


def _wrong_wall_colour(state) -> None:  # type: ignore[no-untyped-def]
    """A bag tile laid on P2's wall where the printed colour differs (tile count kept)."""
    from model.azul.colours import EMPTY, printed_colour

    wall = state.boards[1].wall
    cell = next(c for c in range(len(wall)) if wall[c] == EMPTY)
    colour = next(c for c in range(5) if state.bag[c] and c != printed_colour(cell // ROWS, cell % ROWS))
    state.bag[colour] -= 1
    wall[cell] = colour



@pytest.mark.parametrize(("corrupt", "name"), [(_negative_score, "score-floor"),
                                               (_wrong_wall_colour, "wall-colours")])
def test_a_board_part_changed_mid_round_is_checked_at_its_step(corrupt, name: str,  # type: ignore[no-untyped-def]
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    planted = 3                                   # round 1's offer: no phase or round ends here
    _corrupt_at(monkeypatch, planted, corrupt)
    assert _first_failure(0, NEVER) == (name, planted)
