"""Every decoder of received bytes refuses with its one documented error, whatever the bytes.

The decoders (grep `loads`, `orjson`, `json.loads` in gpp/ and app/): the strict parser
`loads_strict` (JSONRejected), the GPP/3 frame decoder and the connection around it
(ProtocolError), the large-result verifier `verify_result` (ProtocolError or None: the full
path then judges), and the JSON-RPC line parser `parse_request` and connection (never raise:
an Invalid carries the code). The gateway's body decoders are proved in
tests/gateway/test_decoders_http.py. Issue 33: a 4,301-digit integer made Python's own
`int` raise ValueError through all of them.
"""

from __future__ import annotations

import contextlib
import json
import re
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gpp.core import (
    Connection,
    Discover,
    Hello,
    JSONRejected,
    JsonRpcConnection,
    Ready,
    Role,
    UnsafeInteger,
    build_frame,
    codes,
    decode_frame,
    jsonrpc,
    loads_strict,
)
from gpp.core.piecewise import verify_result

ID, VERSION = "fixture", "1.0.0"


def _digits(count: int) -> str:
    return "9" + "8" * (count - 1)


_HOSTILE_SCALARS = [
    _digits(4301),  # past int()'s own limit: its ValueError escaped every decoder
    "-" + _digits(6000),
    _digits(17),
    "9007199254740992",  # 2**53: the first integer I-JSON forbids
    "-9007199254740992",
    "NaN",
    "Infinity",
    "-Infinity",
    "1e400",
    '"\\ud800"',  # a lone surrogate, escaped
    '"\\udfff\\ud800"',
]


@st.composite
def hostile_lines(draw: st.DrawFn) -> bytes:
    """A JSON text with one thing no decoder may let through (or raise on): a huge integer,
    nesting past the limit, a lone surrogate (escaped or raw), NaN or an overflow, placed
    where a frame or request would carry a value."""
    kind = draw(st.sampled_from(["scalar", "integer", "deep", "raw-surrogate", "frame"]))
    if kind == "scalar":
        scalar = draw(st.sampled_from(_HOSTILE_SCALARS))
    elif kind == "integer":
        scalar = draw(st.integers(min_value=2**53).map(str) | st.integers(16, 8000).map(_digits))
    elif kind == "raw-surrogate":
        scalar = '"' + draw(st.sampled_from(["\udc80", "\ud800x"])) + '"'
    else:
        scalar = draw(st.sampled_from(_HOSTILE_SCALARS))
    if kind == "deep":
        depth = draw(st.integers(513, 5000))  # up to 512 levels is valid
        opener = draw(st.sampled_from(["[", '{"a":']))
        closer = "]" if opener == "[" else "}"
        text = opener * depth + "1" + closer * depth
    elif kind == "frame":
        text = (
            '{"digest":"' + "0" * 64 + '","payload":{"capabilities":["discover"],"x":' + scalar
            + '},"pluginId":"fixture","pluginVersion":"1.0.0","protocolVersion":3,"seq":1,'
            '"type":"hello"}'
        )  # fmt: skip
    else:
        template = draw(
            st.sampled_from(
                ["{}", "[{}]", '{{"a":{}}}', '{{"jsonrpc":"2.0","method":"m","id":{}}}', " {}"]
            )
        )
        text = template.format(scalar)
    return text.encode("utf-8", "surrogatepass")


LINES = st.one_of(st.binary(max_size=256), hostile_lines())


def _raises_only(decode: Callable[[bytes], Any], line: bytes, allowed: type[Exception]) -> None:
    """Only `allowed` may escape (any other exception fails the test)."""
    with contextlib.suppress(allowed):
        decode(line)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(line=LINES)
def test_the_strict_parser_raises_only_json_rejected(line: bytes) -> None:
    with pytest.raises(JSONRejected) if _is_hostile(line) else contextlib.suppress(JSONRejected):
        loads_strict(line)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(line=LINES)
