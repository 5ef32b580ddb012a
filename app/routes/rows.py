"""Every route the gateway answers, one row each: FastAPI builds its routes and OpenAPI
document from these rows, the fast path matches them, and the security checks read them
(`table.py` says how). To add a route, write its endpoint and add its row here.

The fast rows come first: they are the hot path, and matching stops at the first row that
takes the request.
"""

from __future__ import annotations

import swagger_ui_bundle
from starlette.responses import Response

from ..models import DiscoverRequest, PluginInfo, Readiness
from .endpoints import (
    DISCOVER_RESPONSES,
    discover,
    docs,
    get_plugin,
    healthz,
    list_plugins,
    metrics,
    openapi_document,
    readyz,
)
from .plugin_requests import PROBLEM
from .rpc_endpoint import RPC_BODY, RPC_RESPONSES, rpc
from .table import RouteTable, Row, Static

GET, POST = ("GET",), ("POST",)
DISCOVER_BODY = {
    "required": True,
    "content": {"application/json": {"schema": DiscoverRequest.model_json_schema()}},
}
READINESS = {
    200: {"model": Readiness},
    503: {"model": Readiness, "description": "Eager plugins still starting (or failed)"},
}
OPERATIONS, PLUGINS = ["operations"], ["plugins"]

ROUTES = RouteTable(
    [
        Row(POST, "/plugins/{plugin_id}/discover", discover, fast=True, openapi=dict(
            responses=DISCOVER_RESPONSES, openapi_extra={"requestBody": DISCOVER_BODY},
            summary="Run discovery on repo-relative paths", tags=["discovery"])),
        Row(POST, "/plugins/{plugin_id}/rpc", rpc, fast=True, openapi=dict(
            responses=RPC_RESPONSES, openapi_extra={"requestBody": RPC_BODY},
            summary="Call a JSON-RPC plugin", tags=["json-rpc"])),
        Row(GET, "/plugins", list_plugins, openapi=dict(
            response_model=list[PluginInfo], summary="Registered plugins, live state",
            tags=PLUGINS)),
        Row(GET, "/plugins/{plugin_id}", get_plugin, openapi=dict(
            response_model=PluginInfo, responses={404: PROBLEM},
            summary="One plugin's live state", tags=PLUGINS)),
        Row(GET, "/healthz", healthz, public=True, openapi=dict(
            summary="Liveness", tags=OPERATIONS)),
        Row(GET, "/readyz", readyz, public=True, openapi=dict(
            summary="Readiness: config loaded, eager plugins up", tags=OPERATIONS,
            responses=READINESS)),
        Row(GET, "/metrics", metrics, openapi=dict(
            summary="Prometheus metrics", response_class=Response, tags=OPERATIONS)),
        # The API's documentation holds no secret, and a browser cannot send a bearer token to
        # open it; the calls its page makes still need the token.
        Row(GET, "/docs", docs, public=True, openapi=dict(include_in_schema=False)),
        Row(("GET", "HEAD"), "/openapi.json", openapi_document, public=True,
            openapi=dict(include_in_schema=False)),
    ],
    [Static("/docs-assets", swagger_ui_bundle.swagger_ui_path, public=True)],
)  # fmt: skip
"""The gateway's routes. Probes (`/healthz`, `/readyz`) are public: they say only whether the
gateway is up."""
