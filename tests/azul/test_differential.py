"""Differential testing against the peer engine azul-game-engine (harness/azul/differential.py): a small seeded
sample agrees, the peer's classified bugs are found, classified and shrunk, a bug planted in our model
is found and shrunk to a minimal replayable case, and the known-differences file is well formed."""

from __future__ import annotations

import json
from pathlib import Path

import attrs
import pytest
from click.testing import CliRunner

from properties.azul.peer import PEER_MISSING

pytestmark = pytest.mark.skipif(PEER_MISSING is not None, reason=PEER_MISSING or "")

if PEER_MISSING is None:
    from harness.azul.differential import (
        KNOWN_PATH,
        Case,
        CaseInvalid,
        Finding,
        campaign,
        classify,
        confirm_interpretation,
        load_known,
        play,
        replay,
        shrink,
        witness_case,
    )
    from harness.cli import cli
    from harness.errors import UserError
    from model.azul import new_game
    from properties.azul.peer import WORKAROUNDS, PeerGame, compare, our_snapshot, peer_snapshot


def _reproduces(finding: Finding, actions: tuple[str, ...]) -> bool:
    try:
        f = replay(attrs.evolve(finding.case, actions=actions))
    except CaseInvalid:
        return False
    return f is not None and f.signature == finding.signature


def _assert_one_minimal(finding: Finding) -> None:
    """No single action can be dropped from the case with the difference still there."""
    acts = finding.case.actions
    for i in range(len(acts)):
        assert not _reproduces(finding, acts[:i] + acts[i + 1:]), f"action {i + 1} ({acts[i]!r}) is not needed"


@pytest.mark.parametrize("players", [2, 3, 4])
def test_setup_is_the_same_position_in_both_engines(players: int) -> None:
    game = new_game(players, seed=7)
    peer = PeerGame(players, game.state.starter, game.state.factories, WORKAROUNDS)
    assert compare(our_snapshot(game), peer_snapshot(peer)) == {}


def test_seeded_sample_agrees_after_every_action() -> None:
    """Six games (2, 3 and 4 players), compared after every action, with the classified peer bugs
    undone by their workarounds: no disagreement."""
    run = campaign(6, 0, (2, 3, 4), seconds=60)
    assert run.games == 6 and run.steps > 300
    assert [r.finding for r in run.results if r.finding] == []
    assert all(not r.capped for r in run.results)


def test_without_workarounds_the_marker_bug_is_found_classified_and_shrunk() -> None:
    result = play(0, 2, workarounds=())
    f = result.finding
    assert f is not None and f.kind == "state"
    assert dict((p, (a, b)) for p, a, b in f.fields)["marker"] == ("centre", "none")
    assert "peer-marker-never-returns" in [k.id for k in classify(f, load_known())]
    small = shrink(f, workarounds=(), seconds=10)
    assert small.signature == f.signature and len(small.case.actions) <= len(f.case.actions)
    assert replay(small.case, workarounds=()) is not None          # replayable as printed
    assert replay(small.case) is None                               # the workaround undoes exactly it


def test_probes_find_the_peer_accepting_an_absent_colour() -> None:
    result = play(1, 2, probes=2)
    kinds = {(f.kind, f.clause) for f in result.probes}
    assert ("accepts-illegal", "azul.offer.take-factory") in kinds
    f = next(f for f in result.probes if f.clause == "azul.offer.take-factory")
    small = shrink(f, seconds=10)
    assert small.case.actions == () and small.case.probe is not None    # right at setup
    assert [k.id for k in classify(small, load_known())] == ["peer-takes-absent-colour-from-factory"]


def test_interpretation_difference_is_confirmed_under_the_peers_alternative() -> None:
    """P1 fills line 2 with blue; P1's next pick puts blue on the full line: the peer accepts (all to the
    floor), ours refuses; under azul.lines.full-line-choice=allowed both engines agree."""
    known = {k.id: k for k in load_known()}["peer-allows-full-line"]
    case = Case(players=2, first=0, draws=(0, 3, 4, 0, 1, 0, 3, 3, 3, 4, 2, 1, 0, 3, 0, 2, 3, 4, 0, 3),
                actions=("take F1 blue line 2", "take F2 blue line 4"), probe="take F4 blue line 2")
    f = replay(case)
    assert f is not None and (f.kind, f.clause) == ("accepts-illegal", "azul.lines.capacity")
    assert classify(f, load_known()) == [known]
    assert confirm_interpretation(f, known) == "confirmed"
    assert shrink(f, seconds=5).case.actions == case.actions           # already minimal


