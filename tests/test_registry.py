"""The game registry: games are found through entry points, and the shared layers name no game."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from properties.registry import UnknownGame, game_names, get_game

ROOT = Path(__file__).resolve().parents[1]
# Shared modules written against the registry (tests/test_layout.py walks every shared module; this list
# pins the ones the shared layers are built on).
SHARED = ["properties/registry.py", "harness/game_option.py", "harness/bench.py", "harness/diagram.py",
          "harness/report.py", "harness/verify.py", "harness/cli.py", "harness/property_commands.py",
          "harness/simulate_output.py", "harness/explain.py", "properties/simulate.py", "properties/machine.py",
          "properties/matrix.py", "properties/watchdog.py", "properties/counterexample.py",
          "properties/policies.py", "properties/chance.py", "model/__init__.py", "model/protocol.py",
          "model/phases.py", "model/clauses.py", "model/chance.py", "model/events.py", "model/errors.py"]


def test_every_registered_game_loads_its_parts() -> None:
    assert "duel" in game_names() and game_names()[0] == "duel"
    for name in game_names():
        entry = get_game(name)
        assert entry.name == name and entry.id_prefix.endswith(".")
        assert (ROOT / "spec" / entry.spec_dir).is_dir(), entry.spec_dir
        assert callable(entry.load("new_game"))
        for kind in entry.renderers:
            assert callable(entry.renderer(kind))


def test_unknown_game_says_did_you_mean() -> None:
    with pytest.raises(UnknownGame, match="did you mean 'duel'"):
        get_game("dule")


@pytest.mark.parametrize("module", SHARED)
def test_shared_modules_import_no_game(module: str) -> None:
    """A shared module never imports a game's package (model, properties, a game's harness folder)."""
    games = {get_game(n).name for n in game_names()}
    tree = ast.parse((ROOT / module).read_text())
    for node in ast.walk(tree):
        names = [a.name for a in node.names] if isinstance(node, ast.Import) else \
            [node.module or ""] if isinstance(node, ast.ImportFrom) else []
        for name in names:
            parts = name.split(".")
            assert not (parts[0] in {"model", "properties"} and len(parts) > 1 and parts[1] in games), \
                f"{module} imports {name}"
            assert not (parts[0] == "harness" and len(parts) > 1 and parts[1] in games), f"{module} imports {name}"


def test_clause_markers_of_every_game_are_checked_against_its_own_catalogue(tmp_path: Path) -> None:
    """`@pytest.mark.clause` takes the ids of any registered game; a misspelt one is a usage error."""
    import subprocess

    (tmp_path / "test_marks.py").write_text(
        "import pytest\n\n"
        "@pytest.mark.clause('azul.score.isolated')\ndef test_classic():\n    pass\n\n"
        "@pytest.mark.clause('duel.score.isolated')\ndef test_duel():\n    pass\n")
    from tests.cli_helpers import PYTEST_OUTSIDE

    run = [*PYTEST_OUTSIDE, "--clause-json=", str(tmp_path)]
    ok = subprocess.run(run, cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert ok.returncode == 0, ok.stdout + ok.stderr
    (tmp_path / "test_marks.py").write_text(
        "import pytest\n\n@pytest.mark.clause('azul.score.isolatd')\ndef test_typo():\n    pass\n")
    bad = subprocess.run(run, cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert bad.returncode != 0 and "unknown clause id 'azul.score.isolatd'" in bad.stdout + bad.stderr


def test_catalogue_facts_live_once_in_catalogue_toml() -> None:
    """Title, clause id prefix and catalogue folder are the catalogue's: an entry cannot state them
    (no such fields), so they cannot disagree with spec/<folder>/catalogue.toml."""
    import attrs

    from properties.registry import GameEntry
    from spec import default_catalogue

    fields = attrs.fields_dict(GameEntry)
    assert not {"title", "id_prefix", "spec_dir"} & set(fields), "the catalogue owns these facts"
    for name in game_names():
        entry, catalogue = get_game(name), default_catalogue(name)
        assert (entry.title, entry.id_prefix) == (catalogue.title, catalogue.id_prefix), name
        assert (ROOT / "spec" / entry.spec_dir / "catalogue.toml").is_file()
    with pytest.raises(TypeError):
        GameEntry(name="duel", title="Azul Duel (again)", fixtures_dir="duel", players=(2,),  # type: ignore[call-arg]
                  new_game="model.duel.game:start")


def test_an_entry_without_a_catalogue_is_flagged_by_name() -> None:
    from properties.registry import GameEntry, catalogue_facts

    ghost = GameEntry(name="ghost", fixtures_dir="ghost", players=(2,), new_game="nowhere:start")
    with pytest.raises(UnknownGame, match=r"game 'ghost' has no catalogue: no spec/\*/catalogue.toml says"):
        _ = ghost.title                 # the property raises
    with pytest.raises(UnknownGame, match="catalogues found for: azul, duel"):
        catalogue_facts("ghost")
