"""The first hour of a new user: one command and no registry file, the plugin's own words on
failure, a plugin that prints, a plugin run by hand, a port already taken."""

from __future__ import annotations

import os
import pty
import shlex
import shutil
import socket
import subprocess
import sys
from contextlib import AbstractContextManager
from pathlib import Path
from typing import Any

import httpx
import pytest
from conftest import DEMO_REPO, FIXTURE_PLUGINS, REFERENCE_DETECTOR, REPO
from gateway_harness import served_on

GPP = [sys.executable, "-m", "gpp.gateway"]
LANGUAGES = ("node", "python")


def chatty(language: str, folder: Path) -> list[str]:
    """The chatty plugin's command; the Node one beside a copy of the SDK, as authors vendor it."""
    if language == "python":
        return [sys.executable, str(FIXTURE_PLUGINS / "chatty_plugin.py")]
    sdk = folder / "sdk" / "node"
    sdk.mkdir(parents=True)
    for source in (REPO / "plugins/sdk/node").glob("*.js"):
        shutil.copy(source, sdk)
    shutil.copy(REPO / "plugins/sdk/node/gpp3.json", sdk)  # the contract the SDK loads
    shutil.copy(FIXTURE_PLUGINS / "chatty_plugin.mjs", folder)
    return ["node", str(folder / "chatty_plugin.mjs")]


def gpp(*args: str, cwd: Path = REPO) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*GPP, *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        timeout=120,
        stdin=subprocess.DEVNULL,
    )


def serving(*args: str, cwd: Path, uds: Path) -> AbstractContextManager[httpx.Client]:
    """`gpp serve --uds UDS ARGS` as a user starts it, and stops it."""
    return served_on([*GPP, "serve", "--uds", str(uds), *args], uds, cwd=cwd)


def test_serve_registers_a_plugin_from_the_command_line_and_pins_its_hello(tmp_path: Path) -> None:
    with serving(
        "--repo",
        ".",
        "--plugin",
        "reference-detector",
        "--",
        sys.executable,
        str(REFERENCE_DETECTOR),
        cwd=DEMO_REPO,
        uds=tmp_path / "gpp.sock",
    ) as client:
        (plugin,) = client.get("/plugins").json()
        assert (plugin["id"], plugin["version"]) == ("reference-detector", "1.0.0")
        answer = client.post("/plugins/reference-detector/discover", json={"paths": ["api"]})
        assert answer.status_code == 200, answer.text
        assert "users" in [r["name"] for r in answer.json()["resources"]]


def test_serve_takes_several_plugins_and_a_repo(tmp_path: Path) -> None:
    detector = f"{sys.executable} {REFERENCE_DETECTOR}"
    with serving(
        "--repo",
        str(DEMO_REPO),
        "--plugin",
        f"reference-detector@1.0.0={detector}",
        "--plugin",
        "reference-detector-node",
        "--",
        "node",
        str(REPO / "plugins/reference_detector.mjs"),
        cwd=tmp_path,
        uds=tmp_path / "gpp.sock",
    ) as client:
        documents = [
            client.post(f"/plugins/{pid}/discover", json={"paths": ["."]}).json()
            for pid in ("reference-detector", "reference-detector-node")
        ]
        assert documents[0]["resources"] and documents[0]["resources"] == documents[1]["resources"]


def test_serve_with_a_wrong_pinned_version_says_what_the_plugin_announced(tmp_path: Path) -> None:
    with serving(
        "--repo",
        ".",
        "--plugin",
        f"reference-detector@9.9.9={sys.executable} {REFERENCE_DETECTOR}",
        cwd=DEMO_REPO,
        uds=tmp_path / "gpp.sock",
    ) as client:
        problem = client.post("/plugins/reference-detector/discover", json={"paths": ["."]}).json()
        assert problem["code"] == "E_UNKNOWN_PLUGIN" and "'1.0.0'" in problem["got"]


def test_a_port_in_use_is_one_line_naming_the_flag() -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = gpp("serve", "--port", str(port))
    assert done.returncode == 1
    assert done.stderr == (
        f"gpp: 127.0.0.1:{port} is already in use (another gateway?); "
        "choose another with --port PORT\n"
    )


def test_make_serve_takes_a_port() -> None:
    done = subprocess.run(
        ["make", "-n", "serve", "PORT=9000"], capture_output=True, text=True, cwd=REPO, timeout=60
    )
    assert ".venv/bin/gpp serve --port 9000" in done.stdout, done.stdout + done.stderr


