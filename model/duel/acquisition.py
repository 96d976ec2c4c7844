"""Phase 1 (Acquisition): what the actions do."""

from __future__ import annotations

from model.duel.base import GameBase
from model.clauses import RECORDER, cite, cite_alternative
from model.duel.colours import COLOURS
from model.duel.dome import matching_cells
from model.events import Event
from model.duel.state import SLOT_CELLS, Pending, Player
from model.duel.supply import refill_display


class Acquisition(GameBase):
    """Phase 1: the effects of the four actions, placement on pattern lines, turns, the end."""

    __slots__ = ()

    def _use_token(self, pl: Player) -> None:
        cite("duel.acquire.plate.token")
        cite("duel.acquire.actions")
        pl.tokens_used += 1

    def _place_plate(self, pl: Player, plate_id: int, slot: int, rot: int) -> None:
        cite("duel.acquire.plate.placement")
        spaces = self.rules.tables.plates[plate_id - 1].rotations[rot]
        pl.plates[slot] = plate_id
        pl.rotations[slot] = rot
        for cell, space in zip(SLOT_CELLS[slot], spaces, strict=True):
            pl.dome_space[cell] = space

    def _sun_pick(self, who: int, f: int, c: int, events: list[Event]) -> None:
        s = self.state
        cite("duel.acquire.sun.take-colour")
        cite("duel.acquire.actions")
        if f == 0:
            sun = s.large.sun
            n = sun[c]
            sun[c] = 0
            if any(sun):
                cite("duel.acquire.sun.large-leftovers")
                for x in range(5):
                    s.large.moon[x] += sun[x]
                    sun[x] = 0
            s.pending = Pending("line", who, (c, n), ())
            return
        fac = s.small[f - 1]
        n = fac.sun[c]
        fac.sun[c] = 0
        leftover = tuple(x for x in range(5) for _ in range(fac.sun[x]))
        fac.sun = [0, 0, 0, 0, 0]
        if not leftover:
            cite("duel.acquire.sun.reveal-monochrome")
            self._reveal(f, events, "duel.acquire.sun.reveal-monochrome")
            s.pending = Pending("line", who, (c, n), ())
        elif len(set(leftover)) == 1:
            cite("duel.acquire.sun.small-leftovers")
            fac.moon = list(leftover)
            s.pending = Pending("line", who, (c, n), ())
        else:
            s.pending = Pending("stack", who, (f, c, n), leftover)

    def _reveal(self, f: int, events: list[Event], clause: str) -> None:
        fac = self.state.small[f - 1]
        cite("duel.acquire.chip.accessible")
        if fac.chip and not fac.chip_revealed:
            fac.chip_revealed = True
            events.append(Event("reveal-chip", clause, detail=f"Factory {f} is empty: C{fac.chip:02d} revealed"))

    def _moon_pick(self, who: int, c: int, events: list[Event]) -> None:
        s = self.state
        cite("duel.acquire.moon.take-colour")
        cite("duel.acquire.actions")
        n = 0
        for f, fac in enumerate(s.small, 1):
            if fac.moon and fac.moon[-1] == c:
                fac.moon.pop()
                n += 1
                if c in fac.moon:
                    cite("duel.acquire.moon.top-tile-only")
                if not fac.moon:
                    cite("duel.acquire.moon.reveal-chip")
                    self._reveal(f, events, "duel.acquire.moon.reveal-chip")
        if s.large.moon[c]:
            n += s.large.moon[c]
            s.large.moon[c] = 0
            if s.large.start_tile:
                cite("duel.acquire.moon.start-player-tile")
                s.large.start_tile = False
                s.players[who].start_tile = True
                events.append(Event("start-tile", "duel.acquire.moon.start-player-tile", who,
                                    detail="takes the Starting player tile"))
        s.pending = Pending("line", who, (c, n), ())

    def _break(self, pl: Player, colour: int, n: int, events: list[Event], who: int, clause: str) -> None:
        if n <= 0:
            return
        cite(clause)
        room = 4 - len(pl.broken)
        kept = min(room, n)
        pl.broken.extend([colour] * kept)
        if n > kept:
            cite("duel.broken.capacity")
            self.state.tower[colour] += n - kept
        events.append(Event("broken", clause, who, detail=f"{n} {COLOURS[colour]} broken"
                            + (f", {n - kept} to the Tower" if n > kept else "")))

    def _place_tiles(self, who: int, colour: int, n: int, args: tuple[int, ...], events: list[Event]) -> None:
        pl = self.state.players[who]
        cite("duel.lines.one-line")
        line = args[0]
        if line == 0:
            self._break(pl, colour, n, events, who, "duel.broken.stack")
            return
        i = line - 1
        cite("duel.lines.capacity")
        cite("duel.lines.right-to-left")
        if pl.line_count[i]:
            cite("duel.lines.same-colour")
        room = line - pl.line_count[i]
        placed = min(n, room) if len(args) == 1 else args[1]
        if len(args) > 1:
            cite_alternative("duel.lines.voluntary-break", "any-split")
        elif n > 1 and not self.rules.any_split:
            cite_alternative("duel.lines.voluntary-break", "whole-batch")
        pl.line_colour[i] = colour
        pl.line_count[i] += placed
        if RECORDER.enabled and not matching_cells(pl, i, colour):
            cite("duel.lines.premature")
        events.append(Event("line", "duel.lines.one-line", who, detail=f"{placed} {COLOURS[colour]} on line {line}"))
        if n > placed:
            self._break(pl, colour, n - placed, events, who,
                        "duel.lines.overflow" if placed == room else "duel.broken.stack")

    def _end_turn(self, who: int, events: list[Event]) -> None:
        s, rules = self.state, self.rules
        s.pending = None
        if self._acquisition_over():
            self._change_phase("dome_tiling", events)
            self._start_tiling(events)
            return
        nxt = -1
        for cand in (1 - who, who):
            pl = s.players[cand]
            if not pl.passed:
                nxt = cand
                break
            if not rules.pass_permanent and self._can_act(cand):
                cite_alternative("duel.acquire.pass.permanent", "recheck")
                pl.passed = False
                nxt = cand
                break
        if nxt == who and s.players[1 - who].passed:
            cite("duel.acquire.pass.asymmetric")
        elif nxt >= 0:
            cite("duel.acquire.turn-order")
        s.to_move = nxt
        if nxt < 0:
            events.append(Event("stalled", "duel.acquire.end", detail="nobody can act and the phase cannot end"))

    def _acquisition_over(self) -> bool:
        s, rules = self.state, self.rules
        small = s.small
        # A chip stays on its Factory until taken, so this first test settles most calls cheaply.
        if small[0].chip or small[1].chip or small[2].chip or small[3].chip:
            return False
        if s.large.has_tiles or any(f.has_tiles for f in small):
            return False
        if s.round < 5:
            for pl in s.players:
                if pl.tokens_used < 2:
                    if pl.passed and rules.strict_tokens:
                        cite_alternative("duel.acquire.end.passed-tokens", "strict")
                    if not pl.passed or rules.strict_tokens:
                        return False
                    cite_alternative("duel.acquire.end.passed-tokens", "pass-counts-as-done")
        cite("duel.acquire.end")
        if s.round < 5:
            cite("duel.acquire.plate.tokens-required")
        return True

    def _after_opening_pick(self, events: list[Event]) -> None:
        s = self.state
        refill_display(s, "duel.setup.opening-plates")
        s.opening_picks += 1
        if s.opening_picks == 1:
            s.pending = Pending("opening", s.starter)
            return
        self._change_phase("acquisition", events)
        s.to_move = s.starter
