"""Live reconfiguration: SIGHUP re-reads the registry of a real `gpp serve` on a loopback port."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
import pytest
from conftest import REPO, doc
from gateway_harness import (
    ServedGateway,
    echo_plugin,
    fault_plugin,
    jsonrpc_plugin,
    make_fifo,
    served,
    wait_exited,
    write_config,
    writes_to,
)

WAIT_S = 30.0
README = doc("operations.md")


def echo(plugin_id: str, env: dict[str, str] | None = None, **extra: Any) -> dict[str, Any]:
    """The echo fixture registered as `plugin_id` (and saying so in its hello)."""
    identity = {"ECHO_PLUGIN_ID": plugin_id, "ECHO_PLUGIN_VERSION": extra.get("version", "1.0.0")}
    return echo_plugin(plugin_id, env={**identity, **(env or {})}, **extra)


def discover(http: httpx.Client, plugin_id: str, *paths: str) -> httpx.Response:
    return http.post(f"/plugins/{plugin_id}/discover", json={"paths": list(paths) or ["a"]})


# ------------------------------------------------------------------------ what a reload changes


# ------------------------------------------------------------------------ a real gateway


def test_reload_adds_removes_replaces_and_keeps(tmp_path: Path) -> None:
    bye_files = {name: tmp_path / f"bye-{name}" for name in ("kept", "gone", "changed")}

    def plugin(name: str, **extra: Any) -> dict[str, Any]:
        return echo(
            name,
            eager=True,
            root=str(tmp_path),
            env={"ECHO_BYE_FILE": str(bye_files.get(name, ""))},
            **writes_to(tmp_path),
            **extra,
        )

    config = write_config(tmp_path, [plugin("kept"), plugin("gone"), plugin("changed")])
    with served(config) as gateway, gateway.client() as http:
        before = _wait_pids(gateway, {"kept", "gone", "changed"})
        write_config(
            tmp_path, [plugin("kept"), plugin("changed", version="2.0.0"), plugin("added")]
        )
        line = gateway.reload(1)
        assert "added=added removed=gone changed=changed kept=kept" in line
        after = _wait_pids(gateway, {"kept", "changed", "added"})
        assert list(after) == ["kept", "changed", "added"]
        assert after["kept"] == before["kept"]
        assert after["changed"] != before["changed"]
        for retired in ("gone", "changed"):
            assert wait_exited(before[retired][0])
            assert bye_files[retired].exists(), f"{retired} was not shut down with bye"
        assert not bye_files["kept"].exists()
        refused = discover(http, "gone")
        assert refused.status_code == 404 and refused.json()["code"] == "E_UNKNOWN_PLUGIN"
        for plugin_id in ("kept", "changed", "added"):
            assert discover(http, plugin_id).status_code == 200
        assert http.get("/plugins/changed").json()["version"] == "2.0.0"
        assert gateway.metric('gpp_reloads_total{result="applied"}') == 1
        assert gateway.metric('gpp_live_sessions{plugin="added"}') == 1
        assert gateway.metric('gpp_live_sessions{plugin="gone"}') is None


def test_an_invalid_registry_changes_nothing_and_says_why(tmp_path: Path) -> None:
    config = write_config(tmp_path, [echo("kept", eager=True)])
    with served(config) as gateway, gateway.client() as http:
        before = _wait_pids(gateway, {"kept"})
        broken = dict(echo("kept"), version="", colour="red")
        write_config(tmp_path, [broken, echo("added")], gateway={"port": "x"})
        checked = subprocess.run(
            [sys.executable, "-m", "gpp.gateway", "check-config", str(config)],
            capture_output=True,
            text=True,
            cwd=REPO,
            timeout=WAIT_S,
        )
        problems = checked.stderr.splitlines()
        assert checked.returncode == 1 and len(problems) == 3, checked.stderr
        gateway.reload(1)
        for number, problem in enumerate(problems, 1):
            logged = gateway.wait_line(r"event=\"reload refused\"", number)
            assert problem in logged.replace('\\"', '"'), (problem, logged)
        assert not [line for line in gateway.lines if re.search(r"event=reload( |$)", line)]
        assert gateway.pids() == before
        assert discover(http, "added").status_code == 404
        assert gateway.metric('gpp_reloads_total{result="invalid"}') == 1
        assert gateway.metric('gpp_reloads_total{result="applied"}') is None


def test_retired_plugins_finish_what_is_in_flight_and_queued(tmp_path: Path) -> None:
    fifo, gate = make_fifo(tmp_path)
    bye = tmp_path / "bye"
    slow = echo(
        "slow",
        root=str(tmp_path),
        env={"ECHO_GATE_FIFO": str(fifo), "ECHO_BYE_FILE": str(bye)},
        **writes_to(tmp_path),
    )
    config = write_config(tmp_path, [slow, echo("other")])
    with served(config) as gateway, gateway.client() as http, ThreadPoolExecutor(2) as pool:
        in_flight = pool.submit(discover, http, "slow", "wait")
        _wait_state(http, "slow", lambda p: p["state"] == "busy")
        queued = pool.submit(discover, http, "slow", "after")
        _wait_state(http, "slow", lambda p: p["queueDepth"] == 1)
        (old_pid,) = gateway.pids()["slow"]
        write_config(tmp_path, [echo("other")])
        gateway.reload(1)
        assert discover(http, "slow").status_code == 404
        assert not bye.exists() and not in_flight.done()
        os.write(gate, b"x")
        answers = [in_flight.result(WAIT_S), queued.result(WAIT_S)]
        os.close(gate)
        assert [a.status_code for a in answers] == [200, 200], [a.text for a in answers]
        assert wait_exited(old_pid)
        gateway.wait_line(r"event=retired plugin=slow")
        assert bye.exists()


def rpc_example(plugin_id: str, root: Path, **extra: Any) -> dict[str, Any]:
    return jsonrpc_plugin(plugin_id, REPO / "plugins/jsonrpc_example.py", root=str(root), **extra)


@pytest.mark.parametrize("streamed", [False, True], ids=["plain", "sse"])
def test_a_retired_json_rpc_plugin_answers_what_is_in_flight(
    tmp_path: Path, streamed: bool
) -> None:
    # slow_count 100 takes a second; were the session closed at once, its 200 ms would cut it off
    config = write_config(tmp_path, [rpc_example("counter", tmp_path, shutdown_ms=200)])
    body = {"jsonrpc": "2.0", "method": "slow_count", "params": {"n": 100}, "id": "c"}
    headers = {"Accept": "text/event-stream"} if streamed else {}
    with served(config) as gateway, gateway.client() as http, ThreadPoolExecutor(1) as pool:
        in_flight = pool.submit(http.post, "/plugins/counter/rpc", json=body, headers=headers)
        _wait_state(http, "counter", lambda p: p["state"] == "busy")
        (pid,) = gateway.pids()["counter"]
        write_config(tmp_path, [])
        gateway.reload(1)
        answer = in_flight.result(WAIT_S)
        assert answer.status_code == 200
        if streamed:
            assert answer.text.count("event: notification") == 100
            assert '"result": 100' in answer.text.split("event: response")[1]
        else:
            assert answer.json() == {"jsonrpc": "2.0", "result": 100, "id": "c"}
        assert wait_exited(pid)
        gateway.wait_line(r"event=retired plugin=counter")


def test_no_request_is_lost_or_refused_across_reloads(tmp_path: Path) -> None:
    def registry(generation: int) -> None:
        write_config(
            tmp_path,
            [
                echo("steady", instances=2),
                echo("flipping", instances=2, env={"GENERATION": str(generation)}),
                *([echo("sometimes")] if generation % 2 else []),
                rpc_example("rpc-flipping", tmp_path, env={"GENERATION": str(generation)}),
            ],
        )

    registry(0)
    outcomes: list[tuple[str, str]] = []  # (plugin, "ok" or what came instead)
    answered = threading.Condition()
    stop = threading.Event()

    def call(http: httpx.Client, plugin_id: str) -> str:
        if plugin_id.startswith("rpc-"):
            body = {"jsonrpc": "2.0", "method": "subtract", "params": [42, 23], "id": 1}
            answer = http.post(f"/plugins/{plugin_id}/rpc", json=body)
            ok = answer.status_code == 200 and answer.json().get("result") == 19
        else:
            answer = discover(http, plugin_id, "x")
            ok = answer.status_code == 200
        return "ok" if ok else f"{answer.status_code} {answer.text[:300]}"

    def client(plugin_id: str) -> None:
        with gateway.client() as http:
            while not stop.is_set():
                outcome = call(http, plugin_id)
                with answered:
                    outcomes.append((plugin_id, outcome))
                    answered.notify_all()

    def answers_grow_by(count: int) -> None:
        with answered:
            target = len(outcomes) + count
            assert answered.wait_for(lambda: len(outcomes) >= target, WAIT_S), outcomes[-5:]

    reloads = 6
    with served(tmp_path / "registry.toml") as gateway, ThreadPoolExecutor(5) as pool:
        plugins = ("steady", "steady", "flipping", "flipping", "rpc-flipping")
        clients = [pool.submit(client, p) for p in plugins]
        for generation in range(1, reloads + 1):
            answers_grow_by(20)  # the load is flowing: every reload lands among requests
            registry(generation)
            gateway.reload(generation)
        answers_grow_by(20)
        stop.set()
        for done in clients:
            done.result(WAIT_S)
        assert gateway.metric('gpp_reloads_total{result="applied"}') == reloads
        gateway.proc.send_signal(signal.SIGTERM)
        assert gateway.proc.wait(WAIT_S) == 0
    assert {plugin for plugin, _ in outcomes} == set(plugins)
    assert [o for o in outcomes if o[1] != "ok"] == []


def test_the_token_applies_at_once_and_the_port_after_a_restart(tmp_path: Path) -> None:
    token = tmp_path / "token"
    token.write_text("first\n")
    token.chmod(0o600)
    config = write_config(tmp_path, [echo("echo")], gateway={"token_file": str(token)})
    with served(config) as gateway, gateway.client() as http:
        assert http.get("/plugins", headers=_bearer("first")).status_code == 200
        token.write_text("second\n")
        write_config(tmp_path, [echo("echo")], gateway={"token_file": str(token), "port": 1})
        gateway.reload(1)
        assert http.get("/plugins", headers=_bearer("first")).status_code == 401
        assert http.get("/plugins", headers=_bearer("second")).status_code == 200
        line = gateway.wait_line("restart needed")
        assert "keys=gateway.port" in line
        gateway.reload(2)  # still not applied: still said
        gateway.wait_line("restart needed", 2)


def test_sigterm_with_a_retiring_plugin_still_stops_in_time(tmp_path: Path) -> None:
    fifo, gate = make_fifo(tmp_path)
    stuck = echo("stuck", root=str(tmp_path), shutdown_ms=1000, env={"ECHO_GATE_FIFO": str(fifo)})
    config = write_config(tmp_path, [stuck], gateway={"grace_seconds": 1})
    try:
        with served(config) as gateway, gateway.client() as http, ThreadPoolExecutor(1) as pool:
            in_flight = pool.submit(discover, http, "stuck", "wait")
            _wait_state(http, "stuck", lambda p: p["state"] == "busy")
            (pid,) = gateway.pids()["stuck"]
            write_config(tmp_path, [])
            gateway.reload(1)
            gateway.proc.send_signal(signal.SIGTERM)
            # grace (1 s, then the request is cancelled) + shutdown_ms (1 s) + margin
            assert gateway.proc.wait(10) == 0
            assert wait_exited(pid)
            in_flight.exception(WAIT_S)  # the server cut it off past its grace
    finally:
        os.close(gate)


def test_sigterm_cancels_a_reload_still_starting_a_silent_eager_plugin(tmp_path: Path) -> None:
    """Issue 23: SIGTERM right after a SIGHUP that added a silent eager plugin waited out its
    handshake (19.6 s with grace 1 s). The reload is cancelled and its half-started plugin
    killed; 60 s of handshake_ms would fail the bounded wait below."""
    silent = fault_plugin("never_hello", eager=True, handshake_ms=60_000, shutdown_ms=1000)
    config = write_config(tmp_path, [echo("kept")], gateway={"grace_seconds": 1})
    with served(config) as gateway:
        write_config(tmp_path, [echo("kept"), silent], gateway={"grace_seconds": 1})
        gateway.reload(1)  # logged once applied, before the eager start it then awaits
        deadline = time.monotonic() + WAIT_S
        while not (pids := gateway.pids().get("never_hello")):
            assert time.monotonic() < deadline, "the silent plugin never started"
            time.sleep(0.05)
        gateway.proc.send_signal(signal.SIGTERM)
        assert gateway.proc.wait(30) == 0  # half of handshake_ms: room for a loaded machine
        assert all(wait_exited(pid) for pid in pids)


def test_readme_reload_example_runs_as_written(tmp_path: Path) -> None:
    (block,) = [b for b in re.findall(r"```sh\n(.*?)```", README, re.S) if "kill -HUP" in b]
    (tmp_path / "plugins").mkdir()
    config = write_config(tmp_path / "plugins", [echo("first")])
    with served(config) as gateway:
        write_config(tmp_path / "plugins", [echo("first"), echo("second")])
        bin_dir = Path(sys.executable).parent
        env = {"PATH": f"{bin_dir}:/usr/bin:/bin", "GPP_PID": str(gateway.proc.pid)}
        done = subprocess.run(
            ["bash", "-ec", block],
            capture_output=True,
            text=True,
            cwd=tmp_path,
            env=env,
            timeout=WAIT_S,
        )
        assert done.returncode == 0, done.stderr
        assert "added=second" in gateway.wait_line(r"event=reload( |$)")
        assert set(gateway.pids()) == {"first", "second"}


def _bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def _wait_pids(gateway: ServedGateway, expected: set[str]) -> dict[str, list[int]]:
    """The pids once exactly `expected` plugins are listed, each with a live session."""
    deadline = time.monotonic() + WAIT_S
    while True:
        pids = gateway.pids()
        if set(pids) == expected and all(pids.values()):
            return pids
        assert time.monotonic() < deadline, pids
        time.sleep(0.02)  # polling a condition, bounded by the deadline


def _wait_state(
    http: httpx.Client, plugin_id: str, ready: Callable[[dict[str, Any]], bool]
) -> None:
    deadline = time.monotonic() + WAIT_S
    while not ready(info := http.get(f"/plugins/{plugin_id}").json()):
        assert time.monotonic() < deadline, info
        time.sleep(0.02)  # polling a condition, bounded by the deadline
