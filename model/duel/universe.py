"""Every action that could be asked of a state, legal or not: the space against which the legality
predicate and the generator are compared (the python-chess 'generation vs predicate' check)."""

from __future__ import annotations

from itertools import combinations, permutations

from model.duel.actions import Action, Kind, act
from model.duel.engine import Game


def candidate_actions(game: Game) -> list[Action]:
    s = game.state
    out = [act(Kind.TAKE_PLATE, i) for i in range(3)]
    out += [act(Kind.DRAW_PLATE), act(Kind.NO_BONUS), act(Kind.PASS)]
    out += [act(Kind.KEEP_PLATE, p) for p in range(1, 19)] + [act(Kind.RETURN_PLATE, p) for p in range(1, 19)]
    out += [act(Kind.PLACE_PLATE, slot, r) for slot in range(9) for r in range(4)]
    out += [act(Kind.SUN, f, c) for f in range(5) for c in range(5)]
    out += [act(Kind.MOON, c) for c in range(5)] + [act(Kind.CHIP, f) for f in range(1, 5)]
    out += [act(Kind.LINE, line) for line in range(7)]
    out += [act(Kind.LINE, line, x) for line in range(1, 7) for x in range(1, 6)]
    out += [act(Kind.TILE, c) for c in range(6)]
    p = s.pending
    if p is not None and p.kind == "stack":
        out += [act(Kind.STACK, *o) for o in sorted(set(permutations(p.extra)))]
        out += [act(Kind.STACK, *p.extra[:-1])] if len(p.extra) > 1 else []
    if p is not None and p.kind == "bonus":
        chips = s.players[p.player].chips
        out += [act(Kind.BONUS, *combo) for size in range(1, len(chips) + 1)
                for combo in combinations(chips, size)]
    return out
