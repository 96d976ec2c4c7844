"""Clause ids a model's code may name: clause ids, and interpretation-point ids mapped to the clause
that owns the point."""

from __future__ import annotations

from spec import Catalogue


def id_resolver(catalogue: Catalogue) -> dict[str, str]:
    resolve = {c.id: c.id for c in catalogue.clauses}
    for c in catalogue.clauses:
        for point in getattr(c, "interpretations", ()) or ():
            resolve[point.id] = c.id
    return resolve
