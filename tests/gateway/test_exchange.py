"""app.exchange: each plugin request is one log line and one count, with its real outcome."""

from __future__ import annotations

import logging
import time
from collections.abc import Iterator
from typing import Any

import pytest
from conftest import REPO
from gateway_harness import (
    Gateway,
    echo_plugin,
    fault_plugin,
    jsonrpc_plugin,
    running_gateway,
    write_config,
)


@pytest.fixture(scope="module")
def gateway(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Gateway]:
    example = jsonrpc_plugin("example", REPO / "plugins" / "jsonrpc_example.py")
    plugins = [echo_plugin(), fault_plugin("exits_mid_request"), example]
    with running_gateway(write_config(tmp_path_factory.mktemp("exchange"), plugins)) as gw:
        yield gw


SUBTRACT = {"jsonrpc": "2.0", "method": "subtract", "params": [42, 23], "id": 1}


# (route, plugin, body, status, the request's log line fields but `ms`, its metrics label)
RECORDED = [
    ("discover", "echo", {"paths": ["a"], "requestId": "r-ok"}, 200,
     {"plugin": "echo", "requestId": "r-ok", "outcome": "ok"}),
    ("discover", "nope", {"paths": ["a"]}, 404,
     {"plugin": "(unknown)", "outcome": "E_UNKNOWN_PLUGIN"}),
    ("discover", "example", {"paths": ["a"]}, 404,
     {"plugin": "example", "outcome": "E_UNKNOWN_PLUGIN"}),
    ("discover", "echo", {"paths": []}, 422, {"plugin": "echo", "outcome": "E_SCHEMA"}),
    ("discover", "exits_mid_request", {"paths": ["."], "requestId": "r-eof"}, 502,
     {"plugin": "exits_mid_request", "requestId": "r-eof", "outcome": "E_EOF"}),
    ("rpc", "example", SUBTRACT, 200, {"plugin": "example", "outcome": "ok"}),
    ("rpc", "example", {"jsonrpc": "2.0", "method": "update", "params": [1]}, 204,
     {"plugin": "example", "outcome": "ok"}),
    ("rpc", "nope", SUBTRACT, 404, {"plugin": "(unknown)", "outcome": "E_UNKNOWN_PLUGIN"}),
    ("rpc", "echo", SUBTRACT, 404, {"plugin": "echo", "outcome": "E_UNKNOWN_PLUGIN"}),
]  # fmt: skip


def request_counts(gw: Gateway) -> dict[tuple[str, str], float]:
    """gpp_requests_total by (plugin, outcome), from /metrics."""
    with gw.client() as http:
        text = http.get("/metrics").text
    counts = {}
    for line in text.splitlines():
        if line.startswith("gpp_requests_total{"):
            labels, value = line.removeprefix("gpp_requests_total").rsplit(" ", 1)
            fields = dict(part.split("=", 1) for part in labels.strip("{}").split(","))
            counts[(fields["plugin"].strip('"'), fields["outcome"].strip('"'))] = float(value)
    return counts


@pytest.mark.parametrize(
    ("route", "plugin", "body", "status", "fields"),
    RECORDED,
    ids=[f"{r[0]}-{r[1]}-{r[3]}" for r in RECORDED],
)
def test_each_request_is_one_log_line_and_one_count_with_its_outcome(
    gateway: Gateway,
    caplog: pytest.LogCaptureFixture,
    route: str,
    plugin: str,
    body: Any,
    status: int,
    fields: dict[str, str],
) -> None:
    caplog.set_level(logging.INFO, logger="gpp.request")
    before = request_counts(gateway)
    with gateway.client() as http:
        response = http.post(f"/plugins/{plugin}/{route}", json=body)
    assert response.status_code == status
    lines = [r for r in caplog.records if r.name == "gpp.request"]
    assert [r.getMessage() for r in lines] == ["request" if route == "discover" else "rpc"]
    logged = dict(getattr(lines[0], "fields", {}))
    assert isinstance(logged.pop("ms"), float)
    assert {k: v for k, v in logged.items() if v is not None} == fields
    key = (fields["plugin"], fields["outcome"])
    after = request_counts(gateway)
    assert after[key] == before.get(key, 0) + 1
    assert {k: v for k, v in after.items() if k != key} == {
        k: v for k, v in before.items() if k != key
    }


def test_a_streamed_rpc_is_recorded_when_its_stream_ends_with_the_real_outcome(
    gateway: Gateway, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="gpp.request")
    before = request_counts(gateway)
    body = {"jsonrpc": "2.0", "method": "slow_count", "params": {"n": 100_000}, "id": "s"}
    headers = {"Accept": "text/event-stream"}
    with (
        gateway.client() as http,
        http.stream("POST", "/plugins/example/rpc", json=body, headers=headers) as stream,
    ):
        first = next(stream.iter_lines())
        assert first == "event: notification"
        # the answer has begun, the plugin has not answered: nothing is recorded yet
        assert [r for r in caplog.records if r.name == "gpp.request"] == []
    # the client left mid-stream: that is the request's outcome, recorded once
    deadline = time.monotonic() + 10
    while not (lines := [r for r in caplog.records if r.name == "gpp.request"]):
        assert time.monotonic() < deadline, "no log line for the streamed request"
        time.sleep(0.01)
    assert [(r.getMessage(), getattr(r, "fields", {})["outcome"]) for r in lines] == [
        ("rpc", "client-gone")
    ]
    after = request_counts(gateway)
    assert after[("example", "client-gone")] == before.get(("example", "client-gone"), 0) + 1
