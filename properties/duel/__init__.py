"""properties.duel: Azul Duel's invariants, step invariants, flows, oracle, policies and step bound
(its side of the registry entry: properties/duel/hooks.py)."""
