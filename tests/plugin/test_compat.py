"""Issue 27: plugins and engines written for the original GPP/3 packages move over unchanged.

The fixtures in tests/fixtures/compat/ are written exactly against the original public APIs —
`from gateforge_plugin import serve` (Python), `servePlugin` from `@gate-forge/plugin-protocol`
(JavaScript, and TypeScript compiled with tsc), and an engine on its `PluginSession` — and are
run as they are: under `gpp discover`, under `gpp serve`, and (the engine) against the HTTP
route, whose bytes it must reproduce. The Node package is installed the way its users install
it: `npm install` of the tarball `npm pack` makes, offline (it bundles what it needs).
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import gateforge_plugin
import pytest
from conftest import DEMO_REPO, REPO, run_ok
from gateway_harness import gateway_process, uds_client, write_config

import gpp.plugin.sdk
from gpp import canonical

FIXTURES = REPO / "tests" / "fixtures" / "compat"
PLAIN_FOLDER = REPO / "plugins" / "sdk" / "python"
NODE_COMPAT = REPO / "plugins" / "sdk" / "node-compat"
TSC = NODE_COMPAT / "node_modules" / ".bin" / "tsc"
GPP = Path(sys.executable).parent / "gpp"
VERSION = "1.0.0"
PATHS = ["api/users.gfx", "billing/orders.gfx", "no/such.gfx"]
REQUEST_ID = "compat-1"
BUDGET = 120  # seconds for any one child: npm, tsc, gpp discover


def run(command: list[str], cwd: Path, **kwargs: Any) -> subprocess.CompletedProcess[str]:
    return run_ok(command, cwd=cwd, timeout=BUDGET, **kwargs)


@dataclass(frozen=True)
class Plugin:
    id: str
    command: list[str]


@dataclass(frozen=True)
class Projects:
    """The plugins' own folders, each holding everything its plugin imports (the default
    sandbox shows a plugin the folder of its entry file, and the gateway's interpreter)."""

    python: Path
    node: Path

    @property
    def plugins(self) -> list[Plugin]:
        return [
            Plugin("compat-python", [sys.executable, str(self.python / "detector.py")]),
            Plugin("compat-js", ["node", str(self.node / "detector.mjs")]),
            Plugin("compat-ts", ["node", str(self.node / "detector.js")]),
        ]


