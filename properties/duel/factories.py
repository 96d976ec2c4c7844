"""Structural invariants of the Factories and the supplies, and what must be back in place when a
round starts (state checks take a Game; step checks take the states before and after)."""

from __future__ import annotations

from model.duel.actions import Action, Kind
from model.duel.colours import COLOURS
from model.duel.engine import Game
from model.duel.state import GameState

# --- state invariants -------------------------------------------------------------------------

def moon_after_sun(game: Game) -> list[str]:
    """A Factory's moon holds tiles only once its sun has been picked (so its sun is empty)."""
    s = game.state
    out = []
    if any(s.large.moon) and any(s.large.sun):
        out.append("the large Factory's moon holds tiles while its sun is still full")
    for f, fac in enumerate(s.small, 1):
        if fac.moon and any(fac.sun):
            out.append(f"small Factory {f}'s moon holds tiles while its sun is still full")
    return out


def chip_revealed_when_empty(game: Game) -> list[str]:
    """A Bonus chip is face up exactly when its small Factory has no tiles left (during Acquisition;
    while the picker still holds that Factory's leftovers to stack, it is neither)."""
    s = game.state
    out = []
    stacking = s.pending.data[0] if s.pending is not None and s.pending.kind == "stack" else None
    for f, fac in enumerate(s.small, 1):
        if fac.chip_revealed and fac.has_tiles:
            out.append(f"the chip of small Factory {f} is face up while tiles lie on it")
        if s.phase == "acquisition" and fac.chip and not fac.chip_revealed and not fac.has_tiles and f != stacking:
            out.append(f"small Factory {f} is empty but its chip C{fac.chip:02d} is still face down")
    return out


def supplies_never_negative(game: Game) -> list[str]:
    s = game.state
    counts = [("bag", s.bag), ("Tower", s.tower), ("large sun", s.large.sun), ("large moon", s.large.moon),
              *((f"small sun {f}", fac.sun) for f, fac in enumerate(s.small, 1))]
    out = []
    if min(min(c) for _, c in counts) < 0:
        out += [f"{name} holds {n} {COLOURS[c]} tiles" for name, cs in counts for c, n in enumerate(cs) if n < 0]
    if s.special_supply < 0:
        out.append(f"the Special tile supply holds {s.special_supply}")
    for who, pl in enumerate(s.players):
        if pl.chips_this_round < 0 or pl.tokens_used < 0 or min(pl.line_count) < 0:
            out.append(f"P{who + 1} has a negative count (chips this round, tokens or a pattern line)")
    if len(s.chip_supply) > 20 or len(s.pile) > 18:
        out.append("a supply holds more than all its components")
    return out


# --- step invariants --------------------------------------------------------------------------

def refill_violations(s: GameState, game: Game, unavoidable_ok: bool = True) -> list[str]:
    """The Factories just after a refill (setup, or Preparation): full suns, empty moons, a face-down
    chip on each small Factory, and a large Factory that is not one colour unless that was unavoidable
    under duel.refill.monochrome-unavoidable."""
    out = []
    ran_out = not any(s.bag) and not any(s.tower)
    large = sum(s.large.sun)
    alt = game.rules.choices["duel.refill.monochrome-unavoidable"]
    # Unavoidable: the bag held nothing but that colour when the redraw was due. When the Tower was
    # not tipped into the bag during the refill (it still holds tiles), the bag then held exactly the
    # tiles now in the bag and on the small Factories when these are drawn after the large one
    # (duel.prep.refill-order=large-first), and only those now in the bag when they are drawn first.
    large_first = game.rules.choices["duel.prep.refill-order"] == "large-first"
    rest = [s.bag[c] + (sum(f.sun[c] for f in s.small) if large_first else 0) for c in range(5)]

    # Under restock-from-tower a Tower holding another colour is tipped in for the redraw.
    supply = [rest[c] + s.tower[c] for c in range(5)] if alt == "restock-from-tower" else rest

    def unavoidable(colour: int | None) -> bool:
        if not any(s.tower):
            return True                      # the Tower was emptied: cannot be told from the position
        return all(n == 0 for c, n in enumerate(supply) if c != colour)
    if any(s.large.moon) or any(f.moon for f in s.small):
        out.append("a moon holds tiles right after the refill")
    if large != 5 and not ran_out:
        if not (large == 0 and alt == "leave-empty" and unavoidable(max(range(5), key=lambda c: rest[c]))):
            out.append(f"the large Factory's sun holds {large} tiles after the refill, not 5")
    if large == 5 and max(s.large.sun) == 5:
        mono = s.large.sun.index(5)
        if alt == "leave-empty" or not unavoidable(mono):
            out.append(f"the large Factory was refilled with 5 {COLOURS[mono]} tiles "
                       f"(duel.refill.monochrome-unavoidable={alt})")
    for f, fac in enumerate(s.small, 1):
        if sum(fac.sun) != 4 and not ran_out:
            out.append(f"small Factory {f}'s sun holds {sum(fac.sun)} tiles after the refill, not 4")
        if not fac.chip and s.chip_supply:
            out.append(f"small Factory {f} got no Bonus chip")
        if fac.chip and fac.chip_revealed != (not fac.has_tiles):
            out.append(f"small Factory {f}'s chip is {'face up' if fac.chip_revealed else 'face down'} after the refill")
    return out


