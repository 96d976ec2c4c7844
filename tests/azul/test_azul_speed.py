"""Issue 12's speed work changes how classic Azul runs, never what it does: the same seed plays the
same game (actions offered, the one chosen, every event), the generator hands out interned actions,
and `azul-rules bench --game azul` prints the peer engine's row in the same run. No timing here."""

from __future__ import annotations

import hashlib
import random

import pytest
from click.testing import CliRunner

from model.azul.actions import CENTRE_SOURCE, FLOOR, TAKES, Kind, format_action, parse_action, take, wall
from model.azul.colours import NUM_COLOURS
from model.azul.start import start

VARIANTS: dict[str, dict[str, str]] = {
    "default": {},
    "gray-split": {"azul.setup.wall-side": "gray", "azul.lines.voluntary-split": "voluntary-split",
                   "azul.lines.full-line-choice": "allowed"},
}

# Fingerprints of random games played by the engine as it was before the speed work (commit
# 6c71f44): seeds 0-3, each step's number of legal actions, the action taken and its events.
BEFORE: dict[tuple[str, int], str] = {
    ("default", 2): "d12134c427a73dfc", ("default", 3): "689ed9f4e09226aa", ("default", 4): "ab0239e5678dce6b",
    ("gray-split", 2): "7cf31007ccce9cb2", ("gray-split", 3): "219cb04b98e74dd5",
    ("gray-split", 4): "0d966c572988856c",
}


def _fingerprint(variant: str, players: int) -> str:
    h = hashlib.sha256()
    for seed in range(4):
        g = start(seed=seed, players=players, overrides=VARIANTS[variant])
        rng = random.Random(seed)
        for _ in range(2000):
            if g.is_over or g.is_stalled:
                break
            actions = g.legal_actions()
            a = rng.choice(actions)
            h.update(f"{len(actions)}:{a}|".encode())
            for e in g.apply(a):
                h.update(f"{e};".encode())
        else:
            pytest.fail(f"seed {seed}: no end in 2000 actions")
    return h.hexdigest()[:16]


@pytest.mark.parametrize("variant,players", sorted(BEFORE))
def test_same_seed_same_game_as_before(variant: str, players: int) -> None:
    assert _fingerprint(variant, players) == BEFORE[(variant, players)]


def test_legal_actions_are_the_interned_takes() -> None:
    g = start(seed=7, players=3)
    rng = random.Random(7)
    for _ in range(40):
        actions = g.legal_actions()
        for a in actions:
            assert a.kind is Kind.TAKE
            assert a is take(*a.args)
            assert a is parse_action(str(a))
        g.apply(rng.choice(actions))


def test_take_and_wall_give_one_object_per_action() -> None:
    for source in (*range(9), CENTRE_SOURCE):
        for colour in range(NUM_COLOURS):
            for dest in range(FLOOR + 1):
                a = take(source, colour, dest)
                assert a is TAKES[source][colour][dest]
                assert a.args == (source, colour, dest)
    assert take(2, 1, 3, 2) is take(2, 1, 3, 2)
    assert take(2, 1, 3, 2) != take(2, 1, 3)
    assert wall(1, 4) is wall(1, 4)


def test_notation_is_formatted_once_and_unchanged() -> None:
    for a in (take(0, 2, 3), take(CENTRE_SOURCE, 0, FLOOR), take(4, 1, 4, 3), wall(2, 0)):
        assert str(a) == a.text == format_action(a)
    assert str(take(1, 2, 2)) == "take F2 red line 3"
    assert str(wall(1, 3)) == "wall r2 c4"


def test_bench_prints_the_peer_row_in_the_same_run() -> None:
    pytest.importorskip("azul_game_engine")
    from harness.cli import cli

    result = CliRunner().invoke(cli, ["bench", "--game", "azul", "--games", "2", "--players", "3",
                                      "--repeat", "2"])
    assert result.exit_code == 0, result.output
    assert "peer" in result.output and "azul-game-en" in result.output     # the row (its label wraps)
    assert "vs the peer azul-game-engine (ratio of medians):" in result.output
    assert "x wall" in result.output.split("vs the peer")[1] and "x CPU" in result.output.split("vs the peer")[1]


def test_peer_runs_are_repeated_like_ours(monkeypatch: pytest.MonkeyPatch) -> None:
    from harness.azul import peer_bench
    from harness.cli import _peer_bench

    calls: list[tuple[int, int, int | None]] = []

    def fake(games: int, seed: int = 0, players: int | None = 2) -> peer_bench.PeerBench:
        calls.append((games, seed, players))
        return peer_bench.PeerBench(games, 10 * games, 1.0 + len(calls), 0, 0.5)

    monkeypatch.setattr(peer_bench, "run", fake)
    got = _peer_bench("azul", 3, 4, 2, 3)
    assert got is not None
    runs, engine, crashed = got
    assert calls == [(3, 4, 2)] * 3 and len(runs.runs) == 3
    assert runs.seconds == 3.0 and runs.spread("seconds") == (2.0, 4.0) and engine == "azul-game-engine"


