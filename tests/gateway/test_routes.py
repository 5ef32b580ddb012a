"""app/routes.py without a server: the discover body becomes one `Discover` request, checked once."""

from __future__ import annotations

import json
from typing import Any

import pytest
from test_contract import CONTRACT, cases

from app.models import DiscoverRequest
from app.routes import DISCOVER_REQUEST, discover_body
from gpp.core import codes
from gpp.core.connection import Connection
from gpp.core.messages import Discover, Hello, Ready, Role
from gpp.core.schema import DISCOVER_PAYLOAD, MAX_PATHS, MAX_REQUEST_ID


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
    body = CONTRACT["gateway"]["discoverRequest"]
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
    valid = [body for body, _, ok in cases(CONTRACT["gateway"]["discoverRequest"])[1] if ok]
    assert valid
    for body in valid:
        request = discover_body(json.dumps(body).encode(), "h")
        assert request.to_payload() == {"requestId": "h", **body}


def test_the_openapi_model_documents_every_body_field() -> None:
    body = CONTRACT["gateway"]["discoverRequest"]
    assert set(DiscoverRequest.model_fields) == {*body["required"], *body.get("optional", {})}
