"""The plugin routes are served ahead of FastAPI's stack (`app.server.fast_path.FastPath`): the route
table matches them by their own path regex and method, and nothing else is served so (but a
wrong method's 405, which the table answers for every row)."""

from __future__ import annotations

import asyncio
import contextlib

import pytest

from app.problems import ClientGone
from app.routes.plugin_requests import unless_client_leaves
from app.routes.rows import ROUTES
from app.routes.table import Found, WrongMethod


@pytest.mark.parametrize(
    ("method", "path", "expected"),
    [
        ("POST", "/plugins/reference-detector/discover", ("discover", "reference-detector")),
        ("POST", "/plugins/jsonrpc-example/rpc", ("rpc", "jsonrpc-example")),
        ("POST", "/plugins/a b ü/discover", ("discover", "a b ü")),
        ("GET", "/plugins/reference-detector/discover", "405"),  # answered from the table
        ("POST", "/plugins/reference-detector/discover/", None),  # FastAPI's redirect
        ("POST", "/plugins/a/b/discover", None),
        ("POST", "/plugins//discover", None),
        ("POST", "/plugins/reference-detector", "405"),
        ("POST", "/healthz", "405"),
        ("GET", "/healthz", "FastAPI"),
        ("GET", "/plugins/reference-detector", "FastAPI"),
    ],
)
def test_only_the_plugin_routes_are_matched(
    method: str, path: str, expected: tuple[str, str] | str | None
) -> None:
    found = ROUTES.match(method, path)
    if expected is None:
        assert found is None
    elif expected == "405":
        assert type(found) is WrongMethod
    elif expected == "FastAPI":
        assert type(found) is Found and not found.row.fast
    else:
        assert type(found) is Found and found.row.fast
        assert (found.row.endpoint.__name__, found.params) == (
            expected[0],
            {"plugin_id": expected[1]},
        )


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
