"""The same seeds give the same games (issue 24): actions, events, outcome and clause sets of 8 seeds
per game, player count and policy against tests/game-digests.json (see tests/game_digests.py)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.game_digests import REFERENCE, SEEDS, cases, game_digest

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize("game,players,policy", cases(), ids=lambda v: str(v))
def test_same_seeds_give_the_same_games(game: str, players: int, policy: str) -> None:
    reference = json.loads(REFERENCE.read_text())[f"{game}/{players}p/{policy}"]
    moved = [s for s in SEEDS if game_digest(game, players, policy, s) != reference[s]]
    assert not moved, (f"{game} at {players} players, {policy} policy: seeds {moved} now play a different game "
                       "(actions, events, outcome or clauses fired). A speed change must not do that; a rule "
                       "change that does it on purpose regenerates the reference: python -m tests.game_digests --write")


def test_digests_do_not_depend_on_the_hash_seed() -> None:
    """Two interpreters with different PYTHONHASHSEED agree on a game's digest."""
    code = "from tests.game_digests import game_digest as d; print(d('duel', 2, 'uniform', 3), d('azul', 4, 'uniform', 3))"
    outs = {subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True,
                           env={"PYTHONHASHSEED": h, "PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT)}).stdout
            for h in ("0", "12345")}
    assert len(outs) == 1


def test_a_planted_rule_change_moves_a_digest(monkeypatch: pytest.MonkeyPatch) -> None:
    """The digest sees play: the Starting player tile costing 3 instead of 2 changes some game."""
    import model.duel.tiling as tiling

    reference = json.loads(REFERENCE.read_text())["duel/2p/uniform"]
    lose = tiling.lose

    def planted(g, pl, loss, who, events, clause, why):  # type: ignore[no-untyped-def]
        lose(g, pl, loss + (clause == "duel.score.start-player-tile"), who, events, clause, why)

    monkeypatch.setattr(tiling, "lose", planted)
    moved = [s for s in SEEDS if game_digest("duel", 2, "uniform", s) != reference[s]]
    assert moved, "a costlier Starting player tile moved no digest: the digest does not see scoring"
