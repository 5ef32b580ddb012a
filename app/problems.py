"""RFC 9457 problem+json answers: every failure the gateway gives goes through here, and the
exception handlers that turn what a route raises into its answer and its recorded outcome."""

from __future__ import annotations

import json
from http import HTTPStatus
from pathlib import Path
from typing import Any

import orjson
from fastapi import FastAPI
from fastapi.exceptions import RequestValidationError
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.requests import Request
from starlette.responses import Response

from gpp.core import codes

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


class NoSuchPlugin(codes.UnknownPluginError):
    """E_UNKNOWN_PLUGIN for a route: no plugin under that id, or not one of this protocol.
    The caller's fault, not a plugin's (a plugin that names itself wrongly is a plain
    UnknownPluginError, 502)."""


GATEWAY_CONTRACT = Path(__file__).with_name("contract") / "gateway.json"
"""The gateway's own contract: the HTTP facts of its API (the protocol's is gpp3.json)."""

HTTP_STATUS: dict[type[codes.ProtocolError], int] = {
    **{
        getattr(codes, name): status
        for name, status in json.loads(GATEWAY_CONTRACT.read_bytes())["httpStatus"].items()
    },
    NoSuchPlugin: 404,
}
"""The status of an E_* answer, looked up along the class's MRO: 502 for a ProtocolError (the
plugin failed, a bad gateway) unless the gateway's contract says otherwise (a bad request is the
caller's, 422; a timeout the gateway's own, 504); an unknown plugin id in a route is 404."""


def http_status(error: codes.ProtocolError) -> int:
    return next(HTTP_STATUS[c] for c in type(error).__mro__ if c in HTTP_STATUS)


def problem_of(
    error: codes.ProtocolError, plugin: str | None = None, status: int | None = None
) -> dict[str, Any]:
    """The RFC 9457 document for an E_* failure (`gpp.client` rebuilds the error from it)."""
    return {
        "type": f"urn:gpp:error:{error.code}",
        "title": error.title,
        "status": status or http_status(error),
        "detail": error.fail_line(),
        "code": error.code,
        "plugin": plugin,
        "frame": error.frame,
        "messageType": error.message_type,
        "field": error.field,
        "expected": error.expected,
        "got": error.got,
        "offendingFrame": codes.truncate(error.offending_frame) if error.offending_frame else None,
        "requestId": error.request_id,
        "exitCode": error.exit_code,
        "stderrTail": error.stderr_tail,
        "problem": error.problem,
    }


class ClientGone(Exception):
    """The HTTP client disconnected before its answer: nobody to answer (499 in the record)."""


def problem_body(status: int, doc: dict[str, Any]) -> bytes:
    """The document's bytes, with its fields in the documented order and none that is null: a
    field that does not apply is absent (a reader should not wade through a dozen nulls). The
    one renderer of every problem the gateway sends, the front door's raw answers included."""
    body = {key: doc[key] for key in PROBLEM_FIELDS if doc.get(key) is not None}
    body.update({k: v for k, v in doc.items() if k not in body and v is not None})
    body["status"] = status
    return orjson.dumps(body)


def problem_response(
    status: int, doc: dict[str, Any], headers: dict[str, str] | None = None
) -> Response:
    """`problem_body` as a response."""
    return Response(
        problem_body(status, doc), status_code=status, media_type=PROBLEM_TYPE, headers=headers
    )


def protocol_problem(
    error: codes.ProtocolError,
    plugin: str | None,
    status: int | None = None,
    headers: dict[str, str] | None = None,
) -> Response:
    """The answer for an E_* failure; status defaults to the code's own."""
    status = status or http_status(error)
    return problem_response(status, problem_of(error, plugin, status), headers)


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
    if isinstance(exc, NoSuchPlugin):
        registered = sorted(request.app.state.gateway.pools.by_id)
        return unknown_plugin_problem(exc, registered)
    return protocol_problem(exc, exchange.plugin)


