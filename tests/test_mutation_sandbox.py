"""What a mutation worker's private copy starts from (issue 13): the project's bytecode caches come
along (the worker imports the project without compiling it again), the cache of a file being mutated
is dropped (a mutant always runs from its own text), and the up-front import leaves out the charts."""

from __future__ import annotations

import importlib
import importlib.util
import os
import py_compile
import sys
import types
from pathlib import Path

import pytest

from harness.mutation import worker
from harness.mutation.runner import sandbox


def _module_with_cache(root: Path, text: str) -> Path:
    (root / "pkg").mkdir()
    (root / "pkg" / "__init__.py").write_text("")
    source = root / "pkg" / "rule.py"
    source.write_text(text)
    py_compile.compile(str(source), cfile=importlib.util.cache_from_source(str(source)))
    return source


def test_a_private_copy_keeps_the_bytecode_caches(tmp_path: Path) -> None:
    _module_with_cache(tmp_path, "VALUE = 1\n")
    with sandbox(tmp_path) as copy:
        cache = Path(importlib.util.cache_from_source(str(copy / "pkg" / "rule.py")))
        assert cache.is_file(), sorted(str(p.relative_to(copy)) for p in copy.rglob("*"))


def test_a_mutant_with_the_size_and_time_of_its_cached_original_still_runs(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The worst case for a copied cache: same size, same modification second. Dropping the cache
    before writing the mutant (what the worker does) makes the import compile the mutant."""
    source = _module_with_cache(tmp_path, "VALUE = 1\n")
    stamp = source.stat().st_mtime_ns
    worker.forget_bytecode(source)
    source.write_text("VALUE = 2\n")                          # the mutant: same size ...
    os.utime(source, ns=(stamp, stamp))                        # ... and the same time
    monkeypatch.setattr(sys, "dont_write_bytecode", True)     # as in the worker
    monkeypatch.syspath_prepend(str(tmp_path))
    for name in ("pkg", "pkg.rule"):
        monkeypatch.delitem(sys.modules, name, raising=False)
    assert importlib.import_module("pkg.rule").VALUE == 2
    for name in ("pkg", "pkg.rule"):
        sys.modules.pop(name, None)


def test_the_up_front_import_leaves_out_the_charts_and_the_worker(monkeypatch: pytest.MonkeyPatch) -> None:
    """matplotlib (harness.plots) costs each worker start about 1.3 CPU s and no rule runs there."""
    imported: list[str] = []

    def import_module(name: str) -> types.ModuleType:
        imported.append(name)
        return importlib.import_module(name) if "." not in name else types.ModuleType(name)

    monkeypatch.setattr(worker, "importlib", types.SimpleNamespace(import_module=import_module))
    worker._preimport(Path.cwd())
    assert "model.duel.engine" in imported and "properties.machine" in imported
    assert not [n for n in imported if n.startswith(("harness.plots", "harness.mutation.worker"))]


def test_the_worker_drops_a_files_cache_before_it_writes_the_mutant(tmp_path: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """`serve` itself calls `forget_bytecode` on the file, before the mutant's text lands in it
    (review finding: the test above calls the helper directly, so a `serve` without it stayed green)."""
    import io
    import json

    target = tmp_path / "rule.py"
    target.write_text("VALUE = 1\n")
    seen: list[tuple[str, str]] = []
    monkeypatch.setattr(worker, "forget_bytecode", lambda source: seen.append((str(source), source.read_text())))
    monkeypatch.setattr(worker, "_warm_up", lambda calls: None)
    monkeypatch.setattr(worker, "_run_stage", lambda request, tests, timeout, calls: {
        "status": "killed", "killer": tests[0], "seconds": 0.0})
    monkeypatch.setenv("AZUL_MUTATE_HOTSWAP", "0")
    request = {"file": str(target), "source": "VALUE = 2\n", "original": "VALUE = 1\n",
               "tests": ["t::a"], "timeout": 5}
    monkeypatch.setattr(sys, "stdin", io.StringIO(json.dumps(request) + "\n"))
    out = io.StringIO()
    monkeypatch.setattr(sys, "stdout", out)
    worker.serve()
    assert seen == [(str(target), "VALUE = 1\n")]           # dropped while the file still held the original
    assert json.loads(out.getvalue())["status"] == "killed" and target.read_text() == "VALUE = 1\n"


def test_the_sandbox_copy_leaves_out_files_that_vanish_while_it_copies(tmp_path: Path) -> None:
    """An xdist worker writing model/duel/__pycache__ while the tree is copied: its temporary
    `.pyc.<n>` file is not copied, and a file removed between listing and copying is left out
    (shutil.Error before, issue 22); a file that cannot be read for another reason still fails."""
    from harness.mutation import runner

    (tmp_path / "pkg" / "__pycache__").mkdir(parents=True)
    (tmp_path / "pkg" / "a.py").write_text("x = 1\n")
    (tmp_path / "pkg" / "__pycache__" / "a.cpython-311.pyc.140234").write_bytes(b"half")
    runner._copy_file(str(tmp_path / "pkg" / "gone.py"), str(tmp_path / "gone-copy.py"))   # vanished: no error
    assert not (tmp_path / "gone-copy.py").exists()
    with pytest.raises(FileNotFoundError):                 # the source is there, the target cannot be
        runner._copy_file(str(tmp_path / "pkg" / "a.py"), str(tmp_path / "no" / "such" / "a.py"))
    with runner.sandbox(tmp_path) as copy:
        assert (copy / "pkg" / "a.py").read_text() == "x = 1\n"
        assert not list((copy / "pkg" / "__pycache__").glob("*.pyc.*"))


@pytest.mark.process
@pytest.mark.timeout(600)
def test_a_worker_killed_by_a_signal_answers_an_error_and_is_restarted_without_a_traceback(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 22: a fork server killed by a signal made the runner fail with a JSONDecodeError
    traceback; now its mutant is an error naming the signal, the next one runs on a new server, and
    a server stopped by SIGINT (or SIGTERM) exits quietly (no KeyboardInterrupt traceback)."""
    import signal
    import subprocess

    from harness.mutation.mutants import Unmutated
    from harness.mutation.runner import Worker, request_for

    root = Path(__file__).resolve().parents[1]
    monkeypatch.setenv("AZUL_MUTATE_HOTSWAP", "0")            # no up-front project import: a cheap start
    monkeypatch.setenv("AZUL_MUTATION_PROBES", "1")
    test = "tests/test_mutation_probes.py::test_probe_passes"
    request = request_for(root, Unmutated("duel.score.horizontal", "model/duel/tiling.py"), [test], 120.0)
    with sandbox(root) as copy:
        server = Worker(copy)
        try:
            os.killpg(server.proc.pid, signal.SIGKILL)
            server.proc.wait()
            died = server.run_request(request)
            assert died.status == "error" and "stopped by signal 9" in (died.killer or ""), died
            assert (copy / "model/duel/tiling.py").read_text() == request["original"]
            again = server.run_request(request)                  # a new server answers
            assert again.status == "survived", again
        finally:
            server.close()
        proc = subprocess.Popen([sys.executable, "-m", "harness.mutation.worker"], cwd=copy, stdin=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True, env={**os.environ, "PYTHONPATH": str(copy)})
        try:
            import time
            time.sleep(1.0)                                       # well into its start-up imports
            proc.send_signal(signal.SIGINT)                       # Ctrl-C reaching it
            _, err = proc.communicate(timeout=120)
        finally:
            proc.kill()
        assert "Traceback" not in err, err
