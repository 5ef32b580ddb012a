"""httpx transports for a gateway on this host (a Unix socket, or a loopback address) that check
who listens before any byte goes.

httpx connects lazily, inside its connection pool, and sends the request (bearer token
included) on the same breath; the only place to refuse a stranger's socket first is the pool's
network backend. These transports are httpx's own with that backend in their pool, so every
connection the client ever opens (a reconnect after keep-alive too) is checked.

The pool is httpx's private `_pool` (httpx 0.29, httpcore 1.x): tests/client/test_http.py
holds both names, so an upgrade that moves them fails there, not in a user's hands.
"""

from __future__ import annotations

from typing import Any

import httpcore
import httpx

from .local_gateway import check_peer, check_tcp_peer


class _PeerCheckingBackend(httpcore.SyncBackend):
    def connect_unix_socket(self, path: str, *args: Any, **kwargs: Any) -> httpcore.NetworkStream:
        stream = super().connect_unix_socket(path, *args, **kwargs)
        try:
            check_peer(stream.get_extra_info("socket"), path)
        except OSError as exc:
            stream.close()
            raise httpcore.ConnectError(str(exc)) from None
        return stream


class _LoopbackCheckingBackend(httpcore.SyncBackend):
    def connect_tcp(
        self, host: str, port: int, *args: Any, **kwargs: Any
    ) -> httpcore.NetworkStream:
        stream = super().connect_tcp(host, port, *args, **kwargs)
        try:
            check_tcp_peer(stream.get_extra_info("socket"), f"{host}:{port}")
        except OSError as exc:
            stream.close()
            raise httpcore.ConnectError(str(exc)) from None
        return stream


class _AsyncLoopbackCheckingBackend(httpcore.AnyIOBackend):
    async def connect_tcp(
        self, host: str, port: int, *args: Any, **kwargs: Any
    ) -> httpcore.AsyncNetworkStream:
        stream = await super().connect_tcp(host, port, *args, **kwargs)
        try:
            check_tcp_peer(stream.get_extra_info("socket"), f"{host}:{port}")
        except OSError as exc:
            await stream.aclose()
            raise httpcore.ConnectError(str(exc)) from None
        return stream


class _AsyncPeerCheckingBackend(httpcore.AnyIOBackend):
    async def connect_unix_socket(
        self, path: str, *args: Any, **kwargs: Any
    ) -> httpcore.AsyncNetworkStream:
        stream = await super().connect_unix_socket(path, *args, **kwargs)
        try:
            check_peer(stream.get_extra_info("socket"), path)
        except OSError as exc:
            await stream.aclose()
            raise httpcore.ConnectError(str(exc)) from None
        return stream


def unix_transport(path: str) -> httpx.HTTPTransport:
    """A blocking transport to the gateway on `path`; a listener of another uid is a
    ConnectError naming it."""
    transport = httpx.HTTPTransport(uds=path)
    transport._pool = httpcore.ConnectionPool(uds=path, network_backend=_PeerCheckingBackend())
    return transport


def async_unix_transport(path: str) -> httpx.AsyncHTTPTransport:
    transport = httpx.AsyncHTTPTransport(uds=path)
    transport._pool = httpcore.AsyncConnectionPool(
        uds=path, network_backend=_AsyncPeerCheckingBackend()
    )
    return transport


def loopback_transport() -> httpx.HTTPTransport:
    """A blocking transport to a gateway on a loopback address: a connection whose other end
    another user owns is a ConnectError naming it, before the token goes."""
    transport = httpx.HTTPTransport()
    transport._pool = httpcore.ConnectionPool(network_backend=_LoopbackCheckingBackend())
    return transport


def async_loopback_transport() -> httpx.AsyncHTTPTransport:
    transport = httpx.AsyncHTTPTransport()
    transport._pool = httpcore.AsyncConnectionPool(network_backend=_AsyncLoopbackCheckingBackend())
    return transport
