"""A canonical fingerprint of a classic Azul position: compact bytes of everything that decides the
game's future, and nothing of how the objects came about.

Included: the phase, round, whose turn it is, the round's starter, the open gray-wall choice, where
the starting player marker is, the bag, the box lid and the centre by colour, each Factory by
colour, and per board the score, pattern lines (colour and count), the wall and the floor line in
order (the marker's place on it matters to a full floor, azul.offer.marker-on-full-floor); and a
digest of the readings in force (the wall side and the interpretation choices).

Canonical: the game keeps tiles as counts per colour, so a Factory, the bag or the centre is the
same whatever order its tiles arrived in. Symmetries are NOT folded: the Factories are
interchangeable in the rules, but actions name a Factory by its number, so a trace found in a search
that sorted them would not replay as written; the saving (positions that differ only by which
Factory holds what) is also where perft counts are most useful to keep exact. Two states are the
same position exactly when their fingerprints are equal (tests/test_fingerprint.py).

Deterministic: plain bytes (array of signed bytes, scores as 16-bit), never Python's salted
`hash()`; a value out of range raises rather than colliding.
"""

from __future__ import annotations

import hashlib
from array import array
from typing import Any

from model.azul.state import OFFER, OVER, TILING, AzulState

_PHASES: dict[str, int] = {OFFER: 0, TILING: 1, OVER: 2}
_RULES: dict[int, tuple[Any, bytes]] = {}


def readings_digest(rules: Any) -> bytes:
    """Eight bytes naming the readings in force (wall side and choices), computed once per ruleset."""
    held = _RULES.get(id(rules))
    if held is None or held[0] is not rules:
        text = repr((rules.wall, sorted(rules.choices.items())))
        held = _RULES[id(rules)] = (rules, hashlib.blake2b(text.encode("utf-8"), digest_size=8).digest())
    return held[1]


def state_fingerprint(s: AzulState) -> bytes:
    """The position's bytes, without the readings (see `fingerprint`)."""
    ints: list[int] = [_PHASES[s.phase], s.round, s.to_move, s.starter, *s.tiling, s.marker,
                       len(s.boards), len(s.factories)]
    ints += s.bag
    ints += s.lid
    ints += s.centre
    for f in s.factories:
        ints += f
    scores = []
    for b in s.boards:
        scores.append(b.score)
        ints += b.line_colour
        ints += b.line_count
        ints += b.wall
        ints.append(len(b.floor))
        ints += b.floor
    return array("b", ints).tobytes() + array("h", scores).tobytes()


def fingerprint(game: Any) -> bytes:
    """The registry's `fingerprint(game)`: the readings' digest and the position's bytes."""
    return readings_digest(game.rules) + state_fingerprint(game.state)
