"""RFC 9457 problem+json answers: every failure the gateway gives goes through here, and the
exception handlers that turn what a route raises into its answer and its recorded outcome."""

from __future__ import annotations

from typing import Any

import orjson
from fastapi import FastAPI
from starlette.requests import Request
from starlette.responses import Response

from gpp import codes

from .exchange import Exchange, exchange_of
from .health import PoolRefusal, retry_after_header
from .models import Problem

PROBLEM_TYPE = "application/problem+json"
PROBLEM_FIELDS = tuple(Problem.model_fields)
"""The fields every problem document has, in order (null when they do not apply): the
`Problem` model's, which documents them in OpenAPI."""


class BodyTooLarge(Exception):
    def __init__(self, limit: int) -> None:
        super().__init__(f"request body exceeds {limit} bytes")
        self.limit = limit


class ClientGone(Exception):
    """The HTTP client disconnected before its answer: nobody to answer (499 in the record)."""


def problem_response(
    status: int, doc: dict[str, Any], headers: dict[str, str] | None = None
) -> Response:
    body = {key: doc.get(key) for key in PROBLEM_FIELDS}
    body.update({k: v for k, v in doc.items() if k not in body})
    body["status"] = status
    return Response(
        orjson.dumps(body), status_code=status, media_type=PROBLEM_TYPE, headers=headers
    )


def protocol_problem(
    error: codes.ProtocolError,
    plugin: str | None,
    status: int | None = None,
    headers: dict[str, str] | None = None,
) -> Response:
    """The answer for an E_* failure; status defaults to the code's own."""
    status = status or error.http_status
    return problem_response(status, error.to_problem(plugin, status), headers)


def http_problem(
    status: int, title: str, detail: str, headers: dict[str, str] | None = None, **extra: Any
) -> Response:
    """A refusal that is not about a plugin (401, 403, 413, 415, 503 before any session)."""
    doc = {"type": "about:blank", "title": title, "detail": detail, **extra}
    return problem_response(status, doc, headers)


def refusal_problem(refusal: PoolRefusal, plugin: str, request_id: str | None = None) -> Response:
    """503 for a request the pool refused (queue full, back-off, shutting down). `code` stays
    null: nothing failed now; the failure that started a back-off is in `lastCode`."""
    last = refusal.last
    return http_problem(
        503,
        "Plugin unavailable",
        refusal.reason,
        headers={"Retry-After": retry_after_header(refusal.retry_after)},
        plugin=plugin,
        requestId=request_id,
        retryAfter=round(refusal.retry_after, 3),
        lastCode=last.code if last else None,
        lastDiagnostic=last.diagnostic() if last else None,
        stderrTail=last.stderr_tail if last else None,
    )


# --------------------------------------------------------------------------- exception handlers


def _exchange(request: Request) -> Exchange:
    """The record of the plugin request that raised (a blank one outside a plugin route)."""
    return exchange_of(request.scope) or Exchange("request", "")


async def _on_protocol_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, codes.ProtocolError)
    exchange = _exchange(request)
    exchange.outcome = exc.code
    exc.request_id = exc.request_id or exchange.request_id
    return protocol_problem(exc, exchange.plugin)


async def _on_refusal(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, PoolRefusal)
    exchange = _exchange(request)
    exchange.outcome = "refused"
    return refusal_problem(exc, exchange.plugin, exchange.request_id)


async def _on_body_too_large(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, BodyTooLarge)
    _exchange(request).outcome = "body-too-large"
    return http_problem(413, "Request body too large", str(exc))


async def _on_client_gone(request: Request, exc: Exception) -> Response:
    _exchange(request).outcome = "client-gone"
    return Response(status_code=499)


def install_handlers(app: FastAPI) -> None:
    """What a route may raise, answered: E_* failures, pool refusals, an over-long body, and
    a client that left."""
    app.add_exception_handler(codes.ProtocolError, _on_protocol_error)
    app.add_exception_handler(PoolRefusal, _on_refusal)
    app.add_exception_handler(BodyTooLarge, _on_body_too_large)
    app.add_exception_handler(ClientGone, _on_client_gone)
