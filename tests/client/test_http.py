"""gpp.client.http: the engine client's call streams (lines alone), and its JSON-RPC calls,
streams, listing and retry against live gateways."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpcore
import httpx
import pytest
from conftest import FIXTURE_PLUGINS, REPO, doc
from gateway_harness import (
    Gateway,
    echo_plugin,
    fault_plugin,
    gateway_process,
    jsonrpc_plugin,
    running_gateway,
    served,
    write_config,
)

from app import health
from gpp.client import (
    AsyncGatewayClient,
    GatewayClient,
    GatewayRefused,
    JsonRpcError,
    Progress,
    Result,
    StreamBroken,
    async_unix_transport,
    unix_transport,
)
from gpp.client.http import StreamEvent, _CallEvents
from gpp.core import codes

EXAMPLE = REPO / "plugins" / "jsonrpc_example.py"


def counted_to_3(events: list[StreamEvent]) -> bool:
    """slow_count {n: 3}: three `$/progress` naming one call, then the result."""
    *progress, result = events
    ids = {p.params["id"] for p in progress if isinstance(p, Progress)}
    return (
        len(ids) == 1
        and result == Result(3)
        and [
            {k: v for k, v in p.params.items() if k != "id"}
            for p in progress
            if isinstance(p, Progress)
        ]
        == [{"done": k, "total": 3} for k in (1, 2, 3)]
    )


def plugins() -> list[dict[str, Any]]:
    return [
        jsonrpc_plugin("example", EXAMPLE),
        jsonrpc_plugin("faulty", FIXTURE_PLUGINS / "jsonrpc_faulty.py"),
        echo_plugin(),
        fault_plugin("exits_mid_request"),
    ]


@pytest.fixture(scope="module")
def gateway(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Gateway]:
    with running_gateway(write_config(tmp_path_factory.mktemp("client"), plugins())) as gw:
        yield gw


def test_rpc_notify_stream_and_plugins(gateway: Gateway) -> None:
    with GatewayClient(gateway.url) as client:
        assert client.rpc("example", "subtract", [42, 23]) == 19
        assert client.rpc("example", "subtract", {"minuend": 42, "subtrahend": 23}) == 19
        assert client.notify("example", "update", [1, 2]) is None  # type: ignore[func-returns-value]
        assert counted_to_3(list(client.stream("example", "slow_count", {"n": 3})))
        assert {p["id"] for p in client.plugins()} == {p["id"] for p in plugins()}


def test_async_rpc_notify_stream_and_plugins(gateway: Gateway) -> None:
    async def scenario() -> list[StreamEvent]:
        async with AsyncGatewayClient(gateway.url) as client:
            assert await client.rpc("example", "sum", [1, 2, 4]) == 7
            assert await client.notify("example", "update", [1]) is None  # type: ignore[func-returns-value]
            assert {p["id"] for p in await client.plugins()} == {p["id"] for p in plugins()}
            return [event async for event in client.stream("example", "slow_count", {"n": 3})]

    assert counted_to_3(asyncio.run(scenario()))


def test_closing_a_stream_early_cancels_the_call_at_the_plugin(gateway: Gateway) -> None:
    with GatewayClient(gateway.url) as client:
        events = client.stream("example", "slow_count", {"n": 100_000})  # 1000 s if not cancelled
        assert isinstance(next(events), Progress)
        events.close()
        gateway.wait_for("example", lambda info: info["queueDepth"] == 0)
        assert client.rpc("example", "subtract", [1, 1]) == 0


def test_errors_map_as_discovers_do(gateway: Gateway) -> None:
    with GatewayClient(gateway.url) as client:
        with pytest.raises(JsonRpcError) as missing:
            client.rpc("example", "no_such_method")
        assert missing.value.code == -32601 and missing.value.message == "Method not found"
        with pytest.raises(JsonRpcError) as bad:
            list(client.stream("example", "slow_count", {"n": -1}))
        assert bad.value.code == -32602
        with pytest.raises(JsonRpcError) as crashed:  # the gateway's own server error
            client.rpc("faulty", "crash")
        assert crashed.value.code == -32001
        for call in (
            lambda: client.rpc("nowhere", "x"),
            lambda: client.notify("echo", "x"),
            lambda: list(client.stream("nowhere", "x")),
        ):
            with pytest.raises(codes.UnknownPluginError):
                call()


def test_async_errors_map_as_discovers_do(gateway: Gateway) -> None:
    async def scenario() -> None:
        async with AsyncGatewayClient(gateway.url) as client:
            with pytest.raises(JsonRpcError) as boom:
                await client.rpc("faulty", "boom")
            assert boom.value.code == -32603 and boom.value.data == {"exception": "ValueError"}
            with pytest.raises(codes.UnknownPluginError):
                await client.notify("nowhere", "x")
            with pytest.raises(codes.UnknownPluginError):
                [event async for event in client.stream("echo", "x")]

    asyncio.run(scenario())


def test_a_token_refusal_is_gateway_refused(tmp_path: Path) -> None:
    (tmp_path / "token").write_text("s3cret\n")
    (tmp_path / "token").chmod(0o600)  # as the token check requires
    config = write_config(
        tmp_path, [jsonrpc_plugin("example", EXAMPLE)], gateway={"token_file": "token"}
    )
    with running_gateway(config) as gw:
        with GatewayClient(gw.url, token="s3cret") as client:
            assert client.rpc("example", "subtract", [2, 1]) == 1
        with GatewayClient(gw.url, retries=3) as client:
            for call in (lambda: client.plugins(), lambda: client.rpc("example", "sum", [1])):
                with pytest.raises(GatewayRefused) as refused:
                    call()
                assert refused.value.status == 401 and refused.value.retry_after is None


def test_over_the_unix_socket(tmp_path: Path) -> None:
    uds = tmp_path / "gw.sock"
    config = write_config(tmp_path, [jsonrpc_plugin("example", EXAMPLE), echo_plugin()])
    with gateway_process(config, uds):
        with GatewayClient("http://localhost", uds=str(uds)) as client:
            assert client.rpc("example", "subtract", [5, 3]) == 2
            assert counted_to_3(list(client.stream("example", "slow_count", {"n": 3})))
            assert client.discover("echo", ["a"])["resources"][0]["name"] == "a"

        async def scenario() -> list[StreamEvent]:
            async with AsyncGatewayClient("http://localhost", uds=str(uds)) as client:
                assert [p["id"] for p in await client.plugins()] == ["example", "echo"]
                return [e async for e in client.stream("example", "slow_count", {"n": 3})]

        assert counted_to_3(asyncio.run(scenario()))


def test_both_clients_find_the_token_gpp_serve_generated(tmp_path: Path) -> None:
    """No flag, no argument: the token `gpp serve` generated is where both clients look."""
    config = write_config(tmp_path, [jsonrpc_plugin("example", EXAMPLE)])
    with served(config) as gateway:
        with httpx.Client(base_url=gateway.url, timeout=30) as anonymous:
            assert anonymous.get("/plugins").status_code == 401  # a token is required ...
        with GatewayClient(gateway.url) as client:  # ... and found
            assert client.rpc("example", "subtract", [5, 3]) == 2

        async def scenario() -> Any:
            async with AsyncGatewayClient(gateway.url) as client:
                return await client.rpc("example", "subtract", [7, 3])

        assert asyncio.run(scenario()) == 4


def test_the_default_token_is_sent_to_this_host_only(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("GPP_STATE_DIR", str(tmp_path))
    (tmp_path / "token").write_text("generated\n")

    def sent(url: str, **options: Any) -> str | None:
        with GatewayClient(url, **options) as client:  # no request is made
            found: str | None = client._http.headers.get("Authorization")
            return found

    assert sent("http://127.0.0.1:8787") == "Bearer generated"
    assert sent("http://localhost", uds=str(tmp_path / "gw.sock")) == "Bearer generated"
    assert sent("http://gateway.example:8787") is None
    (tmp_path / "named").write_text("named\n")
    assert sent("http://gateway.example:8787", token_file=str(tmp_path / "named")) == "Bearer named"
    monkeypatch.setenv("GPP_TOKEN", "from-env")
    assert sent("http://gateway.example:8787") == "Bearer from-env"
    assert sent("http://127.0.0.1:8787", token="given") == "Bearer given"


def test_the_unix_transports_check_the_peer_in_httpx_own_pool() -> None:
    """gpp.client.uds puts its network backend in httpx's private `_pool`: an httpx upgrade
    that renames it must fail here, not leave a client that sends tokens unchecked."""
    sync_transport, async_transport = unix_transport("/x"), async_unix_transport("/x")
    assert isinstance(sync_transport._pool, httpcore.ConnectionPool)
    assert isinstance(async_transport._pool, httpcore.AsyncConnectionPool)
    assert type(sync_transport._pool._network_backend).__name__ == "_PeerCheckingBackend"
    assert type(async_transport._pool._network_backend).__name__ == "_AsyncPeerCheckingBackend"


def refused_count(gw: Gateway, plugin_id: str) -> int:
    with gw.client() as http:
        metrics = http.get("/metrics").text
    pattern = rf'gpp_requests_total{{outcome="refused",plugin="{plugin_id}"}} (\S+)'
    found = re.search(pattern, metrics)
    return int(float(found.group(1))) if found else 0


@pytest.fixture
def backing_off(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Gateway]:
    """A gateway whose `faulty` plugin has just failed twice: in a back-off of 1 s."""
    monkeypatch.setattr(health, "BACKOFF_FIRST_S", 1.0)
    config = write_config(
        tmp_path, [jsonrpc_plugin("faulty", FIXTURE_PLUGINS / "jsonrpc_faulty.py")]
    )
    with running_gateway(config) as gw, GatewayClient(gw.url) as client:
        for _ in range(2):
            with pytest.raises(JsonRpcError):
                client.rpc("faulty", "crash")
        yield gw


def test_retry_waits_out_a_back_off(backing_off: Gateway) -> None:
    with GatewayClient(backing_off.url, retries=2, max_retry_wait=5) as client:
        assert client.rpc("faulty", "echo", {"x": 1}) == {"x": 1}
    assert refused_count(backing_off, "faulty") == 1


def test_async_stream_retry_waits_out_a_back_off(backing_off: Gateway) -> None:
    async def scenario() -> list[StreamEvent]:
        async with AsyncGatewayClient(backing_off.url, retries=1, max_retry_wait=5) as client:
            return [event async for event in client.stream("faulty", "echo", [7])]

    assert asyncio.run(scenario()) == [Result([7])]
    assert refused_count(backing_off, "faulty") == 1


def test_a_retry_never_waits_past_its_bound(backing_off: Gateway) -> None:
    client = GatewayClient(backing_off.url, retries=5, max_retry_wait=0.05)
    with client, pytest.raises(GatewayRefused) as refused:
        client.rpc("faulty", "echo", [1])
    assert refused.value.status == 503 and refused.value.retry_after is not None
    assert 0.05 < refused.value.retry_after <= 1.0
    assert refused.value.problem["lastCode"] is not None
    assert refused_count(backing_off, "faulty") == 1  # asked once, then gave up at once


def test_without_retries_a_refusal_is_raised(backing_off: Gateway) -> None:
    with GatewayClient(backing_off.url) as client, pytest.raises(GatewayRefused) as refused:
        list(client.stream("faulty", "echo", [1]))
    assert refused.value.status == 503
    assert refused_count(backing_off, "faulty") == 1


def test_a_failure_after_the_plugin_ran_is_never_retried(gateway: Gateway) -> None:
    failed = gateway.plugin("exits_mid_request")["failed"]
    client = GatewayClient(gateway.url, retries=3, max_retry_wait=5)
    with client, pytest.raises(codes.ProtocolError):
        client.discover("exits_mid_request", ["a"])
    assert gateway.plugin("exits_mid_request")["failed"] == failed + 1


def test_readme_client_example_runs_as_written(capsys: pytest.CaptureFixture[str]) -> None:
    readme = doc("http-api.md")
    (block,) = [b for b in re.findall(r"```python\n(.*?)```", readme, re.S) if "GatewayClient" in b]
    with running_gateway(REPO / "plugins" / "registry.toml") as gw:
        namespace: dict[str, Any] = {}
        exec(block.replace("8787", str(gw.port)), namespace)
    assert namespace["difference"] == 19 and namespace["count"] == 3
    assert "jsonrpc-example" in namespace["plugin_ids"]
    assert capsys.readouterr().out == "1/3\n2/3\n3/3\n"


def test_a_call_stream_reports_progress_then_its_result_and_ignores_the_rest() -> None:
    events = _CallEvents("p")
    lines = ['event: notification', 'data: {"method": "$/progress", "params": {"done": 1}}', "",
             'event: notification', 'data: {"method": "$/log", "params": {}}', "",
             'event: response', 'data: {"jsonrpc": "2.0", "result": 1, "id": 1}', "",
             'event: response', 'data: {"jsonrpc": "2.0", "result": 2, "id": 1}', ""]  # fmt: skip
    assert [e for line in lines for e in events.feed(line)] == [Progress({"done": 1}), Result(1)]
    events.end()


def test_a_stream_cut_short_or_answering_an_error_raises() -> None:
    events = _CallEvents("p")
    assert events.feed("event: response") == []
    with pytest.raises(StreamBroken):
        events.end()
    error = 'data: {"jsonrpc": "2.0", "error": {"code": -32602, "message": "bad"}, "id": 1}'
    events.feed(error)
    with pytest.raises(JsonRpcError) as raised:
        events.feed("")
    assert raised.value.code == -32602 and raised.value.message == "bad"
