"""A terminal view of the table: factories, display, and both players' boards."""

from __future__ import annotations

from model.duel.colours import COLOURS, EMPTY, SPECIAL, WILD
from model.duel.engine import Game

LETTER = {0: "B", 1: "Y", 2: "R", 3: "K", 4: "T", WILD: "*", SPECIAL: "S", EMPTY: "."}


def _counts(counts: list[int]) -> str:
    return " ".join(f"{n}{COLOURS[c]}" for c, n in enumerate(counts) if n) or "-"


def render_text(game: Game) -> str:
    s = game.state
    out = [f"Round {s.round}, phase {s.phase}"
           + (f", to move: P{game.current_player + 1}" if game.current_player >= 0 else "")
           + (f", deciding: {s.pending.kind}" if s.pending else "")]
    out.append(f"  bag {sum(s.bag)} [{_counts(s.bag)}]  tower {sum(s.tower)}  pile {len(s.pile)}"
               f"  display {' '.join(f'P{p:02d}' if p else '--' for p in s.display)}"
               f"  chips in supply {len(s.chip_supply)}  special tiles {s.special_supply}")
    out.append(f"  L   sun [{_counts(s.large.sun)}] moon [{_counts(s.large.moon)}]"
               + ("  +Starting player tile" if s.large.start_tile else ""))
    for f, fac in enumerate(s.small, 1):
        chip = (f"C{fac.chip:02d}" + (" revealed" if fac.chip_revealed else " hidden")) if fac.chip else "no chip"
        stack = ",".join(COLOURS[c] for c in fac.moon) or "-"
        out.append(f"  {f}   sun [{_counts(fac.sun)}] moon [{stack}] ({chip})")
    for who, pl in enumerate(s.players):
        flags = [f"score {pl.score}", f"tokens used {pl.tokens_used}", f"chips {pl.chips_this_round} this round"]
        if pl.start_tile:
            flags.append("holds Starting player tile")
        if pl.passed:
            flags.append("passed")
        out.append(f"P{who + 1}{' (starter)' if who == s.starter else ''}: " + ", ".join(flags))
        for r in range(6):
            line = "".join("." for _ in range(r + 1 - pl.line_count[r]))
            line += LETTER[pl.line_colour[r]] * pl.line_count[r]
            dome = ""
            for c in range(6):
                cell = r * 6 + c
                space, tile = pl.dome_space[cell], pl.dome_tile[cell]
                dome += (LETTER[tile] if tile != EMPTY else LETTER[space].lower() if space != EMPTY else " ")
                dome += " " if c % 2 else ""
            out.append(f"   {line:>6} | {dome}")
        out.append(f"   broken [{','.join(COLOURS[c] for c in pl.broken)}]  chips "
                   f"{' '.join(f'C{c:02d}' for c in pl.chips) or '-'}  used {len(pl.used_chips)}"
                   f"  plates {' '.join(f'P{p:02d}r{pl.rotations[i]}' if p else '--' for i, p in enumerate(pl.plates))}")
    return "\n".join(out)
