"""app.security: the checks in front of every route (Host, Origin, JSON bodies), against what a
hostile web page can send to a loopback service."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from gateway_harness import Gateway, echo_plugin, running_gateway, write_config
from test_front_door import connect, post, read_until_closed, request_head, status_of


@pytest.fixture(scope="module")
def gateway(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Gateway]:
    with running_gateway(write_config(tmp_path_factory.mktemp("security"), [echo_plugin()])) as gw:
        yield gw


@pytest.mark.parametrize(
    "host",
    ["127.0.0.1", "127.0.0.1:8787", "localhost", "LOCALHOST:1", "[::1]", "[::1]:8787", "127.9.9.9"],
)
def test_loopback_hosts_are_accepted(gateway: Gateway, host: str) -> None:
    with gateway.client() as http:
        assert http.get("/plugins", headers={"Host": host}).status_code == 200


@pytest.mark.parametrize(
    "host",
    [
        "[::1]evil.com",
        "[::1]:80evil.com",
        "localhost.evil.com",
        "127.0.0.1.nip.io",
        "127.0.0.1:99999",
        "127.0.0.1:",
        "::1",
        "[127.0.0.1]",
        "localhost@evil.com",
        "evil.com",
        "",
    ],
)
def test_hosts_that_only_start_like_loopback_are_refused(gateway: Gateway, host: str) -> None:
    with gateway.client() as http:
        response = http.get("/plugins", headers={"Host": host})
    assert response.status_code == 403, host
    assert response.headers["content-type"] == "application/problem+json"


def test_two_host_headers_are_refused_whatever_their_order(gateway: Gateway) -> None:
    for first, second in (("evil.com", "127.0.0.1"), ("127.0.0.1", "evil.com")):
        with connect(gateway) as sock:
            sock.sendall(
                f"GET /plugins HTTP/1.1\r\nHost: {first}\r\nHost: {second}\r\n"
                "Connection: close\r\n\r\n".encode()
            )
            response = read_until_closed(sock)
        assert status_of(response) == 403 and b"exactly one Host header" in response


def test_the_gateways_own_origin_may_post(gateway: Gateway) -> None:
    """Its /docs page ("Try it out") is served from that origin, however the host is spelled."""
    for host in ("127.0.0.1", "localhost", "[::1]", "LOCALHOST"):
        origin = f"http://{host}:{gateway.port}/"
        response = post(gateway, {"paths": ["a"]}, headers={"Origin": origin})
        assert response.status_code == 200, origin


def test_two_origin_headers_are_refused_even_when_each_is_allowed(gateway: Gateway) -> None:
    own = f"http://127.0.0.1:{gateway.port}"
    for first, second in ((own, "http://evil.example"), ("http://evil.example", own), (own, own)):
        with connect(gateway) as sock:
            sock.sendall(
                request_head(Content_Length="15", Connection="close")[:-2]
                + f"Origin: {first}\r\nOrigin: {second}\r\n\r\n".encode()
                + b'{"paths":["a"]}'
            )
            response = read_until_closed(sock)
        assert status_of(response) == 403, (first, second)
        assert b"at most one Origin header" in response


@pytest.mark.parametrize(
    "origin",
    [
        "http://127.0.0.1:{other_port}",
        "http://127.0.0.2:{port}",  # loopback, but not the address the gateway is bound to
        "http://127.1:{port}",
        "http://[::2]:{port}",
        "https://127.0.0.1:{port}",
        "http://evil.example:{port}",
        "http://[::1]evil.com:{port}",
        "http://127.0.0.1",
        "null",
        "127.0.0.1:{port}",
    ],
)
def test_other_origins_are_refused(gateway: Gateway, origin: str) -> None:
    origin = origin.format(port=gateway.port, other_port=gateway.port + 1)
    response = post(gateway, {"paths": ["a"]}, headers={"Origin": origin})
    assert response.status_code == 403, origin


def test_body_rules_hold_for_every_post_but_one_the_router_refuses(gateway: Gateway) -> None:
    with gateway.client() as http:
        plain = {"Content-Type": "text/plain"}
        assert http.post("/plugins/echo/discover", content=b"{}", headers=plain).status_code == 415
        assert http.post("/no/such/route", content=b"{}", headers=plain).status_code == 415
        assert http.post("/healthz", content=b"{}", headers=plain).status_code == 405