@pytest.fixture(scope="module")
def projects(tmp_path_factory: pytest.TempPathFactory) -> Projects:
    base = tmp_path_factory.mktemp("compat")
    # Python: the plain folder vendored beside the plugin, links followed (the folder links gpp)
    python = base / "python"
    shutil.copytree(PLAIN_FOLDER, python, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(FIXTURES / "python" / "detector.py", python)
    # Node: one project, @gate-forge/plugin-protocol installed from its packed tarball, offline
    node = base / "node"
    node.mkdir()
    for name in ("package.json", "detector.mjs"):
        shutil.copy(FIXTURES / "js" / name, node / name)
    for name in ("detector.ts", "tsconfig.json"):
        shutil.copy(FIXTURES / "ts" / name, node / name)
    shutil.copy(FIXTURES / "engine.mjs", node)
    packed = run(
        ["npm", "pack", "--silent", "--pack-destination", str(base), str(NODE_COMPAT)], base
    )
    tarball = base / packed.stdout.strip().splitlines()[-1]
    run(["npm", "install", "--offline", "--no-audit", "--no-fund", str(tarball)], node)
    installed = node / "node_modules" / "@gate-forge" / "plugin-protocol"
    assert installed.is_dir() and not installed.is_symlink()
    # TypeScript: compiled with tsc (the SDK's pinned devDependency), in place
    types = NODE_COMPAT / "node_modules" / "@types"
    run([str(TSC), "-p", "tsconfig.json", "--typeRoots", str(types)], node)
    assert (node / "detector.js").is_file()
    return Projects(python, node)


def expected_document() -> bytes:
    """What each twin answers for PATHS: a resource per file with its size, one unresolved."""
    resources = [
        {
            "kind": "file",
            "name": path,
            "location": {"path": path, "line": 1},
            "attrs": {"bytes": (DEMO_REPO / path).stat().st_size, "protocol": 3},
        }
        for path in PATHS[:2]
    ]
    return canonical(
        {
            "requestId": REQUEST_ID,
            "resources": resources,
            "unresolved": [{"path": PATHS[2], "reason": "not-found", "detail": "no such file"}],
            "findings": [],
            "classificationSignals": [],
        }
    )


def test_the_plain_folder_alone_on_sys_path_is_enough() -> None:
    """`python -I -S`: no site-packages (so not this venv's gpp), no PYTHONPATH; only the folder."""
    check = (
        "import sys; sys.path.insert(0, sys.argv[1])\n"
        "import gateforge_plugin, gpp, gpp.plugin.sdk, gpp.core.envelope\n"
        "assert gateforge_plugin.serve is gpp.plugin.sdk.serve\n"
        "assert gateforge_plugin.PROTOCOL_VERSION == gpp.core.envelope.PROTOCOL_VERSION == gpp.PROTOCOL_VERSION == 3\n"
        "print(gpp.__file__)\n"
    )
    done = run([sys.executable, "-I", "-S", "-c", check, str(PLAIN_FOLDER)], REPO)
    assert Path(done.stdout.strip()).is_relative_to(PLAIN_FOLDER)
    # the control: without the folder, the same clean interpreter has neither module
    missing = subprocess.run(
        [sys.executable, "-I", "-S", "-c", "import gateforge_plugin"],
        cwd="/",
        capture_output=True,
        text=True,
        timeout=BUDGET,
        check=False,
    )
    assert missing.returncode == 1 and "No module named 'gateforge_plugin'" in missing.stderr


def test_gateforge_plugin_is_the_project_sdk_in_this_interpreter() -> None:
    assert gateforge_plugin.serve is gpp.plugin.sdk.serve
    assert gateforge_plugin.PROTOCOL_VERSION == 3
    assert gateforge_plugin.__all__ == ["PROTOCOL_VERSION", "DiscoverHandler", "serve"]


def gpp_discover(plugin: Plugin) -> subprocess.CompletedProcess[str]:
    """`gpp discover --command …` under the default sandbox, as an author would run it."""
    command = " ".join(plugin.command)
    return run(
        [str(GPP), "discover", "--command", command, "--plugin-id", plugin.id,
         "--plugin-version", VERSION, "--root", str(DEMO_REPO), "--request-id", REQUEST_ID,
         *PATHS],
        REPO,
    )  # fmt: skip


@pytest.mark.parametrize("name", ["compat-python", "compat-js", "compat-ts"])
def test_original_api_plugins_run_unchanged_under_gpp_discover(
    projects: Projects, name: str
) -> None:
    (plugin,) = [p for p in projects.plugins if p.id == name]
    done = gpp_discover(plugin)
    assert done.stdout.encode() == expected_document() + b"\n"


def test_an_original_python_plugin_exits_as_serve_says(projects: Projects) -> None:
    """`raise SystemExit(serve(...))`: the exit status is serve's; a host that breaks GPP/3
    (here: not GPP/3 at all) makes it 2, after a session-fatal error frame."""
    done = subprocess.run(
        [sys.executable, "-S", str(projects.python / "detector.py")],
        input=b"this is not a frame\n",
        capture_output=True,
        timeout=BUDGET,
        check=False,
    )
    assert done.returncode == 2, done.stderr
    hello, fatal = (json.loads(line) for line in done.stdout.splitlines())
    assert (hello["type"], hello["pluginId"], hello["protocolVersion"]) == (
        "hello",
        "compat-python",
        3,
    )
    assert (fatal["type"], fatal["payload"]["code"]) == ("error", "E_FRAME_JSON")


@pytest.fixture(scope="module")
def gateway(projects: Projects, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """`gpp serve` on a Unix socket with the three plugins; stopped with SIGTERM (graceful)."""
    directory = tmp_path_factory.mktemp("gateway")
    config = write_config(
        directory,
        [
            {"id": p.id, "version": VERSION, "root": str(DEMO_REPO), "command": p.command}
            for p in projects.plugins
        ],
    )
    uds = directory / "gw.sock"
    with gateway_process(config, uds) as proc:
        yield uds
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(30) == 0


@pytest.mark.parametrize("name", ["compat-python", "compat-js", "compat-ts"])
def test_original_api_plugins_run_unchanged_under_gpp_serve(gateway: Path, name: str) -> None:
    with uds_client(gateway) as http:
        answer = http.post(
            f"/plugins/{name}/discover", json={"paths": PATHS, "requestId": REQUEST_ID}
        )
        info = http.get(f"/plugins/{name}").json()
    assert answer.status_code == 200, answer.text
    assert answer.content == expected_document()
    assert info["state"] == "ready" and info["sandbox"], info


@pytest.mark.parametrize("name", ["compat-python", "compat-js", "compat-ts"])
def test_an_engine_on_plugin_session_gets_the_routes_documents(
    projects: Projects, gateway: Path, name: str
) -> None:
    requests = [",".join(PATHS), "api/users.gfx", ",".join(PATHS)]
    done = run(
        ["node", str(projects.node / "engine.mjs"), str(gateway), name, VERSION, *requests],
        projects.node,
        env={**os.environ, "NODE_OPTIONS": ""},
    )
    lines = done.stdout.splitlines()
    assert len(lines) == len(requests)
    with uds_client(gateway) as http:
        for index, (line, paths) in enumerate(zip(lines, requests, strict=True)):
            body = {"paths": paths.split(","), "requestId": f"engine-{index}"}
            route = http.post(f"/plugins/{name}/discover", json=body)
            assert route.status_code == 200, route.text
            assert canonical(json.loads(line)) == route.content
