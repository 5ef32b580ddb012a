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

Cancellation is cooperative: `$/cancelRequest {"id": X}` answers a queued request at once with
-32800 and flags a running one; its handler sees the flag through `current_request()` (and
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
    CANCEL_METHOD,
    INTERNAL_ERROR,
    INVALID_PARAMS,
    METHOD_NOT_FOUND,
    PROGRESS_METHOD,
    REQUEST_CANCELLED,
    Id,
    Invalid,
    InvalidParams,
    MethodNotFound,
    Request,
    RequestCancelled,
    encode,
    error,
    id_key,
    notification,
    parse_request,
    response,
)

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
        self._contexts: dict[tuple[str, Any], RequestContext] = {}
        self._contexts_lock = threading.Lock()

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
        `$/cancelRequest` is seen while the request it names is queued or running.
        """
        work: queue.Queue[list[Request | Invalid] | Request | Invalid | None] = queue.Queue()
        worker = threading.Thread(target=self._work, args=(work, handler), daemon=True)
        worker.start()
        for line in iter(self.reader.readline, b""):
            if not line.strip():
                continue
            parsed = parse_request(line)
            if isinstance(parsed, Request) and parsed.method == CANCEL_METHOD:
                self._cancel(parsed)
                continue
            for request in parsed if isinstance(parsed, list) else [parsed]:
                if isinstance(request, Request) and not request.is_notification:
                    self._register(request.id)
            work.put(parsed)
        work.put(None)
        worker.join()

    def _register(self, request_id: Any) -> None:
        with self._contexts_lock:
            self._contexts[id_key(request_id)] = RequestContext(request_id, self)

    def _cancel(self, request: Request) -> None:
        params = request.params
        if isinstance(params, dict) and "id" in params:
            with self._contexts_lock:
                context = self._contexts.get(id_key(params["id"]))
            if context is not None:
                context.cancelled.set()
        if not request.is_notification:  # a cancel sent as a request still gets an answer
            self.write_response(request.id, None)

    def _work(self, work: queue.Queue[Any], handler: Handler) -> None:
        while (item := work.get()) is not None:
            batch = isinstance(item, list)
            answers = [self._answer(request, handler) for request in (item if batch else [item])]
            lines = [_encode_answer(answer) for answer in answers if answer is not None]
            if lines:  # a batch's layout is json.dumps's own: "[" + ", ".join(…) + "]"
                self._write_line(b"[" + b", ".join(lines) + b"]\n" if batch else lines[0] + b"\n")

    def _answer(self, request: Request | Invalid, handler: Handler) -> dict[str, Any] | None:
        if isinstance(request, Invalid):
            return error(request.id, request.code)
        if request.is_notification:
            with contextlib.suppress(Exception):  # never answered, not even with an error
                handler(request.method, request.params)
            return None
        with self._contexts_lock:
            context = self._contexts.get(id_key(request.id)) or RequestContext(request.id, self)
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
                self._contexts.pop(id_key(request.id), None)


def _encode_answer(answer: dict[str, Any]) -> bytes:
    """The answer as JSON, or -32603 in its place when the handler's result cannot be JSON
    (NaN, ±Infinity, a lone surrogate, a set…): one bad value must not break the stream."""
    try:
        return encode(answer).rstrip(b"\n")
    except (TypeError, ValueError) as exc:
        data = {"exception": type(exc).__name__}
        return encode(error(answer["id"], INTERNAL_ERROR, data=data)).rstrip(b"\n")


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
