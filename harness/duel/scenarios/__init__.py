"""Azul Duel's scenario position schema: notation, building a position, views, readings, writer."""
