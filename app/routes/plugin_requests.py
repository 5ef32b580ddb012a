"""What the two plugin routes (`/discover`, `/rpc`) share: the leased pool, the body, the race
against a client that leaves, and the declared problem answers.

The routes raise; the exception handlers (`problems.install_handlers`) answer and set the
request's outcome, and `exchange.RecordExchanges` writes it once.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any, TypeVar

from fastapi.routing import APIRoute
from starlette.requests import Request
from starlette.responses import Response

from ..exchange import UNKNOWN_PLUGIN_LABEL, Exchange, open_exchange
from ..models import Problem
from ..pool import Gpp3Pool, JsonRpcPool, Pool
from ..problems import ClientGone, NoSuchPlugin
from ..state import GatewayState

T = TypeVar("T")

PROBLEM: dict[str, Any] = {"model": Problem, "content": {"application/problem+json": {}}}
"""An error answer as a route declares it for OpenAPI (`openapi.py` finishes the document)."""


class PlainRoute(APIRoute):
    """A fast row's route (`table.Row.fast`): FastAPI documents it from its declaration, and
    `server.fast_path.FastPath` serves it (this handler is what FastAPI would run in its place).

    The plugin routes take the path's parameters and the raw `Request`, read and check their
    bodies themselves, and return a ready `Response`: FastAPI's dependency solving, body
    parsing and response-model validation would all be spent on nothing, on the hot path.
    """

    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        endpoint = self.endpoint

        async def handle(request: Request) -> Response:
            response: Response = await endpoint(request=request, **request.path_params)
            return response

        return handle


def gateway_state(request: Request) -> GatewayState:
    state: GatewayState = request.app.state.gateway
    return state


class PluginRequest:
    """The plugin's current pool (None: no such plugin) leased for the whole request, body
    reading included (a reload retires that pool only after it), and the request's record.
    A class, not a generator: one per plugin request, on the hot path."""

    __slots__ = ("exchange", "lease")

    def __init__(self, request: Request, event: str, plugin_id: str) -> None:
        self.lease = gateway_state(request).pools.lease(plugin_id)
        label = plugin_id if self.lease.pool else UNKNOWN_PLUGIN_LABEL
        self.exchange = open_exchange(request.scope, event, label)

    def __enter__(self) -> tuple[Pool | None, Exchange]:
        return self.lease.__enter__(), self.exchange

    def __exit__(self, *exc_info: object) -> None:
        self.lease.__exit__()


def no_such_plugin(plugin_id: str) -> NoSuchPlugin:
    return NoSuchPlugin(f"no plugin is registered under {plugin_id!r}")


P = TypeVar("P", Gpp3Pool, JsonRpcPool)
_OTHER_ROUTE = {Gpp3Pool: ("JSON-RPC 2.0", "rpc"), JsonRpcPool: ("GPP/3", "discover")}
"""For a plugin of the other protocol: what it speaks, and the route that serves it."""


def pool_of_kind(pool: Pool | None, kind: type[P], plugin_id: str) -> P:
    """The leased pool, if it is of this route's protocol; else E_UNKNOWN_PLUGIN (404)."""
    if pool is None:
        raise no_such_plugin(plugin_id)
    if not isinstance(pool, kind):
        speaks, route = _OTHER_ROUTE[kind]
        raise NoSuchPlugin(
            f"plugin {plugin_id!r} speaks {speaks}: POST /plugins/{plugin_id}/{route} instead"
        )
    return pool


async def body(request: Request) -> bytes:
    """The request body, or ClientGone when the client left mid-body (or the front door timed
    it out). Read from the ASGI messages directly: Starlette's `body()` goes through an async
    generator per request for the same bytes."""
    chunks: list[bytes] = []
    while True:
        message = await request.receive()
        if message["type"] == "http.request":
            chunks.append(message.get("body", b""))
            if not message.get("more_body", False):
                return chunks[0] if len(chunks) == 1 else b"".join(chunks)
        elif message["type"] == "http.disconnect":
            raise ClientGone


WATCH_AFTER_S = 0.02
"""How long a request that did not queue runs before a watcher listens for its client leaving."""


async def unless_client_leaves(
    request: Request, work: Awaitable[T], *, watch_at_once: bool = False
) -> T:
    """The work's result, or ClientGone when the HTTP client disconnected first (work cancelled).

    A discover still queued leaves the queue; one in flight completes in the background, its
    exchange shielded, so the session stays in step. A JSON-RPC call is cancelled at the plugin.
    The work runs in the request's own task, and a watcher task cancels it if the client leaves.
    A request that waits in a queue (`watch_at_once`) is watched from the start: its place must
    be freed as soon as its client is gone, or departed clients fill the queue and live ones get
    503. Any other request is watched only once it has run WATCH_AFTER_S: most are answered
    sooner, and a task per request cost more than all the security checks. A client that leaves
    one of those within that time is answered into the void, as if it had left just after.
    """
    current = asyncio.current_task()
    assert current is not None
    left = False
    watcher: asyncio.Task[None] | None = None

    async def watch() -> None:
        nonlocal left
        while (await request.receive())["type"] != "http.disconnect":
            pass
        left = True
        current.cancel()

    def start_watching() -> None:
        nonlocal watcher
        watcher = asyncio.create_task(watch())

    timer = None
    if watch_at_once:
        start_watching()
    else:
        timer = asyncio.get_running_loop().call_later(WATCH_AFTER_S, start_watching)
    try:
        return await work
    except asyncio.CancelledError:
        if not left:
            raise  # the gateway's own cancel (shutdown past its grace)
        current.uncancel()
        raise ClientGone from None
    finally:
        if timer is not None:
            timer.cancel()
        if watcher is not None:
            watcher.cancel()