def test_the_frame_decoder_raises_only_protocol_errors(line: bytes) -> None:
    for strict in (False, True):
        _raises_only(
            lambda raw, s=strict: decode_frame(  # type: ignore[misc]
                raw, frame=1, plugin_id=ID, plugin_version=VERSION, strict=s
            ),
            line,
            codes.ProtocolError,
        )


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(line=LINES, phase=st.sampled_from(["hello", "result"]))
def test_a_host_connection_turns_any_line_into_an_event_or_one_protocol_error(
    line: bytes, phase: str
) -> None:
    conn = Connection(Role.HOST, ID, VERSION)
    if phase == "result":
        conn.receive_data(build_frame(ID, VERSION, "hello", 1, {"capabilities": ["discover"]})[0])
        assert isinstance(conn.next_event(), Hello)
        conn.send(Ready())
        conn.send(Discover("r", (".",)))
    conn.receive_data(line.replace(b"\n", b" ") + b"\n")
    _raises_only(lambda _: conn.next_event(), line, codes.ProtocolError)
    _raises_only(lambda _: verify_result(line, frame=2, plugin_id=ID, plugin_version=VERSION,
                                         request_id="r"), line, codes.ProtocolError)  # fmt: skip


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(line=LINES)
def test_the_json_rpc_parsers_never_raise(line: bytes) -> None:
    parsed = jsonrpc.parse_request(line)
    if _is_hostile(line):
        assert isinstance(parsed, jsonrpc.Invalid) and parsed.code == jsonrpc.PARSE_ERROR
    JsonRpcConnection().receive(line)


@pytest.mark.parametrize("scalar", _HOSTILE_SCALARS[:5])
def test_a_huge_integer_in_a_result_is_one_schema_error_on_both_parse_paths(scalar: str) -> None:
    """The contract names an integer past ±(2**53-1) E_SCHEMA (§3): the strict parser refuses it
    while parsing (UnsafeInteger, a JSONRejected), and the frame decoder says so."""
    with pytest.raises(UnsafeInteger):
        loads_strict(f"[{scalar}]".encode())
    host = Connection(Role.HOST, ID, VERSION)
    host.receive_data(build_frame(ID, VERSION, "hello", 1, {"capabilities": ["discover"]})[0])
    assert isinstance(host.next_event(), Hello)
    host.send(Ready())
    host.send(Discover("r", (".",)))
    payload = '{"classificationSignals":[],"findings":[],"requestId":"r","resources":[' \
              '{"attrs":{"n":' + scalar + '},"kind":"t","location":{"line":1,"path":"a"},' \
              '"name":"n"}],"unresolved":[]}'  # fmt: skip
    line = (
        '{"digest":"' + "0" * 64 + '","payload":' + payload + ',"pluginId":"fixture",'
        '"pluginVersion":"1.0.0","protocolVersion":3,"seq":2,"type":"result"}\n'
    )  # fmt: skip
    host.receive_data(line.encode())
    with pytest.raises(codes.SchemaError) as info:
        host.next_event()
    assert info.value.got is not None and info.value.got.startswith("integer ")
    assert len(info.value.diagnostic().split("\n")) == 2


def test_a_json_rpc_id_past_the_limit_is_a_parse_error() -> None:
    line = json.dumps({"jsonrpc": "2.0", "method": "m", "id": 2**53}).encode()
    parsed = jsonrpc.parse_request(line)
    assert isinstance(parsed, jsonrpc.Invalid) and parsed.code == jsonrpc.PARSE_ERROR


def _is_hostile(line: bytes) -> bool:
    """Whether `line` is one `hostile_lines` made (each holds something every parser refuses)."""
    return (
        any(mark in line for mark in _MARKS)
        or _LONG_DIGITS.search(line) is not None
        or line.count(b"[") + line.count(b"{") > 512
    )


_MARKS = (b"NaN", b"Infinity", b"1e400", b"\\ud800", b"\\udfff", b"\xed\xb2\x80", b"\xed\xa0\x80")
_LONG_DIGITS = re.compile(rb"[0-9]{16}")
