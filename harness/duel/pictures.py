"""Board pictures of a scenario, step by step: the given position and the position after each step,
as SVG files (and an HTML page showing them in order)."""

from __future__ import annotations

from html import escape
from pathlib import Path
from typing import Any

import attrs

from harness.duel.board_svg import board_svg
from harness.duel.scenarios.loader import Scenario
from model.events import Event


@attrs.frozen
class Picture:
    label: str        # "given", "after step 3: ..."
    file: str         # file name inside the folder
    scoring: tuple[str, ...] = ()   # the step's score events (points won or lost), as the engine reported them
    scores: tuple[int, ...] = ()    # every player's score after the step


SCORE_KINDS = ("score", "penalty", "tablet")    # events that change a score (or say why it did not)


def score_events(events: list[Event]) -> tuple[str, ...]:
    """The events of a step that score: those with points, and the scoring kinds even at 0 points."""
    return tuple(str(e) for e in events if e.points or e.kind in SCORE_KINDS)


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
    pictures = [_write(folder, 0, "given", board_svg(game.state, tables, f"{scenario.id}: given"),
                       scores=_scores(game))]
    if not steps:
        return pictures
    for n, step in enumerate(scenario.steps, 1):
        if getattr(game, "stopped", None) is not None:
            break
        if step.error:
            continue                 # a refused action leaves the position unchanged
        events: list[Event] = []
        try:
            events = game.apply(parse_action(step.action))
        except (IllegalAction, ValueError) as exc:
            raise PictureError(f"{scenario.file}: {step.field}: {exc}") from None
        except PhaseEnded:
            pass                     # the scenario stops at a phase's end: the step's events are cut short
        label = f"after {step.field}: {step.action}"
        pictures.append(_write(folder, n, label, board_svg(game.state, tables, f"{scenario.id}: {label}"),
                               score_events(events), _scores(game)))
    return pictures


def _scores(game: Any) -> tuple[int, ...]:
    return tuple(p.score for p in game.state.players)


def _write(folder: Path, n: int, label: str, svg: str, scoring: tuple[str, ...] = (),
           scores: tuple[int, ...] = ()) -> Picture:
    name = f"{n:02d}-{'given' if n == 0 else 'step'}.svg"
    (folder / name).write_text(svg)
    return Picture(label, name, scoring, scores)


def pictures_page(title: str, description: str, pictures: list[Picture]) -> str:
    """A small static page showing the pictures in order (for the report's links)."""
    items = "\n".join(f'<section id="p{k}"><h2>{escape(p.label)}</h2>{_scoring(k, p)}'
                      f'<img src="{escape(p.file)}" alt="{escape(p.label)}" style="max-width:100%"></section>'
                      for k, p in enumerate(pictures))
    nav = " · ".join(f'<a href="#p{k}">{k}</a>' for k in range(len(pictures)))
    return (f'<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>{escape(title)}</title>'
            '<style>body{font-family:system-ui,sans-serif;max-width:940px;margin:1rem auto;color:#1d2433}'
            'h2{font-size:1rem;margin:1.2rem 0 .3rem}ul.scoring{margin:.2rem 0;font-size:.9rem}'
            '.scores{color:#5b6475;font-size:.9rem;margin:.2rem 0}</style></head><body>'
            f'<p><a href="../../index.html">&larr; report</a></p><h1>{escape(title)}</h1>'
            f'<p>{escape(description)}</p><p>steps: {nav}</p>{items}</body></html>')


def _scoring(k: int, picture: Picture) -> str:
    """A step's score events (or that it scored nothing) and the scores after it, above its picture."""
    scores = ", ".join(f"P{i + 1} {sc}" for i, sc in enumerate(picture.scores))
    line = f'<p class="scores">scores: {escape(scores)}</p>' if scores else ""
    if k == 0:
        return line
    if not picture.scoring:
        return f'<p class="scores">no score events</p>{line}'
    events = "".join(f"<li>{escape(e)}</li>" for e in picture.scoring)
    return f'<ul class="scoring" aria-label="score events">{events}</ul>{line}'
