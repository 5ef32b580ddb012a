"""gpp.core.connection: the sans-IO connection of both parties, on bytes alone (its framing and
envelopes have their own files)."""

from __future__ import annotations

from typing import Any

import pytest

from gpp.core import (
    DISCOVER_PAYLOAD,
    Bye,
    Connection,
    Discover,
    Hello,
    Phase,
    PluginError,
    Ready,
    Result,
    Role,
    Shutdown,
    UsageError,
    Violation,
    build_frame,
    canonical,
    codes,
)

ID, VERSION = "p", "1.0.0"
EMPTY: dict[str, Any] = {
    "resources": [],
    "unresolved": [],
    "findings": [],
    "classificationSignals": [],
}


def _pair() -> tuple[Connection, Connection]:
    return Connection(Role.HOST, ID, VERSION), Connection(Role.PLUGIN, ID, VERSION)


def _deliver(data: bytes, to: Connection) -> Any:
    to.receive_data(data)
    return to.next_event()


def test_host_and_plugin_machines_complete_a_session_over_bytes() -> None:
    host, plugin = _pair()
    assert _deliver(plugin.send(Hello(("discover",))), host) == Hello(("discover",))
    assert _deliver(host.send(Ready()), plugin) == Ready()
    assert (host.phase, plugin.phase) == (Phase.IDLE, Phase.IDLE)
    for n in range(3):
        request = Discover(f"r{n}", ("src", "."))
        assert _deliver(host.send(request), plugin) == request
        assert (host.phase, plugin.phase) == (Phase.DISCOVERING, Phase.DISCOVERING)
        answer = _deliver(plugin.send(Result(f"r{n}", EMPTY)), host)
        assert isinstance(answer, Result)
        assert (answer.request_id, answer.document) == (f"r{n}", EMPTY)
    scoped = _deliver(host.send(Discover("bad", ("x",))), plugin)
    assert scoped == Discover("bad", ("x",))
    assert _deliver(plugin.send(PluginError("bad", "Oops", "no")), host) == PluginError(
        "bad", "Oops", "no"
    )
    assert _deliver(host.send(Shutdown()), plugin) == Shutdown()
    assert _deliver(plugin.send(Bye()), host) == Bye()
    assert (host.phase, plugin.phase) == (Phase.CLOSED, Phase.CLOSED)
    host.receive_data(b"")
    assert host.next_event() is None  # EOF after bye is expected


def test_an_invalid_local_request_leaves_the_session_untouched() -> None:
    host, plugin = _pair()
    _deliver(plugin.send(Hello(("discover",))), host)
    _deliver(host.send(Ready()), plugin)
    with pytest.raises(codes.InvalidRequestError) as info:
        host.send(Discover("r1", ("../etc/passwd",)))
    assert (info.value.field, info.value.frame) == ("payload.paths[0]", 2)
    assert "'..' segment" in info.value.problem
    assert host.phase is Phase.IDLE and host.frames_sent == 1
    assert _deliver(host.send(Discover("r1", ("ok",))), plugin) == Discover("r1", ("ok",))


