from __future__ import annotations

import atexit
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, settings

REPO = Path(__file__).resolve().parent.parent

settings.register_profile(
    "gpp", deadline=None, suppress_health_check=[HealthCheck.too_slow], print_blob=True
)
settings.load_profile("gpp")
"""Every property test, whatever its own `@settings` leave out: no per-example `deadline` and
no `too_slow` health check, the two clocks Hypothesis reads, which a loaded machine misses
(tests prove what an example does, never how fast); a failure prints the blob that replays it
(`@reproduce_failure`), as a flake seen once in CI must be replayable. Loaded here, before
any test module builds its `@settings`, which take their unsaid values from it."""

# The container suite builds an image and starts compose: only `make test-container` runs it
# (docker/with-engine.sh sets GPP_REQUIRE_DOCKER), never a plain `pytest` that finds an engine.
collect_ignore = [] if os.environ.get("GPP_REQUIRE_DOCKER") else ["product/test_container.py"]
# The cgroup v2 guest builds and boots a VM: only `make test-vm` runs it (it sets GPP_VM_TEST).
if not os.environ.get("GPP_VM_TEST"):
    collect_ignore.append("product/test_vm_cgroup2.py")
FIXTURE_PLUGINS = REPO / "tests" / "fixtures" / "plugins"
DEMO_REPO = REPO / "plugins" / "examples" / "demo-repo"
REFERENCE_DETECTOR = REPO / "plugins" / "reference_detector.py"
DOC_PAGES = (REPO / "README.md", *sorted((REPO / "docs").glob("*.md")))
SIDES = ("core", "plugin", "host", "client", "gateway", "packs", "product")
"""The folders of tests/, one per side of the code (tests/README.md). Each is on `sys.path`
(as pytest puts a test's own folder there), so a suite can reuse another's helpers whichever
folder is collected first or alone."""
sys.path[1:1] = [str(REPO / "tests" / side) for side in SIDES]

STATE_DIR = Path(tempfile.mkdtemp(prefix="gpp-test-state-"))
"""Where every gateway the tests start keeps its generated token, and where the clients (the
CLI, GatewayClient, the Node client, the harness) find it: never the real user's folders.
Not where the suite runs against a live gateway (GPP_GATEWAY_URL, compose's integration-tests):
its token is the one that gateway generated, in the GPP_STATE_DIR compose shares with it."""
if not os.environ.get("GPP_GATEWAY_URL"):
    os.environ["GPP_STATE_DIR"] = str(STATE_DIR / "state")
    os.environ["GPP_RUNTIME_DIR"] = str(STATE_DIR / "run")
    os.environ.pop("GPP_TOKEN", None)  # the suite sets the tokens it means
atexit.register(shutil.rmtree, STATE_DIR, ignore_errors=True)


def doc(page: str = "") -> str:
    """The text of `docs/<page>`, or of the README and every docs page together."""
    if page:
        return (REPO / "docs" / page).read_text("utf-8")
    return "\n".join(path.read_text("utf-8") for path in DOC_PAGES)


def fixture_command(name: str) -> list[str]:
    return [sys.executable, str(FIXTURE_PLUGINS / f"plugin_{name}.py")]


def reference_command() -> list[str]:
    return [sys.executable, str(REFERENCE_DETECTOR)]


def node_module(
    script: str, *args: str, stdin: bytes | None = None, cwd: Path = REPO, timeout: float = 120
) -> bytes:
    """What a Node ES module script (`node --input-type=module -e SCRIPT ARGS…`) writes on
    stdout; a non-zero exit raises CalledProcessError."""
    done = subprocess.run(
        [shutil.which("node") or "node", "--input-type=module", "-e", script, *args],
        input=stdin,
        capture_output=True,
        cwd=cwd,
        timeout=timeout,
        check=True,
    )
    return done.stdout


def process_gone(pid: int | None) -> bool:
    """True when no process (running or zombie) has this pid any more."""
    assert pid is not None
    return not os.path.exists(f"/proc/{pid}")


def run_ok(
    command: Sequence[str], *, timeout: float, cwd: Path = REPO, check: bool = True, **popen: Any
) -> subprocess.CompletedProcess[str]:
    """`command` run to its end (bounded, no stdin), its output captured as text. With `check`,
    a non-zero exit fails the test showing the command and all it said."""
    done = subprocess.run(
        list(command),
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=timeout,
        stdin=subprocess.DEVNULL,
        check=False,
        **popen,
    )
    if check and done.returncode != 0:
        pytest.fail(f"{' '.join(command)} exited {done.returncode}:\n{done.stdout}\n{done.stderr}")
    return done


@pytest.fixture
def demo_repo() -> Path:
    return DEMO_REPO


SEARCHABLE_PARTS = (
    "gpp",
    "tests/fixtures/plugins",
    "plugins/examples/demo-repo",
    "plugins/reference_detector.mjs",
    "plugins/sdk/node",
    "plugins/sdk/python/gateforge_plugin",
)
"""What a plugin running as an unprivileged uid with no namespaces reads of the checkout: the
SDKs it imports (`gpp`, `gateforge_plugin`, the Node SDK), the fixture plugins and the demo
repository."""


@pytest.fixture(scope="session")
def searchable_checkout() -> Iterator[Path]:
    """A copy of `SEARCHABLE_PARTS` of the checkout, laid out as in it, in a folder every uid
    can search. Without namespaces nothing is staged for a plugin's own uid, which must then
    traverse every folder above its files and repository; CI clones into `$(mktemp -d)/c`, a
    0700 folder, where the product rightly refuses the checkout's own paths. Read only: the
    tests that use it never write into it."""
    folder = Path(tempfile.mkdtemp(prefix="gpp-test-checkout-"))
    try:
        for part in SEARCHABLE_PARTS:
            source, copy = REPO / part, folder / part
            copy.parent.mkdir(parents=True, exist_ok=True)
            if source.is_dir():
                ignored = shutil.ignore_patterns("__pycache__", "node_modules", "test")
                shutil.copytree(source, copy, ignore=ignored)
            else:
                shutil.copy2(source, copy)
        for path in (folder, *folder.rglob("*")):  # a+rX, whatever the umask of the clone
            path.chmod(path.stat().st_mode | (0o555 if path.is_dir() else 0o444))
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture
def tmp_path(tmp_path: Path) -> Path:
    """pytest's own, made readable to others (it is 0700): a sandboxed plugin runs as an
    unprivileged uid when the tests run as root, and its repository must be readable to it."""
    tmp_path.chmod(0o755)
    return tmp_path
