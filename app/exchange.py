"""Each plugin request's record: one `gpp_requests` count, one latency, one log line.

A plugin route opens its `Exchange` when it starts; it, the exception handlers and a streamed
body say how it went (`outcome`); `RecordExchanges`, a pure ASGI middleware, writes the record
once, when the app has sent the last byte of the answer. For a streamed (SSE) answer that is
the stream's end, not the route's return, so its latency and outcome are the real ones.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable, MutableMapping
from dataclasses import dataclass
from typing import Any

from .metrics import GatewayMetrics

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

log = logging.getLogger("gpp.request")

SCOPE_KEY = "gpp.exchange"
UNKNOWN_PLUGIN_LABEL = "(unknown)"
"""The plugin label of a request for an id no plugin has: ids are the client's to choose, and a
label per unknown id would grow the metrics without bound."""


@dataclass
class Exchange:
    """What one plugin request's log line and metrics say; `ms` is added when it is written."""

    event: str
    """The log line's event: `request` (discover) or `rpc`."""
    plugin: str
    outcome: str = "ok"
    """`ok`, or the E_* code, or the refusal (`refused`, `client-gone`, `cancelled`, ...)."""
    request_id: str | None = None

    def write(self, metrics: GatewayMetrics, seconds: float) -> None:
        metrics.observe(self.plugin, self.outcome, seconds)
        if log.isEnabledFor(logging.INFO):
            fields = {
                "plugin": self.plugin,
                "requestId": self.request_id,
                "outcome": self.outcome,
                "ms": round(seconds * 1000, 2),
            }
            log.info(self.event, extra={"fields": fields})


def open_exchange(scope: Scope, event: str, plugin: str) -> Exchange:
    """The request's record, from now on what `RecordExchanges` writes for it."""
    exchange = Exchange(event, plugin)
    scope[SCOPE_KEY] = exchange
    return exchange


def exchange_of(scope: Scope) -> Exchange | None:
    exchange: Exchange | None = scope.get(SCOPE_KEY)
    return exchange


class RecordExchanges:
    """Writes each plugin request's record once: as the message that completes its answer goes
    out (or when it fails).

    Before that message, not after it: by then the outcome is final (an SSE stream's included),
    and a client that has the whole answer finds the log line and the count already there.
    Only requests whose route opened an `Exchange` are recorded: refusals before any route
    (security, 404 for an unknown path) are not plugin requests.
    """

    def __init__(self, app: ASGIApp, metrics: GatewayMetrics) -> None:
        self.app = app
        self.metrics = metrics

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = time.perf_counter()
        recorded = False

        def record() -> None:
            nonlocal recorded
            if not recorded and (exchange := exchange_of(scope)) is not None:
                recorded = True
                exchange.write(self.metrics, time.perf_counter() - started)

        async def record_then_send(message: Message) -> None:
            if _completes_answer(message):
                record()
            await send(message)

        try:
            await self.app(scope, receive, record_then_send)
        except asyncio.CancelledError:  # the gateway stopped waiting (shutdown past its grace)
            if not recorded and (exchange := exchange_of(scope)) is not None:
                exchange.outcome = "cancelled"
            raise
        finally:
            record()


def _completes_answer(message: Message) -> bool:
    """Whether the client holds the whole answer once this message is sent: the last body
    message, or the start of an answer that has no body (the server writes the head at once)."""
    if message["type"] == "http.response.body":
        return not message.get("more_body", False)
    if message["type"] == "http.response.start":
        return message["status"] in (204, 304) or (b"content-length", b"0") in message.get(
            "headers", ()
        )
    return False
