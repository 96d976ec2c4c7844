"""The classic Azul ruleset: the wall side and one alternative for every interpretation point.

`Ruleset.build({"azul.score.single-axis": "count-both"}, wall="gray")`. Names are checked: an unknown
point, alternative or wall side is a RulesetError saying what was meant. The default is the first
alternative listed (the contract's default; tests check spec/azul agrees when it is present).
"""

from __future__ import annotations

import functools
from collections.abc import Mapping

import attrs

from model.errors import RulesetError
from spec.suggest import did_you_mean

# Every interpretation point the model branches on: its alternatives, the default first.
IMPLEMENTED: dict[str, tuple[str, ...]] = {
    "azul.score.single-axis": ("skip-single", "count-both"),
    "azul.offer.marker-on-full-floor": ("marker-off-floor", "displace-to-lid", "beside-floor-one-point"),
    "azul.offer.marker-floor-order": ("marker-first", "tiles-first"),
    "azul.offer.marker-untaken": ("same-starter", "next-clockwise"),
    "azul.prep.empty-round": ("end-game", "stall"),
    "azul.gray.unplaceable-line": ("allowed", "refused"),
    "azul.end.final-floor": ("scored", "skipped"),
    "azul.floor.marker-cost": ("space-value", "one-point", "one-point-at-pick"),
    "azul.lines.full-line-choice": ("refused", "allowed"),
    "azul.lines.voluntary-split": ("all-or-floor", "voluntary-split"),
    "azul.setup.starter-choice": ("first-seat", "by-chance"),
    "azul.end.dead-game": ("end-game", "stall"),
    "azul.lines.floor-choice": ("free-choice", "only-if-no-line"),
    "azul.end.bonus-order": ("floor-then-bonuses", "bonuses-then-floor"),
    "azul.prep.fill-order": ("display-by-display", "round-robin"),
}
DEFAULTS: dict[str, str] = {k: v[0] for k, v in IMPLEMENTED.items()}
WALL_SIDES: tuple[str, ...] = ("coloured", "gray")


@attrs.frozen
class Ruleset:
    choices: Mapping[str, str]
    wall: str = "coloured"
    # Precomputed switches, read on the hot path.
    gray: bool = attrs.field(init=False, eq=False, repr=False)
    count_both: bool = attrs.field(init=False, eq=False, repr=False)
    displace_to_lid: bool = attrs.field(init=False, eq=False, repr=False)
    tiles_first: bool = attrs.field(init=False, eq=False, repr=False)
    next_clockwise: bool = attrs.field(init=False, eq=False, repr=False)
    stall_on_empty: bool = attrs.field(init=False, eq=False, repr=False)
    refuse_unplaceable: bool = attrs.field(init=False, eq=False, repr=False)
    skip_final_floor: bool = attrs.field(init=False, eq=False, repr=False)
    marker_cost: str = attrs.field(init=False, eq=False, repr=False)
    full_line_allowed: bool = attrs.field(init=False, eq=False, repr=False)
    voluntary_split: bool = attrs.field(init=False, eq=False, repr=False)
    starter_by_chance: bool = attrs.field(init=False, eq=False, repr=False)
    stall_on_dead: bool = attrs.field(init=False, eq=False, repr=False)
    marker_beside_floor: bool = attrs.field(init=False, eq=False, repr=False)
    floor_only_if_no_line: bool = attrs.field(init=False, eq=False, repr=False)
    bonuses_first: bool = attrs.field(init=False, eq=False, repr=False)
    round_robin_fill: bool = attrs.field(init=False, eq=False, repr=False)

    def __attrs_post_init__(self) -> None:
        c = self.choices
        set_ = object.__setattr__
        set_(self, "gray", self.wall == "gray")
        set_(self, "count_both", c["azul.score.single-axis"] == "count-both")
        set_(self, "displace_to_lid", c["azul.offer.marker-on-full-floor"] == "displace-to-lid")
        set_(self, "tiles_first", c["azul.offer.marker-floor-order"] == "tiles-first")
        set_(self, "next_clockwise", c["azul.offer.marker-untaken"] == "next-clockwise")
        set_(self, "stall_on_empty", c["azul.prep.empty-round"] == "stall")
        set_(self, "refuse_unplaceable", c["azul.gray.unplaceable-line"] == "refused")
        set_(self, "skip_final_floor", c["azul.end.final-floor"] == "skipped")
        set_(self, "marker_cost", c["azul.floor.marker-cost"])
        set_(self, "full_line_allowed", c["azul.lines.full-line-choice"] == "allowed")
        set_(self, "voluntary_split", c["azul.lines.voluntary-split"] == "voluntary-split")
        set_(self, "starter_by_chance", c["azul.setup.starter-choice"] == "by-chance")
        set_(self, "stall_on_dead", c["azul.end.dead-game"] == "stall")
        set_(self, "marker_beside_floor", c["azul.offer.marker-on-full-floor"] == "beside-floor-one-point")
        set_(self, "floor_only_if_no_line", c["azul.lines.floor-choice"] == "only-if-no-line")
        set_(self, "bonuses_first", c["azul.end.bonus-order"] == "bonuses-then-floor")
        set_(self, "round_robin_fill", c["azul.prep.fill-order"] == "round-robin")

    def choice(self, interp_id: str) -> str:
        return self.choices[interp_id]

    @property
    def overrides(self) -> dict[str, str]:
        """The choices that differ from the defaults."""
        return {k: v for k, v in sorted(self.choices.items()) if DEFAULTS[k] != v}

    @classmethod
    def build(cls, overrides: Mapping[str, str] | None = None, *, wall: str = "coloured") -> Ruleset:
        return _cached_build(tuple(sorted((overrides or {}).items())), wall)


def validate(overrides: Mapping[str, str], wall: str) -> dict[str, str]:
    """The full choice table for these overrides; RulesetError on an unknown name."""
    if wall not in WALL_SIDES:
        raise RulesetError(f"unknown wall side {wall!r}{did_you_mean(wall, WALL_SIDES)} "
                           f"(sides: {', '.join(WALL_SIDES)}) [azul.setup.wall-side]")
    choices = dict(DEFAULTS)
    for interp_id, alt in sorted(overrides.items()):
        if interp_id not in IMPLEMENTED:
            raise RulesetError(f"unknown interpretation point {interp_id!r}{did_you_mean(interp_id, IMPLEMENTED)} "
                               f"(known: {', '.join(sorted(IMPLEMENTED))})")
        names = IMPLEMENTED[interp_id]
        if alt not in names:
            raise RulesetError(f"{interp_id} has no alternative {alt!r}{did_you_mean(alt, names)} "
                               f"(alternatives: {', '.join(names)})")
        choices[interp_id] = alt
    return choices


@functools.lru_cache(maxsize=128)
def _cached_build(overrides: tuple[tuple[str, str], ...], wall: str) -> Ruleset:
    return Ruleset(choices=validate(dict(overrides), wall), wall=wall)
