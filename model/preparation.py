"""Phase 3 (Preparation) and the end of the game (tablets)."""

from __future__ import annotations

from model.base import GameBase
from model.clauses import cite, cite_alternative
from model.events import Event
from model.scoring import tablet_points
from model.supply import fill_factories, refill_display


class Preparation(GameBase):
    """Phase 3 and the end of the game."""

    __slots__ = ()

    def _prepare(self, events: list[Event]) -> None:
        s, rules = self.state, self.rules
        cite("duel.prep.tokens-back")
        for pl in s.players:
            pl.tokens_used = 0
            pl.passed = False
            pl.chips_this_round = 0
        refill_display(s, "duel.prep.display-refill")
        fill_factories(s, rules, self.chance, events, "duel.prep.factories-refill")
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
        self._change_phase("acquisition", events)
        s.to_move = s.starter

    def _score_tablets(self, events: list[Event]) -> None:
        s = self.state
        cite("duel.end.after-round-5")
        cite("duel.prep.skip-last")
        cite("duel.end.tablets-scored")
        for who, pl in enumerate(s.players):
            for side in self.rules.tablets:
                pts = tablet_points(side, self.rules, pl.dome_space, pl.dome_tile)
                if pts > 0:
                    pl.score += pts
                    events.append(Event("tablet", "duel.end.tablets-scored", who, pts, side))
                elif pts < 0:
                    self._lose(pl, -pts, who, events, "duel.end.tablets-scored", side)
        self._change_phase("game_over", events)
        s.to_move = -1
