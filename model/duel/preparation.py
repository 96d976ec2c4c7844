"""Phase 3 (Preparation) and the end of the game (tablets): plain functions over the table `g`."""

from __future__ import annotations

from typing import TYPE_CHECKING

from model.clauses import cite, cite_alternative
from model.duel import flow, tiling
from model.duel.scoring import tablet_points
from model.duel.state import Player
from model.duel.supply import fill_factories, refill_display
from model.events import Event, ev

if TYPE_CHECKING:
    from model.duel.engine import Game


def prepare(g: Game, events: list[Event]) -> None:
    s, rules = g.state, g.rules
    cite("duel.prep.tokens-back")
    for pl in s.players:
        pl.tokens_used = 0
    cite("duel.acquire.pass")               # a pass lasts for the phase it was made in
    for pl in s.players:
        pl.passed = False
    cite("duel.acquire.chip.limit")         # the limit counts chips taken this round
    for pl in s.players:
        pl.chips_this_round = 0
    cite("duel.bonus.storage")
    keep = rules.choices["duel.chips.carry-over"] == "keep"
    for pl in s.players:
        if pl.chips:
            cite_alternative("duel.chips.carry-over", rules.choices["duel.chips.carry-over"])
            if not keep:                    # unused chips are flipped face down
                pl.used_chips = sorted(pl.used_chips + pl.chips)
                pl.chips = []
    refill_display(s, "duel.prep.display-refill")
    fill_factories(s, rules, g.chance, events, "duel.prep.factories-refill")
    holders = [i for i in (0, 1) if s.players[i].start_tile]
    cite("duel.prep.start-player")
    if holders:
        s.starter = holders[0]
        s.players[holders[0]].start_tile = False
    else:
        alt = rules.choices["duel.prep.untaken-start-tile"]
        cite_alternative("duel.prep.untaken-start-tile", alt)
        if alt == "alternate":
            s.starter = 1 - s.starter
    s.large.start_tile = True
    s.round += 1
    flow.change_phase(g, "acquisition", events)
    s.to_move = s.starter


def score_tablets(g: Game, events: list[Event]) -> None:
    s = g.state
    cite("duel.end.after-round-5")
    cite("duel.prep.skip-last")
    cite("duel.end.tablets-scored")
    for who, pl in enumerate(s.players):
        score_player_tablets(g, who, pl, events)
    flow.change_phase(g, "game_over", events)
    s.to_move = -1


def score_player_tablets(g: Game, who: int, pl: Player, events: list[Event]) -> None:
    """Score every tablet side for one player. Gains and losses are grouped, never applied in the
    order the tablets happen to be listed, so the result does not depend on that order
    (duel.end.tablet-floor decides which group comes first; the floor applies to each loss)."""
    results = [(side, tablet_points(side, g.rules, pl.dome_space, pl.dome_tile))
               for side in sorted(g.rules.tablets)]
    gains = [(side, pts) for side, pts in results if pts > 0]
    losses = [(side, -pts) for side, pts in results if pts < 0]
    alt = g.rules.choices["duel.end.tablet-floor"]
    total_gain, total_loss = sum(p for _, p in gains), sum(p for _, p in losses)
    net_first = max(0, pl.score + total_gain - total_loss)
    losses_first = max(0, pl.score - total_loss) + total_gain
    if net_first != losses_first:
        cite_alternative("duel.end.tablet-floor", alt)
    if alt == "losses-first":
        for side, loss in losses:
            tiling.lose(g, pl, loss, who, events, "duel.end.tablets-scored", side)
    for side, pts in gains:
        pl.score += pts
        events.append(ev("tablet", "duel.end.tablets-scored", who, pts, side))
    if alt == "net-then-floor":
        for side, loss in losses:
            tiling.lose(g, pl, loss, who, events, "duel.end.tablets-scored", side)
