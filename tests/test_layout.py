"""The layout: a folder per game in each layer, and shared layers that import no game.

Every module of harness/, properties/, model/ and spec/ outside a game's own folder is shared; it
may reach a game only through the registry (properties/registry.py), never by importing its folder.
A third game's folders are found from the registry, so this test covers them when it is registered.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from properties.registry import game_names, get_game

ROOT = Path(__file__).resolve().parents[1]
LAYERS = ("harness", "properties", "model", "spec")


def game_folders() -> set[str]:
    """Each game's folder name in the layers (its registry name), e.g. {"duel", "azul"}."""
    return {get_game(n).name for n in game_names()}


def shared_modules(root: Path = ROOT) -> list[Path]:
    """Every Python module of the layers that lies outside a game's folder."""
    games = game_folders()
    out = []
    for layer in LAYERS:
        for path in sorted((root / layer).rglob("*.py")):
            parts = path.relative_to(root / layer).parts
            if parts[0] in games or "templates" in parts:
                continue
            out.append(path)
    return out


def game_imports(path: Path, games: set[str]) -> list[str]:
    """The imports in `path` that name a game's folder in any layer (model.duel, properties.azul...)."""
    tree = ast.parse(path.read_text())
    found = []
    for node in ast.walk(tree):
        names = [a.name for a in node.names] if isinstance(node, ast.Import) else \
            [node.module or ""] if isinstance(node, ast.ImportFrom) and node.level == 0 else []
        for name in names:
            parts = name.split(".")
            if parts[0] in LAYERS and len(parts) > 1 and parts[1] in games:
                found.append(f"{path.relative_to(ROOT) if path.is_relative_to(ROOT) else path}:{node.lineno}: "
                             f"imports {name}")
    return found


@pytest.mark.parametrize("module", [p.relative_to(ROOT).as_posix() for p in shared_modules()])
def test_shared_module_imports_no_game(module: str) -> None:
    assert game_imports(ROOT / module, game_folders()) == []


def test_the_walk_catches_a_planted_import(tmp_path: Path) -> None:
    """The check itself: a shared module with a planted `from model.duel...` import is reported."""
    for layer in LAYERS:
        (tmp_path / layer).mkdir()
    planted = tmp_path / "properties" / "planted.py"
    planted.write_text("from model.clauses import cite\nfrom model.duel.engine import Game\n")
    (tmp_path / "properties" / "duel").mkdir()
    (tmp_path / "properties" / "duel" / "own.py").write_text("from model.duel.engine import Game\n")
    modules = shared_modules(tmp_path)
    assert modules == [planted]                       # a game's own folder is not shared
    assert [m.split(": ", 1)[1] for m in game_imports(planted, game_folders())] == ["imports model.duel.engine"]


def test_model_package_imports_no_game() -> None:
    """`import model` loads the shared model only (clauses, chance, events, errors, phases, protocol)."""
    import subprocess
    import sys

    code = "import sys, model; print(sorted(m for m in sys.modules if m.startswith(('model.duel', 'model.azul'))))"
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert run.stdout.strip() == "[]", run.stdout + run.stderr


def test_every_game_has_a_folder_in_each_layer() -> None:
    for name in game_names():
        entry = get_game(name)
        for layer in ("model", "properties", "harness"):
            assert (ROOT / layer / name / "__init__.py").is_file(), f"{layer}/{name}/ is missing"
        assert (ROOT / "spec" / entry.spec_dir).is_dir()


# --- layers: spec < model < properties < harness; a lower layer never imports a higher one ---------

LAYER_ORDER = ("spec", "model", "properties", "harness")


def upward_imports(path: Path, layer: str) -> list[str]:
    """The imports in `path` (a module of `layer`) that reach a higher layer, at any depth of the
    module (a lazy import inside a function counts too)."""
    higher = set(LAYER_ORDER[LAYER_ORDER.index(layer) + 1:])
    found = []
    for node in ast.walk(ast.parse(path.read_text())):
        names = [a.name for a in node.names] if isinstance(node, ast.Import) else \
            [node.module or ""] if isinstance(node, ast.ImportFrom) and node.level == 0 else []
        found += [f"{path.name}:{node.lineno}: imports {n}" for n in names if n.split(".")[0] in higher]
    return found


@pytest.mark.parametrize("layer", LAYER_ORDER[:-1])
def test_no_layer_imports_a_higher_one(layer: str) -> None:
    """spec/ imports nothing above it, model/ nothing from properties/ or harness/, properties/
    nothing from harness/ (the search, campaigns and matrix get games from properties.registry)."""
    found = [hit for path in sorted((ROOT / layer).rglob("*.py")) for hit in upward_imports(path, layer)]
    assert found == [], "a lower layer imports a higher one:\n" + "\n".join(found)


def test_the_layer_walk_catches_a_planted_upward_import(tmp_path: Path) -> None:
    planted = tmp_path / "planted.py"
    planted.write_text("def f():\n    from harness.cli import main\n    return main\n")
    assert upward_imports(planted, "properties") == ["planted.py:2: imports harness.cli"]
    assert upward_imports(planted, "harness") == []
