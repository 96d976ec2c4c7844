"""A canonical fingerprint of an Azul Duel position: compact bytes of everything that decides the
game's future, and nothing of how the objects came about.

Included: the round, phase, whose turn it is and the round's starter, the pending decision (kind,
player, data, extra), the Dome-tiling cursor and the opening picks; the bag and the Tower by colour;
the large Factory (sun and moon spaces, the Starting player tile) and each small Factory (sun tiles,
the moon stack bottom to top, the chip under it and whether it is revealed); the display, the plate
pile in order (it decides every blind draw), the face-down chip supply as a set, the Special tiles
left; per player the score, pattern lines, Broken stack (in order), Dome spaces and tiles, plates
and rotations, chips face up (a set) and used, chips and tokens used this round, passed, and the
Starting player tile; and a digest of the readings in force (interpretation choices and tablets).

Canonical: unordered collections (the chip supply, a player's face-up and used chips) are sorted;
everything ordered in the rules (stacks, the pile, the Broken spaces) keeps its order. Symmetries
are NOT folded: the four small Factories are not sorted, because actions name a Factory by its
number, so a trace found in a folded search would not replay as written, and two Factories swapping
contents is rare in play (the saving would be small). Two states are the same position exactly when
their fingerprints are equal (tests/test_fingerprint.py compares fingerprint equality with state
equality over explored positions).

Deterministic: plain bytes (array of signed bytes, scores as 16-bit), never Python's salted
`hash()`; a value out of range raises rather than colliding.
"""

from __future__ import annotations

import hashlib
from array import array
from typing import Any

from model.duel.state import GameState

_TEXT: dict[str, bytes] = {}
_RULES: dict[int, tuple[Any, bytes]] = {}


def _text(word: str) -> list[int]:
    """A phase or decision name as length-prefixed bytes (a stable encoding, cached)."""
    b = _TEXT.get(word)
    if b is None:
        b = _TEXT[word] = bytes([len(word)]) + word.encode("utf-8")
    return list(b)


def readings_digest(rules: Any) -> bytes:
    """Eight bytes naming the readings in force (choices and tablets), computed once per ruleset."""
    held = _RULES.get(id(rules))
    if held is None or held[0] is not rules:
        text = repr((sorted(rules.choices.items()), tuple(getattr(rules, "tablets", ()))))
        held = _RULES[id(rules)] = (rules, hashlib.blake2b(text.encode("utf-8"), digest_size=8).digest())
    return held[1]


def state_fingerprint(s: GameState) -> bytes:
    """The position's bytes, without the readings (see `fingerprint`)."""
    p = s.pending
    ints: list[int] = [s.round, s.to_move, s.starter, s.opening_picks, s.special_supply, *s.tiling,
                       *_text(s.phase)]
    if p is None:
        ints.append(0)
    else:
        ints += [1, p.player, *_text(p.kind), len(p.data), *p.data, len(p.extra), *p.extra]
    ints += s.bag
    ints += s.tower
    lg = s.large
    ints += lg.sun
    ints += lg.moon
    ints.append(lg.start_tile)
    for f in s.small:
        ints += f.sun
        ints.append(len(f.moon))
        ints += f.moon
        ints += (f.chip, f.chip_revealed)
    ints += s.display
    ints.append(len(s.pile))
    ints += s.pile
    supply = sorted(s.chip_supply)
    ints.append(len(supply))
    ints += supply
    scores = []
    for pl in s.players:
        scores.append(pl.score)
        ints += pl.line_colour
        ints += pl.line_count
        ints.append(len(pl.broken))
        ints += pl.broken
        ints += pl.dome_space
        ints += pl.dome_tile
        ints += pl.plates
        ints += pl.rotations
        chips, used = sorted(pl.chips), sorted(pl.used_chips)
        ints.append(len(chips))
        ints += chips
        ints.append(len(used))
        ints += used
        ints += (pl.chips_this_round, pl.tokens_used, pl.passed, pl.start_tile)
    return array("b", ints).tobytes() + array("h", scores).tobytes()


def fingerprint(game: Any) -> bytes:
    """The registry's `fingerprint(game)`: the readings' digest and the position's bytes."""
    return readings_digest(game.rules) + state_fingerprint(game.state)
