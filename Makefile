# The commands of the README: `make verify` (the main job) and `make test` (the suite), plus the
# steps CI runs (`make diff`, `make lint-workflows`). All create .venv when missing and install the
# project into it from the pinned lock (requirements/lock.txt), never from whatever PyPI has today.
PYTHON ?= python3
VENV ?= .venv
PROFILE ?= ci
TEST_JOBS ?= auto
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-stamp
LOCK := requirements/lock.txt
# pip itself, pinned: installed before the lock (see the file for why).
PIP_LOCK := requirements/pip.txt
# Test-only peer engine for `azul-rules differential` (hashed; see docs/design.md "Peer engine").
PEER := requirements/peer.txt
# JUNIT=DIR: write JUnit XML of the tests and scenarios (DIR/tests.xml) for CI to publish.
JUNIT ?=
# make diff BASE=REV|coverage.json HEAD=REV|coverage.json [DIFF_FORMAT=--markdown] [DIFF_OUT=FILE]
BASE ?= HEAD~1
HEAD ?= HEAD
DIFF_FORMAT ?=
DIFF_OUT ?=
export PIP_DISABLE_PIP_VERSION_CHECK := 1
export AZUL_JUNIT_DIR := $(JUNIT)

.PHONY: check verify lint test test-process test-output test-all diff lint-workflows lock graphviz bench clean

# Install exactly the lock (hashes checked), then the project itself without touching dependencies
# (setuptools comes from the lock too: no build isolation, no unpinned download).
$(STAMP): pyproject.toml $(LOCK) $(PEER) $(PIP_LOCK)
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --require-hashes -r $(PIP_LOCK)
	$(BIN)/python -m pip install -q --require-hashes -r $(LOCK)
	$(BIN)/python -m pip install -q --no-deps --ignore-requires-python --require-hashes -r $(PEER)
	$(BIN)/python -m pip install -q --no-deps --no-build-isolation -e .
	@touch $(STAMP)

# Update the lock deliberately (docs/ci.md): re-resolve pyproject.toml's dependencies, then commit
# the lock alone after `make diff BASE=HEAD HEAD=<worktree>` shows nothing moved.
lock:
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q 'uv==0.13.9'
	$(BIN)/uv pip compile pyproject.toml requirements/build.in --extra test --python-version 3.11 \
	  --generate-hashes --no-header --annotation-style line -o $(LOCK)

# Graphviz's `dot` renders the phase diagram. Installed when missing and running as root;
# otherwise one line says how, and rendering falls back to writing DOT.
graphviz:
	@command -v dot >/dev/null 2>&1 || { \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq graphviz >/dev/null) \
	      || echo "graphviz: install failed; diagrams fall back to DOT"; \
	  else echo "graphviz: 'dot' not found; run 'sudo apt-get install graphviz' (diagrams fall back to DOT)"; fi; }

# KEEP_PYC: Python's bytecode caches (__pycache__/, ignored by git) stay on for the tests even where
# the environment sets PYTHONDONTWRITEBYTECODE: without them every pytest process (each xdist worker,
# each pytest a test starts) compiles the project again and re-rewrites every test module's asserts
# (`pytest --co -q`, collecting the suite: 11 CPU s without, 5.5 with; 2026-11-30, loaded 2-core box).
KEEP_PYC := PYTHONDONTWRITEBYTECODE=

# The quick loop after a rule change (docs/designer-guide.md): the clauses changed against CHANGED_SINCE
# (default: the last commit), spec lint, the scenarios, the scoring oracle and the tests bearing on them.
CHANGED_SINCE ?= HEAD
check: $(STAMP)
	$(KEEP_PYC) $(BIN)/azul-rules check --changed-since $(CHANGED_SINCE)

# --lint: verify's first stage is `make lint`'s two commands (harness/verify.py, CODE_LINT).
verify: $(STAMP) graphviz
	$(KEEP_PYC) $(BIN)/azul-rules verify --profile $(PROFILE) --lint

# The code's lint and types, configured in pyproject.toml ([tool.ruff], [tool.mypy]; docs/ci.md):
# zero findings, or `make lint` (and verify's "code lint" stage) fails.
# Both run, whatever the first finds.
lint: $(STAMP)
	@status=0; \
	echo "$(BIN)/ruff check ."; $(BIN)/ruff check . || status=1; \
	echo "$(BIN)/mypy"; $(BIN)/mypy || status=1; \
	exit $$status

# Test tiers (pyproject.toml's markers): `make test` is the fast tier, every test marked neither
# `process` nor `output`; `make test-process` the process tier (pytest inside pytest, CLI signals,
# mutation workers, the Dask cluster); `make test-output` the output tier (what verify's stages, the
# report and explain show from a run's results). `make verify` and CI run every tier (its test stage
# is the whole suite, no marker filter), `make test-all` too. A tier that collects no test fails
# (pytest's exit 5 is not a pass).
# TEST_JOBS=N: pytest-xdist workers (default: one per core; 0 runs the suite in this process).
PYTEST := $(KEEP_PYC) $(BIN)/python -m pytest -n $(TEST_JOBS) --dist worksteal $(if $(JUNIT),--junitxml=$(JUNIT)/tests.xml)

test: $(STAMP) graphviz
	@echo "make test: the fast tier (not marked process or output); make verify and CI also run the process and output tiers (make test-process, make test-output, make test-all)"
	$(PYTEST) -m "not process and not output"

test-process: $(STAMP) graphviz
	$(PYTEST) -m process

test-output: $(STAMP) graphviz
	$(PYTEST) -m output

test-all: $(STAMP) graphviz
	$(PYTEST)

# What a change did to the rules' coverage, matrix and campaign (exit 1: something got worse).
diff: $(STAMP)
	$(BIN)/azul-rules diff $(DIFF_FORMAT) $(if $(DIFF_OUT),--out $(DIFF_OUT)) $(BASE) $(HEAD)

lint-workflows: $(STAMP)
	$(BIN)/actionlint .github/workflows/*.yml

bench: $(STAMP)
	$(BIN)/azul-rules bench

clean:
	rm -rf $(VENV) report .pytest_cache .hypothesis .mypy_cache .ruff_cache
