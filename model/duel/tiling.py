"""Phase 2 (Dome-tiling & Scoring)."""

from __future__ import annotations

from model.duel.base import GameBase
from model.duel.bonus import has_bonus_option
from model.clauses import cite, cite_alternative
from model.duel.colours import COLOURS, EMPTY, SPECIAL, WILD
from model.duel.dome import band_full, matching_cells
from model.events import Event
from model.duel.scoring import broken_penalty, special_row_points, tile_points
from model.duel.state import CELL_SLOT, SLOT_CELLS, Pending, Player


class Tiling(GameBase):
    """Phase 2: moving tiles to the Dome, Special tiles, Bonus chips, penalties."""

    __slots__ = ()

    def _start_tiling(self, events: list[Event]) -> None:
        cite("duel.tiling.simultaneous")
        self.state.tiling = (0, 0, 0)
        self.state.to_move = -2          # no turns in this phase; decisions come as pending
        self._advance_tiling(events)

    def _advance_tiling(self, events: list[Event]) -> None:
        """Resolve Dome-tiling from the cursor `state.tiling` = (player order, line, stage) until a
        decision is needed (stage 0: Bonus chips; stage 1: placement; stage 2: placement of a line
        just completed with chips) or both players are done."""
        s, rules = self.state, self.rules
        order, line, stage = s.tiling
        while order < 2:
            who = s.starter if order == 0 else 1 - s.starter
            pl = s.players[who]
            counts, colours = pl.line_count, pl.line_colour
            if line == 0 and stage == 0:
                cite("duel.tiling.top-to-bottom")
            # rule: duel.tiling.top-to-bottom
            while line < 6:
                count = counts[line]
                if count == 0:
                    line, stage = line + 1, 0
                    continue
                cap, colour = line + 1, colours[line]
                if stage == 0:
                    stage = 1
                    if count < cap and pl.chips and has_bonus_option(pl, colour, cap - count, rules.tables) \
                            and self._chips_may_complete(pl, line, colour):
                        s.tiling = (order, line, 1)
                        s.pending = Pending("bonus", who, (line,))
                        return
                chips_but_stuck = stage == 2 and count < cap and not matching_cells(pl, line, colour)
                if (count == cap or stage == 2) and not chips_but_stuck:
                    cells = matching_cells(pl, line, colour)
                    if len(cells) >= 2:
                        s.tiling = (order, line + 1, 0)
                        s.pending = Pending("tile", who, (line,), tuple(cells))
                        return
                    if cells:
                        self._move_line_to_dome(who, line, cells[0], events)
                    elif band_full(pl, line):
                        self._unplaceable(who, line, events)
                    else:
                        cite("duel.tiling.wait")
                elif band_full(pl, line) and not matching_cells(pl, line, colour):
                    alt = rules.choices["duel.tiling.unplaceable-scope"]
                    cite_alternative("duel.tiling.unplaceable-scope", alt)
                    if rules.unplaceable_any_line:
                        self._unplaceable(who, line, events)
                    else:
                        cite("duel.tiling.incomplete-stay")
                else:
                    cite("duel.tiling.incomplete-stay")
                line, stage = line + 1, 0
            if s.round == 5:
                self._leftover_lines(who, events)
            self._penalties(who, events)
            order, line, stage = order + 1, 0, 0
        s.tiling = (2, 0, 0)
        self._change_phase("preparation" if s.round < 5 else "tablet_scoring", events)
        if s.round < 5:
            self._prepare(events)
        else:
            self._score_tablets(events)

    def _leftover_lines(self, who: int, events: list[Event]) -> None:
        """Tiles still on pattern lines after the last Dome-tiling (duel.end.leftover-lines)."""
        pl = self.state.players[who]
        left = [line for line in range(6) if pl.line_count[line]]
        if not left:
            return
        alt = self.rules.choices["duel.end.leftover-lines"]
        cite_alternative("duel.end.leftover-lines", alt)
        if alt == "broken":
            for line in left:
                colour, n = pl.line_colour[line], pl.line_count[line]
                pl.line_colour[line], pl.line_count[line] = EMPTY, 0
                self._break(pl, colour, n, events, who, "duel.end.after-round-5")

    def _chips_may_complete(self, pl: Player, line: int, colour: int) -> bool:
        """Whether Bonus chips may complete this line: under the default only when the completed line
        can then move to the Dome (a free matching space in its row), so chips are never spent for
        nothing (duel.bonus.unmovable-line)."""
        if matching_cells(pl, line, colour):
            return True
        alt = self.rules.choices["duel.bonus.unmovable-line"]
        cite_alternative("duel.bonus.unmovable-line", alt)
        return alt == "spend-anyway"

    def _unplaceable(self, who: int, line: int, events: list[Event]) -> None:
        pl = self.state.players[who]
        cite("duel.tiling.unplaceable")
        colour, n = pl.line_colour[line], pl.line_count[line]
        pl.line_colour[line], pl.line_count[line] = EMPTY, 0
        self._break(pl, colour, n, events, who, "duel.tiling.unplaceable")

    def _move_line_to_dome(self, who: int, line: int, cell: int, events: list[Event]) -> None:
        s = self.state
        pl = s.players[who]
        colour, count = pl.line_colour[line], pl.line_count[line]
        cite("duel.tiling.move-rightmost")
        if pl.dome_space[cell] == WILD:
            cite("duel.tiling.joker-space")
        pl.dome_tile[cell] = colour
        pl.line_colour[line], pl.line_count[line] = EMPTY, 0
        if count > 1:
            cite("duel.tiling.discard-rest")
            s.tower[colour] += count - 1
        points = tile_points(pl.dome_tile, cell)
        pl.score += points
        events.append(Event("score", "duel.tiling.move-rightmost", who, points,
                            f"{COLOURS[colour]} to row {line + 1} column {cell % 6 + 1}"))
        slot = CELL_SLOT[cell]
        plate_cells = SLOT_CELLS[slot]
        special = [c for c in plate_cells if pl.dome_space[c] == SPECIAL]
        if special and pl.dome_tile[special[0]] == EMPTY and all(
                pl.dome_tile[c] != EMPTY for c in plate_cells if c != special[0]):
            cite("duel.plate.special-space")
            cite("duel.score.special-no-adjacency")
            pl.dome_tile[special[0]] = SPECIAL
            s.special_supply -= 1
            row = special[0] // 6
            bonus = special_row_points(self.rules, row)
            pl.score += bonus
            events.append(Event("score", "duel.plate.special-space", who, bonus,
                                f"Special tile in row {row + 1}"))

    def _penalties(self, who: int, events: list[Event]) -> None:
        s = self.state
        pl = s.players[who]
        if pl.broken:
            n = len(pl.broken)
            loss = broken_penalty(self.rules, n)
            self._lose(pl, loss, who, events, "duel.score.broken-penalty", f"{n} broken tiles")
            for colour in pl.broken:
                s.tower[colour] += 1
            pl.broken = []
        if pl.start_tile:
            cite("duel.score.start-player-tile")
            self._lose(pl, 2, who, events, "duel.score.start-player-tile", "Starting player tile")

    def _lose(self, pl: Player, loss: int, who: int, events: list[Event], clause: str, why: str) -> None:
        actual = min(loss, pl.score)
        if actual < loss:
            cite("duel.score.floor")
        pl.score -= actual
        events.append(Event("penalty", clause, who, -actual, why + (f" (floor: {loss} due)" if actual < loss else "")))
