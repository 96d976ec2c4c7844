"""After wall-tiling: floor penalties, the end of the game (bonuses) or the next round's
preparation (refill, marker to the centre)."""

from __future__ import annotations

from model.azul.colours import EMPTY, MARKER, ROWS
from model.azul.dead_game import walls_can_change
from model.azul.phases import change_phase
from model.azul.ruleset import Ruleset
from model.azul.scoring import FLOOR_PENALTIES, floor_penalty
from model.azul.state import CENTRE, NOBODY, OFFER, OVER, AzulState
from model.azul.supply import fill_factories
from model.azul.walls import complete_colours, complete_columns, complete_rows
from model.chance import Chance
from model.clauses import cite, cite_alternative
from model.events import Event, ev


def finish_round(state: AzulState, rules: Ruleset, chance: Chance, events: list[Event]) -> None:
    ending = any(b.row_full(r) for b in state.boards for r in range(ROWS) if b.wall[r * ROWS] != EMPTY)
    if ending and rules.skip_final_floor:
        cite_alternative("azul.end.final-floor", "skipped")
    else:
        if ending:
            cite_alternative("azul.end.final-floor", "scored")
            # rule: azul.end.bonus-order
            if _bonus_order_decides(state, rules):
                cite_alternative("azul.end.bonus-order", "bonuses-then-floor" if rules.bonuses_first
                                 else "floor-then-bonuses")
            if rules.bonuses_first:
                add_bonuses(state, events)
        score_floors(state, rules, events)
    if ending:
        cite("azul.end.trigger")
        end_game(state, events, bonuses=not (rules.bonuses_first and not rules.skip_final_floor))
        return
    # Nothing free at all (bag and lid empty) is azul.prep.empty-round's case, decided below.
    if (any(state.bag) or any(state.lid)) and not walls_can_change(state, rules):
        dead_game(state, rules, events)
        return
    cite("azul.prep.continue")
    state.round += 1
    next_starter(state, rules)
    fill_factories(state, chance, events, "azul.prep.refill", rules.round_robin_fill)
    if not state.tiles_on_offer():
        empty_round(state, rules, events)
        return
    start_round(state, events)


def _bonus_order_decides(state: AzulState, rules: Ruleset) -> bool:
    """Whether adding the bonuses before the last floor penalties changes a score: only when the
    penalties exceed the score (the floor at 0 then swallows part of them) and bonuses are due."""
    for board in state.boards:
        if not board.floor:
            continue
        wall = board.wall
        bonus = 2 * complete_rows(wall) + 7 * complete_columns(wall) + 10 * complete_colours(wall)
        if bonus and _quiet_penalty(board.floor, rules.marker_cost) > board.score:
            return True
    return False


def _quiet_penalty(floor: list[int], marker_cost: str) -> int:
    """floor_penalty's value without citing anything (it only decides whether a point is cited)."""
    cost = 0
    for space, token in enumerate(floor):
        if token != MARKER or marker_cost == "space-value":
            cost += FLOOR_PENALTIES[space]
        elif marker_cost == "one-point":
            cost += 1
    return cost


def score_floors(state: AzulState, rules: Ruleset, events: list[Event]) -> None:
    for who, board in enumerate(state.boards):
        beside = (rules.marker_beside_floor and state.marker == who and MARKER not in board.floor
                  and rules.marker_cost != "one-point-at-pick")
        if not board.floor and not beside:
            continue
        penalty = floor_penalty(board.floor, rules.marker_cost)
        if beside:                  # the marker kept beside a full floor line still costs its point
            cite_alternative("azul.offer.marker-on-full-floor", "beside-floor-one-point")
            penalty += 1
        new = board.score - penalty
        if new < 0:
            cite("azul.score.floor")
            new = 0
        events.append(ev("penalty", "azul.floor.penalties", who, new - board.score, f"{len(board.floor)} on the floor"))
        board.score = new
        cite("azul.floor.discard")
        for token in board.floor:
            if token == MARKER:
                cite("azul.floor.marker-kept")      # state.marker stays with this player
            else:
                state.lid[token] += 1
        board.floor.clear()


def next_starter(state: AzulState, rules: Ruleset) -> None:
    if state.marker != CENTRE:
        cite("azul.floor.marker-kept")
        state.starter = state.marker
    elif rules.next_clockwise:
        cite_alternative("azul.offer.marker-untaken", "next-clockwise")
        state.starter = (state.starter + 1) % state.players
    else:
        cite_alternative("azul.offer.marker-untaken", "same-starter")


def start_round(state: AzulState, events: list[Event]) -> None:
    cite("azul.offer.marker-to-centre")
    state.marker = CENTRE
    change_phase(state, OFFER)
    state.to_move = state.starter
    events.append(ev("phase", "azul.offer.marker-to-centre", state.starter, 0, f"round {state.round}: factory offer"))


def empty_round(state: AzulState, rules: Ruleset, events: list[Event]) -> None:
    """Bag, lid and every factory empty at a round's start: nothing can come out."""
    cite("azul.prep.partial-fill")
    state.marker = CENTRE
    if rules.stall_on_empty:
        cite_alternative("azul.prep.empty-round", "stall")
        change_phase(state, OFFER)
        state.to_move = NOBODY
        events.append(ev("stall", "azul.prep.partial-fill", None, 0, f"round {state.round} has no tiles to offer"))
        return
    cite_alternative("azul.prep.empty-round", "end-game")
    events.append(ev("empty-round", "azul.prep.partial-fill", None, 0, f"round {state.round} has no tiles: the game ends"))
    end_game(state, events)


def dead_game(state: AzulState, rules: Ruleset, events: list[Event]) -> None:
    """No tile can ever reach a wall again (model.azul.dead_game), so no row can ever be completed:
    checked after each round's floor scoring, before the next round is prepared."""
    cite("azul.end.trigger")
    if rules.stall_on_dead:
        cite_alternative("azul.end.dead-game", "stall")
        change_phase(state, OFFER)
        state.to_move = NOBODY
        events.append(ev("stall", "azul.end.trigger", None, 0, f"after round {state.round} no tile can ever reach a wall: stalled"))
        return
    cite_alternative("azul.end.dead-game", "end-game")
    events.append(ev("dead-game", "azul.end.trigger", None, 0, f"after round {state.round} no tile can ever reach a wall: the game ends"))
    end_game(state, events)


def end_game(state: AzulState, events: list[Event], *, bonuses: bool = True) -> None:
    if bonuses:
        add_bonuses(state, events)
    change_phase(state, OVER)
    state.to_move = NOBODY
    events.append(ev("phase", "azul.end.trigger", None, 0, f"game over after round {state.round}"))


def add_bonuses(state: AzulState, events: list[Event]) -> None:
    for who, board in enumerate(state.boards):
        wall = board.wall
        for clause, count, each in (("azul.end.bonus-row", complete_rows(wall), 2),
                                    ("azul.end.bonus-column", complete_columns(wall), 7),
                                    ("azul.end.bonus-colour", complete_colours(wall), 10)):
            cite(clause)
            if count:
                board.score += count * each
                events.append(ev("bonus", clause, who, count * each, f"{count} x {each}"))
