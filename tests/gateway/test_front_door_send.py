"""The send deadline: a client that stops reading its answer loses the connection, and the
answer's buffered bytes are freed, after `send_timeout_s` without progress (issue 23)."""

from __future__ import annotations

import contextlib
import logging
import socket
import time
from collections.abc import Iterator

import orjson
import pytest
from gateway_harness import Gateway, echo_plugin, running_gateway, write_config

SEND_TIMEOUT_S = 2.0
BURST = 2 * 1024 * 1024
WAIT_BOUND_S = 30.0
PATHS = [f"{i:05d}-" + "x" * 794 for i in range(10_000)]  # an answer of about 8 MB


@pytest.fixture(scope="module")
def gateway(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Gateway]:
    config = write_config(
        tmp_path_factory.mktemp("send-deadline"),
        [echo_plugin(max_line_bytes=64 * 1024 * 1024)],
        gateway={"send_timeout_s": SEND_TIMEOUT_S, "max_body_bytes": 16 * 1024 * 1024},
    )
    with running_gateway(config) as gw:
        yield gw


def _request() -> bytes:
    body = orjson.dumps({"paths": PATHS})
    head = (
        "POST /plugins/echo/discover HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n\r\n"
    )
    return head.encode() + body


def _connect_small_window(gw: Gateway) -> socket.socket:
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)  # before connect: a tiny window
    sock.settimeout(WAIT_BOUND_S)
    sock.connect(("127.0.0.1", gw.port))
    return sock


def _wait(predicate: object, what: str) -> None:
    deadline = time.monotonic() + WAIT_BOUND_S
    while not predicate():  # type: ignore[operator]
        assert time.monotonic() < deadline, what
        time.sleep(0.05)


def test_a_client_that_never_reads_is_cut_off_and_its_answer_freed(
    gateway: Gateway, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING, logger="gpp.front_door")
    connections = gateway.server.server_state.connections

    def cut() -> list[logging.LogRecord]:
        return [r for r in caplog.records if r.getMessage() == "send deadline: connection closed"]

    with _connect_small_window(gateway) as sock:
        sock.sendall(_request())
        _wait(lambda: cut(), "the send deadline never fired")
        (record,) = cut()
        fields = record.fields  # type: ignore[attr-defined]
        assert fields["unsentBytes"] > 1024 * 1024 and fields["seconds"] == SEND_TIMEOUT_S
        _wait(lambda: not connections, "the connection was not dropped")
        received = 0
        with contextlib.suppress(ConnectionResetError):
            while chunk := sock.recv(1 << 20):
                received += len(chunk)
        assert received < len(_request())  # the answer was never sent whole


def test_a_client_that_reads_slowly_but_steadily_gets_the_whole_answer(gateway: Gateway) -> None:
    """Progress resets the deadline: it bounds a stall, not the whole answer. The client reads
    in bursts (enough for the kernel to take more from the gateway's buffer each time), with
    pauses of half the deadline between them, and so takes longer than one deadline in all."""
    with socket.create_connection(("127.0.0.1", gateway.port), timeout=WAIT_BOUND_S) as sock:
        sock.sendall(_request())
        received = b""
        started = time.monotonic()
        burst_end = BURST
        while chunk := sock.recv(1 << 20):
            received += chunk
            if b"\r\n\r\n" in received and len(received) >= _expected(received):
                break
            if len(received) >= burst_end:
                burst_end += BURST
                time.sleep(SEND_TIMEOUT_S / 2)
        assert received.startswith(b"HTTP/1.1 200 ")
        assert len(received) == _expected(received)
        assert time.monotonic() - started > SEND_TIMEOUT_S  # it did outlast one deadline


def _expected(received: bytes) -> int:
    head, _, _ = received.partition(b"\r\n\r\n")
    for line in head.split(b"\r\n"):
        if line.lower().startswith(b"content-length:"):
            return len(head) + 4 + int(line.split(b":")[1])
    return 1 << 62
