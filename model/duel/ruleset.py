"""A frozen ruleset: one alternative chosen for every interpretation point, plus the tablets.

Built from spec/'s defaults and overridable by interpretation id, e.g.
`Ruleset.build({"duel.score.start": "zero"})`. The model implements every alternative the spec
lists; a test checks that IMPLEMENTED and the spec agree.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping

import attrs

from model.duel.components import ComponentTables, build_tables
from model.errors import RulesetError
from spec import Catalogue, default_catalogue
from spec.suggest import did_you_mean

# Every interpretation point the engine branches on, with the alternatives it can run.
IMPLEMENTED: dict[str, tuple[str, ...]] = {
    "duel.score.start": ("five", "zero"),
    "duel.refill.monochrome": ("redraw-all", "replace-one"),
    "duel.refill.monochrome-unavoidable": ("accept", "leave-empty", "restock-from-tower"),
    "duel.plate.draw-at-zero": ("free-at-zero", "must-pay"),
    "duel.chips.per-round": ("hard-cap", "no-cap"),
    "duel.lines.voluntary-break": ("whole-batch", "any-split"),
    "duel.acquire.end.passed-tokens": ("pass-counts-as-done", "strict"),
    "duel.acquire.pass.permanent": ("permanent", "recheck"),
    "duel.tiling.unplaceable-scope": ("any-line", "complete-only"),
    "duel.special.row-points": ("row-number", "band-double"),
    "duel.broken.penalties": ("triangular", "last-slot-three"),
    "duel.prep.untaken-start-tile": ("same-starter", "alternate"),
    "duel.end.tie-without-tile": ("draw", "round-starter"),
    "duel.end.tablet-floor": ("net-then-floor", "losses-first"),
    "duel.bonus.unmovable-line": ("only-if-it-moves", "spend-anyway"),
    "duel.chips.carry-over": ("keep", "expire"),
    "duel.end.leftover-lines": ("no-effect", "broken"),
    "duel.tablet.colourful-rows.special": ("not-a-colour", "counts-as-colour"),
    "duel.tablet.colourful-rows.full": ("gaps-allowed", "full-row"),
    "duel.tablet.corner-values": ("upper-3-lower-8", "upper-8-lower-3"),
    "duel.special.which-row": ("special-space-row", "completing-tile-row"),
    "duel.bonus.timing": ("as-reached", "after-pass"),
    "duel.prep.refill-order": ("large-first", "small-first"),
    "duel.tablet.outer-scope": ("edge-cells", "outer-plates"),
}

FIRST_GAME_TABLETS: tuple[str, ...] = ("rows-complete", "columns-complete", "diagonals")


def _validate_tablets(tablets: tuple[str, ...], tables: ComponentTables) -> None:
    known = {s for pair in tables.tablet_pairs for s in pair}
    unknown = sorted(set(tablets) - known)
    if unknown:
        raise RulesetError(f"unknown tablet side(s) {', '.join(unknown)} (known: {', '.join(sorted(known))}) "
                           "[duel.setup.tablets]")
    if not 3 <= len(tablets) <= 4 or len(set(tablets)) != len(tablets):
        raise RulesetError(f"a game uses 3 or 4 distinct tablet sides, got {len(tablets)} [duel.setup.tablets]")
    for a, b in tables.tablet_pairs:
        if a in tablets and b in tablets:
            raise RulesetError(f"'{a}' and '{b}' are two sides of one tablet [duel.component.tablets]")


@attrs.frozen
class Ruleset:
    choices: Mapping[str, str]
    tablets: tuple[str, ...]
    tables: ComponentTables = attrs.field(eq=False, repr=False)
    # Precomputed switches (the hot path reads these, not the mapping).
    start_score: int = attrs.field(init=False, eq=False, repr=False)
    draw_needs_points: bool = attrs.field(init=False, eq=False, repr=False)
    chip_cap: bool = attrs.field(init=False, eq=False, repr=False)
    any_split: bool = attrs.field(init=False, eq=False, repr=False)
    strict_tokens: bool = attrs.field(init=False, eq=False, repr=False)
    pass_permanent: bool = attrs.field(init=False, eq=False, repr=False)
    unplaceable_any_line: bool = attrs.field(init=False, eq=False, repr=False)
    broken_totals: tuple[int, ...] = attrs.field(init=False, eq=False, repr=False)
    chips_after_pass: bool = attrs.field(init=False, eq=False, repr=False)

    def __attrs_post_init__(self) -> None:
        c = self.choices
        set_ = object.__setattr__
        set_(self, "start_score", 5 if c["duel.score.start"] == "five" else 0)
        set_(self, "draw_needs_points", c["duel.plate.draw-at-zero"] == "must-pay")
        set_(self, "chip_cap", c["duel.chips.per-round"] == "hard-cap")
        set_(self, "any_split", c["duel.lines.voluntary-break"] == "any-split")
        set_(self, "strict_tokens", c["duel.acquire.end.passed-tokens"] == "strict")
        set_(self, "pass_permanent", c["duel.acquire.pass.permanent"] == "permanent")
        set_(self, "unplaceable_any_line", c["duel.tiling.unplaceable-scope"] == "any-line")
        set_(self, "chips_after_pass", c["duel.bonus.timing"] == "after-pass")
        set_(self, "broken_totals", (0, 1, 3, 6, 10) if c["duel.broken.penalties"] == "triangular"
             else (0, 1, 3, 6, 9))

    def choice(self, interp_id: str) -> str:
        return self.choices[interp_id]

    @property
    def overrides(self) -> dict[str, str]:
        """The choices that differ from the spec's defaults (what a scenario or CLI would name)."""
        defaults = default_choices(default_catalogue())
        return {k: v for k, v in sorted(self.choices.items()) if defaults.get(k) != v}

    @classmethod
    def build(cls, overrides: Mapping[str, str] | None = None, *, tablets: tuple[str, ...] | None = None,
              catalogue: Catalogue | None = None) -> Ruleset:
        """The ruleset for these overrides (rulesets of the project's own catalogue are shared: they
        are frozen, and building one per game would cost more than the game's setup)."""
        if catalogue is None:
            return _cached_build(tuple(sorted((overrides or {}).items())),
                                 tuple(tablets) if tablets is not None else None)
        return cls._build(overrides, tablets=tablets, catalogue=catalogue)

    @classmethod
    def _build(cls, overrides: Mapping[str, str] | None, *, tablets: tuple[str, ...] | None,
               catalogue: Catalogue) -> Ruleset:
        choices = default_choices(catalogue)
        for interp_id, alt in sorted((overrides or {}).items()):
            if interp_id not in choices:
                raise RulesetError(f"unknown interpretation point {interp_id!r}{did_you_mean(interp_id, choices)} "
                                   f"(known: {', '.join(sorted(choices))})")
            names = catalogue.interpretation(interp_id).names
            if alt not in names:
                raise RulesetError(f"{interp_id} has no alternative {alt!r}{did_you_mean(alt, names)} "
                                   f"(alternatives: {', '.join(names)})")
            choices[interp_id] = alt
        missing = sorted(set(IMPLEMENTED) - set(choices))
        if missing:
            raise RulesetError(f"the model branches on points spec/ lacks: {', '.join(missing)}")
        tables = build_tables(catalogue.components)
        tablets = tuple(tablets) if tablets is not None else FIRST_GAME_TABLETS
        _validate_tablets(tablets, tables)
        return cls(choices=dict(sorted(choices.items())), tablets=tablets, tables=tables)


def default_choices(catalogue: Catalogue) -> dict[str, str]:
    return {i.id: i.default for i in catalogue.interpretations}


def parse_override(text: str) -> tuple[str, str]:
    """'duel.score.start=zero' -> ('duel.score.start', 'zero')."""
    if "=" not in text:
        raise RulesetError(f"expected INTERPRETATION=ALTERNATIVE, got {text!r}")
    key, _, value = text.partition("=")
    return key.strip(), value.strip()


@functools.lru_cache(maxsize=256)
def _cached_build(overrides: tuple[tuple[str, str], ...], tablets: tuple[str, ...] | None) -> Ruleset:
    return Ruleset._build(dict(overrides), tablets=tablets, catalogue=default_catalogue())
