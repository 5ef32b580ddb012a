"""The gateway's front-door checks, as one pure ASGI middleware in front of every route.

A local service is still reachable from a browser: a hostile page can aim requests at
127.0.0.1 (DNS rebinding, cross-origin POSTs). So the one Host header must be exactly a
loopback name or address (with an optional port), requests carrying an Origin must come from
the gateway's own origin or a listed one, POSTs must be JSON (no form posts), an optional
bearer token is checked in constant time, and bodies are capped.
"""

from __future__ import annotations

import contextlib
import functools
import hmac
import ipaddress
import re
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

from starlette.requests import ClientDisconnect

from .problems import BodyTooLarge, http_problem
from .routes.table import RouteTable, WrongMethod

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

UNAUTHORIZED_DETAIL = (
    "send the header `Authorization: Bearer <token>`; the token is the value of GPP_TOKEN in "
    "the gateway's environment, else the contents of the file its gateway.token_file names"
)


AUTHENTICATED = "gpp.authenticated"
"""Set in a request's scope when it carried the gateway's token: no unauthenticated
connection can then make the front door close its connection (`front_door._make_room`)."""


def is_loopback_host(host: str) -> bool:
    """A bind address: `localhost`, or an IP literal in 127.0.0.0/8 or ::1 (no port)."""
    host = host.strip().lower().removeprefix("[").removesuffix("]")
    if host in ("localhost", "localhost."):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


_AUTHORITY = re.compile(r"(?P<host>\[[0-9a-f:.]+\]|[a-z0-9.-]+)(?::(?P<port>[0-9]{1,5}))?")


@functools.lru_cache(maxsize=256)
def loopback_authority(value: str) -> tuple[str, int | None] | None:
    """(host, port) when `value` is exactly a loopback host with an optional port, else None.

    Strict on purpose (DNS rebinding): the whole value must match, so `[::1]evil.com`,
    `localhost:80@evil`, `127.0.0.1 evil` and a bare `::1` are all refused. Cached: every
    request asks it of its Host header, which is nearly always the same few values, and
    parsing an address costs more than the rest of the security checks together.
    """
    match = _AUTHORITY.fullmatch(value.lower())
    if match is None:
        return None
    host, port = match["host"], int(match["port"]) if match["port"] else None
    if port is not None and port > 65535:
        return None
    try:
        address = ipaddress.ip_address(host[1:-1] if host[0] == "[" else host)
    except ValueError:
        return (host, port) if host in ("localhost", "localhost.") else None
    bracketed_as_required = (host[0] == "[") == (address.version == 6)
    return (host, port) if address.is_loopback and bracketed_as_required else None


OWN_HOST_NAMES = frozenset({"localhost", "127.0.0.1", "[::1]"})
"""How a browser may spell the gateway's own host in an Origin, besides its bound address."""


def _bracketed(host: str) -> str:
    """An address as an authority writes it: IPv6 in brackets, lower case."""
    host = host.lower()
    return f"[{host}]" if ":" in host and not host.startswith("[") else host


