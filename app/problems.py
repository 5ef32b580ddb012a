"""RFC 9457 problem+json answers: every failure the gateway gives goes through here."""

from __future__ import annotations

from typing import Any

import orjson
from starlette.responses import Response

from gpp import codes

from .health import PoolRefusal, retry_after_header

PROBLEM_TYPE = "application/problem+json"
PROBLEM_FIELDS = (
    "type", "title", "status", "detail", "code", "plugin", "frame", "messageType", "field",
    "expected", "got", "offendingFrame", "requestId", "exitCode", "stderrTail",
)  # fmt: skip


class BodyTooLarge(Exception):
    def __init__(self, limit: int) -> None:
        super().__init__(f"request body exceeds {limit} bytes")
        self.limit = limit


def problem_response(
    status: int, doc: dict[str, Any], headers: dict[str, str] | None = None
) -> Response:
    body = {key: doc.get(key) for key in PROBLEM_FIELDS}
    body.update({k: v for k, v in doc.items() if k not in body})
    body["status"] = status
    return Response(orjson.dumps(body), status_code=status, media_type=PROBLEM_TYPE,
                    headers=headers)  # fmt: skip


def protocol_problem(
    error: codes.ProtocolError,
    plugin: str | None,
    status: int | None = None,
    headers: dict[str, str] | None = None,
) -> Response:
    """The answer for an E_* failure; status defaults to the code's own."""
    status = status or error.http_status
    return problem_response(status, error.to_problem(plugin, status), headers)


def http_problem(status: int, title: str, detail: str, headers: dict[str, str] | None = None,
                 **extra: Any) -> Response:  # fmt: skip
    """A refusal that is not about a plugin (401, 403, 413, 415, 503 before any session)."""
    doc = {"type": "about:blank", "title": title, "detail": detail, **extra}
    return problem_response(status, doc, headers)


def refusal_problem(refusal: PoolRefusal, plugin: str, request_id: str | None = None) -> Response:
    """503 for a request the pool refused (queue full, back-off, shutting down). `code` stays
    null: nothing failed now; the failure that started a back-off is in `lastCode`."""
    last = refusal.last
    return http_problem(
        503, "Plugin unavailable", refusal.reason,
        headers={"Retry-After": retry_after_header(refusal.retry_after)},
        plugin=plugin, requestId=request_id, retryAfter=round(refusal.retry_after, 3),
        lastCode=last.code if last else None,
        lastDiagnostic=last.diagnostic() if last else None,
        stderrTail=last.stderr_tail if last else None,
    )  # fmt: skip
