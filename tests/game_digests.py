"""Digests of whole games: the same seeds must give the same games, events, verdicts and clause sets
(issue 24: speed work may change how the rules run, never what they do).

For every registered game and player count, a fixed set of seeds is played with each of the game's
policies named below; each game is reduced to one sha256 over its actions, its events, its outcome
and the clause hits it recorded. `tests/game-digests.json` holds the reference; a rule change that
alters play on purpose regenerates it with `python -m tests.game_digests --write` (and says so in
its commit), a speed change never does.
"""

from __future__ import annotations

import hashlib
import json
import random
import sys
from pathlib import Path

from model.clauses import recording
from properties.registry import game_names, get_game

REFERENCE = Path(__file__).with_name("game-digests.json")
SEEDS = range(8)
POLICIES = ("uniform", "greedy")
STEP_LIMIT = 5_000                 # far above any game's step bound; a runaway game stops here


def game_digest(game: str, players: int, policy: str, seed: int) -> str:
    """sha256 of one game played from `seed` with `policy` at `players`."""
    entry = get_game(game)
    choose = entry.load("policies")[policy]
    h = hashlib.sha256()
    with recording() as rec:
        played = entry.load("new_game")(seed=seed, players=players)
        rng = random.Random(seed)
        for _ in range(STEP_LIMIT):
            actions = played.legal_actions()
            if not actions:
                break
            action = choose(played, actions, rng)
            h.update(repr(action).encode())
            for event in played.apply(action):
                h.update(repr(event).encode())
        h.update(repr(played.outcome()).encode())
        h.update(repr(sorted(rec.clauses.items())).encode())
        h.update(repr(sorted(rec.alternatives.items())).encode())
        h.update(repr(sorted(rec.edges.items())).encode())
    return h.hexdigest()


def cases() -> list[tuple[str, int, str]]:
    out = []
    for name in game_names():
        entry = get_game(name)
        players = sorted({entry.players[0], entry.players[-1]})
        policies = [p for p in POLICIES if p in entry.load("policies")]
        out += [(name, n, p) for n in players for p in policies]
    return out


def digests() -> dict[str, list[str]]:
    return {f"{g}/{n}p/{p}": [game_digest(g, n, p, s) for s in SEEDS] for g, n, p in cases()}


def main(argv: list[str]) -> int:
    if argv[1:] == ["--write"]:
        REFERENCE.write_text(json.dumps(digests(), indent=1, sort_keys=True) + "\n")
        print(f"wrote {REFERENCE}")
        return 0
    print("usage: python -m tests.game_digests --write", file=sys.stderr)
    return 2


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
