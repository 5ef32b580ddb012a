"""The front door under attack: raw sockets on loopback against a real gateway.

Every wait is bounded by a socket timeout well above the gateway's own deadlines; a test
asserts that the gateway closed the connection within that bound, never how fast it did.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import re
import socket
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from gateway_harness import Gateway, echo_plugin, make_fifo, running_gateway, write_config

from app.server.front_door import CoalescingTransport
from gpp.core import schema

HEADER_TIMEOUT_S = 2.0
BODY_TIMEOUT_S = 2.0
MAX_HEADER_BYTES = 16 * 1024
WAIT_BOUND_S = 20.0  # how long a test waits for the gateway to act: far above its deadlines


@pytest.fixture(scope="module")
def gateway(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Gateway]:
    config = write_config(
        tmp_path_factory.mktemp("front-door"),
        [echo_plugin()],
        gateway={
            "max_header_bytes": MAX_HEADER_BYTES,
            "header_timeout_s": HEADER_TIMEOUT_S,
            "body_timeout_s": BODY_TIMEOUT_S,
            "max_body_bytes": 8 * 1024 * 1024,
        },
    )
    with running_gateway(config) as gw:
        yield gw


def connect(gw: Gateway) -> socket.socket:
    sock = socket.create_connection(("127.0.0.1", gw.port), timeout=WAIT_BOUND_S)
    return sock


def read_until_closed(sock: socket.socket) -> bytes:
    """Everything the gateway sends until it closes; a timeout here fails the test."""
    received = b""
    while chunk := sock.recv(65536):
        received += chunk
    return received


def send_ignoring_close(sock: socket.socket, data: bytes) -> None:
    """Send what the gateway accepts; it may close mid-way, which is what some tests want."""
    with contextlib.suppress(BrokenPipeError, ConnectionResetError):
        sock.sendall(data)


def request_head(path: str = "/plugins/echo/discover", **headers: str) -> bytes:
    lines = [f"POST {path} HTTP/1.1", "Host: 127.0.0.1", "Content-Type: application/json"]
    lines += [f"{name.replace('_', '-')}: {value}" for name, value in headers.items()]
    return ("\r\n".join(lines) + "\r\n\r\n").encode()


def status_of(response: bytes) -> int:
    return int(response.split(b" ", 2)[1])


def post(gw: Gateway, body: Any, **kwargs: Any) -> httpx.Response:
    with gw.client() as http:
        return http.post("/plugins/echo/discover", json=body, **kwargs)


# ------------------------------------------------------------------ slow and silent clients


def test_a_connection_that_sends_nothing_is_closed(gateway: Gateway) -> None:
    with connect(gateway) as sock:
        response = read_until_closed(sock)
    assert status_of(response) == 408


def test_a_partial_head_is_answered_408_and_closed(gateway: Gateway) -> None:
    with connect(gateway) as sock:
        sock.sendall(b"POST /plugins/echo/discover HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        response = read_until_closed(sock)
    assert status_of(response) == 408
    assert b"content-type: application/problem+json" in response.lower()
    assert b"request header did not arrive" in response


def test_a_head_trickled_a_line_at_a_time_still_times_out(gateway: Gateway) -> None:
    """A deadline on the whole head, not an idle timer a slowloris client can keep resetting."""
    with connect(gateway) as sock:
        sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        sock.settimeout(0.2)
        response = b""
        deadline = time.monotonic() + WAIT_BOUND_S
        while time.monotonic() < deadline:
            send_ignoring_close(sock, b"X-Slow: 1\r\n")
            try:
                chunk = sock.recv(65536)
            except TimeoutError:
                continue
            response += chunk
            if not chunk:
                break
    assert status_of(response) == 408


def test_a_body_shorter_than_its_content_length_is_408_and_not_logged_ok(
    gateway: Gateway, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    before = gateway.plugin("echo")["served"]
    with connect(gateway) as sock:
        sock.sendall(request_head(Content_Length="100") + b'{"paths":')
        response = read_until_closed(sock)
    assert status_of(response) == 408
    assert b"request body did not arrive" in response
    deadline = time.monotonic() + WAIT_BOUND_S
    while not (outcomes := _request_outcomes(caplog)) and time.monotonic() < deadline:
        time.sleep(0.02)
    assert outcomes == ["client-gone"]
    assert gateway.plugin("echo")["served"] == before


def _request_outcomes(caplog: pytest.LogCaptureFixture) -> list[str]:
    fields = [getattr(r, "fields", {}) for r in caplog.records if r.getMessage() == "request"]
    return [f["outcome"] for f in fields if f.get("plugin") == "echo"]


def test_keep_alive_requests_each_get_a_fresh_head_deadline(gateway: Gateway) -> None:
    """The first request's deadline must not cut a later request on the same connection."""
    with gateway.client() as http:
        for _ in range(2):
            assert http.get("/healthz").status_code == 200
            time.sleep(HEADER_TIMEOUT_S * 0.7)  # idle, under the keep-alive timeout
        assert http.get("/healthz").status_code == 200


