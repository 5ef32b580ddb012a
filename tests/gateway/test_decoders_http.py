"""The gateway's own decoders of received bytes refuse with their one documented error (issue
33, item 1; the core's are proved in tests/core/test_decoders.py): a discover body is a
`Discover` or an InvalidRequestError (422), a refused `hello`'s version is a string or None,
and the JSON-RPC reader's dispatch of a plugin's line never raises."""

from __future__ import annotations

import asyncio
import contextlib

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.command_line import _refused_hello
from app.routes.endpoints import discover_body
from gpp.core import Discover, codes
from gpp.host import JsonRpcSession
from gpp.host.jsonrpc import _decode

HOSTILE = st.sampled_from(
    [
        b"9" * 5000,
        b"-" + b"8" * 6000,
        b"9007199254740992",
        b"NaN",
        b"Infinity",
        b"1e400",
        b'"\\ud800"',
        b'"\xed\xa0\x80"',
        b"[" * 3000 + b"]" * 3000,
        b'{"a":' * 800 + b"1" + b"}" * 800,
    ]
)
TEMPLATES = st.sampled_from(
    [
        b"%b",
        b'{"paths":["."],"n":%b}',
        b'{"paths":[%b]}',
        b'{"paths":["."],"requestId":%b}',
        b'{"jsonrpc":"2.0","id":%b,"result":1}',
        b'{"jsonrpc":"2.0","id":1,"result":%b}',
        b'{"jsonrpc":"2.0","method":"$/progress","params":{"id":1,"done":%b}}',
        b'{"protocolVersion":3,"pluginId":"x","pluginVersion":%b,"type":"hello","seq":1}',
    ]
)
BODIES = st.one_of(st.binary(max_size=256), st.builds(lambda t, h: t % h, TEMPLATES, HOSTILE))
SETTINGS = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(body=BODIES)
def test_a_discover_body_is_a_request_or_one_422(body: bytes) -> None:
    with contextlib.suppress(codes.InvalidRequestError):
        assert isinstance(discover_body(body, None), Discover)


@SETTINGS
@given(frame=BODIES)
def test_what_a_refused_hello_announces_is_two_strings_or_none(frame: bytes) -> None:
    refusal = codes.UnknownPluginError(
        "does not match the pinned plugin", frame=1, field="pluginId", offending_frame=frame
    )
    said = _refused_hello(refusal)
    assert said is None or all(isinstance(part, str) for part in said)


@SETTINGS
@given(lines=st.lists(BODIES, min_size=1, max_size=4))
def test_the_json_rpc_reader_takes_any_line_without_raising(lines: list[bytes]) -> None:
    async def dispatch_all() -> None:
        session = JsonRpcSession(["true"], "fixture")
        for line in lines:
            session._dispatch(line, _decode(line))

    asyncio.run(dispatch_all())
