"""The connection cap (issue 23): below the descriptor limit, idle connections make room for
new ones, and a client the gateway cannot take is answered 503, never reset in silence."""

from __future__ import annotations

import contextlib
import os
import socket
import time
from concurrent.futures import ThreadPoolExecutor
from contextlib import AbstractContextManager
from pathlib import Path

import httpx
from gateway_harness import (
    ServedGateway,
    echo_plugin,
    make_fifo,
    running_gateway,
    served,
    write_config,
)

WAIT_S = 30.0
NOFILE = 256
IDLE = 300  # more idle connections than the child's whole descriptor limit


def limited_gateway(config: Path) -> AbstractContextManager[ServedGateway]:
    """`gpp serve` on a loopback port, started with RLIMIT_NOFILE = 256:256."""
    return served(config, prefix=("prlimit", f"--nofile={NOFILE}:{NOFILE}", "--"))


def _open_fds(pid: int) -> int:
    return len(os.listdir(f"/proc/{pid}/fd"))


def test_idle_connections_past_the_fd_limit_make_room_and_are_logged(tmp_path: Path) -> None:
    config = write_config(tmp_path, [echo_plugin()], gateway={"header_timeout_s": 120})
    with limited_gateway(config) as gateway, contextlib.ExitStack() as idle:
        cap = int(gateway.wait_line(r"connection cap").split("maxConnections=")[1].split()[0])
        assert cap < NOFILE - 32  # room kept for the plugins' pipes and the rest
        host, port = gateway.url.removeprefix("http://").split(":")
        for _ in range(IDLE):
            idle.enter_context(socket.create_connection((host, int(port)), timeout=WAIT_S))
        # A new client is answered, never reset: 503 while every connection is young, then,
        # once the idle ones have sat IDLE_AFTER_S, served in an idle one's place.
        statuses: list[int] = []
        deadline = time.monotonic() + WAIT_S
        while not statuses or statuses[-1] != 200:
            assert time.monotonic() < deadline, statuses[-5:]
            with httpx.Client(base_url=gateway.url, timeout=10) as http:
                response = http.get("/healthz")
            statuses.append(response.status_code)
            if response.status_code == 503:
                assert response.headers["content-type"] == "application/problem+json"
                assert response.headers["retry-after"] == "1"
            else:
                assert response.status_code == 200
        assert _open_fds(gateway.proc.pid) < NOFILE
        with gateway.client(timeout=10) as http:
            assert http.post("/plugins/echo/discover", json={"paths": ["a"]}).status_code == 200
        gateway.wait_line(r"idle connection closed: at the connection cap")
    closed = [line for line in gateway.lines if "idle connection closed" in line]
    assert len(closed) < 5  # rate-limited: one line per interval, with a count of the rest
    assert not any("Too many open files" in line for line in gateway.lines)


def test_past_the_cap_with_every_connection_busy_a_new_client_gets_503(tmp_path: Path) -> None:
    fifo, gate = make_fifo(tmp_path)
    cap = 4
    plugin = echo_plugin(env={"ECHO_GATE_FIFO": str(fifo)}, max_queue=10, root=str(tmp_path))
    config = write_config(tmp_path, [plugin], gateway={"max_connections": cap})
    try:
        with running_gateway(config) as gw, ThreadPoolExecutor(cap) as pool:

            def waiting() -> int:
                with gw.client() as http:
                    return http.post("/plugins/echo/discover", json={"paths": ["wait"]}).status_code

            def queued() -> int:
                with gw.client(headers={"Connection": "close"}) as http:
                    depth: int = http.get("/plugins/echo").json()["queueDepth"]
                    return depth

            calls = []
            for held in range(cap - 1):
                calls.append(pool.submit(waiting))
                deadline = time.monotonic() + WAIT_S
                while queued() != held:  # the first is in flight, the others queue
                    assert time.monotonic() < deadline
            # The last one from this thread, so it is accepted before the probe: the cap is
            # reached with every connection busy (the last too young to count as idle).
            body = b'{"paths":["wait"]}'
            last = socket.create_connection(("127.0.0.1", gw.port), timeout=WAIT_S)
            last.sendall(
                b"POST /plugins/echo/discover HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close"
                b"\r\nContent-Type: application/json\r\nContent-Length: 18\r\n\r\n" + body
            )
            with last, socket.create_connection(("127.0.0.1", gw.port), timeout=WAIT_S) as probe:
                probe.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
                answer = _read_all(probe)
                assert answer.startswith(b"HTTP/1.1 503 "), answer
                assert b"application/problem+json" in answer and b"Too many connections" in answer
                os.write(gate, b"x" * cap)
                assert [call.result(WAIT_S) for call in calls] == [200] * (cap - 1)
                assert _read_all(last).startswith(b"HTTP/1.1 200 ")
    finally:
        os.close(gate)


def _read_all(sock: socket.socket) -> bytes:
    answer = b""
    while chunk := sock.recv(65536):
        answer += chunk
    return answer
