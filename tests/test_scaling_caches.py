"""Memory stays bounded however long a campaign runs (issue 13): every cache in the Duel model
either has a size limit or is keyed by something with few possible values."""

from __future__ import annotations

import importlib
import pkgutil
from typing import Any

import model.duel
from model.duel.actions import ACTION_CACHE_SIZE, act
from properties.simulate import run_campaign

# Unbounded caches whose keys have few possible values: a Factory's sun contents, the exposed moon
# colours (at most 2^5), a small Factory's leftover tiles, the phase graph (no argument).
FEW_KEYS = {"_sun_actions", "_moon_actions", "_stack_orders", "phase_graph"}


def _caches() -> dict[str, Any]:
    found: dict[str, Any] = {}
    for info in pkgutil.iter_modules(model.duel.__path__, "model.duel."):
        module = importlib.import_module(info.name)
        for name, obj in vars(module).items():
            if callable(getattr(obj, "cache_info", None)) and getattr(obj, "__module__", "") == info.name:
                found[name] = obj
    return found


def test_every_duel_cache_is_bounded_or_has_few_keys() -> None:
    caches = _caches()
    assert "act" in caches
    unbounded = {name for name, fn in caches.items() if fn.cache_info().maxsize is None}
    assert unbounded <= FEW_KEYS, f"caches without a limit: {sorted(unbounded - FEW_KEYS)}"


def test_the_action_cache_that_bonus_chip_sets_feed_stays_within_its_limit() -> None:
    """Bonus-chip combinations (up to 2^20) would grow an unbounded action cache game after game."""
    assert act.cache_info().maxsize == ACTION_CACHE_SIZE and ACTION_CACHE_SIZE <= 1 << 16
    run_campaign(12, seed=0, jobs=1)
    assert act.cache_info().currsize <= ACTION_CACHE_SIZE
    assert all(fn.cache_info().currsize < 5_000 for name, fn in _caches().items() if name in FEW_KEYS)