def test_bench_of_a_game_without_a_peer_has_no_peer_row() -> None:
    from harness.cli import cli

    result = CliRunner().invoke(cli, ["bench", "--game", "duel", "--games", "1"])
    assert result.exit_code == 0, result.output
    assert "peer" not in result.output


@pytest.mark.parametrize("players", [2, 3, 4])
def test_peer_bench_is_repeatable(players: int) -> None:
    pytest.importorskip("azul_game_engine")
    from harness.azul.peer_bench import run

    first, again = run(2, seed=11, players=players), run(2, seed=11, players=players)
    assert first.games == 2 and first.actions == again.actions and first.crashed == again.crashed
    assert first.actions > 0


def _asked(g: object) -> tuple[int, int]:
    """(wall-has-colour refusals, full lines met) over every (colour offered, pattern line) pair of
    the player to move, worked out here colour by colour as the generator did before issue 12."""
    s = g.state  # type: ignore[attr-defined]
    board = s.boards[s.to_move]
    offered = {c for tiles in [*s.factories, s.centre] for c in range(NUM_COLOURS) if tiles[c]}
    on_wall = full = 0
    for colour in offered:
        for line in range(5):
            n = board.line_count[line]
            if n and board.line_colour[line] != colour:
                continue
            if n == line + 1:
                full += 1
            elif colour in board.wall[line * 5:line * 5 + 5]:
                on_wall += 1
    return on_wall, full


def test_generation_cites_each_colour_and_line_it_decides() -> None:
    from model.clauses import recording

    g = start(seed=5, players=2)
    rng = random.Random(5)
    seen = 0
    for _ in range(300):
        if g.is_over:
            break
        if g.state.phase == "offer":
            on_wall, full = _asked(g)
            with recording() as rec:
                g.legal_actions()
            assert rec.clauses["azul.lines.wall-has-colour"] == on_wall
            assert rec.alternatives[("azul.lines.full-line-choice", "refused")] == full
            seen += on_wall
        g.apply(rng.choice(g.legal_actions()))
    assert seen > 0


def test_peer_games_are_the_same_as_before_its_enumerator_was_sped_up() -> None:
    """The peer's random games (seeds 0-2) play as many actions as with the enumerator of 6c71f44,
    which asked the peer about every (source, colour, line)."""
    pytest.importorskip("azul_game_engine")
    from harness.azul.peer_bench import play

    got = [play(seed, players) for players in (2, 3, 4) for seed in range(3)]
    assert got == [(100, False), (64, False), (60, False), (92, False), (101, False), (81, False),
                   (92, False), (120, False), (117, False)]


def _peer_reference_moves(g: object) -> list[tuple[int, object, int, int]]:
    """The moves the peer accepts, asked of the peer itself (its Wall.already_has, PatternLine's
    own tests), source by source and colour by colour: what the bench's minimal enumerator must offer."""
    me = g.players[g.current_player].board  # type: ignore[attr-defined]
    sources = [(i, f.tiles) for i, f in enumerate(g.factory_displays)]  # type: ignore[attr-defined]
    sources.append((-1, g.center.tiles))  # type: ignore[attr-defined]
    out: list[tuple[int, object, int, int]] = []
    for index, tiles in sources:
        firsts: list[object] = []
        for t in tiles:
            if t not in firsts:
                firsts.append(t)
        for tile in firsts:
            out += [(index, tile, 0, row) for row, line in enumerate(me.pattern_lines)
                    if not line.is_colour_invalid(tile) and not line.is_filled()
                    and not me.wall.already_has(tile, row)]
            out.append((index, tile, tiles.count(tile), 0))
    return out


@pytest.mark.parametrize("players", [2, 3, 4])
def test_peer_enumerator_offers_what_the_peer_accepts_without_asking_it(
        players: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """The bench's enumerator reads the peer's state (so the peer is charged for its own work only)
    and offers exactly the moves the peer's own rule queries allow, in the same order, on every
    state of random peer games."""
    pytest.importorskip("azul_game_engine")
    from azul_game_engine import wall as peer_wall

    from harness.azul import peer_bench

    peer_bench._peer()
    asked: list[object] = []
    original = peer_wall.Wall.already_has
    checked = 0
    for seed in range(3):
        rng = random.Random(seed)
        saved = random.getstate()
        random.seed(seed)
        try:
            g = peer_bench.new_peer_game(players)
            for _ in range(300):
                if not g.is_running:
                    break
                monkeypatch.setattr(peer_wall.Wall, "already_has",
                                    lambda self, tile, row: asked.append(tile) or original(self, tile, row))
                moves = peer_bench._moves(g)
                assert not asked, "the enumerator asked the peer's Wall.already_has"
                monkeypatch.setattr(peer_wall.Wall, "already_has", original)
                assert moves == _peer_reference_moves(g)
                checked += 1
                index, tile, on_floor, row = rng.choice(moves)
                if index < 0:
                    g.execute_factory_offer_phase_with_center(tile, on_floor, row)
                else:
                    g.execute_factory_offer_phase_with_factory(index, tile, on_floor, row)
        finally:
            random.setstate(saved)
    assert checked > 100