def round_reset_violations(s: GameState) -> list[str]:
    """What Preparation must have put back before the next round's first turn."""
    out = []
    if not s.large.start_tile:
        out.append("the Starting player tile is not back on the large Factory")
    for who, pl in enumerate(s.players):
        if pl.tokens_used:
            out.append(f"P{who + 1} has {pl.tokens_used} Player token(s) still on the Scoring board")
        if pl.broken:
            out.append(f"P{who + 1} starts the round with Broken tiles")
        if pl.passed or pl.chips_this_round:
            out.append(f"P{who + 1} starts the round passed or with chips counted")
    if s.pile and not all(s.display):
        out.append("the plate display is not refilled to 3")
    return out


def sun_picked_once(before: GameState, after: GameState, action: Action | None,
                    phases: tuple[str, ...]) -> list[str]:
    """A sun pick empties that sun; outside a refill no sun ever gains tiles (so each sun is picked
    at most once a round)."""
    if "preparation" in phases:
        return []                # a refill may fill any sun
    out = []
    suns_before = [before.large.sun] + [f.sun for f in before.small]
    suns_after = [after.large.sun] + [f.sun for f in after.small]
    if action is not None and action.kind is Kind.SUN and any(suns_after[action.args[0]]):
        out.append(f"'{action}' left tiles on that sun")
    for f, (a, b) in enumerate(zip(suns_before, suns_after, strict=True)):
        if a != b and sum(b) > sum(a):          # an unchanged sun gained nothing
            label = "the large Factory" if f == 0 else f"small Factory {f}"
            out.append(f"{label}'s sun gained tiles outside a refill")
    return out


def picks_take_all(before: GameState, after: GameState, action: Action | None) -> list[str]:
    """A sun pick takes every tile of its colour from that sun; a moon pick takes every exposed tile
    of its colour (the top tile of each small moon, each such tile of the large moon) and nothing
    under a top tile."""
    if action is None or action.kind not in (Kind.SUN, Kind.MOON):
        return []
    p = after.pending
    hand = (p.data[-2], p.data[-1]) if p is not None and p.kind in ("line", "stack") else None
    if action.kind is Kind.SUN:
        f, colour = action.args
        sun = before.large.sun if f == 0 else before.small[f - 1].sun
        want = (colour, sun[colour])
        return [] if hand == want else [f"'{action}' put {hand} in hand, not all {sun[colour]} {COLOURS[colour]}"]
    colour = action.args[0]
    out = []
    n = before.large.moon[colour]
    if after.large.moon[colour]:
        out.append(f"'{action}' left {COLOURS[colour]} tiles on the large moon")
    for f, (old, new) in enumerate(zip(before.small, after.small, strict=True), 1):
        if old.moon and old.moon[-1] == colour:
            n += 1
            if new.moon != old.moon[:-1]:
                out.append(f"'{action}' took from small moon {f} more or less than its top tile")
        elif new.moon != old.moon:
            out.append(f"'{action}' changed small moon {f}, whose top tile is not {COLOURS[colour]}")
    if hand != (colour, n):
        out.append(f"'{action}' put {hand} in hand, not the {n} exposed {COLOURS[colour]} tiles")
    return out


def line_placement(before: GameState, after: GameState, action: Action | None,
                   phases: tuple[str, ...]) -> list[str]:
    """Placing picked tiles: all on the chosen line as far as it has room (or the chosen number under
    any-split), the rest on the Broken tiles space up to 4, beyond that into the Tower; no other line
    changes. Checked when the placement does not also end Acquisition (Dome-tiling then moves lines)."""
    p = before.pending
    if action is None or action.kind is not Kind.LINE or p is None or p.kind != "line" or len(phases) > 1:
        return []
    colour, n = p.data
    old, new = before.players[p.player], after.players[p.player]
    line = action.args[0]
    placed = 0
    if line:
        room = line - old.line_count[line - 1]
        placed = min(n, room) if len(action.args) == 1 else action.args[1]
    over = n - placed
    kept = min(over, 4 - len(old.broken))
    want_counts = list(old.line_count)
    want_colours = list(old.line_colour)
    if line:
        want_counts[line - 1] += placed
        want_colours[line - 1] = colour
    out = []
    if new.line_count != want_counts or new.line_colour != want_colours:
        out.append(f"'{action}' with {n} {COLOURS[colour]}: lines hold {new.line_count}, expected {want_counts}")
    if new.broken != old.broken + [colour] * kept:
        out.append(f"'{action}': {len(new.broken) - len(old.broken)} tiles broken, expected {kept}")
    if after.tower[colour] - before.tower[colour] != over - kept:
        out.append(f"'{action}': {after.tower[colour] - before.tower[colour]} tiles to the Tower, expected {over - kept}")
    return out


