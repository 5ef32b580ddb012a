"""The gateway over real HTTP: uvicorn on an ephemeral loopback port, real plugin processes."""

from __future__ import annotations

import asyncio
import dataclasses
import json
import logging
import os
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
import pytest
from conftest import REPO, process_gone
from gateway_harness import (
    Gateway,
    echo_plugin,
    fault_plugin,
    make_fifo,
    reference_plugin,
    running_gateway,
    write_config,
)
from test_contract import CONTRACT, GATEWAY, cases
from test_session import FAULTS, fault_timeouts

from app.models import DiscoverRequest
from app.routes.endpoints import DISCOVER_REQUEST, discover_body
from gpp.client import AsyncGatewayClient, GatewayClient, GatewayRefused
from gpp.core import (
    DISCOVER_PAYLOAD,
    MAX_PATHS,
    MAX_REQUEST_ID,
    Connection,
    Discover,
    Hello,
    Ready,
    Role,
    canonical,
    codes,
    digest,
)

# Faults that show only at shutdown (bye, exit status) never reach an HTTP answer.
STDERR_WRITTEN = {  # what these fixtures write to stderr before they fail; the others write nothing
    "exits_before_hello": "fixture: giving up before hello",
    "exits_mid_request": "fixture: crashing mid-request",
}
HTTP_FAULTS = [
    row
    for row in FAULTS
    if row[1][0] != "E_EXIT_STATUS" and row[0] not in ("no_bye", "error_instead_of_bye")
]


@pytest.fixture(scope="module")
def gateway(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Gateway]:
    directory = tmp_path_factory.mktemp("gw")
    plugins = [
        fault_plugin(name, max_line_bytes=1024, **dataclasses.asdict(fault_timeouts(name)))
        for name, _ in HTTP_FAULTS
    ]
    plugins += [reference_plugin(), echo_plugin(), echo_plugin("echo-tiny-queue", max_queue=1)]
    plugins += [jsonrpc_plugin()]
    config = write_config(directory, plugins, gateway={"max_body_bytes": 200_000})
    with running_gateway(config) as gw:
        yield gw


def jsonrpc_plugin(plugin_id: str = "example") -> dict[str, Any]:
    return {
        "id": plugin_id,
        "version": "1.0.0",
        "protocol": "jsonrpc-2.0",
        "root": str(REPO / "plugins/examples/demo-repo"),
        "command": ["{python}", str(REPO / "plugins/jsonrpc_example.py")],
    }


def post(gw: Gateway, plugin: str, body: Any, **kwargs: Any) -> httpx.Response:
    with gw.client() as http:
        return http.post(f"/plugins/{plugin}/discover", json=body, **kwargs)


@pytest.mark.parametrize(("name", "expected"), HTTP_FAULTS, ids=[r[0] for r in HTTP_FAULTS])
def test_every_fault_fixture_through_http(gateway: Gateway, name: str, expected: Any) -> None:
    code, frame, subject, line = expected
    response = post(gateway, name, {"paths": ["."], "requestId": "req-1"})
    assert response.status_code == (504 if code == "E_TIMEOUT" else 502)
    assert response.headers["content-type"] == "application/problem+json"
    problem = response.json()
    assert problem["code"] == code and problem["frame"] == frame and problem["plugin"] == name
    assert problem["detail"] == "[plugin-protocol] FAIL " + line.replace("'fixture'", repr(name))
    assert problem["status"] == response.status_code
    assert subject is None or subject.endswith(problem["field"])
    assert "Traceback" not in response.text
    assert problem.get("stderrTail") == STDERR_WRITTEN.get(name)  # absent, not null, if none


def test_demo_repo_document_and_digest(gateway: Gateway) -> None:
    response = post(gateway, "reference-detector", {"paths": ["."], "requestId": "r-42"})
    assert response.status_code == 200
    document = response.json()
    assert response.content == canonical(document)  # the body is GF-canonical bytes
    assert set(document) == {
        "requestId",
        "resources",
        "unresolved",
        "findings",
        "classificationSignals",
    }
    assert response.headers["X-Request-Id"] == "r-42"
    # the header is the result frame's digest: over type, this session's seq, and the document
    frame_digests = {
        digest({"type": "result", "seq": n, "payload": document}) for n in range(2, 200)
    }
    assert response.headers["X-GPP-Digest"] in frame_digests


