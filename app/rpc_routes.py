"""POST /plugins/{id}/rpc: JSON-RPC 2.0 requests, notifications and batches to a plugin."""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import AsyncIterator
from typing import Any

from fastapi import Request
from starlette.background import BackgroundTask
from starlette.responses import Response, StreamingResponse

from gpp.core import codes, jsonrpc
from gpp.host.jsonrpc import PLUGIN_UNAVAILABLE, Call, JsonRpcSession, Listener

from .exchange import Exchange
from .plugin_route import (
    PROBLEM,
    PluginRequest,
    body,
    pool_of_kind,
    unless_client_leaves,
)
from .pool import JsonRpcPool

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

Items = list[jsonrpc.Request | jsonrpc.Invalid]


async def rpc(plugin_id: str, request: Request) -> Response:
    with PluginRequest(request, "rpc", plugin_id) as (pool, exchange):
        holder = pool_of_kind(pool, JsonRpcPool, plugin_id)
        parsed = jsonrpc.parse_request(await body(request), max_batch=MAX_BATCH_ENTRIES)
        batch = isinstance(parsed, list)
        items = parsed if isinstance(parsed, list) else [parsed]
        try:
            session = await holder.session_for_request() if _needs_session(items) else None
            if session is not None:
                holder.refuse_if_full(session)
            if "text/event-stream" in request.headers.get("accept", "") and _expects_answer(items):
                return _stream(holder, session, items, batch, exchange)
            answers = await unless_client_leaves(request, _answer_all(holder, session, items))
        except codes.ProtocolError as exc:  # the plugin could not even start: JSON-RPC errors
            exchange.outcome = exc.code
            answers = [_unavailable(item, exc) for item in items]
        return _render(answers, batch)


def _expects_answer(items: Items) -> bool:
    return any(not (isinstance(i, jsonrpc.Request) and i.is_notification) for i in items)


async def _answer_all(
    holder: JsonRpcPool,
    session: JsonRpcSession | None,
    items: Items,
    listener: Listener | None = None,
) -> list[dict[str, Any] | None]:
    """Every item's answer in order (None for notifications); requests run concurrently.

    Every line is written before any answer is awaited, so a `$/cancelRequest` finds the calls
    of this same batch it names: that is all a client may cancel. It reaches the plugin mapped
    to the gateway's ids, or not at all; a cancel sent as a request is answered here (null).
    """
    answers: list[dict[str, Any] | None] = [None] * len(items)
    calls: list[tuple[int, Call]] = []
    for index, item in enumerate(items):
        if isinstance(item, jsonrpc.Invalid):
            answers[index] = jsonrpc.error(item.id, item.code)
        elif item.method != jsonrpc.CANCEL_METHOD:
            assert session is not None
            if (call := session.send(item, listener)) is not None:
                calls.append((index, call))
    by_client_id: dict[tuple[str, Any] | None, list[Call]] = {}
    for _, call in calls:
        by_client_id.setdefault(jsonrpc.id_key(call.client_id), []).append(call)
    for index, item in enumerate(items):
        if isinstance(item, jsonrpc.Request) and item.method == jsonrpc.CANCEL_METHOD:
            for call in by_client_id.get(_named_id(item), []):
                assert session is not None  # it sent the call
                session.cancel(call)
            if not item.is_notification:
                answers[index] = jsonrpc.response(item.id, None)
    if session is None:
        return answers
    try:
        await session.flush()  # at most request_ms: a plugin that does not read is killed
        if len(calls) == 1:  # the usual single request: its answer, without gather's machinery
            results = [await calls[0][1].answer]
        else:
            results = await asyncio.gather(*(call.answer for _, call in calls))
    except asyncio.CancelledError:  # the client left: cancel its calls at the plugin
        for _, call in calls:
            session.abandon(call)
        raise
    for (index, _), result in zip(calls, results, strict=True):
        answers[index] = result
        holder.settle(result)
    return answers


def _named_id(cancel: jsonrpc.Request) -> tuple[str, Any] | None:
    """The id a `$/cancelRequest` names, as a key; None when it names none a call can have."""
    params = cancel.params
    if not isinstance(params, dict) or "id" not in params:
        return None
    named = params["id"]
    return jsonrpc.id_key(named) if type(named) in (str, int, float, type(None)) else None


def _needs_session(items: Items) -> bool:
    return any(
        isinstance(item, jsonrpc.Request) and item.method != jsonrpc.CANCEL_METHOD for item in items
    )


def _unavailable(item: jsonrpc.Request | jsonrpc.Invalid, error: codes.ProtocolError) -> Any:
    if isinstance(item, jsonrpc.Invalid):
        return jsonrpc.error(item.id, item.code)
    if item.is_notification:
        return None
    return jsonrpc.error(item.id, PLUGIN_UNAVAILABLE, error.fail_line())


def _answers_of(work: asyncio.Task[list[dict[str, Any] | None]], items: Items) -> Any:
    """The answers `work` found; if it failed, each request's -32603, so that a stream always
    ends with its `response` event (an exception here was an ASGI error and a cut stream)."""
    try:
        return work.result()
    except Exception:
        log.exception("rpc stream failed")
        return [_failed(item) for item in items]


def _failed(item: jsonrpc.Request | jsonrpc.Invalid) -> Any:
    if isinstance(item, jsonrpc.Invalid):
        return jsonrpc.error(item.id, item.code)
    return None if item.is_notification else jsonrpc.error(item.id, jsonrpc.INTERNAL_ERROR)


def _payload(answers: list[dict[str, Any] | None], batch: bool) -> Any:
    present = [a for a in answers if a is not None]
    if not present:
        return None
    return present if batch else present[0]


def _render(answers: list[dict[str, Any] | None], batch: bool) -> Response:
    payload = _payload(answers, batch)
    if payload is None:
        return Response(status_code=204)
    return Response(jsonrpc.encode(payload).rstrip(b"\n"), media_type="application/json")


def _sse(event: str, message: Any) -> bytes:
    return f"event: {event}\ndata: {json.dumps(message, ensure_ascii=False)}\n\n".encode()


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
        event = _sse("notification", message)
        if self.bytes and self.bytes + len(event) > MAX_PENDING_EVENT_BYTES:
            self.dropped += 1
            return
        self.bytes += len(event)
        self.queue.put_nowait(event)

    def taken(self, event: bytes) -> bytes:
        self.bytes -= len(event)
        return event


def _stream(
    holder: JsonRpcPool,
    session: JsonRpcSession | None,
    items: Items,
    batch: bool,
    exchange: Exchange,
) -> StreamingResponse:
    """The plugin's notifications for these requests as they come, then the response; the
    request's outcome is the stream's: `client-gone` when the client left before the end."""
    pending = PendingEvents()

    # A reload retires the plugin only once the stream has ended: the lease is taken now, while
    # the route still holds its own, and given back when the body ends or, if the client left
    # before it began, when the response is done.
    release = holder.leases.take()

    async def events() -> AsyncIterator[bytes]:
        work = asyncio.create_task(_answer_all(holder, session, items, pending.put))
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
                yield _sse("dropped", {"notifications": pending.dropped})
            yield _sse("response", _payload(_answers_of(work, items), batch))
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
