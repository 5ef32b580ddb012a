"""Issue 10, second pass: a hostile local HTTP client against the front door, raw sockets on
loopback. Every wait is bounded by a socket timeout well above the gateway's own deadlines.

Before this pass, a chunked body's trailer section had no bound at all: 200 MB of trailer
fields, sent inside the body deadline, grew the gateway by 190 MB (uvicorn kept every field, and
added it to the request's headers); a chunk extension was unbounded too (dropped by the parser,
but read for as long as the client sent it).
"""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest
from gateway_harness import Gateway, echo_plugin, running_gateway, write_config
from test_front_door import connect, read_until_closed, send_ignoring_close, status_of

MAX_HEADER_BYTES = 16 * 1024
FLOOD_BYTES = 64 * 1024 * 1024  # what a test offers; the gateway must refuse long before
CHUNKED_HEAD = (
    b"POST /plugins/echo/discover HTTP/1.1\r\nHost: 127.0.0.1\r\n"
    b"Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n"
)


@pytest.fixture(scope="module")
def gateway(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Gateway]:
    config = write_config(
        tmp_path_factory.mktemp("attack-http"),
        [echo_plugin()],
        gateway={"max_header_bytes": MAX_HEADER_BYTES},
    )
    with running_gateway(config) as gw:
        yield gw


def flood(gw: Gateway, start: bytes, unit: bytes) -> tuple[bytes, int]:
    """Send `start`, then `unit` until FLOOD_BYTES or the gateway closes: its answer, and how
    much of the flood it took."""
    sock = connect(gw)
    with sock:
        sock.sendall(start)
        sent = 0
        try:
            while sent < FLOOD_BYTES:
                sock.sendall(unit)
                sent += len(unit)
        except (BrokenPipeError, ConnectionResetError):
            pass
        try:
            return read_until_closed(sock), sent
        except ConnectionResetError:  # closed with our unread flood in its buffer
            return b"", sent


def test_an_endless_trailer_section_is_refused(gateway: Gateway) -> None:
    answer, sent = flood(
        gateway, CHUNKED_HEAD + b"2\r\n{}\r\n0\r\n", b"X-T: " + b"a" * 1000 + b"\r\n"
    )
    assert sent < FLOOD_BYTES // 4, sent  # socket buffers, not the gateway, took the rest
    assert answer == b"" or status_of(answer) == 431, answer[:200]


def test_one_endless_trailer_field_is_refused(gateway: Gateway) -> None:
    answer, sent = flood(gateway, CHUNKED_HEAD + b"2\r\n{}\r\n0\r\nX-T: ", b"a" * 65536)
    assert sent < FLOOD_BYTES // 4, sent
    assert answer == b"" or status_of(answer) == 431, answer[:200]


def test_an_endless_chunk_extension_is_refused(gateway: Gateway) -> None:
    answer, sent = flood(gateway, CHUNKED_HEAD + b"2;ext=", b"e" * 65536)
    assert sent < FLOOD_BYTES // 4, sent
    assert answer == b"" or status_of(answer) == 431, answer[:200]


def test_a_small_trailer_and_many_one_byte_chunks_are_served(gateway: Gateway) -> None:
    body = json.dumps({"paths": ["."], "requestId": "chunky"}).encode()
    chunks = b"".join(b"1;e=x\r\n" + bytes([byte]) + b"\r\n" for byte in body)
    sock = connect(gateway)
    with sock:
        sock.sendall(
            CHUNKED_HEAD.replace(b"\r\n\r\n", b"\r\nConnection: close\r\n\r\n")
            + chunks
            + b"0\r\nX-Checksum: 1\r\n\r\n"
        )
        answer = read_until_closed(sock)
    assert status_of(answer) == 200, answer[:300]
    assert json.loads(answer.split(b"\r\n\r\n", 1)[1])["requestId"] == "chunky"


def test_expect_continue_past_the_cap_is_413_without_a_100(gateway: Gateway) -> None:
    sock = connect(gateway)
    with sock:
        send_ignoring_close(
            sock,
            CHUNKED_HEAD.replace(
                b"Transfer-Encoding: chunked", b"Content-Length: 99999999\r\nExpect: 100-continue"
            ),
        )
        answer = read_until_closed(sock)
    assert status_of(answer) == 413 and b"100 Continue" not in answer, answer[:200]


@pytest.mark.parametrize(
    "bad",
    [b"X-A: a\x00b\r\n", b"X-A: a\r\n folded\r\n", b"X\x00A: a\r\n"],
    ids=["nul-in-value", "obs-fold", "nul-in-name"],
)
def test_nul_and_obs_fold_in_a_header_are_400(gateway: Gateway, bad: bytes) -> None:
    sock = connect(gateway)
    with sock:
        send_ignoring_close(
            sock,
            CHUNKED_HEAD.replace(b"\r\n\r\n", b"\r\n" + bad + b"\r\n") + b"2\r\n{}\r\n0\r\n\r\n",
        )
        answer = read_until_closed(sock)
    assert status_of(answer) == 400, answer[:200]
    assert b"content-type: application/problem+json" in answer  # a problem, like every error


def test_pipelined_requests_are_answered_in_order(gateway: Gateway) -> None:
    def request(request_id: str) -> bytes:
        body = json.dumps({"paths": ["."], "requestId": request_id}).encode()
        return (
            CHUNKED_HEAD.replace(b"Transfer-Encoding: chunked", b"Content-Length: %d" % len(body))
            + body
        )

    ids = [f"pipelined-{n}" for n in range(5)]
    sock = connect(gateway)
    with sock:
        sock.sendall(
            b"".join(request(i) for i in ids)
            + request("last").replace(b"Content-Type", b"Connection: close\r\nContent-Type")
        )
        answer = read_until_closed(sock)
    assert [
        part.split(b'"requestId":"')[1].split(b'"')[0].decode()
        for part in answer.split(b"HTTP/1.1 200 OK")[1:]
    ] == [*ids, "last"]


def test_a_request_id_of_128_astral_characters_is_served_and_kept_out_of_headers(
    gateway: Gateway,
) -> None:
    request_id = "\U0001f525" * 128
    with gateway.client() as http:
        response = http.post(
            "/plugins/echo/discover", json={"paths": ["."], "requestId": request_id}
        )
    assert response.status_code == 200 and response.json()["requestId"] == request_id
    assert "x-request-id" not in response.headers
