"""One route table (`app/routes/rows.py`) read by FastAPI's routes and OpenAPI, the fast path
and the security checks: the three agree on every row, and a row added is a route served,
documented and guarded."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
from conftest import REPO
from fastapi import FastAPI
from fastapi.routing import APIRoute
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Match

from app.config import load_config
from app.main import GatewayApp, create_app
from app.routes.rows import ROUTES
from app.routes.table import Found, RouteTable, Row, WrongMethod
from app.server.fast_path import FastPath

CONFIG = REPO / "plugins" / "registry.toml"
OTHER_METHODS = ("GET", "POST", "PUT", "DELETE", "PATCH")
Answer = tuple[int, dict[str, str], bytes]


def asgi_call(
    app: Any, method: str, path: str, body: bytes = b"", headers: dict[str, str] | None = None
) -> Answer:
    """One HTTP request to an ASGI app in this process: (status, headers, body)."""
    sent: list[dict[str, Any]] = []
    given = [(b"host", b"127.0.0.1:8787")]
    given += [(k.lower().encode(), v.encode()) for k, v in (headers or {}).items()]
    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": method,
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "root_path": "",
        "query_string": b"",
        "headers": given,
        "server": ("127.0.0.1", 8787),
        "client": ("127.0.0.1", 40000),
    }
    messages = [{"type": "http.request", "body": body, "more_body": False}]

    async def receive() -> dict[str, Any]:
        if messages:
            return messages.pop(0)
        return {"type": "http.disconnect"}  # asked once the body is read: the client left

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    asyncio.run(asyncio.wait_for(app(scope, receive, send), 30))
    start = sent[0]
    answered = {k.decode().lower(): v.decode() for k, v in start["headers"]}
    content = b"".join(m.get("body", b"") for m in sent[1:])
    return start["status"], answered, content


def concrete(row: Row) -> str:
    """A path the row's template matches: each parameter replaced by a plugin's id."""
    return row.path.replace("{plugin_id}", "reference-detector")


@pytest.fixture(scope="module")
def app() -> GatewayApp:
    built = create_app(load_config(CONFIG))
    assert isinstance(built, GatewayApp)
    return built


def test_fastapi_routes_are_the_rows_in_order(app: GatewayApp) -> None:
    """Every FastAPI route is a row (the static mount aside), with the row's methods."""
    routes = [route for route in app.router.routes if isinstance(route, APIRoute)]
    assert [(r.path, r.methods, r.endpoint) for r in routes] == [
        (row.path, set(row.methods), row.endpoint) for row in ROUTES.rows
    ]
    others = [route for route in app.router.routes if not isinstance(route, APIRoute)]
    assert [getattr(route, "path", None) for route in others] == [s.path for s in ROUTES.statics]


def test_every_row_is_in_openapi_with_its_methods(app: GatewayApp) -> None:
    spec = app.openapi()
    documented = {
        row.path: {method.lower() for method in row.methods}
        for row in ROUTES.rows
        if row.openapi.get("include_in_schema", True)
    }
    assert {path: set(item) for path, item in spec["paths"].items()} == documented
    assert "/plugins/{plugin_id}/discover" in documented and "/docs" not in documented
    for row in ROUTES.rows:
        for method in documented.get(row.path, ()):
            responses = spec["paths"][row.path][method]["responses"]
            assert ("401" in responses) == (not row.public), (row.path, method)


@pytest.mark.parametrize("row", ROUTES.rows, ids=lambda row: row.path)
def test_the_fast_path_and_fastapi_match_each_row_alike(app: GatewayApp, row: Row) -> None:
    """The table finds the row for its own methods, and FastAPI's router finds the route built
    from it; the fast path serves it exactly when the row says so."""
    fast = FastPath(app, ROUTES)
    for method in row.methods:
        found = ROUTES.match(method, concrete(row))
        assert type(found) is Found and found.row is row
        assert fast.serves(found) == row.fast
        scope = {"type": "http", "method": method, "path": concrete(row), "root_path": ""}
        full = [r for r in app.router.routes if r.matches(scope)[0] is Match.FULL]
        assert getattr(full[0], "endpoint", None) is row.endpoint


