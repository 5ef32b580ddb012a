"""HTTP routes: each parses its input, calls the pool, and renders the answer. Nothing else."""

from __future__ import annotations

import asyncio
import logging
import re
import time
import uuid
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

from fastapi import APIRouter, Request
from fastapi.openapi.docs import get_swagger_ui_html
from fastapi.responses import HTMLResponse
from starlette.requests import ClientDisconnect
from starlette.responses import JSONResponse, Response

from gpp import codes
from gpp.canonical_json import JSONRejected, canonical_trusted, loads_strict
from gpp.schema import DISCOVER_REQUEST, Violation

from .health import PoolRefusal
from .metrics import CONTENT_TYPE_LATEST
from .models import DiscoverRequest, PluginInfo, Problem, Readiness, ResultDocument
from .pool import AnyPool, PluginPool
from .problems import protocol_problem, refusal_problem
from .state import GatewayState

log = logging.getLogger("gpp.request")
T = TypeVar("T")
router = APIRouter()

PROBLEM = {"model": Problem, "content": {"application/problem+json": {}}}
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


def gateway_state(request: Request) -> GatewayState:
    state: GatewayState = request.app.state.gateway
    return state


PoolHandler = Callable[[GatewayState, AnyPool | None, str, Request], Awaitable[Response]]


async def with_leased_pool(plugin_id: str, request: Request, handle: PoolHandler) -> Response:
    """Answer with the plugin's current pool (None: no such plugin) leased for the whole
    request, body reading included: a reload retires that pool only after it."""
    state = gateway_state(request)
    with state.pool.lease(plugin_id) as pool:
        return await handle(state, pool, plugin_id, request)


def unknown_plugin(plugin_id: str, detail: str | None = None) -> Response:
    error = codes.UnknownPluginError(detail or f"no plugin is registered under {plugin_id!r}")
    return protocol_problem(error, plugin_id, status=404)


@router.post(
    "/plugins/{plugin_id}/discover",
    responses=DISCOVER_RESPONSES,
    openapi_extra={"requestBody": {"required": True, "content": {"application/json": {
        "schema": DiscoverRequest.model_json_schema()}}}},
    summary="Run discovery on repo-relative paths",
    tags=["discovery"],
)  # fmt: skip
async def discover(plugin_id: str, request: Request) -> Response:
    return await with_leased_pool(plugin_id, request, _discover)


async def _discover(
    state: GatewayState, pool: AnyPool | None, plugin_id: str, request: Request
) -> Response:
    started = time.perf_counter()
    request_id: str | None = None
    outcome = "ok"
    try:
        if pool is None:
            outcome = "E_UNKNOWN_PLUGIN"
            return unknown_plugin(plugin_id)
        if not isinstance(pool, PluginPool):
            outcome = "E_UNKNOWN_PLUGIN"
            return unknown_plugin(plugin_id, f"plugin {plugin_id!r} speaks JSON-RPC 2.0: "
                                   f"POST /plugins/{plugin_id}/rpc instead")  # fmt: skip
        try:
            paths, request_id = _discover_body(
                await request.body(), request.headers.get("x-request-id")
            )
        except codes.InvalidRequestError as exc:
            outcome = exc.code
            return protocol_problem(exc, plugin_id)
        except ClientDisconnect:  # mid-body: the client left, or the front door timed it out
            outcome = "client-gone"
            return Response(status_code=499)
        result = await run_unless_client_leaves(request, pool.discover(paths, request_id))
        if result is None:
            outcome = "client-gone"
            return Response(status_code=499)
        headers = {"X-GPP-Digest": result.digest}
        if is_header_safe(result.request_id):
            headers["X-Request-Id"] = result.request_id
        body = result.payload_bytes
        if body is None:
            body = canonical_trusted({"requestId": result.request_id, **result.document})
        return Response(
            body,
            media_type="application/json",
            headers=headers,
        )
    except PoolRefusal as refusal:
        outcome = "refused"
        return refusal_problem(refusal, plugin_id, request_id)
    except codes.ProtocolError as exc:
        outcome = exc.code
        exc.request_id = exc.request_id or request_id
        return protocol_problem(exc, plugin_id)
    finally:
        record_request(state, "request", plugin_id if pool else "(unknown)", outcome, started,
                       requestId=request_id)  # fmt: skip