@pytest.mark.parametrize(
    ("stalled", "phase"),
    [
        (b"POST /plugins/echo/discover HTTP/1.1\r\nHost: 127.0.0.1\r\n", b"header"),
        (request_head(Content_Length="100") + b'{"paths":', b"body"),
    ],
    ids=["head", "body"],
)
def test_a_keep_alive_request_that_stalls_after_one_served_still_gets_408(
    gateway: Gateway, stalled: bytes, phase: bytes
) -> None:
    """The deadlines of a later request on a connection are armed once the read that began
    the phase is parsed: a request that stalls there is answered 408, never waited on."""
    body = b'{"paths":["a"]}'
    with connect(gateway) as sock:
        sock.sendall(request_head(Content_Length=str(len(body))) + body + stalled)
        response = read_until_closed(sock)
    first, _, rest = response.partition(b"HTTP/1.1 408")
    assert status_of(first) == 200 and rest, response
    assert b"request " + phase + b" did not arrive" in rest


def test_a_request_answered_before_its_body_stalls_is_closed_without_a_second_answer(
    gateway: Gateway,
) -> None:
    """415 goes out before the body is read; when the body never comes, the connection is
    closed at the deadline, and the client hears no second answer to the same request."""
    head = request_head(Content_Length="100").replace(
        b"Content-Type: application/json", b"Content-Type: text/plain"
    )
    with connect(gateway) as sock:
        sock.sendall(head)
        response = read_until_closed(sock)
    assert status_of(response) == 415
    assert response.count(b"HTTP/1.1 ") == 1, response


# ------------------------------------------------------------------------------- big heads


def test_an_oversized_head_is_431_and_closed(gateway: Gateway) -> None:
    with connect(gateway) as sock:
        send_ignoring_close(sock, request_head(X_Big="a" * (4 * MAX_HEADER_BYTES)))
        response = read_until_closed(sock)
    assert status_of(response) == 431


def test_a_huge_head_is_cut_off_long_before_it_ends(gateway: Gateway) -> None:
    """64 MB of header: the gateway closes after about its limit, the client cannot finish."""
    sent = 0
    with connect(gateway) as sock:
        sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: ")
        try:
            while sent < 64 * 1024 * 1024:
                sent += sock.send(b"a" * 65536)
        except (BrokenPipeError, ConnectionResetError):
            pass
        else:
            pytest.fail("the gateway read a 64 MB header to the end")
    assert sent < 64 * 1024 * 1024


def test_a_head_begun_and_left_incomplete_in_one_read_is_431(gateway: Gateway) -> None:
    """An incomplete head of three times the bound, sent in one read and nothing after: the
    read in which a head began went uncounted, so a tokenless client held a read's worth
    (256 KiB, eight times the default bound) on each of the 4,096 connections of the cap until
    the header deadline. The head counts from where it begins in the read: 431 at once."""
    head = b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: " + b"a" * (3 * MAX_HEADER_BYTES)
    assert len(head) < 60_000  # one loopback segment, one read
    with connect(gateway) as sock:
        sock.settimeout(HEADER_TIMEOUT_S / 2)  # the answer comes before the header deadline
        send_ignoring_close(sock, head)
        response = read_until_closed(sock)
    assert status_of(response) == 431


def test_a_head_under_the_limit_with_a_body_in_the_same_read_is_served(gateway: Gateway) -> None:
    body = b'{"paths":["' + b"a" * 200_000 + b'"]}'
    with connect(gateway) as sock:
        sock.sendall(request_head(Content_Length=str(len(body)), Connection="close") + body)
        response = read_until_closed(sock)
    assert status_of(response) == 200


