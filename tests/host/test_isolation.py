"""`gpp serve --isolated`: the container's promise (loopback only, repository read-only)
reproduced with namespaces, and proven by reading the namespace, never by sending traffic out."""

from __future__ import annotations

import ipaddress
import json
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import DEMO_REPO, REPO
from gateway_harness import logging_to, reference_plugin, uds_client, write_config
from test_cli import readme_commands


def serve_isolated(config: Path, uds: Path) -> list[str]:
    return [
        sys.executable,
        "-m",
        "gpp.gateway",
        "serve",
        "--isolated",
        "--config",
        str(config),
        "--uds",
        str(uds),
    ]


@pytest.fixture(scope="module")
def isolated(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[int, Path]]:
    directory = tmp_path_factory.mktemp("isolated")
    config = write_config(directory, [reference_plugin()])
    uds = directory / "gw.sock"
    with logging_to(serve_isolated(config, uds), uds, directory / "gateway.log") as proc:
        yield proc.pid, uds  # exec keeps the pid: this is the gateway, inside its namespaces
    assert proc.returncode == 0  # SIGTERM: a clean stop


def inside(pid: int, *command: str, namespaces: tuple[str, ...] = ("--net",)) -> str:
    done = subprocess.run(
        ["nsenter", "--target", str(pid), *namespaces, *command],
        capture_output=True,
        text=True,
        timeout=30,
    )
    return done.stdout + done.stderr


def test_only_loopback_exists(isolated: tuple[int, Path]) -> None:
    pid, _ = isolated
    links = json.loads(inside(pid, "ip", "-json", "link", "show"))
    assert [link["ifname"] for link in links] == ["lo"]


def test_there_is_no_route_out(isolated: tuple[int, Path]) -> None:
    pid, _ = isolated
    for family in ("-4", "-6"):
        routes = json.loads(inside(pid, "ip", "-json", family, "route", "show") or "[]")
        assert not [r for r in routes if r.get("dst") == "default"], routes
        assert all(
            ipaddress.ip_network(r["dst"], strict=False).is_loopback or r.get("dev") == "lo"
            for r in routes
            if r.get("dst") != "default"
        )


def test_name_resolution_is_not_usable(isolated: tuple[int, Path]) -> None:
    """Every nameserver in resolv.conf is off-machine and has no route: a route lookup, no packet."""
    pid, _ = isolated
    servers = [
        line.split()[1]
        for line in Path("/etc/resolv.conf").read_text().splitlines()
        if line.startswith("nameserver")
    ]
    for server in servers:
        if ipaddress.ip_address(server.split("%")[0]).is_loopback:
            continue  # a loopback resolver inside the new namespace has nothing listening
        assert "unreachable" in inside(pid, "ip", "route", "get", server).lower()


def test_the_repository_is_read_only(isolated: tuple[int, Path]) -> None:
    pid, _ = isolated
    output = inside(pid, "sh", "-c", f"touch {DEMO_REPO}/escape.txt", namespaces=("--mount",))
    assert "Read-only file system" in output
    assert not (DEMO_REPO / "escape.txt").exists()


def test_readme_unix_socket_example_runs_as_written(isolated: tuple[int, Path]) -> None:
    _, uds = isolated
    (command,) = [c for c in readme_commands("curl ") if "--unix-socket" in c]
    done = subprocess.run(
        ["bash", "-c", command.replace("$XDG_RUNTIME_DIR/gpp/gateway.sock", str(uds))],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=REPO,
    )
    assert json.loads(done.stdout)["resources"], done.stderr


def test_the_gateway_serves_over_its_unix_socket(isolated: tuple[int, Path]) -> None:
    _, uds = isolated
    with uds_client(uds) as http:
        response = http.post("/plugins/reference-detector/discover", json={"paths": ["."]})
        assert response.status_code == 200
        assert response.json()["findings"][0]["code"] == "DUPLICATE_TABLE_NAME"
        info = http.get("/plugins/reference-detector").json()
    assert info["sandbox"]["network"] == "empty network namespace"


def test_a_reload_cannot_bring_a_root_that_was_not_bound_read_only(tmp_path: Path) -> None:
    """The read-only binds are made once, at start: a plugin whose root is new waits for a
    restart instead of running on a writable repository."""
    config = write_config(tmp_path, [reference_plugin()])
    uds, log = tmp_path / "gw.sock", tmp_path / "gateway.log"
    with logging_to(serve_isolated(config, uds), uds, log) as proc:
        unbound = tmp_path / "unbound-repo"
        unbound.mkdir()
        write_config(
            tmp_path, [reference_plugin(), reference_plugin(id="newcomer", root=str(unbound))]
        )
        proc.send_signal(signal.SIGHUP)
        deadline = time.monotonic() + 30
        while "reload refused" not in log.read_text():
            assert proc.poll() is None and time.monotonic() < deadline, log.read_text()
            time.sleep(0.02)
        assert "was not bound read-only when the isolated gateway started" in log.read_text()
        with uds_client(uds) as http:
            assert [p["id"] for p in http.get("/plugins").json()] == ["reference-detector"]
    assert proc.returncode == 0  # SIGTERM: a clean stop
