# Two entry points: `make serve` and `make test`. Both create .venv when it is missing.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: install serve test lint typecheck pytest bench clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

$(STAMP): pyproject.toml requirements.lock | $(BIN)/python
	$(BIN)/python -m pip install --quiet --disable-pip-version-check \
		-c requirements.lock -e '.[dev]'
	touch $@

install: $(STAMP)

serve: install
	$(BIN)/gpp serve

lint: install
	$(BIN)/ruff check gpp app plugins tests bench
	$(BIN)/ruff format --check gpp app plugins tests bench

typecheck: install
	$(BIN)/mypy

pytest: install
	$(BIN)/pytest

test: lint typecheck pytest

bench: install
	$(BIN)/python bench/core.py
	$(BIN)/python bench/gateway.py

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
