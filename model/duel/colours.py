"""Tile colours as small ints (fast state) with their names (readable notation)."""

from __future__ import annotations

COLOURS: tuple[str, ...] = ("blue", "yellow", "red", "black", "turquoise")
NUM_COLOURS = len(COLOURS)
COLOUR_INDEX: dict[str, int] = {name: i for i, name in enumerate(COLOURS)}

# Dome space kinds beyond the five colours.
WILD = 5      # multicoloured Joker space: any colour
SPECIAL = 6   # uncoloured Special space; also the value of a Special tile on the Dome
EMPTY = -1

SPACE_NAMES: dict[int, str] = {**dict(enumerate(COLOURS)), WILD: "wild", SPECIAL: "special"}
SPACE_INDEX: dict[str, int] = {v: k for k, v in SPACE_NAMES.items()}


def colour_index(name: str) -> int:
    try:
        return COLOUR_INDEX[name]
    except KeyError:
        from spec.suggest import did_you_mean

        raise ValueError(f"unknown colour {name!r}{did_you_mean(name, COLOURS)} (colours: {', '.join(COLOURS)})") from None