def unknown_plugin_problem(error: NoSuchPlugin, registered: list[str]) -> Response:
    """404 for a plugin id the request named: the fault is the request's, not a plugin's, so
    the detail speaks to the caller (no FAIL line) and names the ids that do exist. `code`
    stays E_UNKNOWN_PLUGIN, as DESIGN.md §5 fixes it."""
    known = ", ".join(registered) if registered else "none"
    doc = {
        "type": f"urn:gpp:error:{error.code}",
        "title": "Unknown plugin",
        "detail": f"{error.problem}; registered plugins: {known} (GET /plugins lists them)",
        "code": error.code,
        "requestId": error.request_id,
        "problem": error.problem,
    }
    return problem_response(404, doc)


STATUS_TITLES = {404: "Not found", 405: "Method not allowed"}


async def _on_http_exception(request: Request, exc: Exception) -> Response:
    """The router's own refusals (no such path, method not allowed), as problems too."""
    assert isinstance(exc, StarletteHTTPException)
    status = exc.status_code
    method, path = request.method, request.url.path
    if status == 404:
        detail = f"no route {method} {path}; /docs and /openapi.json list the API"
    elif status == 405:
        allowed = (exc.headers or {}).get("Allow") or (exc.headers or {}).get("allow")
        detail = f"{path} does not answer {method}" + (f"; it answers {allowed}" if allowed else "")
    else:
        detail = str(exc.detail)
    title = STATUS_TITLES.get(status) or HTTPStatus(status).phrase
    return http_problem(status, title, detail, headers=dict(exc.headers or {}))


async def _on_validation_error(request: Request, exc: Exception) -> Response:
    """FastAPI's own parameter validation (the routes validate their bodies themselves)."""
    assert isinstance(exc, RequestValidationError)
    problems = "; ".join(
        f"{'.'.join(str(p) for p in error['loc'])}: {error['msg']}" for error in exc.errors()
    )
    return http_problem(422, "Invalid request", problems)


async def _on_refusal(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, PoolRefusal)
    exchange = _exchange(request)
    exchange.outcome = "refused"
    return refusal_problem(exc, exchange.plugin, exchange.request_id)


async def _on_body_too_large(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, BodyTooLarge)
    _exchange(request).outcome = "body-too-large"
    return http_problem(413, "Request body too large", str(exc))


def unexpected_problem() -> Response:
    """500 for a bug: a problem too, never a traceback; the error itself reaches the log where
    uvicorn reports it ("Exception in ASGI application"), as before. uvicorn then closes the
    connection; `Connection: close` says so, or a client that sends its next request first has
    it reset."""
    return http_problem(
        500,
        "Internal error",
        "the gateway failed on this request; its log says why",
        headers={"Connection": "close"},
    )


async def _on_unexpected(request: Request, exc: Exception) -> Response:
    _exchange(request).outcome = "error"
    return unexpected_problem()


async def _on_client_gone(request: Request, exc: Exception) -> Response:
    _exchange(request).outcome = "client-gone"
    return Response(status_code=499)


def install_handlers(app: FastAPI) -> None:
    """What a route may raise, answered: E_* failures, pool refusals, an over-long body, a
    client that left, the router's 404/405, and a bug's 500: every error the gateway gives is
    a problem."""
    app.add_exception_handler(codes.ProtocolError, _on_protocol_error)
    app.add_exception_handler(PoolRefusal, _on_refusal)
    app.add_exception_handler(BodyTooLarge, _on_body_too_large)
    app.add_exception_handler(ClientGone, _on_client_gone)
    app.add_exception_handler(StarletteHTTPException, _on_http_exception)
    app.add_exception_handler(RequestValidationError, _on_validation_error)
    # Starlette gives this one to its outermost middleware, which answers, then re-raises
    app.add_exception_handler(Exception, _on_unexpected)
