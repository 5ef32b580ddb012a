# Two entry points: `make serve` and `make test`. Both create .venv when it is missing.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

NODE_SDK := plugins/sdk/node
NODE_STAMP := $(NODE_SDK)/node_modules/.installed

GPP_SOCKET ?= /tmp/gpp-gateway.sock

# What the tests run besides Python and Node: namespaces (unshare, nsenter), mounts, ip.
SYSTEM_TOOLS := unshare nsenter mount ip node
SYSTEM_PACKAGES := util-linux mount iproute2 nodejs

.PHONY: install system-deps serve serve-isolated test lint typecheck pytest node-test bench clean

system-deps:
	@missing=""; for tool in $(SYSTEM_TOOLS); do command -v $$tool >/dev/null || missing="$$missing $$tool"; done; \
	if [ -n "$$missing" ]; then \
		echo "installing Debian packages for:$$missing"; \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $(SYSTEM_PACKAGES); \
	fi


$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

$(STAMP): pyproject.toml requirements.lock | $(BIN)/python
	$(BIN)/python -m pip install --quiet --disable-pip-version-check \
		-c requirements.lock -e '.[dev]'
	touch $@

$(NODE_STAMP): $(NODE_SDK)/package.json $(NODE_SDK)/package-lock.json
	cd $(NODE_SDK) && npm ci --no-audit --no-fund --loglevel=error
	touch $@

install: $(STAMP) $(NODE_STAMP)

serve: install
	$(BIN)/gpp serve

serve-isolated: install
	$(BIN)/gpp serve --isolated --uds $(GPP_SOCKET)

lint: install
	$(BIN)/ruff check gpp app plugins tests bench
	$(BIN)/ruff format --check gpp app plugins tests bench

typecheck: install
	$(BIN)/mypy

pytest: install
	$(BIN)/pytest

node-test: $(NODE_STAMP)
	cd $(NODE_SDK) && npx tsc --noEmit -p . && node --test test/

test: system-deps lint typecheck node-test pytest

bench: install
	$(BIN)/python bench/core.py
	$(BIN)/python bench/gateway.py
	$(BIN)/python bench/sandbox.py
	$(BIN)/python bench/packs.py
	$(BIN)/python bench/routes.py

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache $(NODE_SDK)/node_modules
