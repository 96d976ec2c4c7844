"""Random classic games: generator and predicate agree on every state, the invariants hold after
every step, refused actions leave the state unchanged, and the same seed gives the same game."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from model.azul import IMPLEMENTED, Game, IllegalAction, new_game
from model.azul.universe import candidate_actions
from properties.azul import check_all

ROOT = Path(__file__).resolve().parents[2]
MAX_STEPS = 2000            # random games end long before (about 60-150 actions); a bound, not a rule

# The defaults for every player count and wall; every other alternative of every point (the others
# at their defaults) on both walls, the player count rotating (the full product would be 66 configs).
ALTERNATIVES: list[dict[str, str]] = [{point: alt} for point, alts in IMPLEMENTED.items() for alt in alts[1:]]
CONFIGS = [(players, wall, {}) for players in (2, 3, 4) for wall in ("coloured", "gray")] + [
    (2 + (i + k) % 3, wall, rules) for i, rules in enumerate(ALTERNATIVES) for k, wall in enumerate(("coloured", "gray"))]


def agreement(g: Game, full: bool = True) -> list[str]:
    """Generator vs predicate: over the whole candidate universe (`full`), else only that every
    generated action passes the predicate (the cheap direction)."""
    legal = g.legal_actions()
    problems = []
    if legal != sorted(legal):
        problems.append("legal_actions() is not sorted")
    if not full:
        return problems + [f"generated but refused: {a} ({g.why_illegal(a)})" for a in legal if g.why_illegal(a)]
    by_predicate = [a for a in candidate_actions() if g.why_illegal(a) is None]
    if set(legal) != set(by_predicate):
        problems.append(f"generator only: {sorted(set(legal) - set(by_predicate))}, "
                        f"predicate only: {sorted(set(by_predicate) - set(legal))}")
    return problems


def random_game(players: int, wall: str, rules: dict[str, str], seed: int, *, check: bool = True,
                full: bool = True) -> Game:
    g = new_game(players, seed=seed, wall=wall, interpretations=rules)
    rng = random.Random(seed)
    for _ in range(MAX_STEPS):
        if check:
            problems = agreement(g, full) + check_all(g)
            assert not problems, f"seed {seed}, round {g.state.round}: {problems}"
        if g.is_over or g.is_stalled:
            return g
        legal = g.legal_actions()
        if check:
            allowed = set(legal)
            universe = candidate_actions()
            refused = universe[rng.randrange(len(universe))]
            while refused in allowed:      # most candidates are refused: a few draws at most
                refused = universe[rng.randrange(len(universe))]
            before = g.state.copy()
            with pytest.raises(IllegalAction) as exc:
                g.apply(refused)
            assert g.state == before and exc.value.clause.startswith("azul.")
        g.apply(rng.choice(legal))
    raise AssertionError(f"seed {seed}: no end after {MAX_STEPS} actions")


@pytest.mark.parametrize(("players", "wall", "rules"), CONFIGS,
                         ids=[f"{p}p-{w}-{'+'.join(f'{k}={v}' for k, v in r.items()) or 'defaults'}"
                              for p, w, r in CONFIGS])
def test_random_games_agree_and_keep_invariants(players: int, wall: str, rules: dict[str, str]) -> None:
    for k in range(3):                 # the first game checks the whole universe on every state
        seed = 1000 * players + len(wall) * 37 + len(str(rules)) + 500 * k
        g = random_game(players, wall, rules, seed, full=k == 0)
        assert g.is_over and g.outcome() is not None
        assert len(g.returns()) == players and abs(sum(g.returns())) < 1e-9


def transcript(players: int, wall: str, seed: int) -> list[str]:
    g = new_game(players, seed=seed, wall=wall)
    rng = random.Random(seed)
    out = [repr(g.state.factories)]
    while not g.is_over and len(out) < MAX_STEPS:
        a = rng.choice(g.legal_actions())
        out.append(str(a))
        g.apply(a)
    out.append(repr([b.score for b in g.state.boards]))
    return out


def test_same_seed_same_game() -> None:
    assert transcript(3, "gray", 5) == transcript(3, "gray", 5)
    assert transcript(3, "gray", 5) != transcript(3, "gray", 6)


def test_same_seed_same_game_under_another_hash_seed() -> None:
    code = ("import json, sys; sys.path.insert(0, sys.argv[1]); from tests.azul.test_azul_play import transcript; "
            "print(json.dumps(transcript(4, 'coloured', 11) + transcript(2, 'gray', 12)))")
    hash_seed = "1" if os.environ.get("PYTHONHASHSEED") == "12345" else "12345"
    env = {**os.environ, "PYTHONHASHSEED": hash_seed}
    done = subprocess.run([sys.executable, "-c", code, str(ROOT)], capture_output=True, text=True, env=env,
                          cwd=ROOT, timeout=60, check=True)
    assert json.loads(done.stdout) == transcript(4, "coloured", 11) + transcript(2, "gray", 12)
