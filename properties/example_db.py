"""The Hypothesis example database shared by every worker of a fuzzing campaign.

`AZUL_HYPOTHESIS_DB` names it: a directory (local, or on a file system every machine mounts), so
what any worker (a `hypothesis fuzz` process, a test run on another machine) found is replayed by
every other one. Unset: the profile's own setting (ci: none). The directory is combined with a
machine-local one when `AZUL_HYPOTHESIS_LOCAL_DB` is set too (reads from both, writes to both:
`MultiplexedDatabase`), so a slow shared mount is not the only copy."""

from __future__ import annotations

import os
from pathlib import Path

from hypothesis.database import DirectoryBasedExampleDatabase, ExampleDatabase, MultiplexedDatabase

DB_ENV = "AZUL_HYPOTHESIS_DB"
LOCAL_DB_ENV = "AZUL_HYPOTHESIS_LOCAL_DB"


class ExampleDatabaseError(ValueError):
    """The environment names a database that cannot be used (one line, naming the variable)."""


def _directory(variable: str, value: str) -> DirectoryBasedExampleDatabase:
    if "://" in value:
        raise ExampleDatabaseError(f"{variable}={value!r}: only a directory path is supported "
                                   "(mount a shared directory on every machine)")
    path = Path(value).expanduser()
    if path.exists() and not path.is_dir():
        raise ExampleDatabaseError(f"{variable}={value!r}: not a directory")
    return DirectoryBasedExampleDatabase(str(path))


def example_database(environ: dict[str, str] | None = None) -> ExampleDatabase | None:
    """The shared database the environment names, or None when it names none."""
    env = os.environ if environ is None else environ
    shared = env.get(DB_ENV, "").strip()
    if not shared:
        return None
    db = _directory(DB_ENV, shared)
    local = env.get(LOCAL_DB_ENV, "").strip()
    return MultiplexedDatabase(_directory(LOCAL_DB_ENV, local), db) if local else db
