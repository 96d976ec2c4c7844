"""What checked play (properties.simulate.play_checked) costs beyond the games themselves (issue 13):
it loads no library it does not use while a game is played and checked, for either game."""

from __future__ import annotations

import subprocess
import sys

import pytest

# Libraries checked play has no use for: networkx draws and analyses the phase graph (the step
# invariants read the frozen edge set; the flow check's reachability is a plain walk, its exact
# maximum-flow test runs only when the quick tests fail), Hypothesis draws the machine's examples.
NOT_IN_CHECKED_PLAY = ("networkx", "hypothesis")


@pytest.mark.parametrize(("game", "players", "policy"), [("duel", 2, "greedy"), ("duel", 2, "uniform"),
                                                          ("azul", 4, "uniform")])
def test_a_checked_game_loads_no_graph_or_testing_library(game: str, players: int, policy: str) -> None:
    probe = ("import sys\n"
             "from properties.simulate import play_checked\n"
             f"r = play_checked(3, game={game!r}, players={players}, policy={policy!r}, deep_every=5, full_every=1)\n"
             "assert r.failure is None, r.failure\n"
             f"print(' '.join(m for m in {NOT_IN_CHECKED_PLAY!r} if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=300, check=True)
    assert out.stdout.split() == [], f"checked play of {game} loaded {out.stdout.split()}"
