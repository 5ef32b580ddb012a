"""Large result frames verified in pieces (`gpp.core.piecewise`) against the full path, on bytes alone.

The piecewise path may only ever accept what the full path accepts, with the same event; for
anything else the connection falls back to the full path, so every fault must come out exactly
as it does there: same class, code, frame, field, expected, got and offending frame. Each case
runs the same line through a connection that tries pieces first (tiny batches, so a fault sits
many batches in) and through one that never does, and compares the two outcomes.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gpp.core import (
    Connection,
    Discover,
    Hello,
    Phase,
    Ready,
    Result,
    Role,
    build_frame,
    canonical,
    codes,
    piecewise,
)

ID, VERSION, REQUEST = "p", "1.0.0", "req-1"
FRAME = 2  # hello is frame 1
RESOURCES = 6000


def _resource(n: int, name: str | None = None) -> dict[str, Any]:
    return {
        "kind": "table",
        "name": f"table_{n}" if name is None else name,
        "location": {"path": f"svc/ü{n % 7}/schema_{n}.gfx", "line": n % 500 + 1},
        "attrs": {"pii": "email,phone", "rows": n, "audited": n % 2 == 0},
    }


def _payload(resources: list[dict[str, Any]] | None = None, **fields: Any) -> dict[str, Any]:
    return {
        "requestId": REQUEST,
        "resources": [_resource(n) for n in range(RESOURCES)] if resources is None else resources,
        "unresolved": [{"path": "gone.gfx", "reason": "not-found", "detail": "no such file"}],
        "findings": [
            {
                "code": "DUPLICATE_TABLE_NAME",
                "detail": "users twice",
                "locations": [{"path": "a.gfx", "line": n + 1} for n in range(50)],
            }
        ],
        "classificationSignals": [
            {
                "resource": f"table:table_{n}",
                "signal": "pii",
                "value": "email",
                "source": {"path": "a.gfx", "line": n + 1},
            }
            for n in range(200)
        ],
        **fields,
    }


def _line(payload: dict[str, Any]) -> bytes:
    line, _ = build_frame(ID, VERSION, "result", FRAME, payload)
    return line.rstrip(b"\n")


def _resigned(line: bytes, sign: str) -> bytes:
    """`line` with its digest recomputed over its payload: over the payload's canonical form
    (`sign="canonical"`: a fault planted in the payload meets the schema checks, not the digest
    check), or over the payload's bytes as they are (`"raw"`: the digest then proves bytes that
    are not canonical, which only the full path's re-encoding catches). `"keep"`: unchanged.
    Also unchanged where the payload cannot be found or parsed."""
    if sign == "keep":
        return line
    try:
        start = line.index(b'"payload":') + len(b'"payload":')
        text = line[start : line.rindex(b',"pluginId":')]
        if sign == "canonical":
            text = canonical(json.loads(text))
    except ValueError:  # not there, no JSON or no I-JSON (UnicodeDecodeError is one too)
        return line
    hex_digest = hashlib.sha256(
        b'{"payload":' + text + b',"seq":%d,"type":"result"}' % FRAME
    ).hexdigest()
    return line[:11] + hex_digest.encode() + line[75:]


def _replace(
    line: bytes, old: bytes, new: bytes, *, nth: int = 0, sign: str = "canonical"
) -> bytes:
    """`line` with the `nth` occurrence of `old` replaced and its digest `_resigned`."""
    at = -1
    for _ in range(nth + 1):
        at = line.index(old, at + 1)
    return _resigned(line[:at] + new + line[at + len(old) :], sign)


def _host(*, pieces: bool, request_id: str = REQUEST) -> Connection:
    host = Connection(Role.HOST, ID, VERSION)
    host.piecewise_from_bytes = 0 if pieces else 1 << 62
    hello, _ = build_frame(ID, VERSION, "hello", 1, {"capabilities": ["discover"]})
    host.receive_data(hello)
    assert isinstance(host.next_event(), Hello)
    host.send(Ready())
    host.send(Discover(request_id, (".",)))
    return host


Outcome = tuple[Any, ...]


def _outcome(line: bytes, *, pieces: bool, request_id: str = REQUEST) -> tuple[Outcome, Connection]:
    """What a host connection makes of `line`: the event's values or the error's fields."""
    host = _host(pieces=pieces, request_id=request_id)
    for at in range(0, len(line) + 1, 1 << 16):
        host.receive_data(line[at : at + (1 << 16)])
    host.receive_data(b"\n")
    try:
        event = host.next_event()
    except codes.ProtocolError as exc:
        fields = (exc.problem, exc.frame, exc.message_type, exc.field, exc.expected, exc.got)
        return (type(exc), exc.code, *fields, exc.offending_frame), host
    assert isinstance(event, Result) and event.payload_bytes is not None
    values = (Result, event.request_id, event.digest, bytes(event.payload_bytes), event.document)
    return values, host


def _both(line: bytes, request_id: str = REQUEST) -> tuple[Outcome, Outcome]:
    """The outcome with pieces tried first, the full path's, and the sessions agree after."""
    in_pieces, host = _outcome(line, pieces=True, request_id=request_id)
    full, full_host = _outcome(line, pieces=False, request_id=request_id)
    assert (host.phase, host.outstanding, host.frames_received) == (
        full_host.phase,
        full_host.outstanding,
        full_host.frames_received,
    )
    return in_pieces, full


