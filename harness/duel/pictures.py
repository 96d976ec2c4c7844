"""Board pictures of a scenario, step by step: the given position and the position after each step,
as SVG files (and an HTML page showing them in order)."""

from __future__ import annotations

from html import escape
from pathlib import Path

import attrs

from harness.duel.board_svg import board_svg
from harness.duel.scenarios.loader import Scenario


@attrs.frozen
class Picture:
    label: str        # "given", "after step 3: ..."
    file: str         # file name inside the folder


class PictureError(Exception):
    """The scenario cannot be drawn (its position or a step is not legal)."""


def scenario_pictures(scenario: Scenario, folder: Path, steps: bool = True) -> list[Picture]:
    """Write `folder/00-given.svg` and, with `steps`, `folder/NN-step.svg` after each step."""
    from harness.duel.scenarios.position import build_game
    from harness.duel.scenarios.stops import PhaseEnded
    from harness.scenarios import ScenarioError
    from model.duel import IllegalAction, parse_action

    folder.mkdir(parents=True, exist_ok=True)
    try:
        game, _ = build_game(scenario)
    except ScenarioError as exc:
        raise PictureError(str(exc)) from None
    tables = game.rules.tables
    pictures = [_write(folder, 0, "given", board_svg(game.state, tables, f"{scenario.id}: given"))]
    if not steps:
        return pictures
    for n, step in enumerate(scenario.steps, 1):
        if getattr(game, "stopped", None) is not None:
            break
        if step.error:
            continue                 # a refused action leaves the position unchanged
        try:
            game.apply(parse_action(step.action))
        except (IllegalAction, ValueError) as exc:
            raise PictureError(f"{scenario.file}: {step.field}: {exc}") from None
        except PhaseEnded:
            pass
        label = f"after {step.field}: {step.action}"
        pictures.append(_write(folder, n, label, board_svg(game.state, tables, f"{scenario.id}: {label}")))
    return pictures


def _write(folder: Path, n: int, label: str, svg: str) -> Picture:
    name = f"{n:02d}-{'given' if n == 0 else 'step'}.svg"
    (folder / name).write_text(svg)
    return Picture(label, name)


def pictures_page(title: str, description: str, pictures: list[Picture]) -> str:
    """A small static page showing the pictures in order (for the report's links)."""
    items = "\n".join(f'<section id="p{k}"><h2>{escape(p.label)}</h2><img src="{escape(p.file)}" alt="{escape(p.label)}" '
                      f'style="max-width:100%"></section>' for k, p in enumerate(pictures))
    nav = " · ".join(f'<a href="#p{k}">{k}</a>' for k in range(len(pictures)))
    return (f'<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>{escape(title)}</title>'
            '<style>body{font-family:system-ui,sans-serif;max-width:940px;margin:1rem auto;color:#1d2433}'
            'h2{font-size:1rem;margin:1.2rem 0 .3rem}</style></head><body>'
            f'<p><a href="../../index.html">&larr; report</a></p><h1>{escape(title)}</h1>'
            f'<p>{escape(description)}</p><p>steps: {nav}</p>{items}</body></html>')
