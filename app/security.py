"""The gateway's front-door checks, as one pure ASGI middleware in front of every route.

A local service is still reachable from a browser: a hostile page can aim requests at
127.0.0.1 (DNS rebinding, cross-origin POSTs). So the Host header must be a loopback name,
requests carrying an Origin must come from a listed origin, POSTs must be JSON (no form
posts), an optional bearer token is checked in constant time, and bodies are capped.
"""

from __future__ import annotations

import hmac
import ipaddress
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

from .problems import BodyTooLarge, http_problem

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

UNAUTHENTICATED_PATHS = frozenset({"/healthz", "/readyz"})


def is_loopback_host(host: str) -> bool:
    """`localhost`, 127.0.0.0/8 or ::1, with or without a port."""
    host = host.strip().lower()
    if host.startswith("["):
        host = host[1 : host.find("]")] if "]" in host else host
    elif host.count(":") == 1:
        host = host.split(":", 1)[0]
    if host in ("localhost", "localhost."):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


class SecurityMiddleware:
    def __init__(
        self,
        app: ASGIApp,
        *,
        token: str | None,
        allowed_origins: list[str],
        allowed_hosts: list[str],
        max_body_bytes: int,
    ) -> None:
        self.app = app
        self.token = token.encode() if token else None
        self.allowed_origins = {o.rstrip("/") for o in allowed_origins}
        self.allowed_hosts = {h.lower() for h in allowed_hosts}
        self.max_body_bytes = max_body_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = {k.decode("latin-1"): v.decode("latin-1") for k, v in scope["headers"]}
        refusal = self._refusal(scope, headers)
        if refusal is not None:
            await refusal(scope, receive, send)
            return
        await self.app(scope, self._capped(receive), send)

    def _refusal(self, scope: Scope, headers: dict[str, str]) -> Any:
        host = headers.get("host", "")
        if not (is_loopback_host(host) or host.lower() in self.allowed_hosts):
            return http_problem(403, "Forbidden host",
                                f"Host {host!r} is not a loopback name; the gateway answers "
                                "loopback requests only (DNS rebinding protection)")  # fmt: skip
        origin = headers.get("origin")
        if origin is not None and origin.rstrip("/") not in self.allowed_origins:
            return http_problem(403, "Forbidden origin",
                                f"Origin {origin!r} is not in gateway.allowed_origins")  # fmt: skip
        if self.token is not None and scope["path"] not in UNAUTHENTICATED_PATHS:
            scheme, _, given = headers.get("authorization", "").partition(" ")
            if scheme.lower() != "bearer" or not hmac.compare_digest(given.encode(), self.token):
                return http_problem(401, "Unauthorized", "a valid bearer token is required",
                                    headers={"WWW-Authenticate": 'Bearer realm="gpp"'})  # fmt: skip
        if scope["method"] == "POST":
            media_type = headers.get("content-type", "").split(";", 1)[0].strip().lower()
            if media_type != "application/json":
                return http_problem(415, "Unsupported media type",
                                    f"POST bodies must be application/json, got {media_type or 'none'!r}")  # fmt: skip
            length = headers.get("content-length")
            if length is not None and length.isdigit() and int(length) > self.max_body_bytes:
                return http_problem(413, "Request body too large",
                                    f"body of {length} bytes exceeds {self.max_body_bytes}")  # fmt: skip
        return None

    def _capped(self, receive: Receive) -> Receive:
        """Count streamed body bytes too: a chunked body has no Content-Length to refuse."""
        seen = 0
        limit = self.max_body_bytes

        async def capped_receive() -> Message:
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > limit:
                    raise BodyTooLarge(limit)
            return message

        return capped_receive
