"""POST /plugins/{id}/rpc: JSON-RPC 2.0 requests, notifications and batches to a plugin."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator
from typing import Any

from fastapi import Request
from starlette.background import BackgroundTask
from starlette.responses import Response, StreamingResponse

from gpp.core import Invocation, JsonRpcConnection, Message, codes, jsonrpc
from gpp.host import OFF_LOOP_BYTES, PLUGIN_UNAVAILABLE, Call, JsonRpcSession, Listener

from ..exchange import Exchange
from ..pool import JsonRpcPool
from .plugin_requests import (
    PROBLEM,
    PluginRequest,
    body,
    pool_of_kind,
    unless_client_leaves,
)

log = logging.getLogger("gpp.rpc")

MAX_BATCH_ENTRIES = 4096
"""A longer batch is one -32600, like an empty one. Without a bound, a 1 MB body of 500,000
`1`s held the event loop (every client) for seconds and was answered with 44 MB."""

RPC_BODY = {"required": True, "content": {"application/json": {"schema": {
    "description": "A JSON-RPC 2.0 request, notification, or batch (array) of them",
    "oneOf": [{"type": "object"}, {"type": "array"}]}}}}  # fmt: skip
RPC_RESPONSES: dict[int | str, dict[str, Any]] = {
    200: {"description": "The JSON-RPC response or batch response (errors included); with "
                         "`Accept: text/event-stream`, the plugin's notifications for the request "
                         "as SSE `notification` events, then a `response` event (before it, a "
                         "`dropped` event counts the notifications a client too slow to read "
                         "them lost)",
          "content": {"application/json": {}, "text/event-stream": {}}},
    204: {"description": "Notifications only: nothing to answer"},
    404: {**PROBLEM, "description": "No such plugin, or not a JSON-RPC plugin"},
    503: {**PROBLEM, "description": "Plugin in restart back-off (Retry-After)"},
}  # fmt: skip


async def rpc(plugin_id: str, request: Request) -> Response:
    """A thin adapter: the body goes to a `JsonRpcConnection` (one per request, so a client
    can cancel only its own batch's calls), its calls to the plugin session, their answers
    back to the connection, and what it encodes to the client."""
    with PluginRequest(request, "rpc", plugin_id) as (pool, exchange):
        rpc_pool = pool_of_kind(pool, JsonRpcPool, plugin_id)
        content = await body(request)
        if len(content) < OFF_LOOP_BYTES:
            message = JsonRpcConnection(MAX_BATCH_ENTRIES).receive(content)
        else:  # a long body is read off the loop, so it does not hold every other client
            message = await asyncio.to_thread(JsonRpcConnection(MAX_BATCH_ENTRIES).receive, content)
        del content  # parsed: its bytes are not kept while the calls wait
        streams = "text/event-stream" in request.headers.get("accept", "")
        try:
            session = await rpc_pool.session_for_request() if message.calls else None
            if session is not None:
                rpc_pool.refuse_if_full(session, len(message.calls))
            if streams and message.expects_answer:
                return _stream(rpc_pool, session, message, exchange)
            await unless_client_leaves(request, _run(rpc_pool, session, message))
        except codes.ProtocolError as exc:  # the plugin could not even start: JSON-RPC errors
            exchange.outcome = exc.code
            message.fail_unsettled(PLUGIN_UNAVAILABLE, exc.fail_line())
            if streams and message.expects_answer:  # asked as a stream: answered as one
                return _answered_stream(message)
        return _render(message)


async def _run(
    rpc_pool: JsonRpcPool,
    session: JsonRpcSession | None,
    message: Message,
    listener: Listener | None = None,
) -> None:
    """Run the message's calls on the plugin session, concurrently, and settle their answers.

    Every call is written before any cancel or answer, so a `$/cancelRequest` finds the calls
    of its batch that it names, which reach the plugin as the gateway's ids (`session.cancel`).
    """
    if session is None:
        return
    sent: dict[Invocation, Call] = {}
    for call in message.calls:
        forwarded = session.send(call.request, listener)
        # Written: its params are no longer needed. Parsed, a body of small values costs up to
        # 25 times its size (`[{}, {}, …]`), and 40 notifications of 1 MiB waiting on a slow
        # plugin held 1 GB; what stays is the line in the pipe's buffer, once its size.
        call.request = jsonrpc.Request(call.request.method, None, call.request.id)
        if forwarded is not None:
            sent[call] = forwarded
    for call in message.cancelled:
        session.cancel(sent[call])
    try:
        await session.flush()  # at most request_ms: a plugin that does not read is killed
        if len(sent) == 1:  # the usual single request: its answer, without gather's machinery
            results = [await next(iter(sent.values())).answer]
        else:
            results = await asyncio.gather(*(forwarded.answer for forwarded in sent.values()))
    except asyncio.CancelledError:  # the client left: cancel its calls at the plugin
        for forwarded in sent.values():
            session.abandon(forwarded)
        raise
    for call, result in zip(sent, results, strict=True):
        message.settle(call, result)
        rpc_pool.settle(result)


def _render(message: Message) -> Response:
    line = message.encode()
    if line is None:
        return Response(status_code=204)
    return Response(line, media_type="application/json")


def _answered_stream(message: Message) -> Response:
    """A stream that is only its `response` event: what a streaming client gets when the
    plugin could not start (its definite error, not plain JSON a stream reader calls broken)."""
    return Response(
        _sse("response", message.encode() or b"null"),
        media_type="text/event-stream",
        headers={"Cache-Control": "no-store"},
    )


def _sse(event: str, data: bytes) -> bytes:
    """One SSE event; `data` is one line from the JSON-RPC encoder (JSON escapes newlines)."""
    return b"event: " + event.encode() + b"\ndata: " + data + b"\n\n"


MAX_PENDING_EVENT_BYTES = 1024 * 1024
"""Notifications a streaming client has not yet read, per request: a plugin may talk faster
than its client reads (or a client may not read at all), and the gateway must not keep the
difference. Past this, notifications are dropped (one always fits an empty buffer) and the
stream says how many before its response."""


class PendingEvents:
    """SSE notification events waiting for their client, bounded by bytes; the rest counted."""

    def __init__(self) -> None:
        self.queue: asyncio.Queue[bytes] = asyncio.Queue()
        self.bytes = 0
        self.dropped = 0

    def put(self, message: dict[str, Any]) -> None:
        event = _sse("notification", jsonrpc.encode(message)[:-1])
        if self.bytes and self.bytes + len(event) > MAX_PENDING_EVENT_BYTES:
            self.dropped += 1
            return
        self.bytes += len(event)
        self.queue.put_nowait(event)

    def taken(self, event: bytes) -> bytes:
        self.bytes -= len(event)
        return event


def _stream(
    rpc_pool: JsonRpcPool,
    session: JsonRpcSession | None,
    message: Message,
    exchange: Exchange,
) -> StreamingResponse:
    """The plugin's notifications for these requests as they come, then the response; the
    request's outcome is the stream's: `client-gone` when the client left before the end."""
    pending = PendingEvents()

    # A reload retires the plugin only once the stream has ended: the lease is taken now, while
    # the route still holds its own, and given back when the body ends or, if the client left
    # before it began, when the response is done.
    release = rpc_pool.leases.take()

    async def events() -> AsyncIterator[bytes]:
        work = asyncio.create_task(_run(rpc_pool, session, message, pending.put))
        getter: asyncio.Task[bytes] | None = None
        try:
            while not work.done():
                getter = asyncio.create_task(pending.queue.get())
                await asyncio.wait({work, getter}, return_when=asyncio.FIRST_COMPLETED)
                if getter.done():
                    yield pending.taken(getter.result())
                else:
                    getter.cancel()
            while not pending.queue.empty():
                yield pending.taken(pending.queue.get_nowait())
            if pending.dropped:
                yield _sse("dropped", jsonrpc.encode({"notifications": pending.dropped})[:-1])
            _settle_all(work, message)
            yield _sse("response", message.encode() or b"null")
        finally:
            release()
            if getter is not None:  # the client left while it waited: no task left pending
                getter.cancel()
            if not work.done():  # the client left mid-stream: cancel at the plugin
                exchange.outcome = "client-gone"
                work.cancel()

    return StreamingResponse(
        events(),
        media_type="text/event-stream",
        headers={"Cache-Control": "no-store"},
        background=BackgroundTask(release),
    )


def _settle_all(work: asyncio.Task[None], message: Message) -> None:
    """If `work` failed, each request it left unanswered gets -32603, so that a stream always
    ends with its `response` event (an exception here was an ASGI error and a cut stream)."""
    try:
        work.result()
    except Exception:
        log.exception("rpc stream failed")
        message.fail_unsettled(jsonrpc.INTERNAL_ERROR)
