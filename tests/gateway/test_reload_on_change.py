"""`gpp serve --reload`: a plugin whose files change is restarted, what is in flight finishes on
the old session; the registry file is reloaded when it changes. What is watched, and what is
not, on its own first."""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
from conftest import FIXTURE_PLUGINS
from gateway_harness import (
    logging_to,
    make_fifo,
    private_socket,
    served,
    uds_client,
    write_config,
)

from app.config import load_config
from app.plugin_watch import changed_file, poll, restarts, walk, watched_roots

WAIT_S = 30.0
ECHO = FIXTURE_PLUGINS / "echo_plugin.py"


# ------------------------------------------------------------------------ what is watched


def test_a_walk_skips_bytecode_vendored_packages_history_and_the_repository(
    tmp_path: Path,
) -> None:
    for name in ("main.py", "lib/helper.py", "__pycache__/main.pyc", "node_modules/x/i.js",
                 ".git/HEAD", "repo/data.py"):  # fmt: skip
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text("x")
    found = walk([str(tmp_path / "main.py"), str(tmp_path)], skip=str(tmp_path / "repo"))
    assert sorted(found.stamps) == [str(tmp_path / "lib/helper.py"), str(tmp_path / "main.py")]
    assert not found.truncated


def test_a_walk_stops_at_its_cap_and_says_so(tmp_path: Path) -> None:
    for index in range(5):
        (tmp_path / f"m{index}.py").write_text("x")
    found = walk([str(tmp_path)], skip="/nonexistent", cap=3)
    assert len(found.stamps) == 3 and found.truncated


def test_the_watched_roots_are_the_entry_file_and_the_registry_view(tmp_path: Path) -> None:
    (tmp_path / "plugin").mkdir()
    (tmp_path / "lib").mkdir()
    (tmp_path / "plugin/p.py").write_text("x")
    entry: dict[str, Any] = {"version": "1.0.0", "root": str(tmp_path)}
    command = ["{python}", str(tmp_path / "plugin/p.py")]
    config = write_config(
        tmp_path,
        [
            {"id": "default-view", "command": command, **entry},
            {"id": "listed", "command": command, "sandbox": {"view": ["lib"]}, **entry},
        ],
    )
    plugins = load_config(config).plugins
    assert watched_roots(plugins["default-view"]) == (
        str(tmp_path / "plugin/p.py"),
        str(tmp_path / "plugin"),
    )
    assert watched_roots(plugins["listed"]) == (
        str(tmp_path / "plugin/p.py"),
        str(tmp_path / "lib"),
    )