def _plant_row_one_bonus(monkeypatch: pytest.MonkeyPatch) -> None:
    """A rule bug in our model: a tile placed in wall row 1 scores one point too many."""
    import model.azul.tiling as tiling

    real = tiling.placement_points

    def planted(wall: list[int], row: int, col: int, count_both: bool) -> int:
        return real(wall, row, col, count_both) + (1 if row == 0 else 0)

    monkeypatch.setattr(tiling, "placement_points", planted)


def test_planted_bug_in_our_model_is_found_and_shrunk_to_a_minimal_case(monkeypatch: pytest.MonkeyPatch) -> None:
    _plant_row_one_bonus(monkeypatch)
    results = [play(seed, 2) for seed in range(3)]
    findings = [r.finding for r in results if r.finding]
    assert findings, "the planted scoring bug went unnoticed"
    f = findings[0]
    assert f.kind == "state" and any(p.endswith(".score") for p, _, _ in f.fields)
    assert classify(f, load_known()) == []                        # new: not a classified difference
    small = shrink(f, seconds=20)
    assert small.signature == f.signature and len(small.case.actions) <= len(f.case.actions)
    _assert_one_minimal(small)
    monkeypatch.undo()                                             # without the plant the engines agree
    assert replay(small.case) is None


def test_shrink_drops_irrelevant_actions(monkeypatch: pytest.MonkeyPatch) -> None:
    """A difference caused by one action late in a game shrinks to far fewer actions."""
    import model.azul.offer as offer

    real = offer.take_tiles

    def planted(state, rules, action, events):  # type: ignore[no-untyped-def]
        real(state, rules, action, events)
        if action.args[1] == 3 and action.args[2] == 5:          # black straight to the floor: +1
            state.boards[state.to_move].score += 1

    monkeypatch.setattr(offer, "take_tiles", planted)
    f = next(r.finding for r in (play(s, 2) for s in range(10)) if r.finding and len(r.finding.case.actions) > 4)
    small = shrink(f, seconds=20)
    assert len(small.case.actions) < len(f.case.actions)
    assert small.case.actions[-1].startswith("take") and small.case.actions[-1].endswith("black floor")
    _assert_one_minimal(small)


def test_known_differences_file_is_well_formed() -> None:
    from spec import default_catalogue

    catalogue = default_catalogue("azul")
    ids = {c.id for c in catalogue.clauses}
    points = {i.id: {a.name for a in i.alternatives} for c in catalogue.clauses for i in c.interpretations}
    known = load_known()
    assert len({k.id for k in known}) == len(known)
    for k in known:
        assert k.workaround is None or k.workaround in WORKAROUNDS
        if k.classification == "peer-bug":
            assert k.clause, f"{k.id}: a peer bug names the clause it breaks"
            assert k.clause in ids, f"{k.id}: {k.clause} is not an azul clause"
        if k.classification == "interpretation":
            assert k.interpretation, f"{k.id}: an interpretation difference names the peer's alternative"
            point, alt = k.interpretation
            assert alt in points.get(point, set()), f"{k.id}: {point}={alt} is not in spec/azul"


def test_bad_known_differences_file_is_one_clear_line(tmp_path: Path) -> None:
    bad = tmp_path / "known.toml"
    bad.write_text('[[difference]]\nid = "x"\nclassification = "theirs"\nkind = "state"\nreason = "r"\n')
    with pytest.raises(UserError, match=r"known.toml: difference #1 \(x\): classification 'theirs'"):
        load_known(bad)


