"""spec: the Azul Duel rulebook as clauses with stable ids, sources and interpretation points.

Start-up (issue 13): importing `spec` (which the model does) imports the catalogue's data classes only;
the parser (`spec.loader`: TOML, source fingerprints) is imported when a catalogue is first loaded or
one of its names below is first asked for.
"""

from __future__ import annotations

from typing import Any

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

# Names spec.loader defines, resolved on first use (PEP 562).
_FROM_LOADER = ("DEFAULT_GAME", "SPEC_ROOT", "catalogue_games", "load_catalogue", "validate")


def default_catalogue(game: str | None = None) -> Catalogue:
    """The project's own catalogue of `game` (default: the default game), loaded once per process
    (`spec.loader.default_catalogue`; the parser is imported on the first call)."""
    from spec import loader

    return loader.default_catalogue() if game is None else loader.default_catalogue(game)


def __getattr__(name: str) -> Any:
    if name in _FROM_LOADER:
        from spec import loader

        return getattr(loader, name)
    raise AttributeError(f"module 'spec' has no attribute {name!r}")


__all__ = [
    "CLAUSE_KINDS", "Alternative", "Catalogue", "Chapter", "Clause", "Components", "Document",
    "DEFAULT_GAME", "Interpretation", "SPEC_ROOT", "Source", "SpecError", "catalogue_games",
    "default_catalogue", "load_catalogue", "validate",
]
