# The two set-up commands of the README: `make serve` and `make test`.
# Each builds what it needs on a bare Debian machine (Python 3.11, root) and then runs.
VENV ?= .venv
PY := $(VENV)/bin/python
ARGS ?= serve

.PHONY: serve test lint system redis bench

$(VENV)/bin/python:
	python3 -m venv --help >/dev/null 2>&1 || (apt-get update && apt-get install -y python3-venv)
	python3 -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip

# The install compiles the engine's inner loop (setup.py): again when one of its sources changed.
COMPILED := setup.py engine/compiled.py engine/core.py engine/rules.py $(wildcard engine/solver/*.py engine/solver/*.pxd)

INSTALLING = @echo "Installing SameDeal and compiling the engine's inner loop with Cython (about a \
	minute on two cores, more the first time while pip downloads the dependencies)..."

$(VENV)/.serve: pyproject.toml $(COMPILED) | $(VENV)/bin/python
	$(INSTALLING)
	$(PY) -m pip install -q -e .
	touch $@

$(VENV)/.test: pyproject.toml $(COMPILED) | $(VENV)/bin/python
	$(INSTALLING)
	$(PY) -m pip install -q -e ".[test]"
	touch $@

# With no Redis URL, `samedeal serve` runs its own redis-server, keeping its data in ./var/redis.
# Winnable daily deals are on (docs/fairness.md) unless SAMEDEAL_DAILY_WINNABLE says otherwise.
# exec: no shell stands between make and the server, so Ctrl-C ends with the server's one line.
serve: $(VENV)/.serve redis
	SAMEDEAL_DAILY_WINNABLE=$${SAMEDEAL_DAILY_WINNABLE:-true} exec $(VENV)/bin/samedeal $(ARGS)

# ruff, then mypy over engine/, server/ and clients/ (strict on engine/: pyproject.toml).
lint: $(VENV)/.test
	$(VENV)/bin/ruff check .
	$(PY) -m mypy

# What the tests run for real, from Debian: redis-server (started on a free loopback port),
# nginx (the deploy tests' load balancer), Chromium's headless shell (the web client's tests,
# for a quarter less CPU than the whole browser run headless) and Freecell Solver (the
# independent solver the solver's verdicts are checked against).
SYSTEM := redis-server:redis-server nginx:nginx chromium-headless-shell:chromium-headless-shell fc-solve:freecell-solver-bin
# Installs the Debian packages of those command:package pairs whose command is missing.
install = @missing=""; for pair in $(1); do command -v $${pair%%:*} >/dev/null || \
	  missing="$$missing $${pair\#*:}"; done; [ -z "$$missing" ] || \
	  (apt-get update && apt-get install -y --no-install-recommends $$missing)
system:
	$(call install,$(SYSTEM))

# Only what `make serve` needs.
redis:
	$(call install,redis-server:redis-server)

# Four workers (pytest-xdist) on two cores, each taking whole files, so a module's fixtures (its
# nodes, its Redis database) stay with its tests; each worker has its own redis-server, Redis
# Cluster and browser. Two workers left the cores idle while tests waited on servers, timers
# and browsers; three took longer than four (12:19 against 11:31), six too (15:32 against
# 14:17), each with servers and a browser of its own for the same work. The files go out in
# the order tests/conftest.py gives (LONGEST_FIRST), not reordered by their test counts. The
# slowest tests are listed at the end: where the suite's time goes.
TEST_WORKERS ?= 4
test: lint system
	$(PY) -m pytest -n $(TEST_WORKERS) --dist loadfile --no-loadscope-reorder --durations=25

# Benchmarks against baselines measured in the same run: writes bench/results.md (not a test).
bench: $(VENV)/.test system
	$(PY) -m bench
