"""Output paths checked before any work: `--out`, `--json`, `--svg`, `--png` and the like take
`OutputPath`, which fails with one line (click's "Invalid value for '--out': ...") when the path
cannot be written, instead of a traceback after minutes of work.

Writable means: the path, if it exists, is of the kind asked for (a file or a folder) and can be
written; otherwise its nearest existing parent is a folder in which a file can be created (tried
with a temporary file, removed at once: this also catches a read-only file system, which
permission bits alone do not show to root)."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import Any

import click


def unwritable(path: Path, folder: bool | None) -> str | None:
    """Why `path` cannot be written as a file (`folder` False), a folder (True) or either (None);
    None when it can."""
    if path.exists():
        if folder is True and not path.is_dir():
            return "it is a file, not a folder"
        if folder is False and path.is_dir():
            return "it is a folder, not a file"
        target = path if path.is_dir() else path.parent
        if not os.access(path, os.W_OK) or not _can_create_in(target):
            return "it is not writable"
        return None
    parent = path.absolute().parent
    while not parent.exists():
        parent = parent.parent
    if not parent.is_dir():
        return f"{parent} is a file, not a folder"
    if not _can_create_in(parent):
        return f"cannot create files in {parent}"
    return None


def _can_create_in(folder: Path) -> bool:
    try:
        with tempfile.TemporaryFile(dir=folder):
            return True
    except OSError:
        return False


class OutputPath(click.Path):
    """A click path the command will write, checked when the command line is parsed."""

    def __init__(self, folder: bool | None = False) -> None:
        super().__init__(file_okay=folder is not True, dir_okay=folder is not False, path_type=Path)
        self.folder = folder

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        path = super().convert(value, param, ctx)
        shown = os.fsdecode(path)
        why = unwritable(Path(shown), self.folder)
        if why:
            self.fail(f"{shown}: cannot write there ({why})", param, ctx)
        return path
