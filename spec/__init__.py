"""spec: the Azul Duel rulebook as clauses with stable ids, sources and interpretation points."""

from spec.catalogue import (
    CLAUSE_KINDS,
    Alternative,
    Catalogue,
    Chapter,
    Clause,
    Components,
    Document,
    Interpretation,
    Source,
)
from spec.errors import SpecError
from spec.loader import DEFAULT_GAME, SPEC_ROOT, catalogue_games, default_catalogue, load_catalogue, validate

__all__ = [
    "CLAUSE_KINDS", "Alternative", "Catalogue", "Chapter", "Clause", "Components", "Document",
    "DEFAULT_GAME", "Interpretation", "SPEC_ROOT", "Source", "SpecError", "catalogue_games",
    "default_catalogue", "load_catalogue", "validate",
]
