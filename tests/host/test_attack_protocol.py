"""Issue 10, second pass: a hostile GPP/3 plugin at odd moments of the session. Each attack must
end in exactly one ProtocolError naming what went wrong, with the plugin reaped.

- a plugin that exits while the host is still writing a request larger than a pipe holds;
- garbage right after the handshake, before any request was sent.
"""

from __future__ import annotations

import asyncio
import sys

import pytest
from conftest import FIXTURE_PLUGINS
from gateway_harness import wait_exited

from gpp.core import codes
from gpp.host import PluginSession, Timeouts

BIG_PATHS = [f"dir/{'x' * 200}/{n}" for n in range(1500)]  # ~310 KB: far more than a pipe holds


def fault_session(name: str) -> PluginSession:
    return PluginSession(
        [sys.executable, str(FIXTURE_PLUGINS / f"plugin_{name}.py")],
        "fixture",
        "1.0.0",
        timeouts=Timeouts(request_ms=20_000),
    )


@pytest.mark.parametrize(
    ("fixture", "expected", "paths"),
    [
        ("exits_mid_request", codes.UnexpectedEOFError, BIG_PATHS),
        ("hello_then_garbage", codes.FrameJSONError, ["."]),
    ],
)
def test_a_fault_at_an_odd_moment_is_one_protocol_error_and_the_plugin_is_reaped(
    fixture: str, expected: type[codes.ProtocolError], paths: list[str]
) -> None:
    async def scenario() -> tuple[BaseException, int]:
        session = fault_session(fixture)
        async with session:
            pid = session.pid
            assert pid is not None
            with pytest.raises(codes.ProtocolError) as caught:
                await session.discover(paths)
        return caught.value, pid

    error, pid = asyncio.run(scenario())
    assert type(error) is expected, repr(error)
    assert wait_exited(pid)