@pytest.mark.parametrize(
    ("body", "field", "rule"),
    [
        ({"paths": ["/etc/passwd"]}, "paths[0]", "leading /"),
        ({"paths": ["ok", "a/../b"]}, "paths[1]", "'..' segment"),
        ({"paths": ["a\\b"]}, "paths[0]", "backslash"),
        ({"paths": ["a\x00b"]}, "paths[0]", "NUL"),
        ({"paths": [""]}, "paths[0]", "empty"),
        ({"paths": ["a//b"]}, "paths[0]", "empty segment"),
        ({"paths": ["C:/x"]}, "paths[0]", "drive letter"),
        ({"paths": "."}, "paths", "wrong type"),
        ({"paths": []}, "paths", "too short"),
        ({"paths": ["a"] * 10_001}, "paths", "too long"),
        ({}, "paths", "missing"),
        ({"paths": ["."], "extra": 1}, "extra", "not allowed"),
        ({"paths": ["."], "requestId": ""}, "requestId", "wrong value"),
        ([], "body", "wrong type"),
    ],
)
def test_bad_requests_are_422_and_never_reach_the_plugin(
    gateway: Gateway, body: Any, field: str, rule: str
) -> None:
    before = gateway.plugin("echo")
    response = post(gateway, "echo", body)
    assert response.status_code == 422, response.text
    problem = response.json()
    assert problem["code"] == "E_SCHEMA" and problem["field"] == field
    assert rule in problem["detail"]
    after = gateway.plugin("echo")
    assert (after["served"], after["failed"], after["pid"]) == (
        before["served"],
        before["failed"],
        before["pid"],
    )


def test_request_id_from_body_header_or_generated(gateway: Gateway) -> None:
    from_header = post(gateway, "echo", {"paths": ["a"]}, headers={"X-Request-Id": "trace-7"})
    assert from_header.json()["requestId"] == from_header.headers["X-Request-Id"] == "trace-7"
    body_wins = post(
        gateway, "echo", {"paths": ["a"], "requestId": "b"}, headers={"X-Request-Id": "h"}
    )
    assert body_wins.headers["X-Request-Id"] == "b"
    generated = post(gateway, "echo", {"paths": ["a"]}).headers["X-Request-Id"]
    assert (
        len(generated) == 32
        and generated != post(gateway, "echo", {"paths": ["a"]}).headers["X-Request-Id"]
    )
    too_long = post(gateway, "echo", {"paths": ["a"]}, headers={"X-Request-Id": "x" * 129})
    assert too_long.status_code == 422 and too_long.json()["field"] == "requestId"


def test_invalid_json_body_is_422(gateway: Gateway) -> None:
    with gateway.client() as http:
        response = http.post(
            "/plugins/echo/discover", content=b"{nope", headers={"Content-Type": "application/json"}
        )
    assert response.status_code == 422 and response.json()["field"] == "body"


def test_unknown_plugin_is_404(gateway: Gateway) -> None:
    """The caller named a plugin that is not there: the answer speaks to the caller (no FAIL
    line blaming a plugin) and names the ids that are registered."""
    with gateway.client() as http:
        ids = sorted(p["id"] for p in http.get("/plugins").json())
        answers = [
            post(gateway, "no-such-plugin", {"paths": ["."]}),
            http.get("/plugins/no-such-plugin"),
        ]
    for response in answers:
        assert response.status_code == 404
        assert response.headers["content-type"] == "application/problem+json"
        problem = response.json()
        assert problem["code"] == "E_UNKNOWN_PLUGIN" and problem["title"] == "Unknown plugin"
        assert "[plugin-protocol]" not in problem["detail"] and "FAIL" not in problem["detail"]
        assert "'no-such-plugin'" in problem["detail"]
        assert f"registered plugins: {', '.join(ids)}" in problem["detail"]
        assert None not in problem.values()


