from __future__ import annotations

import atexit
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

REPO = Path(__file__).resolve().parent.parent

# The container suite builds an image and starts compose: only `make test-container` runs it
# (docker/with-engine.sh sets GPP_REQUIRE_DOCKER), never a plain `pytest` that finds an engine.
collect_ignore = [] if os.environ.get("GPP_REQUIRE_DOCKER") else ["product/test_container.py"]
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


@pytest.fixture
def tmp_path(tmp_path: Path) -> Path:
    """pytest's own, made readable to others (it is 0700): a sandboxed plugin runs as an
    unprivileged uid when the tests run as root, and its repository must be readable to it."""
    tmp_path.chmod(0o755)
    return tmp_path
