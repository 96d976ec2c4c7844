"""Classic Azul play policies: `uniform` only. The rare interpretation rows (a marker taken onto a
full floor, a short refill, a round nobody takes from the centre, a dead game, a round prepared with
no tile at all) are decided by the search's committed witnesses (fixtures/azul/witnesses/); the
last one is found by the round-level explorer properties/azul/lockup_explorer.py, which replaced
the `lock-up` policy."""

from __future__ import annotations

from properties.policies import BASE_POLICIES, Policy

POLICIES: dict[str, Policy] = {**BASE_POLICIES}