@pytest.mark.parametrize(
    ("method", "path", "status", "words"),
    [
        ("GET", "/no/such/route", 404, "no route GET /no/such/route"),
        ("GET", "/docs-assets/no-such-file.js", 404, "no route GET"),
        ("DELETE", "/plugins", 405, "/plugins does not answer DELETE; it answers GET"),
        ("GET", "/plugins/echo/discover", 405, "it answers POST"),
    ],
)
def test_router_refusals_are_problems(
    gateway: Gateway, method: str, path: str, status: int, words: str
) -> None:
    with gateway.client() as http:
        response = http.request(method, path)
    assert response.status_code == status
    assert response.headers["content-type"] == "application/problem+json"
    problem = response.json()
    assert problem["status"] == status and words in problem["detail"], problem
    assert set(problem) == {"type", "title", "status", "detail"}  # no null fields


def test_problems_carry_no_null_fields(gateway: Gateway) -> None:
    response = post(gateway, "echo", {"paths": ["/abs"]})
    assert response.status_code == 422
    problem = response.json()
    assert None not in problem.values() and "frame" not in problem and "exitCode" not in problem


def test_front_door_refusals(gateway: Gateway) -> None:
    with gateway.client() as http:
        assert (
            http.post(
                "/plugins/echo/discover",
                content=b'{"paths":["."]}',
                headers={"Content-Type": "text/plain"},
            ).status_code
            == 415
        )
        assert (
            http.post(
                "/plugins/echo/discover",
                content=b"x" * 300_000,
                headers={"Content-Type": "application/json"},
            ).status_code
            == 413
        )
        evil_host = http.get("/plugins", headers={"Host": "evil.example"})
        assert evil_host.status_code == 403 and "loopback" in evil_host.json()["detail"]
        assert http.get("/plugins", headers={"Host": "localhost:1"}).status_code == 200
        assert http.get("/plugins", headers={"Host": "[::1]:8787"}).status_code == 200
        assert http.get("/plugins", headers={"Origin": "https://evil.example"}).status_code == 403


def test_chunked_body_over_the_cap_is_413(gateway: Gateway) -> None:
    def chunks() -> Iterator[bytes]:
        yield b'{"paths":["'
        for _ in range(30):
            yield b"a" * 10_000
        yield b'"]}'

    with gateway.client() as http:
        response = http.post(
            "/plugins/echo/discover", content=chunks(), headers={"Content-Type": "application/json"}
        )
    assert response.status_code == 413


def test_session_survives_a_request_scoped_error_and_a_bad_request(gateway: Gateway) -> None:
    assert post(gateway, "echo", {"paths": ["x"]}).status_code == 200
    pid = gateway.plugin("echo")["pid"]
    failed = post(gateway, "echo", {"paths": ["fail"], "requestId": "boom"})
    assert failed.status_code == 502
    problem = failed.json()
    assert problem["code"] == "E_PLUGIN_ERROR" and problem["requestId"] == "boom"
    assert "RuntimeError: asked to fail" in problem["detail"]
    assert post(gateway, "echo", {"paths": ["../bad"]}).status_code == 422
    assert post(gateway, "echo", {"paths": ["x"]}).status_code == 200
    info = gateway.plugin("echo")
    assert info["pid"] == pid and info["state"] == "ready" and info["restarts"] == 0


def test_sixty_four_concurrent_clients_are_served_lock_step(gateway: Gateway) -> None:
    def one(n: int) -> tuple[int, httpx.Response]:
        return n, post(gateway, "echo", {"paths": [f"client-{n}"], "requestId": f"req-{n}"})

    with ThreadPoolExecutor(64) as executor:
        answers = list(executor.map(one, range(64)))
    served = []
    for n, response in answers:
        assert response.status_code == 200, response.text
        doc = response.json()
        assert doc["requestId"] == f"req-{n}" == response.headers["X-Request-Id"]
        (resource,) = doc["resources"]
        assert resource["name"] == f"client-{n}"
        served.append(resource["attrs"]["served"])
    # one session, one request at a time: 64 distinct consecutive turns
    assert sorted(served) == list(range(min(served), min(served) + 64))
    assert len({r.json()["resources"][0]["attrs"]["process"] for _, r in answers}) == 1