def test_a_validated_request_is_checked_where_it_is_built_and_not_again_when_sent(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    with pytest.raises(Violation) as info:
        Discover.validated({"requestId": "r1", "paths": ["../etc/passwd"]})
    assert info.value.field == "paths[0]" and "'..' segment" in info.value.problem
    request = Discover.validated({"requestId": "r1", "paths": ["ok"]})
    assert request == Discover("r1", ("ok",)) and request.is_validated
    assert not Discover("r1", ("ok",)).is_validated
    host, plugin = _pair()
    _deliver(plugin.send(Hello(("discover",))), host)
    _deliver(host.send(Ready()), plugin)
    checks: list[Any] = []
    monkeypatch.setattr(DISCOVER_PAYLOAD, "check", checks.append)
    line = host.send(request)
    assert checks == []  # checked once, by `validated`
    assert _deliver(line, plugin) == request and len(checks) == 1  # the receiving party's own


def test_lock_step_is_enforced_locally() -> None:
    host, plugin = _pair()
    _deliver(plugin.send(Hello(("discover",))), host)
    _deliver(host.send(Ready()), plugin)
    host.send(Discover("r1", (".",)))
    with pytest.raises(UsageError, match="cannot send discover"):
        host.send(Discover("r2", (".",)))


def test_eof_mid_frame_and_between_frames() -> None:
    host, _ = _pair()
    host.receive_data(b'{"protocolVersion":3')
    assert host.next_event() is None
    host.receive_data(b"")
    with pytest.raises(codes.UnexpectedEOFError) as info:
        host.next_event()
    assert info.value.frame == 1 and info.value.offending_frame == '{"protocolVersion":3'
    with pytest.raises(codes.UnexpectedEOFError):  # the connection stays failed
        host.next_event()


def test_plugin_side_rejects_a_host_frame_with_a_bad_path() -> None:
    host, plugin = _pair()
    _deliver(plugin.send(Hello(("discover",))), host)
    _deliver(host.send(Ready()), plugin)
    line, _ = build_frame(ID, VERSION, "discover", 2, {"requestId": "r", "paths": ["/etc"]})
    with pytest.raises(codes.SchemaError) as info:
        _deliver(line, plugin)
    assert info.value.field == "payload.paths[0]"
    assert plugin.phase is Phase.CLOSED
    fatal = plugin.send_fatal(info.value.code, info.value.fail_line())
    event = _deliver(fatal, host)
    assert event.code == "E_SCHEMA"


@pytest.mark.parametrize(
    ("raw", "fail_line"),
    [
        (
            b"3.0",
            "hello.protocolVersion is number 3.0, not an integer, but this host speaks GPP/3 — expected 3, got number 3.0",
        ),
        (
            b'"3"',
            "hello.protocolVersion is string '3', not an integer, but this host speaks GPP/3 — expected 3, got string '3'",
        ),
        (
            b"true",
            "hello.protocolVersion is boolean true, not an integer, but this host speaks GPP/3 — expected 3, got boolean true",
        ),
        (
            b"4",
            "hello.protocolVersion speaks GPP/4 but this host speaks GPP/3 — expected 3, got integer 4",
        ),
    ],
)
def test_only_the_integer_3_is_gpp3(raw: bytes, fail_line: str) -> None:
    host, plugin = _pair()
    line = plugin.send(Hello(("discover",))).replace(
        b'"protocolVersion":3,', b'"protocolVersion":' + raw + b","
    )
    with pytest.raises(codes.ProtocolVersionError) as info:
        _deliver(line, host)
    assert (
        info.value.fail_line() == "[plugin-protocol] FAIL E_PROTOCOL_VERSION: frame 1: " + fail_line
    )


def test_the_plugin_side_names_itself_in_the_version_diagnostic() -> None:
    host, plugin = _pair()
    _deliver(plugin.send(Hello(("discover",))), host)
    line = host.send(Ready()).replace(b'"protocolVersion":3,', b'"protocolVersion":2,')
    with pytest.raises(
        codes.ProtocolVersionError, match="speaks GPP/2 but this plugin speaks GPP/3"
    ):
        _deliver(line, plugin)


def test_duplicate_capabilities_are_a_schema_fault() -> None:
    host, _ = _pair()
    line, _ = build_frame(ID, VERSION, "hello", 1, {"capabilities": ["discover", "x", "discover"]})
    with pytest.raises(codes.SchemaError) as info:
        _deliver(line, host)
    assert info.value.fail_line() == (
        "[plugin-protocol] FAIL E_SCHEMA: frame 1: hello.payload.capabilities repeats a "
        "capability — expected distinct strings, got string 'discover'"
    )


def test_a_discover_with_no_paths_is_valid_gpp3_on_both_sides() -> None:
    host, plugin = _pair()
    _deliver(plugin.send(Hello(("discover",))), host)
    _deliver(host.send(Ready()), plugin)
    assert _deliver(host.send(Discover("none", ())), plugin) == Discover("none", ())
    answer = _deliver(plugin.send(Result("none", EMPTY)), host)
    assert isinstance(answer, Result) and answer.document == EMPTY


def test_a_huge_integer_literal_is_named_an_integer_on_the_fast_path_too() -> None:
    """Found by fuzzing: orjson parses integers past 64 bits as floats, so the canonical
    (fast-path) frame said `number 1.2345678901234568e+20` where the strict path says integer."""
    host, plugin = _pair()
    _deliver(plugin.send(Hello(("discover",))), host)
    _deliver(host.send(Ready()), plugin)
    host.send(Discover("r", (".",)))
    resource = {
        "kind": "t",
        "name": "n",
        "location": {"path": "a", "line": 1},
        "attrs": {"k": 1.2345678901234568e20},
    }
    line, _ = build_frame(
        ID, VERSION, "result", 2, {**EMPTY, "requestId": "r", "resources": [resource]}
    )
    assert b'"k":123456789012345680000}' in line  # JCS writes this double as integer digits
    with pytest.raises(codes.SchemaError) as info:
        _deliver(line, host)
    assert info.value.got == "integer 123456789012345680000"


def _result_from_plugin(payload: dict[str, Any]) -> Result:
    """The Result event the host machine builds from a result frame carrying `payload`."""
    host, plugin = _pair()
    _deliver(plugin.send(Hello(("discover",))), host)
    _deliver(host.send(Ready()), plugin)
    host.send(Discover(payload["requestId"], (".",)))
    line, _ = build_frame(ID, VERSION, "result", 2, payload)
    event = _deliver(line, host)
    assert isinstance(event, Result)
    return event


def _resource(n: int, name: str) -> dict[str, Any]:
    return {
        "kind": "table",
        "name": name,
        "location": {"path": f"dir/ü{n}.gfx", "line": n + 1},
        "attrs": {"pii": "email", "rows": n, "on": n % 2 == 0},
    }


@pytest.mark.parametrize(
    "payload",
    [
        {**EMPTY, "requestId": "r"},
        {**EMPTY, "requestId": "ünï-€-😀", "resources": [_resource(0, 'naïve \u2028 "q" \\ \x01')]},
        {**EMPTY, "requestId": "big", "resources": [_resource(n, f"t{n}") for n in range(20_000)]},
        {
            **EMPTY,
            "requestId": "astral",
            "resources": [_resource(1, "😀"), _resource(2, "\uffff")],
            "findings": [{"code": "X_Y", "detail": "d", "locations": [{"path": "a", "line": 1}]}],
        },
    ],
    ids=["empty", "non-ascii", "large", "astral"],
)
def test_a_result_carries_its_payload_canonical_bytes(payload: dict[str, Any]) -> None:
    result = _result_from_plugin(payload)
    assert result.payload_bytes == canonical(payload)
    assert result.payload_bytes == canonical({"requestId": result.request_id, **result.document})
