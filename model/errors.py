"""Errors of the model."""

from __future__ import annotations


class IllegalAction(Exception):
    """An action the rules forbid here; names the clause it breaks. The state is unchanged."""

    def __init__(self, action: object, clause: str, reason: str) -> None:
        self.action = action
        self.clause = clause
        self.reason = reason
        super().__init__(f"illegal action {action}: {reason} [{clause}]")


class RulesetError(ValueError):
    """A ruleset asked for an unknown interpretation point, alternative or tablet set."""
