"""`gpp serve` as a process: SIGTERM drains and shuts plugins down; SIGKILL leaves no plugin."""

from __future__ import annotations

import os
import signal
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx
from gateway_harness import (
    echo_plugin,
    gateway_process,
    make_fifo,
    private_socket,
    uds_client,
    wait_exited,
    write_config,
    writes_to,
)


def _discover(uds: Path, paths: list[str]) -> httpx.Response:
    with uds_client(uds) as http:
        return http.post("/plugins/echo/discover", json={"paths": paths})


def _pid(uds: Path) -> int:
    with uds_client(uds) as http:
        pid: int = http.get("/plugins/echo").json()["pid"]
        return pid


def _wait_busy(uds: Path) -> None:
    import time

    deadline = time.monotonic() + 10
    with uds_client(uds) as http:
        while http.get("/plugins/echo").json()["state"] != "busy":
            assert time.monotonic() < deadline, "plugin never became busy"
            time.sleep(0.02)


def test_sigterm_finishes_in_flight_requests_then_shuts_plugins_down(tmp_path: Path) -> None:
    fifo, gate = make_fifo(tmp_path)
    bye = tmp_path / "bye"
    env = {"ECHO_GATE_FIFO": str(fifo), "ECHO_BYE_FILE": str(bye)}
    config = write_config(
        tmp_path, [echo_plugin(root=str(tmp_path), env=env, **writes_to(tmp_path))]
    )
    uds = private_socket(tmp_path)  # tmp_path is the plugin's, open to writes
    with gateway_process(config, uds) as gateway, ThreadPoolExecutor(1) as executor:
        in_flight = executor.submit(_discover, uds, ["wait"])
        _wait_busy(uds)
        plugin_pid = _pid(uds)
        gateway.send_signal(signal.SIGTERM)
        os.write(gate, b"x")  # let the in-flight request finish after the signal
        response = in_flight.result(timeout=30)
        assert response.status_code == 200
        assert response.json()["resources"][0]["name"] == "wait"
        assert gateway.wait(30) == 0
        output = gateway.stdout.read().decode() if gateway.stdout else ""
    os.close(gate)
    assert wait_exited(plugin_pid)
    assert bye.read_text() == "exit 0"  # the plugin got shutdown, said bye and exited 0
    assert "stopping" in output and "Traceback" not in output


def test_sigkilled_gateway_leaves_no_plugin_running(tmp_path: Path) -> None:
    config = write_config(tmp_path, [echo_plugin()])
    uds = tmp_path / "gw.sock"
    with gateway_process(config, uds) as gateway:
        assert _discover(uds, ["a"]).status_code == 200
        plugin_pid = _pid(uds)
        gateway.send_signal(signal.SIGKILL)
        gateway.wait(30)
    assert wait_exited(plugin_pid), "plugin outlived its SIGKILLed gateway"
