# Two entry points: `make serve` and `make test`. Both create .venv when it is missing.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

NODE_SDK := plugins/sdk/node
NODE_STAMP := $(NODE_SDK)/node_modules/.installed
NODE_CLIENT := plugins/client/node
NODE_CLIENT_STAMP := $(NODE_CLIENT)/node_modules/.installed
# @gate-forge/plugin-protocol, the original package's name: installs copies of the SDK and the
# client (install-links, bundled in its tarball), so it is reinstalled when either changes.
NODE_COMPAT := plugins/sdk/node-compat
NODE_COMPAT_STAMP := $(NODE_COMPAT)/node_modules/.installed
NODE_COMPAT_SOURCES := $(wildcard $(NODE_SDK)/*.js $(NODE_SDK)/*.d.ts $(NODE_SDK)/package.json \
	$(NODE_CLIENT)/*.js $(NODE_CLIENT)/*.d.ts $(NODE_CLIENT)/package.json)
# The npm packages the table packs' naming ports are held to in tests/packs/test_js_naming.py:
# used by the tests only, never loaded by a pack or a plugin.
NODE_REFERENCE := tests/reference/node
NODE_REFERENCE_STAMP := $(NODE_REFERENCE)/node_modules/.installed

# Empty: `--uds` alone, the private runtime folder ($$XDG_RUNTIME_DIR/gpp, /run/gpp for root).
GPP_SOCKET ?=

# What the tests run besides Python and Node: namespaces (unshare, nsenter), mounts, ip, and
# bubblewrap, the plugin sandbox; libseccomp2, its system call table (gpp/host/seccomp.py);
# chromium, the browser that the `gpp scan --html` page's test drives (Playwright).
SYSTEM_TOOLS := unshare nsenter mount ip node bwrap chromium
SYSTEM_PACKAGES := util-linux mount iproute2 nodejs bubblewrap libseccomp2 chromium

.PHONY: install system-deps serve serve-isolated test lint typecheck pytest node-test bench clean fuzz
.PHONY: bench-deps bench-quick

# `make test-container`: the image built and run for real (tests/product/test_container.py), with an
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

$(NODE_CLIENT_STAMP): $(NODE_CLIENT)/package.json $(NODE_CLIENT)/package-lock.json
	cd $(NODE_CLIENT) && npm ci --no-audit --no-fund --loglevel=error
	touch $@

$(NODE_COMPAT_STAMP): $(NODE_COMPAT)/package.json $(NODE_COMPAT)/package-lock.json $(NODE_COMPAT_SOURCES)
	cd $(NODE_COMPAT) && npm ci --no-audit --no-fund --loglevel=error
	touch $@

install: $(STAMP) $(NODE_STAMP) $(NODE_CLIENT_STAMP) $(NODE_COMPAT_STAMP) $(NODE_REFERENCE_STAMP)

$(NODE_REFERENCE_STAMP): $(NODE_REFERENCE)/package.json $(NODE_REFERENCE)/package-lock.json
	cd $(NODE_REFERENCE) && npm ci --no-audit --no-fund --loglevel=error
	touch $@

# `make serve PORT=9000` to listen elsewhere than the registry's port (8787).
serve: install
	$(BIN)/gpp serve $(if $(PORT),--port $(PORT))

serve-isolated: install
	$(BIN)/gpp serve --isolated --uds $(GPP_SOCKET)

# Biome lints and checks the format of the Node JavaScript (biome.json says which files); it is
# pinned in the SDK's devDependencies. To fix locally: $(BIOME) check --write
BIOME := $(NODE_SDK)/node_modules/.bin/biome

lint: install
	$(BIN)/ruff check gpp app plugins tests bench
	$(BIN)/ruff format --check gpp app plugins tests bench
	$(BIOME) ci --colors=off --error-on-warnings

typecheck: install
	$(BIN)/mypy

pytest: install
	$(BIN)/pytest

node-test: $(NODE_STAMP)
	cd $(NODE_SDK) && npx tsc --noEmit -p . && node --test test/

# The Node engine client's suite starts real gateways from this checkout's .venv.
.PHONY: node-client-test
node-client-test: $(STAMP) $(NODE_CLIENT_STAMP)
	cd $(NODE_CLIENT) && npx tsc --noEmit -p . && node --test --test-timeout=300000 test/

# @gate-forge/plugin-protocol: its types, and PluginSession against real gateways.
.PHONY: node-compat-test
node-compat-test: $(STAMP) $(NODE_COMPAT_STAMP)
	cd $(NODE_COMPAT) && npx tsc --noEmit -p . && node --test --test-timeout=300000 test/

# `make contract`: the code and copies generated from gpp/core/contract/gpp3.json (the E_* classes,
# the Node exports and type declarations, the packages' copies); run it after editing the JSON.
.PHONY: contract
contract:
	$(PYTHON) gpp/core/contract/generate.py

# `make test` installs nothing system-wide: `make system-deps` (apt-get) is asked for by name.
# Its parts run side by side: pytest in three processes (the gateway's and the client's suites;
# the quick soak, 60 s of load on its own gateway; the rest), lint, mypy and the Node suites.
# pytest waits on its children much of the time, so a 2-core machine has room; each process has
# its own state folder, ephemeral ports and token (tests/conftest.py), and a plugin uid is a
# host-wide lease, as when two checkouts' suites share a machine. Each part's output comes whole
# when it ends; any part failing fails the run. `make pytest` is the one-process run.
PYTEST_GATEWAY := tests/gateway tests/client
PYTEST_SOAK := tests/gateway/test_soak.py
TEST_PARTS := lint typecheck node-test node-client-test node-compat-test \
	pytest-gateway pytest-soak pytest-rest
test: install
	$(MAKE) --no-print-directory -j$(words $(TEST_PARTS)) --output-sync=target $(TEST_PARTS)

.PHONY: pytest-gateway pytest-soak pytest-rest
pytest-gateway: install
	$(BIN)/pytest $(PYTEST_GATEWAY) --ignore=$(PYTEST_SOAK)

pytest-soak: install
	$(BIN)/pytest $(PYTEST_SOAK)

pytest-rest: install
	$(BIN)/pytest $(addprefix --ignore=,$(PYTEST_GATEWAY))

test-container: container-deps install
	docker/with-engine.sh $(BIN)/pytest -p no:cacheprovider -v -rP tests/product/test_container.py

# `make test-vm`: a non-root user on a systemd machine with cgroup v2 runs the bundled plugins
# with `make serve`, in a real guest (tests/product/test_vm_cgroup2.py): qemu with KVM boots the
# Debian bookworm tests/vm/build-guest.sh makes (kept in .vm/ until the script changes).
VM_TOOLS := qemu-system-x86_64 debootstrap mkfs.ext4
VM_PACKAGES := qemu-system-x86 debootstrap e2fsprogs
.PHONY: vm-deps test-vm

vm-deps:
	@missing=""; for tool in $(VM_TOOLS); do command -v $$tool >/dev/null || missing="$$missing $$tool"; done; \
	if [ -n "$$missing" ]; then \
		echo "installing Debian packages for:$$missing"; \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 \
			install -y -qq --no-install-recommends $(VM_PACKAGES); \
	fi

test-vm: vm-deps install
	GPP_VM_TEST=1 $(BIN)/pytest -p no:cacheprovider -v -rPs tests/product/test_vm_cgroup2.py

# `make bench`: every group's figures (bench/<group>.py run(quick)), one table, bench-results.json
# with the machine and versions; not part of `make test` (which runs the runner's smoke test).
# `make bench-quick`: the same in under a minute. BENCH_ARGS="--only core,scale" to choose groups.
BENCH_TOOLS := wrk
BENCH_PACKAGES := wrk

bench-deps:
	@missing=""; for tool in $(BENCH_TOOLS); do command -v $$tool >/dev/null || missing="$$missing $$tool"; done; \
	if [ -n "$$missing" ]; then \
		echo "installing Debian packages for:$$missing"; \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $(BENCH_PACKAGES); \
	fi

bench: install bench-deps
	$(BIN)/python -m bench --out bench-results.json $(BENCH_ARGS)

bench-quick: install bench-deps
	$(BIN)/python -m bench --quick --out bench-results.json $(BENCH_ARGS)

# Coverage-guided fuzzing (atheris), FUZZ_SECONDS per target; `make test` runs a short pass.
# New inputs grow .fuzz/TARGET (seeded from tests/fuzz/corpus); a crash is left as .fuzz/TARGET-crash-*.
FUZZ_SECONDS ?= 300
FUZZ_TARGETS := frame_decoder canonical_parser jsonrpc_line

fuzz: install
	@for target in $(FUZZ_TARGETS); do \
		mkdir -p .fuzz/$$target; \
		echo "fuzzing $$target for $(FUZZ_SECONDS) s"; \
		$(BIN)/python tests/fuzz/fuzz.py $$target .fuzz/$$target tests/fuzz/corpus/$$target \
			-max_total_time=$(FUZZ_SECONDS) -artifact_prefix=.fuzz/$$target- \
			-print_final_stats=1 || exit 1; \
	done

# The soak: `make soak` (180 s; SOAK_ARGS="--duration 600 --seed 1 --faults …" to vary it).
.PHONY: soak
soak: install
	$(BIN)/python -m bench.soak $(SOAK_ARGS)

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache $(NODE_SDK)/node_modules $(NODE_CLIENT)/node_modules \
		$(NODE_COMPAT)/node_modules