# ------------------------------------------------------------------------------ Host, Origin


# ------------------------------------------------------------------- request ids and bodies


def test_pipelined_requests_past_the_head_bound_in_one_read_are_all_answered(
    gateway: Gateway, caplog: pytest.LogCaptureFixture
) -> None:
    """500 pipelined requests and the start of one more, in one read larger than the head
    bound: the read in which the last head began was counted whole against it, so the client
    got a 431 (written ahead of its first request's answer, and each owed answer then raised
    "Cannot call writelines() after write_eof()", logged by asyncio, unthrottled). A head now
    counts from the read after the one it began in: every request is answered, in order."""
    caplog.set_level(logging.WARNING)
    pipelined = b"GET /nothing HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n" * 500
    assert MAX_HEADER_BYTES < len(pipelined) < 60_000  # one loopback segment, one read
    with connect(gateway) as sock:
        sock.sendall(pipelined + b"GET /nothing HTTP/1.1\r\nHo")
        received = _answers(sock, 500)
        sock.sendall(b"st: 127.0.0.1\r\n\r\n")
        received += _answers(sock, 1)
    statuses = re.findall(rb"HTTP/1\.1 (\d{3}) ", received)
    assert statuses == [b"404"] * 501
    assert _refusals(caplog) == []
    assert [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR] == []


def _answers(sock: socket.socket, count: int) -> bytes:
    """Bytes until `count` answers' status lines and their bodies (small JSON) are in."""
    received = b""
    while received.count(b"HTTP/1.1 ") < count or not received.endswith(b"}"):
        chunk = sock.recv(65536)
        assert chunk, received[-300:]
        received += chunk
    return received