class SecurityMiddleware:
    """The checks, in order: Host, Origin, token (unless the route table says the path is
    public), then a POST's media type and declared length (unless the table says the path does
    not answer POST: then the 405 is the answer)."""

    def __init__(
        self,
        app: ASGIApp,
        *,
        token: str | None,
        allowed_origins: list[str],
        allowed_hosts: list[str],
        max_body_bytes: int,
        table: RouteTable,
    ) -> None:
        self.app = app
        self.table = table
        self.use_token(token)
        self.allowed_origins = {o.rstrip("/") for o in allowed_origins}
        self.allowed_hosts = {h.lower() for h in allowed_hosts}
        self.max_body_bytes = max_body_bytes

    def use_token(self, token: str | None) -> None:
        """Also a reload's: the new token applies from the next request on."""
        self.token = token.encode() if token else None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        refusal = self._refusal(scope)
        if refusal is not None:
            await refusal(scope, receive, send)
            return
        # a client that left (or that the front door closed) mid-body has nobody to answer
        with contextlib.suppress(ClientDisconnect):
            await self.app(scope, self._capped(receive), send)

    def _refusal(self, scope: Scope) -> Any:
        hosts = [v.decode("latin-1") for k, v in scope["headers"] if k == b"host"]
        headers = {k.decode("latin-1"): v.decode("latin-1") for k, v in scope["headers"]}
        if len(hosts) != 1:
            return http_problem(
                403, "Forbidden host", f"exactly one Host header is required, got {len(hosts)}"
            )
        host = hosts[0]
        if loopback_authority(host) is None and host.lower() not in self.allowed_hosts:
            return http_problem(
                403,
                "Forbidden host",
                f"Host {host!r} is not a loopback name; the gateway answers "
                "loopback requests only (DNS rebinding protection)",
            )
        origins = [v.decode("latin-1") for k, v in scope["headers"] if k == b"origin"]
        if len(origins) > 1:
            return http_problem(
                403,
                "Forbidden origin",
                f"a request carries at most one Origin header, this one has {len(origins)}",
            )
        origin = origins[0] if origins else None
        if origin is not None and not self._origin_allowed(origin, scope):
            return http_problem(
                403,
                "Forbidden origin",
                f"Origin {origin!r} is neither the gateway's own origin nor in "
                "gateway.allowed_origins",
            )
        if self.token is not None and not self.table.is_public(scope["path"]):
            authorization = headers.get("authorization", "")
            if not self._bears_token(authorization):
                given = authorization.partition(" ")[2]
                why = "no bearer token was sent" if not given else "the bearer token is wrong"
                return http_problem(
                    401,
                    "Unauthorized",
                    f"{why}: {UNAUTHORIZED_DETAIL}",
                    headers={"WWW-Authenticate": 'Bearer realm="gpp"'},
                )
            scope[AUTHENTICATED] = True  # the front door keeps this connection (front_door.py)
        if scope["method"] == "POST":
            return self._body_refusal(headers, scope)
        return None

    def authenticated(self, scope: Scope) -> bool:
        """Whether the request carries the gateway's token (every request does when none is
        set): what a public route may tell only such a client (`/readyz`'s plugin names)."""
        if self.token is None:
            return True
        headers = {k: v for k, v in scope["headers"]}  # the last one, as `_refusal` reads it
        return self._bears_token(headers.get(b"authorization", b"").decode("latin-1"))

    def _bears_token(self, authorization: str) -> bool:
        """`Authorization: Bearer <the token>`, compared in constant time."""
        scheme, _, given = authorization.partition(" ")
        return (
            self.token is not None
            and scheme.lower() == "bearer"
            and hmac.compare_digest(given.encode(), self.token)
        )

    def _body_refusal(self, headers: dict[str, str], scope: Scope) -> Any:
        """415 for a POST that is not JSON, 413 for a declared length over the cap; unless the
        route table answers 405 anyway (asked last: matching every route costs more than the
        rest of the checks together, so a well-formed POST never pays for it)."""
        refusal = None
        media_type = headers.get("content-type", "").split(";", 1)[0].strip().lower()
        length = headers.get("content-length")
        if media_type != "application/json":
            refusal = http_problem(
                415,
                "Unsupported media type",
                f"POST bodies must be application/json, got {media_type or 'none'!r}",
            )
        elif length is not None and length.isdigit() and int(length) > self.max_body_bytes:
            refusal = http_problem(
                413,
                "Request body too large",
                f"body of {length} bytes exceeds {self.max_body_bytes}",
            )
        # Only a 405 (the path exists, not for this method) makes a POST's body rules moot;
        # anything else, unknown paths included, gets them.
        if refusal is None or type(self.table.match(scope["method"], scope["path"])) is WrongMethod:
            return None
        return refusal

    def _origin_allowed(self, origin: str, scope: Scope) -> bool:
        """A listed origin, or the gateway's own (so its /docs page can call it): its scheme,
        the port it serves on, and the address it was reached at or a name for the loopback
        address of that family (`localhost`, `127.0.0.1`, `[::1]`). Another loopback address
        is another origin: a different server may listen on 127.0.0.2 at the same port."""
        origin = origin.rstrip("/")
        if origin in self.allowed_origins:
            return True
        scheme, sep, authority = origin.partition("://")
        server_host, server_port = scope.get("server") or (None, None)
        if not sep or scheme.lower() != scope.get("scheme", "http") or server_port is None:
            return False
        parsed = loopback_authority(authority)
        if parsed is None:
            return False
        host, port = parsed
        default_port = 443 if scheme.lower() == "https" else 80
        own_hosts = OWN_HOST_NAMES | {_bracketed(str(server_host))}
        return (port or default_port) == server_port and host in own_hosts

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
