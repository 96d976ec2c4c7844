"""User-facing errors: the CLI prints them as one line and exits non-zero, never a traceback."""


class UserError(Exception):
    """A problem with the user's input (file, option, id) rather than with the program."""
