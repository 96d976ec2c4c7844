"""Classic Azul's scenario position schema: notation, building a position, expectations, runner."""
