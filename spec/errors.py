"""The one error type of the spec loader: it names the file, line, clause and field."""

from __future__ import annotations


class SpecError(Exception):
    def __init__(
        self, file: str, message: str, *, clause: str | None = None, field: str | None = None,
        line: int | None = None,
    ) -> None:
        self.file = file
        self.clause = clause
        self.field = field
        self.line = line
        self.message = message
        super().__init__(str(self))

    def __str__(self) -> str:
        where = self.file + (f":{self.line}" if self.line else "")
        parts = [where]
        if self.clause:
            parts.append(f"clause {self.clause}")
        if self.field:
            parts.append(f"field '{self.field}'")
        return ": ".join([", ".join(parts), self.message])
