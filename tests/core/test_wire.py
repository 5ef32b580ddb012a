"""Framing with the byte cap, envelope build/verify, and the sans-IO connection on bytes alone."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gpp.core import codes, envelope
from gpp.core.canonical_json import canonical, digest
from gpp.core.connection import Connection, UsageError
from gpp.core.envelope import build_frame, decode_frame, verify_digest
from gpp.core.framing import LineBuffer, LineTooLong
from gpp.core.messages import (
    Bye,
    Discover,
    Hello,
    Phase,
    PluginError,
    Ready,
    Result,
    Role,
    Shutdown,
)
from gpp.core.schema import DISCOVER_PAYLOAD, Violation

ID, VERSION = "p", "1.0.0"
EMPTY: dict[str, Any] = {
    "resources": [],
    "unresolved": [],
    "findings": [],
    "classificationSignals": [],
}


def test_line_buffer_splits_lines_across_chunks() -> None:
    buf = LineBuffer(cap=100)
    buf.feed(b"ab")
    assert buf.next_line() is None
    buf.feed(b"c\nde\n\nf")
    assert [buf.next_line(), buf.next_line(), buf.next_line(), buf.next_line()] == [
        b"abc",
        b"de",
        b"",
        None,
    ]
    assert buf.pending == b"f"


def test_line_buffer_refuses_an_endless_line_while_reading() -> None:
    buf = LineBuffer(cap=1000)
    fed = 0
    with pytest.raises(LineTooLong):
        while True:  # a peer that never sends a newline
            buf.feed(b"x" * 300)
            fed += 300
            buf.next_line()
    assert fed <= 1200  # refused within one chunk of the cap, not at the newline


def test_line_buffer_accepts_exactly_the_cap() -> None:
    buf = LineBuffer(cap=10)
    buf.feed(b"x" * 10 + b"\n")
    assert buf.next_line() == b"x" * 10
    buf.feed(b"y" * 11 + b"\n")
    with pytest.raises(LineTooLong):
        buf.next_line()


def test_built_frame_is_canonical_and_its_digest_covers_type_seq_payload() -> None:
    payload = {"capabilities": ["discover"]}
    line, frame_digest = build_frame(ID, VERSION, "hello", 1, payload)
    envelope = {
        "protocolVersion": 3,
        "pluginId": ID,
        "pluginVersion": VERSION,
        "type": "hello",
        "seq": 1,
        "payload": payload,
        "digest": frame_digest,
    }
    assert line == canonical(envelope) + b"\n"
    assert frame_digest == digest({"type": "hello", "seq": 1, "payload": payload})


@settings(max_examples=200, deadline=None)
@given(
    st.dictionaries(
        st.text(max_size=10),
        st.recursive(
            st.none() | st.booleans() | st.integers(-(2**53) + 1, 2**53 - 1) | st.text(),
            lambda c: st.lists(c, max_size=4) | st.dictionaries(st.text(max_size=5), c, max_size=4),
            max_leaves=20,
        ),
        max_size=6,
    ),
    st.sampled_from(["hello", "result", "error", "bye"]),
    st.integers(1, 10**6),
)
def test_verify_of_build_round_trips(payload: dict[str, Any], message_type: str, seq: int) -> None:
    line, frame_digest = build_frame(ID, VERSION, message_type, seq, payload)
    frame = _decode(line.rstrip(b"\n"), seq)
    assert (frame.message_type, frame.seq, frame.payload, frame.digest) == (
        message_type,
        seq,
        payload,
        frame_digest,
    )


def test_a_non_canonical_but_valid_frame_verifies() -> None:
    payload = {"capabilities": ["discover"]}
    d = digest({"type": "hello", "seq": 1, "payload": payload})
    line = (
        b'{ "type": "hello", "seq": 1, "payload": {"capabilities": ["discover"]}, "digest": "'
        + d.encode()
        + b'", "pluginVersion": "1.0.0", "pluginId": "p", "protocolVersion": 3 }'
    )
    assert _decode(line, 1).payload == payload


def _decode(line: bytes, seq: int) -> Any:
    """Decode and verify a frame without a catalog row's checks (any payload goes)."""
    frame = decode_frame(line, frame=seq, plugin_id=ID, plugin_version=VERSION)
    verify_digest(frame)
    return frame


