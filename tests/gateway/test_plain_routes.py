"""The plugin routes are served ahead of FastAPI's stack (`PlainRoutes`): matched by their own
path regex and method, and nothing else is."""

from __future__ import annotations

import asyncio
import contextlib

import pytest
from conftest import REPO

from app.config import load_config
from app.main import create_app
from app.plugin_route import PlainRoutes, unless_client_leaves
from app.problems import ClientGone
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


class LeavingClient:
    """A request whose client has already gone: `receive` says so at once."""

    def __init__(self) -> None:
        self.asked = 0

    async def receive(self) -> dict[str, str]:
        self.asked += 1
        return {"type": "http.disconnect"}


@pytest.mark.parametrize("watch_at_once", [True, False])
def test_a_queued_request_is_dropped_as_soon_as_its_client_leaves(watch_at_once: bool) -> None:
    """Queued (`watch_at_once`), the client's leaving is heard within a few loop turns, no
    clock involved: its place in the queue must not outlive it. Not queued, the watcher waits
    WATCH_AFTER_S, so a few loop turns hear nothing."""

    async def scenario() -> tuple[bool, int]:
        client = LeavingClient()
        never = asyncio.get_running_loop().create_future()
        task = asyncio.create_task(
            unless_client_leaves(client, never, watch_at_once=watch_at_once)  # type: ignore[arg-type]
        )
        for _ in range(10):
            await asyncio.sleep(0)
        gone = task.done() and isinstance(task.exception(), ClientGone)
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError, ClientGone):
            await task
        return gone, client.asked

    gone, asked = asyncio.run(scenario())
    assert (gone, asked > 0) == (watch_at_once, watch_at_once)
