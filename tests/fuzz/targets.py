"""The fuzz targets: bytes in, a documented outcome or an AssertionError naming the breach.

Plain functions with no atheris import, so the committed corpus replays in any pytest run, and
`fuzz.py` hands the same functions to atheris for coverage-guided runs. Each target states its
property once: an input yields a value or event, or exactly one error of the documented kind;
any other exception escapes and is the finding.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from typing import Any

from gpp.core import (
    Connection,
    Discover,
    Hello,
    JSONRejected,
    Ready,
    Role,
    UnsafeInteger,
    build_frame,
    canonical,
    codes,
    jsonrpc,
    loads_strict,
)
from gpp.core.canonical_json import loads_fast

PLUGIN_ID, PLUGIN_VERSION = "fixture", "1.0.0"
ERROR_CLASSES = tuple(codes.ERROR_CLASSES.values())


# ---------------------------------------------------------------------------- frame decoder


def _connection(mode: int) -> Connection:
    """A connection in the phase `mode` picks, reached by valid frames, so the fuzzed bytes
    meet every phase: a host awaiting hello, idle, or awaiting a result; a plugin awaiting
    ready, or idle."""
    role = Role.HOST if mode % 5 < 3 else Role.PLUGIN
    conn = Connection(role, PLUGIN_ID, PLUGIN_VERSION, max_line_bytes=4096)
    if role is Role.HOST and mode % 5 > 0:
        conn.receive_data(
            build_frame(PLUGIN_ID, PLUGIN_VERSION, "hello", 1, {"capabilities": ["discover"]})[0]
        )
        assert isinstance(conn.next_event(), Hello)
        conn.send(Ready())
        if mode % 5 == 2:
            conn.send(Discover("req-1", (".",)))
    if role is Role.PLUGIN:
        conn.send(Hello(("discover",)))
        if mode % 5 == 4:
            conn.receive_data(build_frame(PLUGIN_ID, PLUGIN_VERSION, "ready", 1, {})[0])
            assert isinstance(conn.next_event(), Ready)
    return conn


def frame_decoder(data: bytes) -> None:
    """The receive path (line framing with the cap, envelope, phase, schema, digest): every
    event is a verified event; the first fault is one ProtocolError subclass, raised again on
    every later call (fail-closed), and it renders as exactly two lines."""
    if not data:
        return
    conn = _connection(data[0])
    chunk = 1 + data[1] % 64 if len(data) > 1 else 1  # arbitrary pipe chunking
    body = data[2:]
    error: codes.ProtocolError | None = None
    for start in [*range(0, len(body), chunk), len(body)]:
        conn.receive_data(body[start : start + chunk])  # the last feed is b"": EOF
        try:
            while conn.next_event() is not None:
                pass
        except codes.ProtocolError as exc:
            error = exc
            break
    if error is None:
        return
    assert type(error) in ERROR_CLASSES, f"not a documented error class: {type(error)}"
    lines = error.diagnostic().split("\n")
    assert len(lines) == 2 and lines[0].startswith(f"[plugin-protocol] FAIL {error.code}: ")
    assert len(lines[1]) <= len("[plugin-protocol] offending frame: ") + 512
    try:
        conn.next_event()
    except codes.ProtocolError as again:
        assert again is error, "a failed connection must keep its first error"
    else:
        raise AssertionError("a failed connection produced an event")


# --------------------------------------------------------------------- canonical JSON parser


def _same(a: Any, b: Any, *, exact_numbers: bool) -> bool:
    """JSON-value equality that tells 1 from True, iteratively (values nest 512 deep).

    `exact_numbers`: 3 and 3.0 differ. Without it numbers compare as doubles, the way JCS
    sees them: `1.2345678901234568e20` is written `123456789012345680000` and read back an int.
    """
    pairs = [(a, b)]
    while pairs:
        x, y = pairs.pop()
        if isinstance(x, list) and isinstance(y, list):
            if len(x) != len(y):
                return False
            pairs.extend(zip(x, y, strict=True))
        elif isinstance(x, dict) and isinstance(y, dict):
            if x.keys() != y.keys():
                return False
            pairs.extend((x[k], y[k]) for k in x)
        elif isinstance(x, bool) or isinstance(y, bool) or exact_numbers:
            if type(x) is not type(y) or x != y:
                return False
        elif isinstance(x, (int, float)) and isinstance(y, (int, float)):
            if float(x) != float(y):
                return False
        elif type(x) is not type(y) or x != y:
            return False
    return True


def canonical_parser(data: bytes) -> None:
    """`loads_strict` gives a value or JSONRejected; an accepted value re-encodes canonically
    (or ValueError, for integers I-JSON cannot hold), the encoding parses back to the same
    value and is a fixed point; where orjson's fast parse also accepts, it agrees."""
    try:
        value = loads_strict(data)
    except JSONRejected as exc:
        assert exc.reason, "a rejection names its cause"
        return
    fast = loads_fast(data)
    assert fast is None or _same(fast, value, exact_numbers=True), (
        f"fast and strict parse disagree on {data!r}"
    )
    try:
        encoded = canonical(value)
    except ValueError:
        assert _holds_unsafe_integer(value), f"canonical refused an I-JSON value from {data!r}"
        return
    try:
        again = loads_strict(encoded)
    except UnsafeInteger:  # a double from 2**53 to 1e21 is written as an unsafe integer
        assert _holds_big_integral_float(value), f"{encoded!r} does not parse back"
        return
    assert _same(again, value, exact_numbers=False), f"{encoded!r} parses to another value"
    assert canonical(again) == encoded, "canonical is not a fixed point"