def start_tile_moves(before: GameState, after: GameState, action: Action | None,
                     phases: tuple[str, ...]) -> list[str]:
    """The Starting player tile leaves the large Factory only with a moon pick that takes at least
    one tile from the large moon, and then goes to the picker; during Acquisition nothing else
    moves it (duel.acquire.moon.start-player-tile). Preparation puts it back (round-reset)."""
    if action is None or before.phase != "acquisition" or "preparation" in phases:
        return []

    def holder(s: GameState) -> str:
        where = [f"P{i + 1}" for i, pl in enumerate(s.players) if pl.start_tile]
        return "+".join((["the large Factory"] if s.large.start_tile else []) + where) or "nowhere"

    def places(s: GameState) -> tuple[bool, ...]:          # where it lies, in a form cheap to compare
        return (s.large.start_tile, *(pl.start_tile for pl in s.players))

    if places(before) == places(after) and not (action.kind is Kind.MOON and before.large.start_tile
                                                  and before.large.moon[action.args[0]]):
        return []                 # not moved, and no pick that must move it (most steps)
    was, now = holder(before), holder(after)
    if action.kind is Kind.MOON and before.large.start_tile and before.large.moon[action.args[0]]:
        picker = f"P{before.to_move + 1}"
        if now != picker:
            return [f"'{action}' took {COLOURS[action.args[0]]} from the large moon but the Starting "
                    f"player tile is with {now}, not the picker {picker}"]
        return []
    if now != was:
        took = "a moon pick with no tile from the large moon" if action.kind is Kind.MOON else f"'{action}'"
        return [f"{took} moved the Starting player tile from {was} to {now}"]
    return []


def pile_order(before: GameState, after: GameState, action: Action | None,
               phases: tuple[str, ...]) -> list[str]:
    """The plate pile: a draw takes exactly its top plate into the hand; plates go back under the
    pile in the order the player returns them (duel.acquire.plate.draw, duel.acquire.plate.keep-one);
    only a display refill (setup's opening picks, Preparation) takes further plates, from the top."""
    if action is None:
        return []
    want = list(before.pile)
    p = before.pending
    out = []
    if action.kind is Kind.DRAW_PLATE:
        if not want:
            return [f"'{action}' drew from an empty pile"]
        top, want = want[0], want[1:]
        hand = after.pending.extra if after.pending is not None else ()
        if not hand or hand[-1] != top:
            out.append(f"'{action}' did not put the top plate P{top:02d} in hand (hand: {list(hand)})")
    elif action.kind is Kind.RETURN_PLATE and p is not None:
        rest = [x for x in p.extra if x != action.args[0]]
        want += [action.args[0]] + (rest if len(rest) == 1 else [])
    elif action.kind is Kind.PLACE_PLATE and p is not None and not p.data[1] and len(p.extra) == 1:
        want += list(p.extra)
    refilled = len(want) - len(after.pile)
    may_refill = "preparation" in phases or (before.phase == "setup" and action.kind is Kind.PLACE_PLATE)
    if not 0 <= refilled <= 3 or after.pile != want[refilled:]:
        out.append(f"after '{action}' the pile is {_plates(after.pile)}, expected {_plates(want)} "
                   "(less at most the top 3 for a display refill)")
    elif refilled and not may_refill:
        out.append(f"'{action}' took {refilled} plate(s) off the top of the pile outside a display refill")
    return out


def _plates(pile: list[int]) -> str:
    return "[" + " ".join(f"P{x:02d}" for x in pile) + "]"


def factories_empty_at_phase_end(before: GameState, action: Action | None) -> list[str]:
    """At the moment Acquisition ends, no tile and no Bonus chip is left on any Factory (the
    Starting player tile may be: duel.acquire.end.start-tile). Read from the state before the phase's
    last action plus that action: the last action is a placement, a chip, a pass or a plate, and only
    a chip changes a Factory; the state after the step may already be refilled."""
    if action is None:
        return []
    taken = action.args[0] if action.kind is Kind.CHIP else 0
    out = []
    if any(before.large.sun) or any(before.large.moon):
        out.append(f"the large Factory still holds {sum(before.large.sun) + sum(before.large.moon)} tile(s)")
    for f, fac in enumerate(before.small, 1):
        if any(fac.sun) or fac.moon:
            out.append(f"small Factory {f} still holds {sum(fac.sun) + len(fac.moon)} tile(s)")
        if fac.chip and f != taken:
            out.append(f"small Factory {f} still holds its Bonus chip C{fac.chip:02d}")
    return [f"Acquisition ended in round {before.round} while {m}" for m in out]
