"""Azul Duel's registry entry: the one place the shared harness learns where Duel's parts live."""

from harness.registry import GameEntry

GAME = GameEntry(
    name="duel",
    title="Azul Duel",
    id_prefix="duel.",
    spec_dir="azul_duel",
    fixtures_dir="duel",
    players=(2,),
    new_game="model.game:new_game",
    invariants="properties.invariants:violations",
    renderers={"text": "model.render:render_text", "svg": "harness.board_svg:board_svg"},
)
