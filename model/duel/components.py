"""Plates and Bonus chips as fast lookup tables built from spec/'s component data."""

from __future__ import annotations

import attrs

from model.duel.colours import COLOUR_INDEX, SPACE_INDEX, SPECIAL, WILD
from model.errors import RulesetError
from spec import Components


def rotate(spaces: tuple[int, int, int, int], quarter_turns: int) -> tuple[int, int, int, int]:
    """Spaces (top-left, top-right, bottom-left, bottom-right) after clockwise quarter turns."""
    tl, tr, bl, br = spaces
    for _ in range(quarter_turns % 4):
        tl, tr, bl, br = bl, tl, br, tr
    return tl, tr, bl, br


@attrs.frozen
class PlateInfo:
    id: int                                   # 1-based, the order of components.toml
    spaces: tuple[int, int, int, int]         # unrotated
    rotations: tuple[tuple[int, int, int, int], ...]

    @property
    def is_special(self) -> bool:
        return SPECIAL in self.spaces

    @property
    def is_joker(self) -> bool:
        return WILD in self.spaces

    @property
    def label(self) -> str:
        return f"P{self.id:02d}"


@attrs.frozen
class ChipInfo:
    id: int                                   # 1-based
    colours: tuple[int, ...]

    @property
    def label(self) -> str:
        return f"C{self.id:02d}"

    def matches(self, colour: int) -> bool:
        return colour in self.colours


@attrs.frozen
class ComponentTables:
    plates: tuple[PlateInfo, ...]             # index = id - 1
    chips: tuple[ChipInfo, ...]               # index = id - 1
    tablet_pairs: tuple[tuple[str, str], ...]

    def plate(self, plate_id: int) -> PlateInfo:
        return self.plates[plate_id - 1]

    def chip(self, chip_id: int) -> ChipInfo:
        return self.chips[chip_id - 1]


def build_tables(components: Components | None) -> ComponentTables:
    """The lookup tables of the catalogue's component data (`None`: the catalogue names none, which
    a Duel catalogue must)."""
    if components is None:
        raise RulesetError("the Duel catalogue names no component data (catalogue.toml: components = FILE)")
    plates = []
    for n, raw in enumerate(components.plates, 1):
        tl, tr, bl, br = (SPACE_INDEX[s] for s in raw)      # four spaces (spec/'s schema says so)
        spaces = (tl, tr, bl, br)
        plates.append(PlateInfo(n, spaces, tuple(rotate(spaces, q) for q in range(4))))
    chips = tuple(ChipInfo(n, tuple(sorted(COLOUR_INDEX[c] for c in raw)))
                  for n, raw in enumerate(components.chips, 1))
    return ComponentTables(tuple(plates), chips, components.tablet_pairs)