def test_discover_prints_the_plugins_own_words_on_failure() -> None:
    done = gpp(
        "discover",
        "--command",
        f"{{python}} {FIXTURE_PLUGINS / 'plugin_says_why_then_crashes.py'}",
        "--plugin-id",
        "fixture",
        "--plugin-version",
        "1.0.0",
        ".",
    )
    assert done.returncode == 2
    assert "plugin stderr (last lines):\n  chatty: cannot open the model cache" in done.stderr


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_plugin_that_prints_keeps_its_protocol_and_its_words_reach_stderr(
    language: str, tmp_path: Path
) -> None:
    """Without the SDK's diversion, the first print is a non-frame line: E_FRAME_JSON."""
    with serving(
        "--repo",
        ".",
        "--plugin",
        "chatty@1.0.0",
        "--",
        *chatty(language, tmp_path / "plugin"),
        cwd=tmp_path,
        uds=tmp_path / "s.sock",
    ) as client:
        for _ in range(3):
            answer = client.post("/plugins/chatty/discover", json={"paths": ["."]})
            assert answer.status_code == 200, answer.text
        stderr = client.get("/plugins/chatty").json()["recentStderr"]
    assert any("debug: discovering" in line for line in stderr), stderr


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_plugin_run_by_hand_in_a_terminal_says_what_it_is(language: str, tmp_path: Path) -> None:
    command = chatty(language, tmp_path)
    leader, follower = pty.openpty()
    try:
        done = subprocess.run(command, stdin=follower, capture_output=True, text=True, timeout=60)
    finally:
        os.close(follower)
        os.close(leader)
    assert done.returncode == 1 and done.stdout == ""
    assert "This is chatty 1.0.0, a GPP/3 discovery plugin" in done.stderr
    assert "gpp serve --repo . --plugin chatty@1.0.0 -- " in done.stderr


def test_a_plugin_that_fails_at_start_shows_its_own_words_and_no_wrong_hint(
    tmp_path: Path,
) -> None:
    """The README's form without a version: the start stops with the SyntaxError's traceback,
    run by the gateway's own Python (a `.py` command), and no "give its version" hint."""
    (tmp_path / "my_plugin.py").write_text("def discover(paths)\n    return {}\n")
    done = gpp(
        "serve",
        *("--uds", str(tmp_path / "gpp.sock"), "--repo", ".", "--plugin", "my-plugin", "--"),
        "my_plugin.py",
        cwd=tmp_path,
    )
    assert done.returncode == 1
    assert "--plugin my-plugin: [plugin-protocol] FAIL E_EOF: frame 1" in done.stderr
    assert "[plugin-protocol] plugin stderr (last lines):" in done.stderr
    assert "  SyntaxError: expected ':'" in done.stderr.splitlines()
    assert f'command="{sys.executable} {tmp_path / "my_plugin.py"}"' in done.stderr
    assert "@VERSION" not in done.stderr


def test_a_jsonrpc_plugin_is_served_from_the_command_line(tmp_path: Path) -> None:
    with serving(
        *("--repo", ".", "--plugin", "rpc", "--jsonrpc", "--"),
        str(REPO / "plugins/jsonrpc_example.py"),
        cwd=tmp_path,
        uds=tmp_path / "gpp.sock",
    ) as client:
        (plugin,) = client.get("/plugins").json()
        assert (plugin["id"], plugin["protocol"]) == ("rpc", "jsonrpc-2.0")
        answer = client.post(
            "/plugins/rpc/rpc",
            json={"jsonrpc": "2.0", "method": "subtract", "params": [42, 23], "id": 1},
        )
    assert answer.json() == {"jsonrpc": "2.0", "result": 19, "id": 1}


def test_a_jsonrpc_plugin_started_as_gpp3_is_told_about_jsonrpc(tmp_path: Path) -> None:
    """Without --jsonrpc it never says hello: the start names the flag, not a version pin."""
    done = gpp(
        *("serve", "--uds", str(tmp_path / "gpp.sock"), "--repo", ".", "--plugin", "rpc", "--"),
        str(REPO / "plugins/jsonrpc_example.py"),
        cwd=tmp_path,
    )
    assert done.returncode == 1
    assert "FAIL E_TIMEOUT" in done.stderr
    assert "is served with `--plugin rpc --jsonrpc -- CMD`" in done.stderr
    assert "@VERSION" not in done.stderr


def _fastapi_app(folder: Path, route: str) -> None:
    folder.mkdir(parents=True)
    (folder / "main.py").write_text(
        f'from fastapi import FastAPI\n\napp = FastAPI()\n\n\n@app.get("{route}")\n'
        "def handler():\n    return []\n"
    )


def _route_names(client: httpx.Client, plugin_id: str) -> list[str]:
    answer = client.post(f"/plugins/{plugin_id}/discover", json={"paths": ["."]})
    assert answer.status_code == 200, answer.text
    return [r["name"] for r in answer.json()["resources"] if r["kind"] == "route"]