def test_a_refusal_behind_an_answer_still_owed_closes_without_a_log_flood(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """A request being served, and the next one's head stalled past its deadline behind it:
    the 408 was written as if it answered the first request, and the connection half-closed;
    the owed answer then raised "Cannot call writelines() after write_eof()", logged by
    asyncio (one error per owed answer). Now a refusal with an answer owed closes."""
    caplog.set_level(logging.WARNING)
    fifo, gate = make_fifo(tmp_path)
    plugin = echo_plugin(env={"ECHO_GATE_FIFO": str(fifo)}, root=str(tmp_path))
    config = write_config(tmp_path, [plugin], gateway={"header_timeout_s": 1.0})
    body = b'{"paths":["wait"]}'
    held = request_head(Content_Length=str(len(body))) + body
    try:
        with running_gateway(config) as gw, connect(gw) as sock:
            ours = sock.getsockname()[1]
            sock.sendall(held + b"GET /healthz HTTP/1.1\r\nHo")  # the second head stalls
            response = read_until_closed(sock)
            os.write(gate, b"x")  # the first request's answer comes now
            deadline = time.monotonic() + WAIT_BOUND_S
            while _holds_connection_from(gw, ours) and time.monotonic() < deadline:
                time.sleep(0.02)
            assert _refusals(caplog) == [408]  # the case under test was reached
            served = time.monotonic() + WAIT_BOUND_S  # the plugin answered: nothing raised
            while gw.plugin("echo")["served"] < 1 and time.monotonic() < served:
                time.sleep(0.02)
    finally:
        os.close(gate)
    assert [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR] == []
    assert b"408" not in response.split(b"\r\n", 1)[0]  # never read as the first's answer


def _holds_connection_from(gateway: Gateway, port: int) -> bool:
    clients = [
        getattr(protocol, "client", None)
        for protocol in list(gateway.server.server_state.connections)
    ]
    return any(client and client[1] == port for client in clients)


def _refusals(caplog: pytest.LogCaptureFixture) -> list[Any]:
    return [
        getattr(r, "fields", {}).get("status")
        for r in caplog.records
        if r.getMessage() == "front door refusal"
    ]


@pytest.mark.parametrize("request_id", ["🔥", "\u001f", "a b", "é", "\r\nX-Injected: 1"])
def test_request_ids_that_are_not_header_safe_stay_out_of_headers(
    gateway: Gateway, request_id: str
) -> None:
    response = post(gateway, {"paths": ["a"], "requestId": request_id})
    assert response.status_code == 200
    assert response.json()["requestId"] == request_id
    assert "x-request-id" not in response.headers and "x-injected" not in response.headers


def test_a_visible_ascii_request_id_is_echoed_in_the_header(gateway: Gateway) -> None:
    request_id = "trace-7/~!{}"
    response = post(gateway, {"paths": ["a"], "requestId": request_id})
    assert response.headers["x-request-id"] == response.json()["requestId"] == request_id


@pytest.mark.parametrize(
    ("body", "key"),
    [
        (b'{"paths":["a"],"paths":["b"]}', '"paths"'),
        (b'{"requestId":"x","paths":["a"],"requestId":"y"}', '"requestId"'),
        (b'{"paths":["a"],"extra":{"k":1,"k":2}}', '"k"'),
    ],
)
def test_duplicate_keys_in_the_body_are_422_naming_the_key(
    gateway: Gateway, body: bytes, key: str
) -> None:
    with gateway.client() as http:
        response = http.post(
            "/plugins/echo/discover", content=body, headers={"Content-Type": "application/json"}
        )
    assert response.status_code == 422
    problem = response.json()
    assert problem["code"] == "E_SCHEMA" and f"duplicate key {key}" in problem["detail"]


def test_large_valid_paths_in_refused_requests_do_not_pin_memory(gateway: Gateway) -> None:
    """Each request holds valid paths the cache would keep, then a bad one: 422. Far more
    than the cache's byte bound goes through it; what it holds stays under the bound."""
    sent = 0
    for n in range(24):
        big = [f"r{n}/{'b' * (512 * 1024)}"]  # one long path: never worth caching
        many = [f"r{n}/p{i}/{'m' * 480}" for i in range(1500)]  # short ones, 0.75 MB together
        response = post(gateway, {"paths": [*big, *many, "/absolute"]})
        assert response.status_code == 422 and response.json()["field"] == "paths[1501]"
        sent += sum(len(p) for p in [*big, *many])
    assert sent > 4 * schema.VALID_PATHS.max_bytes
    assert schema.VALID_PATHS.bytes <= schema.VALID_PATHS.max_bytes


class RecordingTransport:
    """What a CoalescingTransport hands on, and when."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, object]] = []
        self.closing = False

    def write(self, data: bytes) -> None:
        self.calls.append(("write", data))

    def writelines(self, lines: list[bytes]) -> None:
        self.calls.append(("writelines", list(lines)))

    def close(self) -> None:
        self.calls.append(("close", None))
        self.closing = True

    def write_eof(self) -> None:
        self.calls.append(("write_eof", None))

    def is_closing(self) -> bool:
        return self.closing

    def get_write_buffer_size(self) -> int:
        return 0

    def get_extra_info(self, name: str) -> str:
        return f"info:{name}"


def test_what_one_step_writes_leaves_in_one_go_and_close_sends_it_first() -> None:
    async def scenario() -> tuple[list[tuple[str, object]], list[tuple[str, object]], int]:
        real = RecordingTransport()
        coalescing = CoalescingTransport(real, asyncio.get_running_loop())  # type: ignore[arg-type]
        coalescing.write(b"head")
        coalescing.write(b"body")
        held = coalescing.get_write_buffer_size()
        during_step = list(real.calls)
        await asyncio.sleep(0)  # the step ends
        coalescing.write(b"last")
        coalescing.close()
        coalescing.write(b"after close")
        await asyncio.sleep(0)
        return during_step, real.calls, held

    during_step, calls, held = asyncio.run(scenario())
    assert during_step == [] and held == 8
    assert calls == [
        ("writelines", [b"head", b"body"]),
        ("write", b"last"),
        ("close", None),
    ]
    assert CoalescingTransport(RecordingTransport(), None).get_extra_info("peername") == (  # type: ignore[arg-type]
        "info:peername"
    )


def test_what_is_written_after_the_half_close_is_dropped_not_raised() -> None:
    """A real transport raises on a write after `write_eof`, in the flush callback, where
    asyncio logs it: a late answer is dropped as after `close`."""

    async def scenario() -> list[tuple[str, object]]:
        real = RecordingTransport()
        coalescing = CoalescingTransport(real, asyncio.get_running_loop())  # type: ignore[arg-type]
        coalescing.write(b"refusal")
        coalescing.write_eof()
        coalescing.writelines([b"late head", b"late body"])
        await asyncio.sleep(0)
        return real.calls

    assert asyncio.run(scenario()) == [("write", b"refusal"), ("write_eof", None)]
