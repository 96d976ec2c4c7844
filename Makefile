# The two commands of the README: `make verify` (the main job) and `make test` (the suite).
# Both create .venv when missing and install the project into it.
PYTHON ?= python3
VENV ?= .venv
PROFILE ?= ci
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-stamp

.PHONY: verify test graphviz bench clean

$(STAMP): pyproject.toml
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -e '.[test]'
	@touch $(STAMP)

# Graphviz's `dot` renders the phase diagram. Installed when missing and running as root;
# otherwise one line says how, and rendering falls back to writing DOT.
graphviz:
	@command -v dot >/dev/null 2>&1 || { \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq graphviz >/dev/null) \
	      || echo "graphviz: install failed; diagrams fall back to DOT"; \
	  else echo "graphviz: 'dot' not found; run 'sudo apt-get install graphviz' (diagrams fall back to DOT)"; fi; }

verify: $(STAMP) graphviz
	$(BIN)/azul-rules verify --profile $(PROFILE)

test: $(STAMP) graphviz
	$(BIN)/python -m pytest

bench: $(STAMP)
	$(BIN)/azul-rules bench

clean:
	rm -rf $(VENV) report .pytest_cache .hypothesis