@pytest.fixture(autouse=True)
def _small_batches(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(piecewise, "BATCH_BYTES", 2048)


def _took_pieces(line: bytes, request_id: str = REQUEST) -> bool:
    return (
        piecewise.verify_result(
            line, frame=FRAME, plugin_id=ID, plugin_version=VERSION, request_id=request_id
        )
        is not None
    )


# ------------------------------------------------------------------------------- accepted


@pytest.mark.parametrize(
    "payload",
    [
        _payload(),
        _payload(resources=[], findings=[], unresolved=[], classificationSignals=[]),
        _payload(
            resources=[_resource(n, name) for n, name in enumerate(["},{", '},{"attrs":x', "]"])]
            * 300,
            requestId='a "quoted" \\ id},{',
        ),
        _payload(resources=[_resource(n, "naïve \u2028 \x01 \uffff 😀") for n in range(500)]),
        _payload(
            resources=[
                {**_resource(n), "attrs": {"😀": 1, "\uffff": 2, "z": True}} for n in range(300)
            ]
        ),
        _payload(
            findings=[
                {
                    "code": "X",
                    "detail": "},{" * 20,
                    "locations": [{"path": "a", "line": n + 1} for n in range(2000)],
                }
            ]
            * 3
        ),
    ],
    ids=["usual", "empty", "cut-lookalikes", "non-ascii", "astral-keys", "long-locations"],
)
def test_a_canonical_result_is_accepted_in_pieces_with_the_full_paths_event(
    payload: dict[str, Any],
) -> None:
    line = _line(payload)
    assert _took_pieces(line, payload["requestId"])
    in_pieces, full = _both(line, payload["requestId"])
    assert in_pieces == full
    assert in_pieces[3] == canonical(payload)


def test_the_event_holds_a_view_of_the_line_and_parses_its_document_on_demand() -> None:
    payload = _payload()
    host = _host(pieces=True)
    host.receive_data(_line(payload) + b"\n")
    event = host.next_event()
    assert isinstance(event, Result) and isinstance(event.payload_bytes, memoryview)
    assert event.payload_bytes == canonical(payload)
    assert event.document == {k: v for k, v in payload.items() if k != "requestId"}
    assert list(event.document) == ["classificationSignals", "findings", "resources", "unresolved"]
    assert host.phase is Phase.IDLE and host.outstanding is None
    assert event == Result(REQUEST, event.document, event.digest, canonical(payload))


def test_a_valid_but_not_canonical_line_falls_back_and_is_accepted_alike() -> None:
    line = _replace(_line(_payload()), b'"kind":"table"', b'"kind": "table"', nth=4000)
    assert not _took_pieces(line)
    in_pieces, full = _both(line)
    assert in_pieces == full and in_pieces[0] is Result


# ------------------------------------------------------------------------------- rejected


def _fault_cases() -> Iterator[tuple[str, Callable[[bytes], bytes]]]:
    yield (
        "schema: line 0 in resource 5000",
        lambda line: _replace(
            line, b'"line":1,"path":"svc/\xc3\xbc', b'"line":0,"path":"svc/\xc3\xbc', nth=10
        ),
    )
    yield (
        "schema: wrong type",
        lambda line: _replace(line, b'"kind":"table"', b'"kind":5', nth=4999),
    )
    yield (
        "schema: unknown key",
        lambda line: _replace(line, b'"kind":"table"', b'"extra":1,"kind":"table"', nth=4999),
    )
    yield "schema: missing key", lambda line: _replace(line, b'"kind":"table",', b"", nth=4999)
    yield "schema: float", lambda line: _replace(line, b'"rows":4999', b'"rows":4999.5')
    yield (
        "schema: integer past 2**53",
        lambda line: _replace(line, b'"rows":4999', b'"rows":9007199254740993'),
    )
    yield (
        "schema: integer past 2**64",
        lambda line: _replace(line, b'"rows":4999', b'"rows":123456789012345678901234567890'),
    )
    yield (
        "schema: bad path",
        lambda line: _replace(line, b'"path":"svc/', b'"path":"/svc/', nth=4999),
    )
    yield (
        "schema: bad finding code",
        lambda line: _replace(line, b"DUPLICATE_TABLE_NAME", b"duplicate"),
    )
    yield (
        "schema: missing array",
        lambda line: _replace(
            line,
            b',"unresolved":[{"detail":"no such file","path":"gone.gfx","reason":"not-found"}]',
            b"",
        ),
    )
    yield (
        "duplicate key in an element",
        lambda line: _replace(line, b'"kind":"table"', b'"kind":"table","kind":"view"', nth=4999),
    )
    yield (
        "lone surrogate",
        lambda line: _replace(line, b'"name":"table_4999"', b'"name":"table_\\ud800"'),
    )
    yield (
        "invalid UTF-8",
        lambda line: _replace(line, b'"name":"table_4999"', b'"name":"table_\xff"', sign="keep"),
    )
    yield "NaN", lambda line: _replace(line, b'"rows":4999', b'"rows":NaN', sign="keep")
    yield (
        "nesting past 512",
        lambda line: _replace(
            line, b'"rows":4999', b'"rows":' + b"[" * 508 + b"]" * 508, sign="keep"
        ),
    )
    yield (
        "nesting of 512",
        lambda line: _replace(  # 5 levels above the attrs value
            line, b'"rows":4999', b'"rows":' + b"[" * 507 + b"]" * 507
        ),
    )
    yield "unbalanced", lambda line: _replace(line, b'"rows":4999}', b'"rows":4999', sign="keep")
    yield (
        "digest mismatch",
        lambda line: _replace(line, b'"name":"table_4999"', b'"name":"table_4998"', sign="keep"),
    )
    yield (
        "spacing, digest over the spaced bytes",
        lambda line: _replace(line, b'"kind":"table"', b'"kind": "table"', nth=4999, sign="raw"),
    )
    yield (
        "keys out of order, digest over them",
        lambda line: _replace(
            line.replace(b'"name":"table_4999"}', b'"name":"table_4999","kind":"table"}'),
            b'"kind":"table","location"',
            b'"location"',
            nth=4999,
            sign="raw",
        ),
    )
    yield (
        "escaped requestId, digest over it",
        lambda line: _replace(line, b'"req-1"', b'"req\\u002d1"', sign="raw"),
    )
    yield (
        "payload key renamed, digest over it",
        lambda line: _replace(line, b'"findings":', b'"findingz":', sign="raw"),
    )
    yield (
        "payload ends in another byte, digest over it",
        lambda line: _replace(line, b'}]},"pluginId"', b'}]x,"pluginId"', sign="raw"),
    )
    yield "digest malformed", lambda line: line[:11] + b"A" * 64 + line[75:]
    yield "other requestId", lambda line: _replace(line, b'"req-1"', b'"req-2"')
    yield "requestId not a string", lambda line: _replace(line, b'"req-1"', b"1")
    yield "wrong seq", lambda line: _replace(line, b'"seq":2', b'"seq":3', sign="keep")
    yield (
        "wrong plugin",
        lambda line: _replace(line, b'"pluginId":"p"', b'"pluginId":"q"', sign="keep"),
    )
    yield (
        "wrong version",
        lambda line: _replace(line, b'"protocolVersion":3', b'"protocolVersion":2', sign="keep"),
    )
    yield (
        "wrong type",
        lambda line: _replace(line, b'"type":"result"', b'"type":"hello"', sign="keep"),
    )
    yield "not an object", lambda line: b"[" + line + b"]"
    yield "trailing garbage", lambda line: line + b"x"


FAULTS = dict(_fault_cases())
LARGE_LINE = _line(_payload())


@pytest.mark.parametrize("name", FAULTS)
def test_a_fault_gives_the_full_paths_error(name: str) -> None:
    line = FAULTS[name](LARGE_LINE)
    assert line != LARGE_LINE
    assert not _took_pieces(line)
    in_pieces, full = _both(line)
    assert in_pieces == full
    assert issubclass(in_pieces[0], codes.ProtocolError), in_pieces[:3]


def test_the_fault_is_named_where_it_is() -> None:
    in_pieces, _ = _both(FAULTS["schema: line 0 in resource 5000"](LARGE_LINE))
    _, frame, message_type, field, expected, got = in_pieces[2:8]
    assert (in_pieces[1], frame, message_type, expected, got) == (
        "E_SCHEMA",
        FRAME,
        "result",
        "integer >= 1",
        "integer 0",
    )
    assert field == "payload.resources[5000].location.line"


def test_a_result_out_of_turn_is_left_to_the_full_path() -> None:
    host = Connection(Role.HOST, ID, VERSION)
    host.piecewise_from_bytes = 0
    hello, _ = build_frame(ID, VERSION, "hello", 1, {"capabilities": ["discover"]})
    host.receive_data(hello + LARGE_LINE + b"\n")
    host.next_event()
    with pytest.raises(codes.SchemaError, match="wrong phase"):
        host.next_event()


# ------------------------------------------------------------------------------ hypothesis


SMALL = _line(_payload(resources=[_resource(n) for n in range(40)]))


@settings(
    max_examples=300,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(
    st.integers(0, len(SMALL) - 1),
    st.integers(0, 4),
    st.binary(min_size=0, max_size=3) | st.sampled_from([b" ", b"0", b'"', b"\\", b"},{"]),
    st.sampled_from(["keep", "canonical", "raw"]),
    st.integers(1, 600),
)
def test_any_edit_of_a_result_line_gets_the_same_outcome_on_both_paths(
    at: int, cut: int, insert: bytes, sign: str, batch: int
) -> None:
    line = _resigned(SMALL[:at] + insert + SMALL[at + cut :], sign)
    pieces = piecewise.verify_result(
        line,
        frame=FRAME,
        plugin_id=ID,
        plugin_version=VERSION,
        request_id=REQUEST,
        batch_bytes=batch,
    )
    full, _ = _outcome(line, pieces=False)
    if pieces is not None:  # accepted in pieces: the full path accepts the very same
        assert full[0] is Result
        assert (full[1], full[2], full[3]) == (
            pieces.request_id,
            pieces.digest,
            bytes(pieces.payload_bytes),
        )
    assert _outcome(line, pieces=True)[0] == full


@settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(
    st.lists(
        st.builds(
            lambda n, name, attrs: {**_resource(n, name), "attrs": attrs},
            st.integers(0, 10**6),
            st.text(max_size=12),
            st.dictionaries(
                st.text(max_size=6),
                st.text(max_size=6) | st.booleans() | st.integers(-(2**53) + 1, 2**53 - 1),
                max_size=3,
            ),
        ),
        max_size=60,
    ),
    st.integers(1, 400),
)
def test_every_canonical_result_is_accepted_in_pieces(
    resources: list[dict[str, Any]], batch: int
) -> None:
    payload = _payload(resources=resources)
    line = _line(payload)
    pieces = piecewise.verify_result(
        line,
        frame=FRAME,
        plugin_id=ID,
        plugin_version=VERSION,
        request_id=REQUEST,
        batch_bytes=batch,
    )
    assert pieces is not None and pieces.payload_bytes == canonical(payload)
