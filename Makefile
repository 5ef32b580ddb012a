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

# `make test-container`: the image built and run for real (tests/test_container.py), with an
# engine started for the run where none is running (docker/with-engine.sh).
CONTAINER_TOOLS := dockerd docker-compose debootstrap
CONTAINER_PACKAGES := docker.io docker-compose debootstrap
.PHONY: container-deps test-container

system-deps:
	@missing=""; for tool in $(SYSTEM_TOOLS); do command -v $$tool >/dev/null || missing="$$missing $$tool"; done; \
	if [ -n "$$missing" ]; then \
		echo "installing Debian packages for:$$missing"; \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $(SYSTEM_PACKAGES); \
	fi

container-deps:
	@missing=""; for tool in $(CONTAINER_TOOLS); do command -v $$tool >/dev/null || missing="$$missing $$tool"; done; \
	if [ -n "$$missing" ]; then \
		echo "installing Debian packages for:$$missing"; \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 \
			install -y -qq --no-install-recommends $(CONTAINER_PACKAGES); \
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

test-container: container-deps install
	docker/with-engine.sh $(BIN)/pytest -p no:cacheprovider -v -rP tests/test_container.py

bench: install
	$(BIN)/python bench/core.py
	$(BIN)/python bench/gateway.py
	$(BIN)/python bench/sandbox.py

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache $(NODE_SDK)/node_modules
