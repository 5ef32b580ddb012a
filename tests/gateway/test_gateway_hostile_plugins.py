"""Plugins that wedge or break the session, met through the gateway (issue 10, holes 2 and 3).

`never_reads`: its first session never reads stdin again, so a 300 KB discover cannot even be
written; later sessions (NEVER_READS_ONCE) answer normally, so a test can see the next one work.
"""

from __future__ import annotations

import asyncio
import os
import signal
import sys
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
import uvloop
from conftest import process_gone
from gateway_harness import (
    fault_plugin,
    gateway_process,
    private_socket,
    running_gateway,
    uds_client,
    wait_exited,
    write_config,
    writes_to,
)

from gpp.host.process import start_plugin

BIG_PATHS = [f"src/module_{n:05}/" + "x" * 80 for n in range(3500)]  # ~330 KB: overfills a pipe
SHUTDOWN_WAIT_S = 30.0
"""The bound on a SIGTERMed gateway's exit: far above shutdown_ms (1 s) on a loaded machine, and
half the deaf plugin's request_ms (60 s), so only the bounded shutdown can end it in time."""


def _never_reads(root: Path, **timeouts: int) -> dict[str, Any]:
    return fault_plugin(
        "never_reads",
        root=str(root),
        handshake_ms=5000,
        shutdown_ms=1000,
        env={
            "FIXTURE_PLUGIN_ID": "never_reads",
            "NEVER_READS_ONCE": "first-session-stopped-reading",
        },
        **writes_to(root),
        **timeouts,
    )


def test_a_deaf_plugin_gets_504_and_the_next_request_a_fresh_session(tmp_path: Path) -> None:
    config = write_config(tmp_path, [_never_reads(tmp_path, request_ms=1000)])
    with running_gateway(config) as gw, gw.client() as http:
        wedged = http.post("/plugins/never_reads/discover", json={"paths": BIG_PATHS})
        assert wedged.status_code == 504
        assert wedged.headers["content-type"] == "application/problem+json"
        problem = wedged.json()
        assert problem["code"] == "E_TIMEOUT" and problem["frame"] == 2
        assert problem["detail"].startswith(
            "[plugin-protocol] FAIL E_TIMEOUT: frame 2: watchdog fired writing discover: the "
            "plugin stopped reading its stdin — expected discover read within 1000 ms (raise request_ms to allow more), got "
        )
        first_pid = gw.state.pools.by_id["never_reads"].slots[0].session.pid
        assert first_pid is not None and process_gone(first_pid)
        fresh = http.post("/plugins/never_reads/discover", json={"paths": ["."]})
        assert fresh.status_code == 200, fresh.text
        assert fresh.json()["resources"] == []
        info = gw.plugin("never_reads")
        assert info["state"] == "ready" and info["restarts"] == 1
        assert first_pid != info["pid"]


def test_a_client_that_leaves_does_not_leave_the_session_locked(tmp_path: Path) -> None:
    config = write_config(tmp_path, [_never_reads(tmp_path, request_ms=1000)])
    with running_gateway(config) as gw:
        with (
            httpx.Client(base_url=gw.url, timeout=0.3) as impatient,
            pytest.raises(httpx.ReadTimeout),
        ):
            impatient.post("/plugins/never_reads/discover", json={"paths": BIG_PATHS})
        with gw.client() as http:  # waits behind the wedged exchange, for request_ms at most
            response = http.post("/plugins/never_reads/discover", json={"paths": ["."]})
        assert response.status_code == 200, response.text
        info = gw.plugin("never_reads")
        assert info["state"] == "ready" and info["served"] >= 1