def _holds_big_integral_float(value: Any) -> bool:
    return _holds(
        value, lambda item: isinstance(item, float) and item.is_integer() and abs(item) > 2**53 - 1
    )


def _holds_unsafe_integer(value: Any) -> bool:
    return _holds(
        value,
        lambda item: (
            (isinstance(item, int) and not isinstance(item, bool) and abs(item) > 2**53 - 1)
            or (isinstance(item, float) and not math.isfinite(item))
        ),
    )


def _holds(value: Any, matches: Callable[[Any], bool]) -> bool:
    """Whether `value`, or any item or member value nested in it, `matches`."""
    stack = [value]
    while stack:
        item = stack.pop()
        if matches(item):
            return True
        if isinstance(item, list):
            stack.extend(item)
        elif isinstance(item, dict):
            stack.extend(item.values())
    return False


# ------------------------------------------------------------------- JSON-RPC line parser


def _valid_parse(message: Any) -> bool:
    if isinstance(message, jsonrpc.Invalid):
        return isinstance(message.code, int)
    return (
        isinstance(message, jsonrpc.Request)
        and isinstance(message.method, str)
        and (message.params is None or isinstance(message.params, (list, dict)))
        and _is_i_json([message.method, message.params, _id_or_none(message.id)])
    )


def _id_or_none(request_id: Any) -> Any:
    return None if request_id is jsonrpc.NO_ID else request_id


def _is_i_json(value: Any) -> bool:
    """What a request carries can be written on as UTF-8 JSON: no NaN, infinity or lone
    surrogate (UnicodeEncodeError is a ValueError)."""
    try:
        json.dumps(value, allow_nan=False, ensure_ascii=False).encode()
    except ValueError:
        return False
    return True


def jsonrpc_line(data: bytes) -> None:
    """`parse_request` never raises: a request, a batch of them, or an Invalid with its code."""
    parsed = jsonrpc.parse_request(data)
    messages = parsed if isinstance(parsed, list) else [parsed]
    assert messages, "a batch is never empty (an empty batch is one Invalid)"
    for message in messages:
        assert _valid_parse(message), f"unexpected parse of {data!r}: {message!r}"


TARGETS: dict[str, Callable[[bytes], None]] = {
    "frame_decoder": frame_decoder,
    "canonical_parser": canonical_parser,
    "jsonrpc_line": jsonrpc_line,
}