def record_request(
    state: GatewayState, event: str, plugin: str, outcome: str, started: float, **fields: Any
) -> None:
    """The request's metrics and its one log line."""
    elapsed = time.perf_counter() - started
    state.metrics.observe(plugin, outcome, elapsed)
    log.info(event, extra={"fields": {"plugin": plugin, **fields, "outcome": outcome,
                                      "ms": round(elapsed * 1000, 2)}})  # fmt: skip


def _discover_body(body: bytes, header_id: str | None) -> tuple[list[str], str]:
    """The paths and the request id: the body's `requestId`, else an `X-Request-Id` header
    (so a tracing proxy's id carries through to the plugin), else a fresh one."""
    try:
        doc = loads_strict(body)  # strict: a duplicate key must not silently take the last value
    except JSONRejected as exc:
        raise codes.InvalidRequestError(f"is not valid I-JSON ({exc.reason})", field="body",
                                        expected="a JSON object", got=None) from None  # fmt: skip
    if isinstance(doc, dict) and "requestId" not in doc and header_id is not None:
        doc = {**doc, "requestId": header_id}
    try:
        DISCOVER_REQUEST.check(doc)
    except Violation as exc:
        raise codes.InvalidRequestError(exc.problem, field=exc.field or "body",
                                        expected=exc.expected, got=exc.got) from None  # fmt: skip
    return doc["paths"], doc.get("requestId") or uuid.uuid4().hex


_HEADER_SAFE = re.compile(r"[\x21-\x7e]+")


def is_header_safe(request_id: str) -> bool:
    """Whether the id can be echoed in `X-Request-Id` as it is: visible ASCII only.

    Any JSON string is a valid requestId, but a header holds latin-1 bytes without controls.
    Rather than invent an encoding a client would have to know to undo, an id that is not
    visible ASCII is not echoed in the header at all; the body carries it exactly.
    """
    return _HEADER_SAFE.fullmatch(request_id) is not None


async def run_unless_client_leaves(request: Request, work: Awaitable[T]) -> T | None:
    """The work's result, or None when the HTTP client disconnected first (work cancelled).

    A discover still queued leaves the queue; one in flight completes in the background, its
    exchange shielded, so the session stays in step. A JSON-RPC call is cancelled at the plugin.
    """
    task = asyncio.ensure_future(work)
    gone = asyncio.create_task(_disconnected(request))
    try:
        await asyncio.wait({task, gone}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        gone.cancel()
    if not task.done():
        task.cancel()
        return None
    return task.result()


async def _disconnected(request: Request) -> None:
    while (await request.receive())["type"] != "http.disconnect":
        pass


@router.get("/plugins", response_model=list[PluginInfo], summary="Registered plugins, live state",
            tags=["plugins"])  # fmt: skip
async def list_plugins(request: Request) -> list[dict[str, Any]]:
    return [pool.describe() for pool in gateway_state(request).pool.pools.values()]


@router.get("/plugins/{plugin_id}", response_model=PluginInfo,
            responses={404: PROBLEM}, summary="One plugin's live state", tags=["plugins"])  # fmt: skip
async def get_plugin(plugin_id: str, request: Request) -> Any:
    pool = gateway_state(request).pool.pools.get(plugin_id)
    if pool is None:
        return unknown_plugin(plugin_id)
    return pool.describe()


@router.get("/healthz", summary="Liveness", tags=["operations"])
async def healthz() -> dict[str, str]:
    return {"status": "ok"}


@router.get("/readyz", summary="Readiness: config loaded, eager plugins up", tags=["operations"],
            responses={200: {"model": Readiness}, 503: {"model": Readiness,
                       "description": "Eager plugins still starting (or failed)"}})  # fmt: skip
async def readyz(request: Request) -> Response:
    waiting = gateway_state(request).pool.not_ready()
    if waiting:
        return JSONResponse({"status": "starting", "waitingFor": waiting}, status_code=503)
    return JSONResponse({"status": "ready"})


@router.get("/metrics", summary="Prometheus metrics", response_class=Response,
            tags=["operations"])  # fmt: skip
async def metrics(request: Request) -> Response:
    return Response(gateway_state(request).metrics.render(), media_type=CONTENT_TYPE_LATEST)


@router.get("/docs", include_in_schema=False)
async def docs() -> HTMLResponse:
    return get_swagger_ui_html(
        openapi_url="/openapi.json",
        title="gate-forge gateway",
        swagger_js_url="/docs-assets/swagger-ui-bundle.js",
        swagger_css_url="/docs-assets/swagger-ui.css",
        swagger_favicon_url="/docs-assets/favicon-32x32.png",
    )
