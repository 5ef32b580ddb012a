"""gpp.core.messages: each event is sent as its wire type and payload and read back as itself.

The connection builds events with `from_payload` and sends them with `payload_of`; an event that
did not survive that round trip would change a message between the two parties unnoticed."""

from __future__ import annotations

from dataclasses import FrozenInstanceError
from typing import Any

import pytest
from test_contract import CONTRACT, cases

from gpp.core import Bye, Discover, Hello, PluginError, Ready, SessionError, Shutdown, Violation
from gpp.core.messages import payload_of

EVENTS: list[tuple[Any, str, dict[str, Any]]] = [
    (Hello(("discover", "progress")), "hello", {"capabilities": ["discover", "progress"]}),
    (Ready(), "ready", {}),
    (Shutdown(), "shutdown", {}),
    (Bye(), "bye", {}),
    (
        PluginError("r1", "E_HANDLER", "boom"),
        "error",
        {"requestId": "r1", "code": "E_HANDLER", "message": "boom"},
    ),
    (SessionError("E_HANDLER", "gone"), "error", {"code": "E_HANDLER", "message": "gone"}),
]


@pytest.mark.parametrize(("event", "message_type", "payload"), EVENTS, ids=lambda v: str(v)[:20])
def test_an_event_is_sent_as_its_type_and_payload_and_read_back_alike(
    event: Any, message_type: str, payload: dict[str, Any]
) -> None:
    assert payload_of(event) == (message_type, payload)
    assert type(event).from_payload(payload, "0" * 64) == event


def test_an_error_with_a_request_id_is_request_scoped_and_without_one_session_fatal() -> None:
    scoped = PluginError.from_payload({"requestId": "r", "code": "E_X", "message": "m"}, "")
    fatal = SessionError.from_payload({"code": "E_X", "message": "m"}, "")
    assert scoped.TYPE == fatal.TYPE == "error"
    assert "requestId" in scoped.to_payload() and "requestId" not in fatal.to_payload()


def test_events_are_frozen_values() -> None:
    hello = Hello(("discover",))
    assert hello == Hello(("discover",)) and hash(hello) == hash(Hello(("discover",)))
    with pytest.raises(FrozenInstanceError):
        hello.capabilities = ()  # type: ignore[misc]


DISCOVER_CASES = cases(CONTRACT["payloads"]["discover"])[1]


def test_discover_carries_every_field_of_its_payload() -> None:
    """A field added to the contract's `discover` payload fails here until `Discover` has it
    (the attribute, `from_payload`, `to_payload`): the request object is the whole request."""
    valid = [value for value, _, ok in DISCOVER_CASES if ok]
    assert valid
    for value in valid:
        assert Discover.from_payload(value, "").to_payload() == value
        assert Discover.validated(value).to_payload() == value


def test_validated_refuses_what_the_payload_schema_refuses() -> None:
    refused = [(value, field) for value, field, ok in DISCOVER_CASES if not ok]
    assert refused
    for value, _ in refused:
        with pytest.raises(Violation):
            Discover.validated(value)