def test_one_pack_serves_two_repositories_under_two_ids(tmp_path: Path) -> None:
    """docs/registry.md's `announces` example, as written, beside a copy of the pack (a link
    to it would be refused: the view holds the link's folder, not what it leads to)."""
    (example,) = [
        b for b in _registry_page_blocks() if b.language == "toml" and "announces" in b.code
    ]
    (tmp_path / "registry.toml").write_text(example.code)
    _copy_pack(tmp_path)
    _fastapi_app(tmp_path / "src/shop", "/cart")
    _fastapi_app(tmp_path / "src/admin", "/users")
    with serving(
        "--config", str(tmp_path / "registry.toml"), cwd=tmp_path, uds=tmp_path / "gpp.sock"
    ) as client:
        assert _route_names(client, "shop-routes") == ["GET /cart"]
        assert _route_names(client, "admin-routes") == ["GET /users"]


def test_the_registry_page_command_line_runs_as_written(tmp_path: Path) -> None:
    """docs/registry.md's `gpp serve --plugin` line, as written: from a clone (for
    `plugins/pack_http_routes.py`), `~/src/shop` a FastAPI app, `my_plugin.py` the README's."""
    (example,) = [b for b in _registry_page_blocks() if b.language == "sh" and "--repo" in b.code]
    home = tmp_path / "home"
    _fastapi_app(home / "src/shop", "/cart")
    clone = tmp_path / "clone"
    clone.mkdir()
    _copy_pack(clone / "plugins")  # a link would be refused: the view would hold the link
    readme = (REPO / "README.md").read_text("utf-8")
    (clone / "my_plugin.py").write_text(readme.split("```python\n", 1)[1].split("```", 1)[0])
    uds = tmp_path / "gpp.sock"
    command = shlex.split(example.code.replace("\\\n", " ").replace("~", str(home)))
    assert command[:2] == ["gpp", "serve"]
    words = command[2:]
    env = {**os.environ, "HOME": str(home)}
    with served_on([*GPP, "serve", "--uds", str(uds), *words], uds, cwd=clone, env=env) as client:
        assert _route_names(client, "routes") == ["GET /cart"]
        answer = client.post("/plugins/my-plugin/discover", json={"paths": ["main.py"]})
        assert answer.status_code == 200, answer.text
        assert [r["name"] for r in answer.json()["resources"]] == ["main.py"]


def _copy_pack(folder: Path) -> None:
    """`pack_http_routes.py` and the `packs` it imports, copied into `folder`."""
    folder.mkdir(exist_ok=True)
    shutil.copy(REPO / "plugins/pack_http_routes.py", folder)
    shutil.copytree(
        REPO / "plugins/packs", folder / "packs", ignore=shutil.ignore_patterns("__pycache__")
    )


def _registry_page_blocks() -> list[Any]:
    from test_docs import blocks

    return blocks(REPO / "docs/registry.md")


def test_a_python_without_gpp_is_named_where_gpp_serve_stops(tmp_path: Path) -> None:
    """`python3 my_plugin.py` after `pipx install .`: a python3 without gpp (here this one with
    neither site-packages nor PYTHONPATH) is named in one line, with the way out."""
    readme = (REPO / "README.md").read_text("utf-8")
    (tmp_path / "my_plugin.py").write_text(readme.split("```python\n", 1)[1].split("```", 1)[0])
    done = gpp(
        *("serve", "--uds", str(tmp_path / "gpp.sock"), "--repo", ".", "--plugin", "my-plugin"),
        "--",
        *(sys.executable, "-I", "-S", "my_plugin.py"),
        cwd=tmp_path,
    )
    assert done.returncode == 1
    hint = f"gpp: the plugin ran with {sys.executable}, which has no module 'gpp'; run it with"
    assert [line for line in done.stderr.splitlines() if line.startswith(hint)], done.stderr
    assert "  ModuleNotFoundError: No module named 'gpp'" in done.stderr.splitlines()


ORIGINAL_API_PLUGIN = """\
from gateforge_plugin import PROTOCOL_VERSION, serve


def discover(paths):
    found = [{"kind": "file", "name": p, "location": {"path": p, "line": 1},
              "attrs": {"protocol": PROTOCOL_VERSION}} for p in paths]
    return {"resources": found, "unresolved": [], "findings": [], "classificationSignals": []}


raise SystemExit(serve("original-api", "1.0.0", discover))
"""
"""A plugin written for the original package, alone in its folder: nothing vendored beside it."""


def test_a_plugin_importing_gateforge_plugin_answers_through_gpp_serve(tmp_path: Path) -> None:
    (tmp_path / "original_api.py").write_text(ORIGINAL_API_PLUGIN)
    with serving(
        *("--repo", ".", "--plugin", "original-api", "--", "original_api.py"),
        cwd=tmp_path,
        uds=tmp_path / "gpp.sock",
    ) as client:
        answer = client.post("/plugins/original-api/discover", json={"paths": ["README.md"]})
    assert answer.status_code == 200, answer.text
    assert [r["name"] for r in answer.json()["resources"]] == ["README.md"]
