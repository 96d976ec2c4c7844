"""Classic Azul's registry entry: where the shared harness finds classic Azul's parts."""

from harness.registry import GameEntry

GAME = GameEntry(
    name="azul",
    title="Azul (classic), with the gray-wall variant",
    id_prefix="azul.",
    spec_dir="azul",
    fixtures_dir="azul",
    players=(2, 3, 4),
    new_game="model.azul:new_game",
    invariants="properties.azul.invariants:check_all",
)
