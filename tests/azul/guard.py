"""The clause record inside a block, for the classic guarding tests (tests/azul/test_guard_*.py): the
one shared helper in tests/helpers.py (the Duel guarding tests use it too)."""

from __future__ import annotations

from tests.helpers import Record, record

__all__ = ["Record", "record"]