@pytest.mark.parametrize("row", ROUTES.rows, ids=lambda row: row.path)
def test_a_wrong_method_gets_the_same_405_from_both_paths(app: GatewayApp, row: Row) -> None:
    """The gateway answers from the table (the fast path), FastAPI from its router: the same
    problem, the row's methods in `Allow`. Not JSON, the body would be a 415 on a route that
    takes it: the security checks read the same table, so the 405 stands."""
    for method in (m for m in OTHER_METHODS if m not in row.methods):
        headers = {"content-type": "text/plain"}
        path = concrete(row)
        gateway = asgi_call(app, method, path, b"x", headers)
        fastapi = asgi_call(super(GatewayApp, app).__call__, method, path, b"x", headers)
        assert type(ROUTES.match(method, path)) is WrongMethod
        for status, answered, content in (gateway, fastapi):
            assert status == 405, (method, path, content)
            assert set(answered["allow"].split(", ")) == set(row.methods)
            problem = json.loads(content)
            allowed = problem.pop("detail").partition("; it answers ")[2]
            assert set(allowed.split(", ")) == set(row.methods)
            assert problem == {"type": "about:blank", "title": "Method not allowed", "status": 405}
        assert gateway[2] == fastapi[2] or len(row.methods) > 1  # set order in FastAPI's Allow
        assert gateway[1]["content-type"] == fastapi[1]["content-type"]


def test_a_post_to_a_route_that_takes_it_is_still_held_to_json(app: GatewayApp) -> None:
    status, _, content = asgi_call(
        app, "POST", "/plugins/reference-detector/discover", b"x", {"content-type": "text/plain"}
    )
    assert status == 415, content


async def echo(plugin_id: str, request: Request) -> Response:
    """A fast row's endpoint: the plugin id and the body, and whether FastAPI's stack ran."""
    stack = "fastapi" if "router" in request.scope else "fast path"
    return Response(f"{plugin_id} {stack} ".encode() + await request.body())


async def ping(request: Request) -> dict[str, str]:
    return {"stack": "fastapi" if "router" in request.scope else "fast path"}


NEW_ROWS = (
    Row(("POST",), "/plugins/{plugin_id}/echo", echo, fast=True, openapi={"summary": "Echo"}),
    Row(("GET",), "/ping", ping, public=True, openapi={"summary": "Ping"}),
)


def test_a_row_added_to_the_table_alone_makes_a_route() -> None:
    """Served (by the fast path or by FastAPI, as the row says), documented, given 405 and
    415, and guarded by the token unless public: nothing but the row was written."""
    without, app = (
        create_app(load_config(CONFIG), routes=table) for table in (ROUTES, ROUTES + NEW_ROWS)
    )
    json_body = {"content-type": "application/json"}
    assert asgi_call(without, "POST", "/plugins/p/echo", b"{}", json_body)[0] == 404
    assert asgi_call(without, "GET", "/ping")[0] == 404

    assert asgi_call(app, "POST", "/plugins/p/echo", b"{}", json_body)[::2] == (
        200,
        b"p fast path {}",
    )
    assert asgi_call(app, "GET", "/ping")[::2] == (200, b'{"stack":"fastapi"}')
    status, answered, _ = asgi_call(app, "GET", "/plugins/p/echo")
    assert (status, answered["allow"]) == (405, "POST")
    assert asgi_call(app, "POST", "/plugins/p/echo", b"{}", {"content-type": "text/xml"})[0] == 415

    assert isinstance(app, GatewayApp)
    app.security.use_token("s3cret")
    assert asgi_call(app, "POST", "/plugins/p/echo", b"{}", json_body)[0] == 401
    bearer = {**json_body, "authorization": "Bearer s3cret"}
    assert asgi_call(app, "POST", "/plugins/p/echo", b"{}", bearer)[0] == 200
    assert asgi_call(app, "GET", "/ping")[0] == 200  # public

    paths = app.openapi()["paths"]
    echo_doc = paths["/plugins/{plugin_id}/echo"]["post"]
    assert echo_doc["summary"] == "Echo" and {"401", "413", "415"} <= set(echo_doc["responses"])
    assert "401" not in paths["/ping"]["get"]["responses"]


def test_a_path_and_method_in_two_rows_is_refused() -> None:
    with pytest.raises(ValueError, match="two rows"):
        RouteTable((*ROUTES.rows, Row(("POST",), "/plugins/{plugin_id}/rpc", echo)))


def test_the_probes_and_docs_open_without_the_token_and_nothing_else_does() -> None:
    public = {"/healthz", "/readyz", "/docs", "/openapi.json", "/docs-assets/swagger-ui.css"}
    for path in public:
        assert ROUTES.is_public(path), path
    for path in ("/plugins", "/plugins/x/discover", "/metrics", "/docs-assetsx", "/healthz/"):
        assert not ROUTES.is_public(path), path


def test_fastapi_adds_no_route_of_its_own() -> None:
    """Every route is a row: FastAPI's own /openapi.json and /docs are turned off."""
    app = create_app(load_config(CONFIG))
    assert isinstance(app, FastAPI)
    assert app.openapi_url is None and app.docs_url is None and app.redoc_url is None
