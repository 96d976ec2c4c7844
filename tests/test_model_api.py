"""The model's API contract: generation agrees with legality, illegal actions change nothing,
determinism, serialisation, clause citations, interpretation switches, the phase graph."""

from __future__ import annotations

import ast
import html
import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from model.duel import IMPLEMENTED, IllegalAction, new_game, parse_action
from model.duel.actions import format_action
from model.duel.phases import PhaseError, check_transition, phase_graph
from model.duel.serialize import game_from_data, game_to_data
from model.duel.universe import candidate_actions
from spec import default_catalogue

ROOT = Path(__file__).resolve().parents[1]


def _random_states(seed: int, overrides: dict[str, str] | None = None, limit: int = 400):
    g = new_game(seed=seed, overrides=overrides)
    rng = random.Random(seed)
    for _ in range(limit):
        if g.is_over:
            return
        yield g
        g.apply(rng.choice(g.legal_actions()))


@pytest.mark.clause("duel.acquire.actions")
@pytest.mark.parametrize("seed", range(6))
def test_generation_agrees_with_the_legality_predicate(seed: int) -> None:
    overrides = {"duel.lines.voluntary-break": "any-split"} if seed % 2 else None
    for g in _random_states(seed, overrides):
        legal = g.legal_actions()
        assert legal == sorted(legal) and len(set(legal)) == len(legal)
        by_predicate = {a for a in candidate_actions(g) if g.why_illegal(a) is None}
        assert set(legal) == by_predicate, g.state


@pytest.mark.clause("duel.acquire.moon.top-tile-only")
def test_illegal_action_names_a_clause_and_changes_nothing() -> None:
    for g in _random_states(11, limit=120):
        before = g.state.copy()
        for a in candidate_actions(g):
            problem = g.why_illegal(a)
            if problem is None:
                continue
            with pytest.raises(IllegalAction) as err:
                g.apply(a)
            assert err.value.clause in default_catalogue()
            assert g.state == before


def test_notation_round_trips() -> None:
    for g in _random_states(3, {"duel.lines.voluntary-break": "any-split"}):
        for a in g.legal_actions():
            assert parse_action(format_action(a)) == a


@pytest.mark.parametrize("text, hint", (("take F1 blue", "'sun F colour'"), ("pick 2 red", "'moon colour'"),
                                        ("floor", "Broken tiles space with 'broken'")))
def test_classic_words_are_answered_with_the_duel_notation_not_a_lookalike_verb(text: str, hint: str) -> None:
    """'take' is spelt close to 'stack', which is not what a player coming from classic Azul means."""
    from model.errors import NotationError

    with pytest.raises(NotationError) as err:
        parse_action(text)
    assert hint in str(err.value) and "did you mean" not in str(err.value)


@pytest.mark.parametrize("text, hint", (("moon rde", "did you mean 'red'?"), ("sun L bleu", "did you mean 'blue'?"),
                                        ("mon red", "did you mean 'moon'?"), ("plaet 2", "did you mean 'plate'?"),
                                        ("stack red,blak", "did you mean 'black'?")))
def test_a_misspelt_action_gets_a_did_you_mean(text: str, hint: str) -> None:
    from model.errors import NotationError

    with pytest.raises(NotationError) as err:
        parse_action(text)
    assert hint in str(err.value) and str(err.value).count("\n") == 0


@pytest.mark.clause("duel.round.structure", "duel.end.after-round-5")
@pytest.mark.parametrize("interp", sorted(IMPLEMENTED))
def test_random_play_ends_after_five_rounds_under_every_alternative(interp: str) -> None:
    for alt in IMPLEMENTED[interp]:
        for seed in range(4):
            g = new_game(seed=seed, overrides={interp: alt})
            rng = random.Random(seed)
            rounds_seen = set()
            while not g.is_over:
                actions = g.legal_actions()
                if not actions:
                    assert g.is_stalled and alt == "strict", f"stuck under {interp}={alt}"
                    break
                rounds_seen.add(g.state.round)
                g.apply(rng.choice(actions))
            else:
                assert rounds_seen == {1, 2, 3, 4, 5}
                # Under must-pay a player at 0 points may have to pass with a token unused.
                full = alt != "must-pay"
                assert all((p.plate_count == 9) if full else (p.plate_count <= 9) for p in g.state.players)


def test_serialisation_round_trips_exactly() -> None:
    for n, g in enumerate(_random_states(5)):
        if n % 7:
            continue
        data = json.loads(json.dumps(game_to_data(g)))
        back = game_from_data(data)
        assert back.state == g.state and back.rules == g.rules
        assert json.loads(json.dumps(game_to_data(back))) == data


_GAME_SCRIPT = """
import random, json
from model.duel import new_game
from model.duel.serialize import game_to_data
g = new_game(seed=42)
rng = random.Random(42)
log = []
while not g.is_over:
    a = rng.choice(g.legal_actions())
    log.append(str(a))
    g.apply(a)
print(json.dumps([log, game_to_data(g)], sort_keys=True))
"""


def test_same_seed_same_game_across_processes_and_hash_seeds() -> None:
    outputs = []
    for hashseed in ("1", "2"):
        env = {**os.environ, "PYTHONHASHSEED": hashseed}
        run = subprocess.run([sys.executable, "-c", _GAME_SCRIPT], env=env, cwd=ROOT,
                             capture_output=True, text=True, check=True)
        outputs.append(run.stdout)
    assert outputs[0] == outputs[1] and len(outputs[0]) > 1000


def _cited_ids() -> dict[str, list[str]]:
    """Clause ids cited in model/ (cite("...") calls and Event(..., "clause") strings)."""
    found: dict[str, list[str]] = {}
    for path in sorted((ROOT / "model").glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value.startswith("duel."):
                found.setdefault(node.value, []).append(f"{path.name}:{node.lineno}")
    return found


def test_every_id_cited_in_the_model_exists_in_spec() -> None:
    catalogue = default_catalogue()
    known = set(catalogue.ids) | {i.id for i in catalogue.interpretations}
    unknown = {k: v for k, v in _cited_ids().items() if k not in known}
    assert not unknown, f"model cites ids that spec/ lacks: {unknown}"


def test_model_implements_exactly_the_spec_interpretation_points() -> None:
    catalogue = default_catalogue()
    spec_points = {i.id: set(i.names) for i in catalogue.interpretations}
    assert {k: set(v) for k, v in IMPLEMENTED.items()} == spec_points


def test_engine_refuses_a_phase_change_the_graph_lacks() -> None:
    g = phase_graph()
    assert g.has_edge("acquisition", "dome_tiling")
    with pytest.raises(PhaseError):
        check_transition("acquisition", "preparation")


def test_committed_phase_diagram_is_up_to_date() -> None:
    import re

    from harness.diagram import phase_dot

    def edges(dot: str) -> set[str]:        # compare meaning, not the graphviz package's formatting
        return {" ".join(m.split()) for m in re.findall(r"^\s*(\w+ -> \w+ \[.*\])\s*$", dot, re.M)}
    committed = (ROOT / "docs" / "phases.dot").read_text()
    assert edges(committed) == edges(phase_dot().source) and len(edges(committed)) == len(phase_graph().edges), \
        "docs/phases.dot is stale: run azul-rules graph --format dot && azul-rules graph"
    svg = html.unescape((ROOT / "docs" / "phases.svg").read_text())
    for _source, _target, data in phase_graph().edges(data=True):
        for clause in data["clauses"]:
            assert clause in svg, f"docs/phases.svg lacks {clause}: run azul-rules graph"
