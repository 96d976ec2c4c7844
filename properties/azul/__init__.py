"""properties.azul: the invariants of classic Azul (each citing its azul.invariant.* clause)."""

from properties.azul.invariants import INVARIANTS, Invariant, check_all

__all__ = ["INVARIANTS", "Invariant", "check_all"]