def test_fast_parse_defers_to_the_strict_parser_on_duplicate_keys() -> None:
    payload = {"capabilities": ["discover"]}
    line, _ = build_frame(ID, VERSION, "hello", 1, payload)
    duplicated = line.rstrip(b"\n")[:-1] + b',"seq":1}'
    with pytest.raises(codes.FrameJSONError, match='duplicate key "seq"'):
        _decode(duplicated, 1)
    deep = line.replace(b'"payload":{', b'"payload":{"x":' + b"[" * 600 + b"]" * 600 + b",")
    with pytest.raises(codes.FrameJSONError, match="nesting deeper than 512"):
        _decode(deep.rstrip(b"\n"), 1)


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


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.binary(max_size=40).map(lambda b: b.replace(b"\n", b"")), max_size=8),
    st.binary(max_size=30).map(lambda b: b.replace(b"\n", b"")),
    st.lists(st.integers(1, 50), min_size=1, max_size=10),
)
def test_line_buffer_gives_the_lines_for_any_chunking(
    lines: list[bytes], tail: bytes, cuts: list[int]
) -> None:
    stream = b"".join(line + b"\n" for line in lines) + tail
    buf = LineBuffer(cap=1000)
    got: list[bytes] = []
    position, turn = 0, 0
    while position < len(stream):
        size = cuts[turn % len(cuts)]
        buf.feed(stream[position : position + size])
        position, turn = position + size, turn + 1
        while (line := buf.next_line()) is not None:
            got.append(line)
    assert got == lines
    assert buf.pending == tail


def test_line_buffer_joins_a_large_line_from_many_chunks() -> None:
    line = bytes(range(256)).replace(b"\n", b"") * 20_000
    buf = LineBuffer()
    chunks = [line[i : i + 65536] for i in range(0, len(line), 65536)]
    for chunk in chunks[:-1]:
        buf.feed(chunk)
        assert buf.next_line() is None
    buf.feed(chunks[-1] + b"\nnext")
    assert buf.next_line() == line
    assert buf.next_line() is None and buf.pending == b"next"


_ENVELOPE_VARIANTS: dict[str, list[Any]] = {
    "protocolVersion": [3, 3.0, "3", 2, 4, True, None],
    "pluginId": [ID, "q", "", None, 1],
    "pluginVersion": [VERSION, "1.0.1", None, ["1.0.0"]],
    "type": ["hello", "result", "error", "greeting", "", None, 1],
    "seq": [4, 3, 5, "4", 4.0, True, None, -4],  # the first of each is valid
    "payload": [{}, [], None, "x"],
    "digest": ["a" * 64, "A" * 64, "a" * 63, "g" * 64, "a" * 64 + "\n", None, 1],
    "extra": [0, None],
}


@settings(max_examples=1500, deadline=None)
@given(st.data())
def test_the_envelope_fast_accept_agrees_with_the_full_check(data: st.DataObject) -> None:
    """`_envelope_holds` is a shortcut for `_envelope_fault(...) is None`: never laxer."""
    value: Any = {}
    for key, variants in _ENVELOPE_VARIANTS.items():  # valid, mostly; one or two faults
        roll = data.draw(st.integers(0, 19))
        if key == "extra":
            if roll == 0:
                value[key] = variants[0]
        elif roll < 16:
            value[key] = variants[0]
        elif roll < 19:
            value[key] = data.draw(st.sampled_from(variants))
    if data.draw(st.integers(0, 30)) == 0:
        value = data.draw(st.sampled_from([[], "x", None, 3, [value]]))
    pinned = envelope.Pinned(ID, VERSION, 4, "host")
    assert envelope._envelope_holds(value, 4, ID, VERSION) == (
        envelope._envelope_fault(value, b"{}", pinned) is None
    )


def _not_canonical(line: bytes) -> list[bytes]:
    """Lines that carry the same frame as `line` (canonical) but are not its canonical text."""
    import json

    body = line.rstrip(b"\n")
    envelope_value = json.loads(body)
    return [
        body.replace(b'","payload":', b'", "payload":', 1),
        body + b" ",
        b" " + body,
        body.replace(b'"requestId":"r', b'"requestId":"\\u0072', 1),
        json.dumps(dict(reversed(envelope_value.items())), separators=(",", ":")).encode(),
        json.dumps(envelope_value, separators=(",", ":"), sort_keys=True).encode(),  # ü escaped
    ]


@pytest.mark.parametrize("resources", [1, 200])  # below and above envelope._SMALL_PAYLOAD
def test_only_the_canonical_text_is_taken_for_the_canonical_frame(resources: int) -> None:
    """The canonical-frame test decides whether the strict parser must confirm a line: it is
    built whole for a small payload and compared in place for a large one; both must take
    exactly the canonical text."""
    payload = {
        "requestId": "r1",
        **EMPTY,
        "resources": [_resource(n, "x") for n in range(resources)],
    }
    line, _ = build_frame(ID, VERSION, "result", 2, payload)
    payload_json = canonical(payload)
    assert (len(payload_json) > envelope._SMALL_PAYLOAD) == (resources > 1)
    frame = decode_frame(line.rstrip(b"\n"), frame=2, plugin_id=ID, plugin_version=VERSION)
    assert envelope._is_canonical_frame(frame, payload_json)
    for variant in _not_canonical(line):
        frame = decode_frame(variant, frame=2, plugin_id=ID, plugin_version=VERSION)
        assert frame.payload == payload
        assert verify_digest(frame) == payload_json
        assert not envelope._is_canonical_frame(frame, payload_json)
