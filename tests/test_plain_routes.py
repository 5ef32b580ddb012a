"""The plugin routes are served ahead of FastAPI's stack (`PlainRoutes`): matched by their own
path regex and method, and nothing else is."""

from __future__ import annotations

import pytest
from conftest import REPO

from app.config import load_config
from app.main import create_app
from app.plugin_route import PlainRoutes
from app.routes import plugin_router
from app.rpc_routes import router as rpc_router


@pytest.fixture(scope="module")
def plain() -> PlainRoutes:
    app = create_app(load_config(REPO / "plugins" / "registry.toml"))
    return PlainRoutes(app, (plugin_router, rpc_router))


@pytest.mark.parametrize(
    ("method", "path", "expected"),
    [
        ("POST", "/plugins/reference-detector/discover", ("discover", "reference-detector")),
        ("POST", "/plugins/jsonrpc-example/rpc", ("rpc", "jsonrpc-example")),
        ("POST", "/plugins/a b ü/discover", ("discover", "a b ü")),
        ("GET", "/plugins/reference-detector/discover", None),  # FastAPI answers 405
        ("POST", "/plugins/reference-detector/discover/", None),  # FastAPI's redirect
        ("POST", "/plugins/a/b/discover", None),
        ("POST", "/plugins//discover", None),
        ("POST", "/plugins/reference-detector", None),
        ("POST", "/healthz", None),
    ],
)
def test_only_the_plugin_routes_are_matched(
    plain: PlainRoutes, method: str, path: str, expected: tuple[str, str] | None
) -> None:
    found = plain.match({"type": "http", "method": method, "path": path})
    if expected is None:
        assert found is None
    else:
        assert found is not None
        route, params = found
        assert (route.endpoint.__name__, params) == (expected[0], {"plugin_id": expected[1]})