def test_queue_overflow_is_503_and_a_client_leaving_the_queue_is_dropped(
    tmp_path: Path,
) -> None:
    fifo, gate = make_fifo(tmp_path)
    config = write_config(
        tmp_path, [echo_plugin(max_queue=2, root=str(tmp_path), env={"ECHO_GATE_FIFO": str(fifo)})]
    )
    with running_gateway(config) as gw, ThreadPoolExecutor(4) as executor:
        try:
            first = executor.submit(post, gw, "echo", {"paths": ["wait"]})
            gw.wait_for("echo", lambda i: i["state"] == "busy")
            queued = [executor.submit(post, gw, "echo", {"paths": ["q0"]})]
            gw.wait_for("echo", lambda i: i["queueDepth"] == 1)
            # a client that gives up while queued leaves the queue
            with (
                pytest.raises(httpx.ReadTimeout),
                httpx.Client(base_url=gw.url, timeout=0.3) as impatient,
            ):
                impatient.post("/plugins/echo/discover", json={"paths": ["gone"]})
            gw.wait_for("echo", lambda i: i["queueDepth"] == 1)
            queued.append(executor.submit(post, gw, "echo", {"paths": ["q1"]}))
            gw.wait_for("echo", lambda i: i["queueDepth"] == 2)
            overflow = post(gw, "echo", {"paths": ["late"]})
            assert overflow.status_code == 503
            assert overflow.headers["Retry-After"] == "1"
            assert "max_queue" in overflow.json()["detail"]
        finally:
            os.write(gate, b"x")
        assert first.result().status_code == 200
        assert [f.result().status_code for f in queued] == [200, 200]
        names = [f.result().json()["resources"][0]["name"] for f in queued]
        assert sorted(names) == ["q0", "q1"]
        assert gw.plugin("echo")["served"] == 3  # the impatient client's request never ran
    os.close(gate)


def test_engine_client_returns_documents_and_raises_the_same_error(gateway: Gateway) -> None:
    with GatewayClient(gateway.url) as client:
        doc = client.discover("reference-detector", ["api"], request_id="c1")
        assert doc["requestId"] == "c1" and len(doc["resources"]) == 3
        with pytest.raises(codes.WatchdogTimeoutError) as timeout:
            client.discover("hangs_on_discover", ["."])
        assert timeout.value.frame == 2
        with pytest.raises(codes.ProtocolVersionError) as version:
            client.discover("gpp2_peer", ["."])
        assert "GPP/2" in version.value.fail_line()
        with pytest.raises(codes.InvalidRequestError):
            client.discover("echo", ["/abs"])
        with pytest.raises(codes.UnknownPluginError):
            client.discover("missing", ["."])


