"""The catalog is the one table of GPP/3's rules: each row agrees with its event, and the
connection's judgement of a frame follows the row (sender, phase, schema, requestId)."""

from __future__ import annotations

import pytest

from gpp.core import Connection, Phase, Role, SessionError, build_frame, codes
from gpp.core.catalog import CATALOG, SESSION_FATAL, RequestPart, rule_for, sendable


def test_every_row_names_its_own_event_and_only_reachable_phases() -> None:
    assert list(CATALOG) == ["hello", "ready", "discover", "result", "error", "shutdown", "bye"]
    for message_type, rule in CATALOG.items():
        assert message_type == rule.event.TYPE
        assert Phase.CLOSED not in rule.transitions
    assert SESSION_FATAL.event is SessionError and SESSION_FATAL.sender is None
    assert set(SESSION_FATAL.transitions.values()) == {Phase.CLOSED}


def test_error_reads_as_an_answer_with_a_request_id_and_as_fatal_without() -> None:
    assert (
        rule_for("error", {"requestId": "r", "code": "X", "message": "m"}).request
        is RequestPart.ANSWERS
    )
    assert rule_for("error", {"code": "X", "message": "m"}) is SESSION_FATAL
    assert rule_for("error", ["not", "an", "object"]) is CATALOG["error"]


def test_what_each_party_may_send_follows_the_rows() -> None:
    assert sendable(Role.PLUGIN, Phase.AWAITING_HELLO) == ["hello"]
    assert sendable(Role.HOST, Phase.IDLE) == ["discover", "shutdown"]
    assert sendable(Role.PLUGIN, Phase.DISCOVERING) == ["result", "error"]
    assert sendable(Role.PLUGIN, Phase.IDLE) == []


@pytest.mark.parametrize(
    ("message_type", "payload", "fail_line"),
    [
        (
            "ready",
            {},
            "frame 1: ready.type is sent by the host, not the plugin — expected hello, got ready",
        ),
        (
            "bye",
            {},
            "frame 1: bye.type arrived in the wrong phase (awaiting hello) — expected hello, got bye",
        ),
        (
            "hello",
            {"capabilities": ["discover"], "x": 1},
            "frame 1: hello.payload.x is not allowed — expected no such field, got integer 1",
        ),
    ],
)
def test_the_host_judges_a_first_frame_by_its_row(
    message_type: str, payload: dict[str, object], fail_line: str
) -> None:
    host = Connection(Role.HOST, "p", "1")
    host.receive_data(build_frame("p", "1", message_type, 1, payload)[0])
    with pytest.raises(codes.SchemaError) as info:
        host.next_event()
    assert info.value.fail_line() == "[plugin-protocol] FAIL E_SCHEMA: " + fail_line
    assert host.phase is Phase.CLOSED
