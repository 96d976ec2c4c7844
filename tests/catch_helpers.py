"""Planting a broken engine for the catch tests of every game: the checks must report the break."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest


def corrupt_at(monkeypatch: pytest.MonkeyPatch, game_class: type, step: int, corrupt: Callable[[Any], None]) -> None:
    """A broken engine: the `step`-th action `game_class` plays also runs `corrupt` on its state."""
    original = game_class.apply
    played = [0]

    def apply(self: Any, action: Any) -> Any:
        events = original(self, action)
        played[0] += 1
        if played[0] == step:
            corrupt(self.state)
        return events
    monkeypatch.setattr(game_class, "apply", apply)
