"""JSON-RPC 2.0 over newline-delimited stdio, for plugins that expose methods. Stdlib only.

The plugin side: the messages themselves are `gpp.core.jsonrpc`; the host side, the gateway's
asyncio session with one plugin process, is `gpp.host.jsonrpc`.

The transport knows the envelope and nothing about methods: `serve(handler)` calls
`handler(method, params)` and turns its return value or exception into the response.
Responses are written with the separators and key order of the specification's own examples
(`{"jsonrpc": "2.0", "result": 19, "id": 1}`), so those examples hold byte for byte.

Both directions are I-JSON (RFC 7493), as GPP/3 frames are: a line holding NaN, ±Infinity, a
number that overflows a double, a lone surrogate or a duplicate key is a -32700 parse error, and
a handler result JSON cannot carry is answered -32603 instead of being written.

Cancellation is cooperative: `$/cancelRequest {"id": X}`, on its own line or in a batch,
flags every call with id X still queued or running (which calls it names is the
`JsonRpcConnection`'s rule, `gpp.core.jsonrpc_connection`); a queued one is answered -32800
without running, a running one's handler sees the flag through `current_request()` (and
`notify`/`check_cancelled` raise RequestCancelled once it is set).
"""

from __future__ import annotations

import contextlib
import contextvars
import queue
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import IO, Any

from gpp.core.jsonrpc import (
    INTERNAL_ERROR,
    INVALID_PARAMS,
    METHOD_NOT_FOUND,
    PROGRESS_METHOD,
    REQUEST_CANCELLED,
    Id,
    InvalidParams,
    MethodNotFound,
    RequestCancelled,
    encode,
    error,
    notification,
    response,
)
from gpp.core.jsonrpc_connection import Invocation, JsonRpcConnection, Message

__all__ = [
    "Handler",
    "InvalidParams",
    "MethodNotFound",
    "RequestCancelled",
    "RequestContext",
    "StdioTransport",
    "current_request",
    "serve",
]

Handler = Callable[[str, Any], Any]


@dataclass
class RequestContext:
    """What a running handler can reach: its id, the cancel flag, and progress notifications."""

    id: Any
    transport: StdioTransport
    cancelled: threading.Event = field(default_factory=threading.Event)

    def check_cancelled(self) -> None:
        if self.cancelled.is_set():
            raise RequestCancelled()

    def notify(self, method: str, params: Any = None) -> None:
        """Emit a notification mid-request (after checking for cancellation)."""
        self.check_cancelled()
        self.transport.write_notification(method, params)

    def progress(self, done: int, total: int) -> None:
        self.notify(PROGRESS_METHOD, {"id": self.id, "done": done, "total": total})


_current: contextvars.ContextVar[RequestContext | None] = contextvars.ContextVar(
    "gpp_jsonrpc_request", default=None
)


def current_request() -> RequestContext:
    """The context of the request the calling handler is serving."""
    context = _current.get()
    if context is None:
        raise RuntimeError("not inside a JSON-RPC handler")
    return context


class StdioTransport:
    """Newline-delimited JSON-RPC over binary streams (pipes, sockets, io.BytesIO alike)."""

    def __init__(self, reader: IO[bytes], writer: IO[bytes]) -> None:
        self.reader = reader
        self.writer = writer
        self._write_lock = threading.Lock()
        self._connection = JsonRpcConnection()
        self._contexts: dict[Invocation, RequestContext] = {}
        self._contexts_lock = threading.Lock()  # the connection's too: two threads use it

    # ------------------------------------------------------------------------------ writing

    def write(self, message: Any) -> None:
        self._write_line(encode(message))

    def _write_line(self, line: bytes) -> None:
        with self._write_lock:
            self.writer.write(line)
            self.writer.flush()

    def write_response(self, request_id: Id, result: Any) -> None:
        self.write(response(request_id, result))

    def write_error(
        self, request_id: Id, code: int, message: str | None = None, data: Any = None
    ) -> None:
        self.write(error(request_id, code, message, data))

    def write_notification(self, method: str, params: Any = None) -> None:
        self.write(notification(method, params))

    # ------------------------------------------------------------------------------ serving

    def serve(self, handler: Handler) -> None:
        """Answer every line until EOF; then finish what was queued and return.

        A reader thread keeps reading while a worker runs handlers one at a time, so a
        `$/cancelRequest` is seen while the request it names is queued or running. The protocol
        (parsing, batches, which calls a cancel names, the answer to write) is one
        `JsonRpcConnection` for the whole stream; this loop only runs handlers and writes.
        """
        work: queue.Queue[Message | None] = queue.Queue()
        worker = threading.Thread(target=self._work, args=(work, handler), daemon=True)
        worker.start()
        for line in iter(self.reader.readline, b""):
            if not line.strip():
                continue
            with self._contexts_lock:
                message = self._connection.receive(line)
                for call in message.calls:
                    if not call.is_notification:
                        self._contexts[call] = RequestContext(call.request.id, self)
                for call in message.cancelled:
                    if (context := self._contexts.get(call)) is not None:  # None: answered
                        context.cancelled.set()
            if message.cancels and not message.calls:  # answered now, not queued behind the
                self._write_message(message)  # very call it cancels
            else:
                work.put(message)
        work.put(None)
        worker.join()

    def _work(self, work: queue.Queue[Message | None], handler: Handler) -> None:
        while (message := work.get()) is not None:
            for call in message.calls:
                answer = self._answer(call, handler)
                if answer is not None:
                    with self._contexts_lock:
                        message.settle(call, answer)
            self._write_message(message)

    def _write_message(self, message: Message) -> None:
        line = message.encode()
        if line is not None:
            self._write_line(line + b"\n")

    def _answer(self, call: Invocation, handler: Handler) -> dict[str, Any] | None:
        request = call.request
        if request.is_notification:
            with contextlib.suppress(Exception):  # never answered, not even with an error
                handler(request.method, request.params)
            return None
        with self._contexts_lock:
            context = self._contexts.get(call) or RequestContext(request.id, self)
        try:
            if context.cancelled.is_set():
                raise RequestCancelled()
            token = _current.set(context)
            try:
                result = handler(request.method, request.params)
            finally:
                _current.reset(token)
            return response(request.id, result)
        except RequestCancelled:
            return error(request.id, REQUEST_CANCELLED)
        except MethodNotFound:
            return error(request.id, METHOD_NOT_FOUND)
        except InvalidParams as exc:
            return error(request.id, INVALID_PARAMS, data=str(exc) or None)
        except Exception as exc:
            return error(request.id, INTERNAL_ERROR, data={"exception": type(exc).__name__})
        finally:
            with self._contexts_lock:
                self._contexts.pop(call, None)


def serve(
    handler: Handler, reader: IO[bytes] | None = None, writer: IO[bytes] | None = None
) -> None:
    """Serve `handler` on stdin/stdout (or the given streams) until EOF; with the real stdout,
    a stray `print()` goes to stderr instead of corrupting the protocol."""
    import sys

    from gpp.plugin.stdio import stdout_for_frames

    if writer is not None:
        StdioTransport(reader or sys.stdin.buffer, writer).serve(handler)
        return
    with stdout_for_frames() as frames:
        StdioTransport(reader or sys.stdin.buffer, frames).serve(handler)