def test_a_change_names_the_first_file_added_removed_or_changed(tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text("1")
    (tmp_path / "b.py").write_text("1")
    repo = tmp_path / "repo"
    repo.mkdir()
    config = load_config(
        write_config(
            tmp_path,
            [
                {
                    "id": "p",
                    "version": "1.0.0",
                    "root": str(repo),
                    "command": ["{python}", str(tmp_path / "a.py")],
                }
            ],
        )
    )
    before = poll(config)
    (repo / "data.txt").write_text("the repository is not code")
    assert restarts(before, poll(config)) == {}
    replacement = tmp_path / "b.new"
    replacement.write_text("1")  # same size and maybe the same mtime: the inode says it
    os.replace(replacement, tmp_path / "b.py")
    assert restarts(before, poll(config)) == {"p": str(tmp_path / "b.py")}
    (tmp_path / "b.py").unlink()
    (tmp_path / "c.py").write_text("new")
    assert changed_file(before.plugins["p"], poll(config).plugins["p"]) == str(tmp_path / "b.py")


# ------------------------------------------------------------------------ a real gateway


def discover(http: httpx.Client, *paths: str) -> httpx.Response:
    return http.post("/plugins/echo/discover", json={"paths": list(paths)})


def names(answer: httpx.Response) -> list[str]:
    assert answer.status_code == 200, answer.text
    return [resource["name"] for resource in answer.json()["resources"]]


def _wait_state(http: httpx.Client, ready: Callable[[dict[str, Any]], bool]) -> None:
    deadline = time.monotonic() + WAIT_S
    while not ready(info := http.get("/plugins/echo").json()):
        assert time.monotonic() < deadline, info
        time.sleep(0.02)  # polling a condition, bounded by the deadline


def _edit(path: Path, old: str, new: str) -> None:
    """As an editor saves: a new file renamed over the old one (made outside the watched
    folder, so the first change a poll can see is the rename)."""
    text = path.read_text()
    assert old in text
    fresh = path.parent.parent / f"{path.name}.saving"
    fresh.write_text(text.replace(old, new))
    os.replace(fresh, path)


def test_an_edited_plugin_answers_from_its_new_code_and_the_old_one_finishes(
    tmp_path: Path,
) -> None:
    folder = tmp_path / "plugin"
    folder.mkdir()
    entry = folder / "echo_plugin.py"
    entry.write_text(ECHO.read_text())
    repo = tmp_path / "repo"
    repo.mkdir()
    fifo, gate = make_fifo(repo)
    echo = {
        "id": "echo",
        "version": "1.0.0",
        "root": str(repo),
        "command": ["{python}", str(entry)],
        "env": {"ECHO_GATE_FIFO": str(fifo)},
    }
    config = write_config(tmp_path, [echo])
    with (
        served(config, "--reload") as gateway,
        gateway.client() as http,
        ThreadPoolExecutor(1) as pool,
    ):
        gateway.wait_line(r"watching plugin files.*plugins=echo")
        assert names(discover(http, "a")) == ["a"]
        in_flight = pool.submit(discover, http, "wait")
        _wait_state(http, lambda plugin: plugin["state"] == "busy")
        _edit(entry, '"name": ",".join(paths)', '"name": "v2:" + ",".join(paths)')
        line = gateway.wait_line(r"session restarted")
        assert "plugin=echo" in line and str(entry) in line, line
        # Order, not time: the new session answers while the old one still holds its request.
        assert names(discover(http, "b")) == ["v2:b"]
        assert not in_flight.done()
        os.write(gate, b"x")
        os.close(gate)
        assert names(in_flight.result(WAIT_S)) == ["wait"]
        gateway.wait_line(r"event=retired plugin=echo")
        assert len(gateway.pids()["echo"]) == 1


def test_an_edited_registry_is_reloaded(tmp_path: Path) -> None:
    echo = {"id": "echo", "version": "1.0.0", "root": str(tmp_path),
            "command": ["{python}", str(ECHO)]}  # fmt: skip
    config = write_config(tmp_path, [echo])
    with served(config, "--reload") as gateway, gateway.client() as http:
        gateway.wait_line(r"watching plugin files")
        assert http.get("/plugins/other").status_code == 404
        other = {**echo, "id": "other", "env": {"ECHO_PLUGIN_ID": "other"}}
        write_config(tmp_path, [echo, other])
        gateway.wait_line(r"registry changed")
        assert "added=other" in gateway.wait_line(r"event=reload( |$)")
        assert names(http.post("/plugins/other/discover", json={"paths": ["x"]})) == ["x"]


MY_PLUGIN = """\
from gpp.sdk import serve


def discover(paths):
    found = [{"kind": "file", "name": p, "location": {"path": p, "line": 1}, "attrs": {}}
             for p in paths]
    return {"resources": found, "unresolved": [], "findings": [], "classificationSignals": []}


raise SystemExit(serve("my-plugin", "1.0.0", discover))
"""


def _wait_in(log: Path, text: str) -> str:
    deadline = time.monotonic() + WAIT_S
    while text not in (said := log.read_text()):
        assert time.monotonic() < deadline, said[-3000:]
        time.sleep(0.02)  # polling a file for a line, bounded by the deadline
    return next(line for line in said.splitlines() if text in line)


def test_the_operations_page_command_line_reloads_an_edited_plugin(tmp_path: Path) -> None:
    """`gpp serve --reload --repo . --plugin my-plugin -- my_plugin.py`, no registry file."""
    repo = tmp_path / "repo"
    repo.mkdir()
    entry = repo / "my_plugin.py"
    entry.write_text(MY_PLUGIN)
    uds = private_socket(tmp_path)
    command = [sys.executable, "-m", "gpp.gateway", "serve", "--uds", str(uds), "--reload"]
    command += ["--repo", str(repo), "--plugin", "my-plugin", "--", str(entry)]
    with logging_to(command, uds, tmp_path / "log"), uds_client(uds) as http:
        _wait_in(tmp_path / "log", "watching plugin files")
        ask = {"paths": ["README.md"]}
        first = http.post("/plugins/my-plugin/discover", json=ask)
        assert names(first) == ["README.md"]
        _edit(entry, '"name": p', '"name": "v2:" + p')
        line = _wait_in(tmp_path / "log", "session restarted")
        assert "plugin=my-plugin" in line and str(entry) in line, line
        assert names(http.post("/plugins/my-plugin/discover", json=ask)) == ["v2:README.md"]
