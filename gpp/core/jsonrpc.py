"""JSON-RPC 2.0 messages, pure: the error codes, parsing a line into requests, building
responses, errors and notifications, and encoding them in the specification's own layout
(`{"jsonrpc": "2.0", "result": 19, "id": 1}`, so its examples hold byte for byte).

Both sides use it: the plugin's stdio transport (`gpp.plugin.jsonrpc`), the host's session
(`gpp.host.jsonrpc`) and the gateway's `/rpc`. Both directions are I-JSON (RFC 7493), as GPP/3
frames are: a line holding NaN, ±Infinity, a number that overflows a double, a lone surrogate or
a duplicate key is a -32700 parse error.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from gpp.core.canonical_json import loads_strict

__all__ = [
    "CANCEL_METHOD",
    "INTERNAL_ERROR",
    "INVALID_PARAMS",
    "INVALID_REQUEST",
    "MESSAGES",
    "METHOD_NOT_FOUND",
    "PARSE_ERROR",
    "PROGRESS_METHOD",
    "REQUEST_CANCELLED",
    "Invalid",
    "InvalidParams",
    "MethodNotFound",
    "Request",
    "RequestCancelled",
    "encode",
    "error",
    "id_key",
    "notification",
    "parse_request",
    "response",
]

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