def test_sigterm_ends_the_gateway_within_shutdown_ms_while_a_plugin_is_deaf(
    tmp_path: Path,
) -> None:
    """request_ms is a minute, so only the bounded shutdown can end this in time."""
    config = write_config(tmp_path, [_never_reads(tmp_path, request_ms=60_000)])
    uds = private_socket(tmp_path)  # tmp_path is the plugin's, open to writes
    with gateway_process(config, uds) as gateway:
        with uds_client(uds, timeout=1.0) as impatient, pytest.raises(httpx.ReadTimeout):
            impatient.post("/plugins/never_reads/discover", json={"paths": BIG_PATHS})
        with uds_client(uds) as http:  # the wedged exchange goes on holding the session
            deadline = time.monotonic() + 30
            while (info := http.get("/plugins/never_reads").json())["state"] != "busy":
                assert time.monotonic() < deadline, info
                time.sleep(0.02)
        plugin_pid = info["pid"]
        gateway.send_signal(signal.SIGTERM)
        # half of request_ms: a gateway that waited out the wedged exchange could not exit by
        # then, whatever the load; one bounded by shutdown_ms (1 s) has time to spare
        assert gateway.wait(timeout=SHUTDOWN_WAIT_S) == 0
        output = gateway.stdout.read().decode() if gateway.stdout else ""
    assert wait_exited(plugin_pid, timeout=SHUTDOWN_WAIT_S) and process_gone(plugin_pid)
    assert "Traceback" not in output


def test_an_error_frame_in_place_of_bye_ends_a_sigterm_cleanly(tmp_path: Path) -> None:
    plugin = fault_plugin(
        "error_instead_of_bye", shutdown_ms=1000, env={"FIXTURE_PLUGIN_ID": "error_instead_of_bye"}
    )
    uds = tmp_path / "gw.sock"
    with gateway_process(write_config(tmp_path, [plugin]), uds) as gateway:
        with uds_client(uds) as http:
            response = http.post("/plugins/error_instead_of_bye/discover", json={"paths": ["."]})
            assert response.status_code == 200, response.text
            plugin_pid = http.get("/plugins/error_instead_of_bye").json()["pid"]
        gateway.send_signal(signal.SIGTERM)
        assert gateway.wait(timeout=SHUTDOWN_WAIT_S) == 0
        output = gateway.stdout.read().decode() if gateway.stdout else ""
    assert wait_exited(plugin_pid, timeout=SHUTDOWN_WAIT_S)
    assert "Traceback" not in output and "AssertionError" not in output
    assert "shutdown failed" in output and "E_PLUGIN_ERROR" in output


def test_a_plugin_that_closes_stdout_gets_502_e_eof_through_the_gateway(tmp_path: Path) -> None:
    """Issue 23: under uvloop (the gateway's loop) the plugin held a second copy of its stdout,
    so closing fd 1 gave no EOF: E_TIMEOUT after request_ms instead of `gpp discover`'s E_EOF.
    request_ms is far past the client's 30 s, so the old behaviour fails as a read timeout."""
    config = write_config(tmp_path, [fault_plugin("closes_stdout", request_ms=120_000)])
    with running_gateway(config) as gw, gw.client() as http:
        response = http.post("/plugins/closes_stdout/discover", json={"paths": ["."]})
        assert response.status_code == 502, response.text
        problem = response.json()
        assert problem["code"] == "E_EOF" and problem["frame"] == 2
        assert "(plugin still running; killed)" in problem["problem"]
        pid = gw.state.pools.by_id["closes_stdout"].slots[0].session.pid
        assert pid is not None and wait_exited(pid)


def test_a_plugin_spawned_on_uvloop_holds_its_stdio_only_on_0_1_2() -> None:
    """The structural half of the above: no copy of its stdio past 0-2 reaches the plugin, and
    its stdio are pipes, not uvloop's socketpairs (over which it passed the gateway a socket
    whose close held the event loop: round 9)."""

    async def scenario() -> list[str]:
        started = await start_plugin(
            [sys.executable, "-c", "import sys; sys.stdin.read()"], cwd=None, env=None, sandbox=None
        )
        try:
            fd_dir = f"/proc/{started.proc.pid}/fd"
            links: list[str] = []
            for fd in os.listdir(fd_dir):
                try:
                    target = os.readlink(f"{fd_dir}/{fd}")
                except FileNotFoundError:
                    # closed between the listing and the read: a file Python's start-up had
                    # open for a moment, not an inherited copy (those stay open)
                    continue
                if target.startswith(("socket:", "pipe:")):
                    links.append(f"{fd}: {target}")
            return sorted(links)
        finally:
            await started.reap()

    with asyncio.Runner(loop_factory=uvloop.new_event_loop) as runner:
        stdio = runner.run(scenario())
    assert [line.split(":")[0] for line in stdio] == ["0", "1", "2"], stdio
    assert all(line.split(": ")[1].startswith("pipe:") for line in stdio), stdio
