"""JSON-RPC 2.0 over newline-delimited stdio, for plugins that expose methods. Stdlib only.

This package is the plugin side and the transport both sides share; the host side, the
gateway's asyncio session with one plugin process, is `gpp.jsonrpc.host` (not imported here,
so a plugin loads none of it).

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
import json
import queue
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import IO, Any

from ..canonical_json import loads_strict

PARSE_ERROR = -32700
INVALID_REQUEST = -32600
METHOD_NOT_FOUND = -32601
INVALID_PARAMS = -32602
INTERNAL_ERROR = -32603
REQUEST_CANCELLED = -32800
CANCEL_METHOD = "$/cancelRequest"
PROGRESS_METHOD = "$/progress"

MESSAGES = {
    PARSE_ERROR: "Parse error",
    INVALID_REQUEST: "Invalid Request",
    METHOD_NOT_FOUND: "Method not found",
    INVALID_PARAMS: "Invalid params",
    INTERNAL_ERROR: "Internal error",
    REQUEST_CANCELLED: "Request cancelled",
}

Id = str | int | float | None
Handler = Callable[[str, Any], Any]


class MethodNotFound(Exception):
    """Raise from a handler for a method it does not know: -32601."""


class InvalidParams(Exception):
    """Raise from a handler for params it cannot use: -32602."""


class RequestCancelled(Exception):
    """Raised inside a handler whose request was cancelled: -32800."""


@dataclass(frozen=True)
class Request:
    """A valid request or notification. `id` is absent (NO_ID) for notifications."""

    method: str
    params: Any
    id: Any

    @property
    def is_notification(self) -> bool:
        return self.id is NO_ID


@dataclass(frozen=True)
class Invalid:
    """A message that gets an error response without reaching a handler."""

    code: int
    id: Id = None


NO_ID: Any = type("NoId", (), {"__repr__": lambda self: "NO_ID"})()
"""Marks a notification: `id` absent is not the same as `"id": null`."""


def id_key(request_id: Any) -> tuple[str, Any]:
    """A dict key that keeps `7` and `"7"` (and `1` and `True`) apart."""
    return (type(request_id).__name__, request_id)


def _valid_id(value: Any) -> bool:
    return value is None or (type(value) in (str, int, float))


def _check(message: Any) -> Request | Invalid:
    if not isinstance(message, dict):
        return Invalid(INVALID_REQUEST)
    request_id = message.get("id", NO_ID)
    usable_id = request_id if request_id is not NO_ID and _valid_id(request_id) else None
    if (
        message.get("jsonrpc") != "2.0"
        or not isinstance(message.get("method"), str)
        or ("params" in message and not isinstance(message["params"], (list, dict)))
        or (request_id is not NO_ID and not _valid_id(request_id))
        or set(message) - {"jsonrpc", "method", "params", "id"}
    ):
        return Invalid(INVALID_REQUEST, usable_id)
    return Request(message["method"], message.get("params"), request_id)


def parse_request(
    line: bytes | str, max_batch: int | None = None
) -> Request | Invalid | list[Request | Invalid]:
    """One line: a request, a batch (list), or an Invalid (parse error, empty batch, a batch of
    more than `max_batch` entries, …).

    A line that is JSON but not I-JSON (RFC 7493: NaN, ±Infinity, a number that overflows a
    double, a lone surrogate, a key given twice) is a parse error too, not an invalid request:
    it denotes no value both ends can hold, so there is no request object to judge, and an id
    read from it could not be echoed faithfully. Hence `id: null` and the whole batch refused.
    """
    try:
        message = loads_strict(line if isinstance(line, bytes) else line.encode("utf-8"))
    except ValueError:  # JSONRejected, or a str holding a lone surrogate
        return Invalid(PARSE_ERROR)
    if isinstance(message, list):
        if not message or (max_batch is not None and len(message) > max_batch):
            return Invalid(INVALID_REQUEST)  # refused before any entry is judged
        return [_check(item) for item in message]
    return _check(message)


def response(request_id: Id, result: Any) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "result": result, "id": request_id}


def error(
    request_id: Id, code: int, message: str | None = None, data: Any = None
) -> dict[str, Any]:
    body: dict[str, Any] = {"code": code, "message": message or MESSAGES.get(code, "Server error")}
    if data is not None:
        body["data"] = data
    return {"jsonrpc": "2.0", "error": body, "id": request_id}


def notification(method: str, params: Any = None) -> dict[str, Any]:
    message: dict[str, Any] = {"jsonrpc": "2.0", "method": method}
    if params is not None:
        message["params"] = params
    return message


def encode(message: Any) -> bytes:
    """One line, in the specification's own layout (`", "` and `": "` separators).

    ValueError for what JSON cannot carry (NaN, ±Infinity, a lone surrogate): never written.
    """
    return json.dumps(message, ensure_ascii=False, allow_nan=False).encode("utf-8") + b"\n"


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

    from ..stdio import stdout_for_frames

    if writer is not None:
        StdioTransport(reader or sys.stdin.buffer, writer).serve(handler)
        return
    with stdout_for_frames() as frames:
        StdioTransport(reader or sys.stdin.buffer, frames).serve(handler)
