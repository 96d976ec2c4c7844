"""The classic interpretation matrix reaches its rare situations (issue 12): rows whose alternatives
uniform 2-player play never lets decide are played under a RowSetup (properties/azul/hooks.py
ROW_SETUPS: a biased policy, a player count, the gray wall), and their `decided` is still measured
from the model's citations."""

from __future__ import annotations

from pathlib import Path

import pytest

import properties.matrix as matrix
from properties.azul import hooks
from properties.matrix import RowSetup, row_setups, run_matrix
from properties.registry import UnknownGame
from properties.simulate import run_campaign

# row label -> games that make it decide at least once (measured: see the report of issue 12)
REACHED = {
    "azul.gray.unplaceable-line=refused": 4,
}


def _decided(label: str, setup: RowSetup, games: int) -> int:
    point, alt = label.split("=")
    campaign = run_campaign(games, 0, {**setup.context, point: alt}, game="azul", players=setup.players,
                            policy=setup.policy, deep_every=0)
    return campaign.totals("alt_hits")[(point, alt)]


@pytest.mark.clause("azul.lines.wall-has-colour")
@pytest.mark.parametrize("label", sorted(REACHED))
def test_a_set_up_row_decides_where_uniform_two_player_play_does_not(label: str) -> None:
    setup = row_setups("azul")[label]
    assert _decided(label, RowSetup(), REACHED[label]) == 0          # uniform, coloured wall, 2 players
    assert _decided(label, setup, REACHED[label]) > 0


# Rows whose situation only the search reaches: no policy plays them; the matrix shows each as decided
# by its committed `--decide` witness (fixtures/azul/witnesses/).
BY_WITNESS = ("azul.offer.marker-on-full-floor=displace-to-lid", "azul.offer.marker-on-full-floor=beside-floor-one-point",
              "azul.prep.fill-order=round-robin", "azul.offer.marker-untaken=next-clockwise",
              "azul.end.dead-game=stall", "azul.prep.empty-round=stall")


@pytest.mark.clause("azul.offer.first-from-centre", "azul.prep.refill")
@pytest.mark.parametrize("label", BY_WITNESS)
def test_a_row_only_the_search_reaches_is_decided_by_its_witness(label: str, monkeypatch: pytest.MonkeyPatch,
                                                                  tmp_path: Path) -> None:
    from harness.found_by_search import decided_by_witness

    assert label not in row_setups("azul")                           # no policy steers it any more
    monkeypatch.setattr(matrix, "matrix_rows", lambda game: [(label, dict([label.split("=")]))])
    monkeypatch.setattr(hooks, "ROW_SETUPS", {})                     # the other rows' setups name other rows
    (row,) = run_matrix(2, 0, 1, tmp_path, game="azul")
    assert (row.label, row.policy, row.broken, row.decided) == (label, "uniform", {}, 0)
    root = Path(__file__).resolve().parents[2]
    (shown,) = decided_by_witness([{"label": row.label, "overrides": row.overrides, "decided": row.decided}],
                                  "azul", root)
    witness = shown.get("witness", "")
    assert Path(witness).name.startswith("decide-" + label.replace("=", "-")), shown


def test_the_gray_point_row_plays_on_the_gray_wall_and_says_so(monkeypatch: pytest.MonkeyPatch,
                                                               tmp_path: Path) -> None:
    label = "azul.gray.unplaceable-line=refused"
    monkeypatch.setattr(matrix, "matrix_rows", lambda game: [(label, dict([label.split("=")]))])
    monkeypatch.setattr(hooks, "ROW_SETUPS", {label: hooks.ROW_SETUPS[label]})
    (row,) = run_matrix(2, 0, 1, tmp_path, game="azul")
    assert row.label == f"{label} [azul.setup.wall-side=gray]"
    assert row.overrides == {"azul.setup.wall-side": "gray", "azul.gray.unplaceable-line": "refused"}


def test_a_setup_for_no_row_or_an_unknown_policy_is_one_line_naming_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(hooks.ROW_SETUPS, "azul.prep.empty-round=stal", RowSetup())
    with pytest.raises(UnknownGame, match=r"'azul.prep.empty-round=stal', which is no matrix row "
                                          r"\(did you mean 'azul.prep.empty-round=stall'\?\)"):
        row_setups("azul")
    monkeypatch.delitem(hooks.ROW_SETUPS, "azul.prep.empty-round=stal")
    monkeypatch.setitem(hooks.ROW_SETUPS, "azul.end.dead-game=stall", RowSetup(policy="unifrm"))
    with pytest.raises(UnknownGame, match=r"unknown policy 'unifrm' \(did you mean 'uniform'\?\)"):
        row_setups("azul")


def test_the_matrix_table_prints_a_row_setup_literally(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """A setup note in brackets is text, not rich markup: the table shows it."""
    from click.testing import CliRunner

    from harness.cli import cli
    from properties.matrix import MatrixRow

    label = "azul.offer.marker-untaken=next-clockwise [policy uniform, 4 players]"
    fake = [MatrixRow(label, {"azul.offer.marker-untaken": "next-clockwise"}, 1, {}, {}, 0, 7, (), "uniform", 4)]
    monkeypatch.setattr(matrix, "run_matrix", lambda *a, **k: fake)
    out = CliRunner().invoke(cli, ["interpretations", "--game", "azul", "--games", "1", "--jobs", "1",
                                    "--out", str(tmp_path)], terminal_width=200)
    assert out.exit_code == 0, out.output
    assert "[policy uniform, 4 players]" in out.output
