"""Azul Duel's sub-steps of play for the sub-step diagram (harness/diagram.py): per phase, the keys
properties/duel/hooks.py:substep reports (the phase and the pending decision's kind) and labels."""

from __future__ import annotations

SUBSTEPS: dict[str, tuple[tuple[str, str], ...]] = {
    "setup": (("setup/opening", "opening plate"), ("setup/place", "place plate")),
    "acquisition": (("acquisition/turn", "turn: pick\n(sun, moon, plate, chip, pass)"),
                    ("acquisition/stack", "stack\n(moon stack order)"), ("acquisition/line", "line\n(pattern line)"),
                    ("acquisition/draw", "draw / keep\n(blind plates)"), ("acquisition/place", "place plate"),
                    ("acquisition/return", "return plates")),
    "dome_tiling": (("dome_tiling/tile", "tile\n(line to Dome)"), ("dome_tiling/bonus", "bonus chips")),
    "preparation": (("preparation", "preparation"),),
    "tablet_scoring": (("tablet_scoring", "tablet scoring"),),
    "game_over": (("game_over", "game over"),),
}


