"""Issue 10, second pass: a hostile JSON-RPC plugin and a streaming client that never reads;
a client posting a batch of hundreds of thousands of tiny entries.

Before this pass, every notification the plugin sent for a streamed (SSE) request waited in an
unbounded queue for the client: a plugin writing 40 MB of `$/progress` to a client that does
not read held all 40 MB in the gateway, for as long as that client kept its connection open.
And a batch had no bound on its entries: a 1 MB body of 500,000 `1`s took seconds of the event
loop (every client waited) and was answered with 44 MB.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from conftest import FIXTURE_PLUGINS, REPO
from gateway_harness import Gateway, jsonrpc_plugin, running_gateway, write_config
from test_rpc_endpoint import sse_events

from app.routes.rpc_endpoint import MAX_BATCH_ENTRIES, MAX_PENDING_EVENT_BYTES

COUNT, PAD = 10_000, 4000  # 40 MB of notifications: far more than socket buffers hold


@pytest.fixture(scope="module")
def gateway(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Gateway]:
    flood = jsonrpc_plugin(
        "flood", FIXTURE_PLUGINS / "jsonrpc_notification_flood.py", request_ms=60_000
    )
    with running_gateway(write_config(tmp_path_factory.mktemp("attack-rpc"), [flood])) as gw:
        yield gw


def test_a_client_that_does_not_read_its_stream_holds_bounded_notifications(
    gateway: Gateway,
) -> None:
    body = json.dumps(
        {"jsonrpc": "2.0", "method": "flood", "params": {"count": COUNT, "pad": PAD}, "id": "f"}
    )
    headers = {"Content-Type": "application/json", "Accept": "text/event-stream"}
    with (
        gateway.client() as http,
        http.stream("POST", "/plugins/flood/rpc", content=body, headers=headers) as stream,
    ):
        # not reading: the plugin floods, its call ends, the gateway keeps what it could not send
        gateway.wait_for("flood", lambda info: info["queueDepth"] == 0, timeout=60)
        events = list(sse_events(stream))
    kinds = [kind for kind, _ in events]
    assert kinds[-2:] == ["dropped", "response"], kinds[-3:]
    assert events[-1][1] == {"jsonrpc": "2.0", "result": COUNT, "id": "f"}
    dropped = events[-2][1]["notifications"]
    delivered = kinds.count("notification")
    assert delivered + dropped == COUNT
    # what reached the client is what sockets held plus the gateway's own bounded buffer
    assert dropped >= COUNT // 2, (delivered, MAX_PENDING_EVENT_BYTES)
    assert all(data["params"]["id"] == "f" for kind, data in events if kind == "notification")


def test_a_client_that_reads_gets_every_notification(gateway: Gateway) -> None:
    body = json.dumps(
        {"jsonrpc": "2.0", "method": "flood", "params": {"count": 300, "pad": 10}, "id": 7}
    )
    headers = {"Content-Type": "application/json", "Accept": "text/event-stream"}
    with (
        gateway.client() as http,
        http.stream("POST", "/plugins/flood/rpc", content=body, headers=headers) as stream,
    ):
        events = list(sse_events(stream))
    assert [kind for kind, _ in events] == ["notification"] * 300 + ["response"]
    assert [data["params"]["done"] for _, data in events[:-1]] == list(range(1, 301))


@pytest.fixture(scope="module")
def example(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Gateway]:
    # every call of a batch counts against max_queue (issue 33): room for the longest batch
    plugin = jsonrpc_plugin(
        "example", REPO / "plugins" / "jsonrpc_example.py", max_queue=MAX_BATCH_ENTRIES
    )
    with running_gateway(write_config(tmp_path_factory.mktemp("attack-batch"), [plugin])) as gw:
        yield gw


def post_rpc(gw: Gateway, body: bytes) -> Any:
    with gw.client() as http:
        response = http.post(
            "/plugins/example/rpc", content=body, headers={"Content-Type": "application/json"}
        )
    assert response.status_code == 200
    return response.json()


def test_a_batch_past_the_bound_is_one_invalid_request(example: Gateway) -> None:
    for entries in (MAX_BATCH_ENTRIES + 1, 400_000):  # 400,000 `1`s: 800 KB, under the body cap
        answer = post_rpc(example, b"[" + b",".join([b"1"] * entries) + b"]")
        assert answer == {
            "jsonrpc": "2.0",
            "error": {"code": -32600, "message": "Invalid Request"},
            "id": None,
        }


def test_a_batch_at_the_bound_is_answered_entry_by_entry(example: Gateway) -> None:
    calls = [
        {"jsonrpc": "2.0", "method": "sum", "params": [n, 1], "id": n}
        for n in range(MAX_BATCH_ENTRIES - 1)
    ] + [1]
    answers = post_rpc(example, json.dumps(calls).encode())
    assert [a.get("result") for a in answers[:-1]] == list(range(1, MAX_BATCH_ENTRIES))
    assert answers[-1]["error"]["code"] == -32600
