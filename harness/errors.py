"""User-facing errors: the CLI prints them as one line and exits non-zero, never a traceback.

`UserError` lives in model.errors (every layer may raise it); it is named here for the harness."""

from model.errors import UserError

__all__ = ["UserError"]
