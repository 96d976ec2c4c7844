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
from spec.loader import SPEC_ROOT, default_catalogue, load_catalogue, validate

__all__ = [
    "CLAUSE_KINDS", "Alternative", "Catalogue", "Chapter", "Clause", "Components", "Document",
    "Interpretation", "SPEC_ROOT", "Source", "SpecError", "default_catalogue", "load_catalogue",
    "validate",
]
