"""HTTP routes: each parses its input, calls the pool, and renders the answer. Nothing else.

What a route raises is answered by the exception handlers in `problems.py`; each plugin
request's log line and metrics are written once, by `exchange.RecordExchanges`."""

from __future__ import annotations

import asyncio
import json
import re
import secrets
from typing import Any

from fastapi import Request
from fastapi.openapi.docs import get_swagger_ui_html
from fastapi.responses import HTMLResponse
from starlette.responses import JSONResponse, Response

from gpp.core import (
    Discover,
    JSONRejected,
    Result,
    Violation,
    canonical_trusted,
    codes,
    from_contract,
    loads_strict,
)
from gpp.host import OFF_LOOP_BYTES

from ..metrics import CONTENT_TYPE_LATEST
from ..models import ResultDocument
from ..pool import Gpp3Pool
from ..problems import GATEWAY_CONTRACT
from .plugin_requests import (
    PROBLEM,
    PluginRequest,
    body,
    gateway_state,
    no_such_plugin,
    pool_of_kind,
    unless_client_leaves,
)
from .table import NO_FRAMING

DISCOVER_REQUEST = from_contract(json.loads(GATEWAY_CONTRACT.read_bytes())["discoverRequest"])
"""The body of POST /plugins/{id}/discover, as the gateway's contract (`app/contract/gateway.json`)
says: a field added there is checked here. Stricter than the `discover` frame, which may carry
no paths (an empty result): over HTTP an empty list is more likely a caller's mistake than a
question, so it is answered 422. Every body it accepts, its requestId filled in, is a valid `discover`
payload (tests/gateway/test_endpoints.py proves it over the contract's cases)."""

DISCOVER_RESPONSES: dict[int | str, dict[str, Any]] = {
    200: {"model": ResultDocument, "description": "The result document (GF-canonical JSON)",
          "headers": {"X-GPP-Digest": {"description": "the result frame's digest",
                                       "schema": {"type": "string"}},
                      "X-Request-Id": {"description": "the requestId, when it is visible ASCII "
                                       "(else only the body carries it)",
                                       "schema": {"type": "string"}}}},
    404: {**PROBLEM, "description": "E_UNKNOWN_PLUGIN: no such plugin, or not a GPP/3 plugin"},
    422: {**PROBLEM, "description": "E_SCHEMA: the request is bad; the plugin was not contacted"},
    502: {**PROBLEM, "description": "The plugin violated GPP/3 or answered with an error"},
    503: {**PROBLEM, "description": "Queue full or plugin backing off (Retry-After)"},
    504: {**PROBLEM, "description": "E_TIMEOUT: the watchdog fired"},
}  # fmt: skip


async def discover(plugin_id: str, request: Request) -> Response:
    with PluginRequest(request, "request", plugin_id) as (pool, exchange):
        gpp_pool = pool_of_kind(pool, Gpp3Pool, plugin_id)
        content, header_id = await body(request), request.headers.get("x-request-id")
        if len(content) >= OFF_LOOP_BYTES:  # a long body is read off the loop: others go on
            discover_request = await asyncio.to_thread(discover_body, content, header_id)
        else:
            discover_request = discover_body(content, header_id)
        exchange.request_id = discover_request.request_id
        queued = gpp_pool.would_queue  # then its client's leaving must free the place at once
        work = gpp_pool.discover(discover_request)
        result = await unless_client_leaves(request, work, watch_at_once=queued)
        return result_response(result)


def result_response(result: Result) -> Response:
    """The result document as the frame carried it (GF-canonical bytes), with its digest."""
    headers = {"X-GPP-Digest": result.digest}
    if is_header_safe(result.request_id):
        headers["X-Request-Id"] = result.request_id
    content = result.payload_bytes
    if content is None:
        content = canonical_trusted({"requestId": result.request_id, **result.document})
    return Response(content, media_type="application/json", headers=headers)


def discover_body(content: bytes, header_id: str | None) -> Discover:
    """The one `Discover` request a body asks for, checked here once (by DISCOVER_REQUEST, which
    accepts only valid `discover` payloads, so the connection does not check it again).

    Its request id is the body's `requestId`, else an `X-Request-Id` header (so a tracing
    proxy's id carries through to the plugin), else a fresh one."""
    try:
        doc = loads_strict(content)  # strict: a duplicate key must not silently take the last value
    except JSONRejected as exc:
        raise codes.InvalidRequestError(
            f"is not valid I-JSON ({exc.reason})", field="body", expected="a JSON object", got=None
        ) from None
    if isinstance(doc, dict) and "requestId" not in doc:
        # a header's id is checked as the body's would be; a fresh one has uuid4().hex's shape
        doc = {**doc, "requestId": secrets.token_hex(16) if header_id is None else header_id}
    try:
        return Discover.validated(doc, DISCOVER_REQUEST)
    except Violation as exc:
        raise codes.InvalidRequestError(
            exc.problem, field=exc.field or "body", expected=exc.expected, got=exc.got
        ) from None


_HEADER_SAFE = re.compile(r"[\x21-\x7e]+")


def is_header_safe(request_id: str) -> bool:
    """Whether the id can be echoed in `X-Request-Id` as it is: visible ASCII only.

    Any JSON string is a valid requestId, but a header holds latin-1 bytes without controls.
    Rather than invent an encoding a client would have to know to undo, an id that is not
    visible ASCII is not echoed in the header at all; the body carries it exactly.
    """
    return _HEADER_SAFE.fullmatch(request_id) is not None


async def list_plugins(request: Request) -> list[dict[str, Any]]:
    return [pool.describe() for pool in gateway_state(request).pools.by_id.values()]


async def get_plugin(plugin_id: str, request: Request) -> Any:
    pool = gateway_state(request).pools.by_id.get(plugin_id)
    if pool is None:
        raise no_such_plugin(plugin_id)
    return pool.describe()


async def healthz() -> dict[str, str]:
    return {"status": "ok"}


async def readyz(request: Request) -> Response:
    """Public, so a probe needs no token; which plugins it waits for is told only to a client
    that has it (the names are the registry's, which only `/plugins` shows, behind the token)."""
    waiting = gateway_state(request).pools.not_ready()
    if waiting and request.app.security.authenticated(request.scope):
        return JSONResponse({"status": "starting", "waitingFor": waiting}, status_code=503)
    if waiting:
        return JSONResponse({"status": "starting"}, status_code=503)
    return JSONResponse({"status": "ready"})


async def metrics(request: Request) -> Response:
    return Response(gateway_state(request).metrics.render(), media_type=CONTENT_TYPE_LATEST)


async def docs() -> HTMLResponse:
    page = get_swagger_ui_html(
        openapi_url="/openapi.json",
        title="gate-forge gateway",
        swagger_js_url="/docs-assets/swagger-ui-bundle.js",
        swagger_css_url="/docs-assets/swagger-ui.css",
        swagger_favicon_url="/docs-assets/favicon-32x32.png",
    )
    page.headers.update(NO_FRAMING)
    return page


async def openapi_document(request: Request) -> JSONResponse:
    """The OpenAPI document FastAPI builds from the route table (`GatewayApp.openapi`)."""
    return JSONResponse(request.app.openapi())
