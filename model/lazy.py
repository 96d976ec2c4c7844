"""Lazy package exports (PEP 562): a package lists which module defines each name it re-exports, and
the module is imported on first access, not when the package is. `import model.duel` then costs
nothing until the engine is asked for (issue 13: start-up under 100 ms); `from model.duel import
Game` imports the engine as before."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from importlib import import_module
from typing import Any


def lazy_exports(package: str, exports: Mapping[str, str]) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """`__getattr__` and `__dir__` for `package`: `exports` maps a name to the module defining it. A
    name not exported is tried as a submodule (`model.duel.engine` after `import model.duel`)."""
    namespace = import_module(package).__dict__

    def __getattr__(name: str) -> Any:
        if name in exports:
            value = getattr(import_module(exports[name]), name)
        elif not name.startswith("__"):
            try:
                value = import_module(f"{package}.{name}")
            except ModuleNotFoundError as exc:
                if exc.name != f"{package}.{name}":
                    raise
                raise AttributeError(f"module {package!r} has no attribute {name!r}") from None
        else:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        namespace[name] = value              # later accesses are plain attribute reads
        return value

    def __dir__() -> list[str]:
        return sorted(set(namespace) | set(exports))

    return __getattr__, __dir__
