"""Ask the rules: a coverage-guided search over every choice of the players and of chance for a game
in which something happens (a clause fires, a condition holds, an interpretation alternative changes
the outcome), shrunk and written as a scenario file. Shared machinery: games come through
properties/registry.py (their optional `search` hooks: properties/search/hooks.py)."""
