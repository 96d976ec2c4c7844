"""`--game NAME` for every command that can work on more than one game: the name is checked against
the registry (unknown: one line with "did you mean"), and a command a game cannot do yet says so in
one line (exit 2) instead of a traceback."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import click

from harness.errors import UserError
from properties.registry import DEFAULT_GAME, GameEntry, UnknownGame, get_game

F = TypeVar("F", bound=Callable[..., Any])


def _check(ctx: click.Context, param: click.Parameter, value: str) -> str:
    try:
        return get_game(value).name
    except UnknownGame as exc:
        raise UserError(str(exc)) from None


def game_option(func: F) -> F:
    """The `--game` option (default: the default game), validated against the registry."""
    return click.option("--game", "game", default=DEFAULT_GAME, show_default=True, metavar="NAME",
                        callback=_check, expose_value=True,
                        help="Which game's rules (a registry name: duel, azul, ...).")(func)


def require(game: str, *fields: str, command: str) -> GameEntry:
    """The game's entry, or a UserError "game X cannot do COMMAND yet" when it lacks a field."""
    entry = get_game(game)
    missing = [f for f in fields if not entry.has(f)]
    if missing:
        raise UserError(f"game {game!r} cannot do `{command}` yet (its registry entry has no "
                        f"{', '.join(missing)}; docs/adding-a-game.md)")
    return entry


def parse_overrides(game: str, items: tuple[str, ...], players: int | None = None) -> dict[str, str]:
    """ID=ALT pairs, checked by starting a game with them (an unknown point or alternative is one line)."""
    from model.errors import RulesetError

    out: dict[str, str] = {}
    for text in items:
        if "=" not in text:
            raise UserError(f"expected INTERPRETATION=ALTERNATIVE, got {text!r}")
        key, _, value = text.partition("=")
        out[key.strip()] = value.strip()
    try:
        get_game(game).load("new_game")(seed=0, overrides=out, players=players)
    except RulesetError as exc:
        raise UserError(str(exc)) from None
    return out


def check_players(game: str, players: int | None) -> int:
    entry = get_game(game)
    if players is None:
        return entry.players[0]
    if players not in entry.players:
        raise UserError(f"{entry.title} is for {', '.join(map(str, entry.players))} players, not {players}")
    return players


def game_given() -> str | None:
    """The `--game` of the running command when it was given on the command line (not the default)."""
    ctx = click.get_current_context(silent=True)
    if ctx is None or ctx.get_parameter_source("game") != click.core.ParameterSource.COMMANDLINE:
        return None
    value = ctx.params.get("game")
    return value if isinstance(value, str) else None
