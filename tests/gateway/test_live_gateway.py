"""The HTTP contract against a running gateway: the compose integration-tests service points
GPP_GATEWAY_URL at the container; everywhere else a local gateway with the default registry
stands in, so this suite runs in `make test` too. Either requires the token `gpp serve`
generates, found as a user's client finds it (GPP_STATE_DIR, which compose shares)."""

from __future__ import annotations

import os
from collections.abc import Iterator

import httpx
import pytest
from conftest import REPO
from gateway_harness import running_gateway, with_token

from gpp.client import GatewayClient
from gpp.core import canonical
from gpp.core.codes import InvalidRequestError, UnknownPluginError


@pytest.fixture(scope="module")
def base_url() -> Iterator[str]:
    if os.environ.get("GPP_GATEWAY_URL"):
        yield os.environ["GPP_GATEWAY_URL"]
        return
    with running_gateway(REPO / "plugins" / "registry.toml", as_served=True) as gateway:
        yield gateway.url


def test_health_and_registry(base_url: str) -> None:
    with httpx.Client(**with_token(base_url=base_url, timeout=30)) as http:
        assert http.get("/healthz").json() == {"status": "ok"}
        plugins = {p["id"]: p for p in http.get("/plugins").json()}
    assert {"reference-detector", "reference-detector-node", "jsonrpc-example"} <= set(plugins)


def test_both_detectors_answer_the_same_document(base_url: str) -> None:
    with httpx.Client(**with_token(base_url=base_url, timeout=60)) as http:
        answers = [
            http.post(f"/plugins/{plugin}/discover", json={"paths": ["."], "requestId": "live"})
            for plugin in ("reference-detector", "reference-detector-node")
        ]
    assert [a.status_code for a in answers] == [200, 200]
    assert answers[0].content == answers[1].content == canonical(answers[0].json())
    assert answers[0].json()["findings"][0]["code"] == "DUPLICATE_TABLE_NAME"


def test_engine_client_errors(base_url: str) -> None:
    with GatewayClient(base_url) as client:
        with pytest.raises(InvalidRequestError):
            client.discover("reference-detector", ["../outside"])
        with pytest.raises(UnknownPluginError):
            client.discover("no-such-plugin", ["."])


def test_jsonrpc_through_the_gateway(base_url: str) -> None:
    with httpx.Client(**with_token(base_url=base_url, timeout=30)) as http:
        answer = http.post(
            "/plugins/jsonrpc-example/rpc",
            content=b'{"jsonrpc": "2.0", "method": "get_data", "id": "x"}',
            headers={"Content-Type": "application/json"},
        )
    assert answer.text == '{"jsonrpc": "2.0", "result": ["hello", 5], "id": "x"}'
