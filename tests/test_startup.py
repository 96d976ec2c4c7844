"""Start-up (issue 13): importing the model imports neither the graph library (networkx is for drawing
and analysis), nor the report and CLI libraries, nor the catalogue's parser (loaded on first use)."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from model.phases import PhaseError

# Modules an import of the model must leave alone: drawing/analysis, report, CLI, serialisation,
# testing libraries, and spec/'s parser (TOML, source fingerprints).
NOT_AT_IMPORT = ("networkx", "rich", "jinja2", "click", "cattrs", "hypothesis", "spec.loader", "spec.sentences",
                 "tomllib")


def _imported_by(code: str) -> set[str]:
    probe = f"import sys; {code}; print(' '.join(m for m in {NOT_AT_IMPORT!r} if m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=120, check=True)
    return set(out.stdout.split())


@pytest.mark.parametrize("module", ["model", "model.duel", "model.azul", "spec"])
def test_importing_the_model_imports_no_heavy_library_nor_the_catalogue_parser(module: str) -> None:
    assert _imported_by(f"import {module}") == set(), f"import {module} pulled these in"


def test_the_catalogue_parser_is_imported_when_a_catalogue_is_first_loaded() -> None:
    assert _imported_by("import spec; spec.default_catalogue('azul')") >= {"spec.loader", "tomllib"}


def test_a_pytest_run_here_loads_no_hypothesis_entry_point_plugins() -> None:
    """trio's Hypothesis plugin imported all of trio into every pytest process (harness/pytest_plugin.py)."""
    import hypothesis  # noqa: F401

    assert os.environ.get("HYPOTHESIS_NO_PLUGINS")
    assert "trio" not in sys.modules


@pytest.mark.parametrize("module", ["model.duel.phases", "model.azul.phases"])
def test_frozen_edges_are_the_graph_edges(module: str) -> None:
    """The edge set the engine checks and the DiGraph that is drawn are the same machine."""
    phases = __import__(module, fromlist=["TRANSITIONS", "phase_graph", "check_transition", "PHASES"])
    assert phases.TRANSITIONS == frozenset(phases.phase_graph().edges())
    for source in phases.PHASES:
        for target in phases.PHASES:
            if (source, target) in phases.TRANSITIONS:
                phases.check_transition(source, target)
            else:
                with pytest.raises(PhaseError, match=f"no phase-graph edge {source} -> {target}"):
                    phases.check_transition(source, target)


def test_make_test_and_verify_keep_bytecode_caches_on() -> None:
    """`make test` / `make verify` unset PYTHONDONTWRITEBYTECODE: without caches every pytest process
    compiles the project and rewrites the test modules again (issue 13)."""
    import shutil
    from pathlib import Path

    if shutil.which("make") is None:
        pytest.skip("make is not installed")
    root = Path(__file__).resolve().parents[1]
    dry = subprocess.run(["make", "-n", "-C", str(root), "test", "verify"], capture_output=True, text=True,
                         timeout=60, check=True, env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}).stdout
    runs = [line for line in dry.splitlines() if " -m pytest " in line or "azul-rules verify" in line]
    assert len(runs) == 2 and all(line.startswith("PYTHONDONTWRITEBYTECODE= ") for line in runs), runs


def test_collecting_the_cluster_tests_does_not_import_dask() -> None:
    """Every xdist worker collects tests/test_cluster.py; dask.distributed (about 1 CPU s) is imported
    by the tests that start a cluster."""
    from pathlib import Path

    probe = "import sys, tests.test_cluster; print('distributed' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=120, check=True,
                         cwd=Path(__file__).resolve().parents[1])
    assert out.stdout.strip() == "False"


def test_importing_a_game_package_loads_its_rules_only_when_they_are_asked_for() -> None:
    """model, model.duel and model.azul re-export their names lazily (model/lazy.py)."""
    probe = ("import sys, model, model.duel, model.azul; "
             "print(sorted(m for m in sys.modules if m.startswith(('model.', 'attr')) and m != 'model.lazy'))")
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=120, check=True)
    assert out.stdout.strip() == "['model.azul', 'model.duel']"


def test_lazy_exports_are_the_defining_modules_objects() -> None:
    import model
    import model.azul
    import model.duel
    from model.duel import Game, new_game
    from model.duel.engine import Game as EngineGame

    assert Game is EngineGame and model.duel.engine.Game is Game
    assert isinstance(new_game(seed=1), Game)
    assert model.azul.new_game(seed=1).players == 2
    assert model.SeededChance is __import__("model.chance", fromlist=["SeededChance"]).SeededChance
    assert {"Game", "new_game", "Ruleset"} <= set(dir(model.duel))
    with pytest.raises(AttributeError, match="module 'model.duel' has no attribute 'engin'"):
        model.duel.engin  # noqa: B018


def test_the_cli_imports_a_command_module_only_when_that_command_runs() -> None:
    """`mutate` pulls pytest and the mutation operators in (about 0.3-0.45 s): no other command pays for it."""
    probe = ("import sys; from click.testing import CliRunner; from harness.cli import cli; "
             "r = CliRunner().invoke(cli, ['bench', '--help']); assert r.exit_code == 0, r.output; "
             "print(' '.join(m for m in ('pytest', 'harness.mutation_commands', 'harness.diff', "
             "'harness.property_commands') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=120, check=True)
    assert out.stdout.split() == []
    probe = probe.replace("'bench', '--help'", "'mutate', '--help'")
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=120, check=True)
    assert {"pytest", "harness.mutation_commands"} <= set(out.stdout.split())