def test_token_is_required_when_set(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("GPP_TOKEN", raising=False)
    (tmp_path / "token").write_text("s3cret\n")
    (tmp_path / "token").chmod(0o600)  # as the token check requires
    config = write_config(tmp_path, [echo_plugin()], gateway={"token_file": "token"})
    with running_gateway(config) as gw:
        missing = post(gw, "echo", {"paths": ["a"]})
        assert missing.status_code == 401
        assert missing.headers["content-type"] == "application/problem+json"
        detail = missing.json()["detail"]  # says what to send and where the token comes from
        assert "Authorization: Bearer <token>" in detail
        assert "GPP_TOKEN" in detail and "gateway.token_file" in detail
        with gw.client() as http:  # the docs page opens in a browser; its calls need the token
            page = http.get("/docs")
            assert page.status_code == 200 and "swagger" in page.text.lower()
            assert http.get("/docs-assets/swagger-ui-bundle.js").status_code == 200
            assert http.get("/docs-assets/swagger-ui.css").status_code == 200
            assert http.get("/openapi.json").json()["openapi"]
            assert http.get("/plugins").status_code == 401
            assert http.get("/docs-assetsX").status_code == 401
            assert http.get("/metrics").status_code == 401
        wrong = post(gw, "echo", {"paths": ["a"]}, headers={"Authorization": "Bearer nope"})
        assert wrong.status_code == 401 and "WWW-Authenticate" in wrong.headers
        ok = post(gw, "echo", {"paths": ["a"]}, headers={"Authorization": "Bearer s3cret"})
        assert ok.status_code == 200
        with gw.client() as http:
            assert http.get("/healthz").status_code == 200  # probes need no token
        with GatewayClient(gw.url, token="s3cret") as client:
            assert client.discover("echo", ["a"])["resources"]
        with GatewayClient(gw.url) as client, pytest.raises(GatewayRefused) as refused:
            client.discover("echo", ["a"])
        assert refused.value.status == 401


def test_listing_health_metrics_and_docs(gateway: Gateway) -> None:
    post(gateway, "reference-detector", {"paths": ["api"]})
    with gateway.client() as http:
        listing = http.get("/plugins").json()
        assert {p["id"] for p in listing} >= {"reference-detector", "echo"}
        info = http.get("/plugins/reference-detector").json()
        assert info["state"] == "ready" and info["capabilities"] == ["discover"]
        assert process_gone(info["pid"]) is False
        assert http.get("/healthz").json() == {"status": "ok"}
        assert http.get("/readyz").status_code == 200
        metrics = http.get("/metrics").text
        assert 'gpp_requests_total{outcome="ok",plugin="reference-detector"}' in metrics
        assert "gpp_request_seconds_bucket" in metrics and "gpp_queue_depth" in metrics
        assert "gpp_live_sessions" in metrics and "gpp_restarts" in metrics
        docs = http.get("/docs").text
        assert "/docs-assets/swagger-ui-bundle.js" in docs and "cdn" not in docs.lower()
        assert http.get("/docs-assets/swagger-ui-bundle.js").status_code == 200
        spec = http.get("/openapi.json").json()
        schemas = spec["components"]["schemas"]
        assert {"ResultDocument", "Problem", "PluginInfo"} <= set(schemas)
        responses = spec["paths"]["/plugins/{plugin_id}/discover"]["post"]["responses"]
        assert {"200", "404", "422", "502", "503", "504"} <= set(responses)


def test_async_engine_client(gateway: Gateway) -> None:
    async def scenario() -> None:
        async with AsyncGatewayClient(gateway.url) as client:
            documents = await asyncio.gather(
                *(
                    client.discover("reference-detector", ["api"], request_id=f"a{n}")
                    for n in range(8)
                )
            )
            assert [d["requestId"] for d in documents] == [f"a{n}" for n in range(8)]
            with pytest.raises(codes.SchemaError) as info:
                await client.discover("no_classification_signals", ["."])
            assert info.value.field == "payload.classificationSignals" and info.value.frame == 2

    asyncio.run(scenario())


def test_instances_serve_in_parallel(tmp_path: Path) -> None:
    fifo, gate = make_fifo(tmp_path)
    config = write_config(
        tmp_path, [echo_plugin(instances=2, root=str(tmp_path), env={"ECHO_GATE_FIFO": str(fifo)})]
    )
    with running_gateway(config) as gw, ThreadPoolExecutor(2) as executor:
        try:
            waiting = [executor.submit(post, gw, "echo", {"paths": ["wait"]}) for _ in range(2)]
            info = gw.wait_for("echo", lambda i: i["state"] == "busy")
            assert len(info["pids"]) == 2 and info["queueDepth"] == 0
        finally:
            os.write(gate, b"xx")
        served_by = {w.result().json()["resources"][0]["attrs"]["process"] for w in waiting}
        assert len(served_by) == 2  # two plugin processes, one request each
    os.close(gate)


def test_eager_plugins_and_readiness(tmp_path: Path) -> None:
    ok = write_config(tmp_path, [echo_plugin(eager=True)])
    with running_gateway(ok) as gw, gw.client() as http:
        assert http.get("/readyz").json() == {"status": "ready"}
        assert gw.plugin("echo")["state"] == "ready"  # started before any request
    broken = tmp_path / "broken"
    broken.mkdir()
    config = write_config(broken, [fault_plugin("never_hello", eager=True, handshake_ms=200)])
    with running_gateway(config) as gw, gw.client() as http:
        not_ready = http.get("/readyz")
        assert not_ready.status_code == 503
        assert not_ready.json()["waitingFor"] == ["never_hello"]
        assert gw.plugin("never_hello")["lastCode"] == "E_TIMEOUT"


def test_plugin_stderr_is_logged_with_its_id(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    config = write_config(tmp_path, [fault_plugin("exits_mid_request")])
    with running_gateway(config) as gw:
        post(gw, "exits_mid_request", {"paths": ["."]})
    lines = [r for r in caplog.records if r.getMessage() == "plugin stderr"]
    assert any(
        getattr(r, "fields", {})
        == {"plugin": "exits_mid_request", "line": "fixture: crashing mid-request"}
        for r in lines
    )
    kills = [getattr(r, "fields", {}) for r in caplog.records if r.getMessage() == "kill"]
    assert any(k.get("reason") == "E_EOF" for k in kills)


def test_a_body_is_checked_once_on_its_way_to_the_frame(monkeypatch: pytest.MonkeyPatch) -> None:
    """The gateway's body schema is the one check on the host side: the connection sends the
    request it built without running the frame's schema again."""
    body_checks: list[Any] = []
    frame_checks: list[Any] = []
    monkeypatch.setattr(DISCOVER_REQUEST, "check", body_checks.append)
    monkeypatch.setattr(DISCOVER_PAYLOAD, "check", frame_checks.append)
    request = discover_body(b'{"paths":["a","b/c"],"requestId":"r-1"}', None)
    assert request == Discover("r-1", ("a", "b/c")) and request.is_validated
    host, plugin = Connection(Role.HOST, "p", "1"), Connection(Role.PLUGIN, "p", "1")
    host.receive_data(plugin.send(Hello(("discover",))))
    assert host.next_event() == Hello(("discover",))
    plugin.receive_data(host.send(Ready()))
    assert plugin.next_event() == Ready()
    plugin.receive_data(host.send(request))
    assert len(body_checks) == 1 and frame_checks == []
    assert plugin.next_event() == request and len(frame_checks) == 1  # the plugin's own check


def test_the_request_id_comes_from_the_body_then_the_header_then_is_generated() -> None:
    assert discover_body(b'{"paths":["a"],"requestId":"b"}', "h").request_id == "b"
    assert discover_body(b'{"paths":["a"]}', "h").request_id == "h"
    generated = discover_body(b'{"paths":["a"]}', None).request_id
    assert len(generated) == 32 and generated != discover_body(b'{"paths":["a"]}', None).request_id
    with pytest.raises(codes.InvalidRequestError) as info:
        discover_body(b'{"paths":["a"]}', "x" * (MAX_REQUEST_ID + 1))
    assert info.value.field == "requestId"


VALID_PATHS = [rule["example"] for rule in CONTRACT["pathRules"] if rule["problem"] is None]


@pytest.mark.parametrize("request_id", [None, "r", "é" * MAX_REQUEST_ID])
@pytest.mark.parametrize("count", [1, 2, MAX_PATHS])
def test_every_body_the_gateway_accepts_is_a_valid_discover_payload(
    request_id: str | None, count: int
) -> None:
    """Why the connection may skip its check: DISCOVER_REQUEST is never looser than the frame's
    schema. A looser change to the body schema fails here."""
    for path in VALID_PATHS:
        body: dict[str, Any] = {"paths": [path] * count}
        if request_id is not None:
            body["requestId"] = request_id
        request = discover_body(json.dumps(body).encode(), None)
        DISCOVER_PAYLOAD.check(request.to_payload())


def test_the_body_schema_has_the_frame_fields_and_is_never_looser() -> None:
    """In the contract: the body's fields are the discover payload's (requestId optional, the
    gateway fills it in), each as strict or stricter. A field added to one and not the other,
    or a looser limit, fails here (tests/core/test_contract.py ties the contract to the code)."""
    body = GATEWAY["discoverRequest"]
    frame = CONTRACT["payloads"]["discover"]
    body_fields = {**body["required"], **body.get("optional", {})}
    frame_fields = {**frame["required"], **frame.get("optional", {})}
    assert set(body_fields) == set(frame_fields)
    assert set(frame.get("optional", {})) <= set(body.get("optional", {}))
    for key, spec in body_fields.items():
        other = frame_fields[key]
        assert spec.get("minItems", 0) >= other.get("minItems", 0), key
        assert spec.get("maxItems", 1e9) <= other.get("maxItems", 1e9), key
        rest = ("minItems", "maxItems")
        assert {k: v for k, v in spec.items() if k not in rest} == {
            k: v for k, v in other.items() if k not in rest
        }, key


def test_every_field_of_the_body_reaches_the_request() -> None:
    """A field added to the contract's body fails here until `Discover` carries it."""
    valid = [body for body, _, ok in cases(GATEWAY["discoverRequest"])[1] if ok]
    assert valid
    for body in valid:
        request = discover_body(json.dumps(body).encode(), "h")
        assert request.to_payload() == {"requestId": "h", **body}


def test_the_openapi_model_documents_every_body_field() -> None:
    body = GATEWAY["discoverRequest"]
    assert set(DiscoverRequest.model_fields) == {*body["required"], *body.get("optional", {})}