def test_cli_exit_codes_and_replay(tmp_path: Path) -> None:
    runner = CliRunner()
    ok = runner.invoke(cli, ["differential", "--games", "2", "--players", "2", "--shrink-seconds", "2"])
    assert ok.exit_code == 0, ok.output
    assert "2 games agreed to the end" in " ".join(ok.output.split())
    empty = tmp_path / "none.toml"
    empty.write_text("")
    out = tmp_path / "run.json"
    raw = runner.invoke(cli, ["differential", "--games", "1", "--players", "2", "--raw", "--known", str(empty),
                              "--json", str(out), "--shrink-seconds", "2"])
    assert raw.exit_code == 1, raw.output                        # an unclassified disagreement fails the run
    assert "NEW" in raw.output and "marker" in raw.output
    data = json.loads(out.read_text())
    assert data["findings"][0]["classification"] == ["new"]
    again = runner.invoke(cli, ["differential", "--replay", str(out), "--raw"])
    assert again.exit_code == 0, again.output                    # classified by the default known file
    assert "peer-marker-never-returns" in again.output
    case = Case.from_json(data["findings"][0]["case"], "run.json")
    assert replay(case, workarounds=()) is not None


def test_known_path_default_is_this_file() -> None:
    assert KNOWN_PATH == Path(__file__).with_name("peer-differences.toml")


def test_marker_untaken_peer_starts_like_same_starter() -> None:
    """Every factory of one colour: no tile reaches the centre, nobody takes the marker. The peer's next
    starter is the last taker, who after 2n+1 whole-factory picks is always this round's starter: it
    agrees with azul.offer.marker-untaken=same-starter (our default) and not with next-clockwise."""
    round_1 = [c for c in range(5) for _ in range(4)]
    case = Case(players=2, first=0, draws=tuple(round_1 + [0, 1, 2, 3, 4] * 4),
                actions=("take F1 blue line 4", "take F2 yellow line 4", "take F3 red line 3",
                         "take F4 black line 5", "take F5 turquoise line 5"))
    assert replay(case) is None
    assert replay(case, workarounds=()) is None
    other = replay(attrs.evolve(case, interpretations=(("azul.offer.marker-untaken", "next-clockwise"),)))
    assert other is not None and [p for p, _, _ in other.fields] == ["to_move"]


def test_peer_exceptions_are_findings_not_crashes(monkeypatch: pytest.MonkeyPatch) -> None:
    import azul_game_engine.wall as peer_wall

    def broken(self, x, y):  # type: ignore[no-untyped-def]
        raise ZeroDivisionError("planted")

    monkeypatch.setattr(peer_wall.Wall, "score", broken)
    f = play(0, 2).finding
    assert f is not None and f.kind == "crash" and "ZeroDivisionError" in f.message
    assert f.case.actions == play(0, 2, workarounds=()).finding.case.actions     # at the first wall-tiling


def test_our_model_raising_is_a_finding(monkeypatch: pytest.MonkeyPatch) -> None:
    import model.azul.tiling as tiling

    def broken(wall, row, col, count_both):  # type: ignore[no-untyped-def]
        raise KeyError("planted")

    monkeypatch.setattr(tiling, "placement_points", broken)
    f = play(0, 2).finding
    assert f is not None and f.kind == "ours-crash" and "KeyError" in f.message


# --- the search's witnesses: the rare situations random games do not reach -------------------------

DISPLACE = (Path(__file__).resolve().parents[2] / "fixtures" / "azul" / "witnesses"
            / "decide-azul.offer.marker-on-full-floor-displace-to-lid-4p.toml")


@pytest.mark.clause("azul.offer.first-from-centre")
def test_a_search_witness_compares_the_marker_on_a_full_floor_with_the_peer() -> None:
    """The peer reads azul.offer.marker-on-full-floor as our default (marker-off-floor): on the search's
    witness (a marker taken onto a full floor, which uniform games never reach) both engines agree to
    the end under the default, and under displace-to-lid they part exactly at that take (lid, marker,
    floor)."""
    agreed = replay(witness_case(DISPLACE, {}))
    assert agreed is None, agreed
    case = witness_case(DISPLACE, {"azul.offer.marker-on-full-floor": "displace-to-lid"})
    found = replay(case)
    assert found is not None and found.kind == "state"
    assert {p for p, _, _ in found.fields} == {"lid", "marker", "players[3].floor"}
    assert found.case.actions[-1].startswith("take C ")


def test_a_gray_wall_witness_is_one_line() -> None:
    gray = sorted((DISPLACE.parent).glob("*gray*-4p.toml"))[0]
    with pytest.raises(UserError, match="gray-wall witness"):
        witness_case(gray)
