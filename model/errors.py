"""Errors of the model, and the user-facing error every layer may raise (the CLI prints it as one line)."""

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


class RuleLoopError(RuntimeError):
    """A loop of the rules ran past the bound the components allow (a model bug or a chance source
    that never yields what the rule needs). Names the clause whose loop it was."""

    def __init__(self, clause: str, bound: int, detail: str) -> None:
        self.clause = clause
        self.bound = bound
        self.detail = detail
        super().__init__(f"rule loop ran past its bound of {bound}: {detail} [{clause}]")


class NotationError(ValueError):
    """Text that is not an action in a game's notation (shared by every game)."""



class UserError(Exception):
    """A problem with the user's input (file, option, id) rather than with the program: the CLI prints
    it as one line and exits non-zero, never a traceback."""
