"""Every one-fault fixture plugin, driven by the real asyncio host over real pipes.

Each row: the code, the frame number, the offending field and the exact FAIL line (without its
`[plugin-protocol] FAIL ` prefix). A fixture meant to trip a watchdog gets that one short, so
its timeout stays quick; every other watchdog is a bound never reached (`fault_timeouts`): on a
loaded machine a slow Python start or a slow answer must never turn another fault into E_TIMEOUT.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
import sys

import pytest
import uvloop
from conftest import DEMO_REPO, FIXTURE_PLUGINS, fixture_command, process_gone, reference_command

from app.problems import http_status
from gpp.core import Discover, Result, canonical, codes, digest
from gpp.host import PluginSession, Timeouts
from gpp.host import session as host_session

TIMEOUTS = Timeouts(handshake_ms=3000, request_ms=500, shutdown_ms=500)
GENEROUS_MS = 120_000
WATCHDOG_TRIPPED = {  # the watchdog each timing-out fixture is meant to trip
    "never_hello": "handshake_ms",
    "hangs_on_discover": "request_ms",
    "trickles_partial_line": "request_ms",
    "no_bye": "shutdown_ms",
    "bye_never_exits": "shutdown_ms",
}


def fault_timeouts(name: str) -> Timeouts:
    """Every watchdog a bound never reached, but the one fixture `name` trips: TIMEOUTS' value."""
    limits = dict.fromkeys(("handshake_ms", "request_ms", "shutdown_ms"), GENEROUS_MS)
    if tripped := WATCHDOG_TRIPPED.get(name):
        limits[tripped] = getattr(TIMEOUTS, tripped)
    return Timeouts(**limits)


# fmt: off
FAULTS = [
    ("array_frame", ('E_FRAME_JSON', 1, None, 'E_FRAME_JSON: frame 1: not a JSON object — expected object, got array')),
    ("bye_never_exits", ('E_EXIT_STATUS', 3, None, 'E_EXIT_STATUS: frame 3: plugin did not exit after bye — expected exit code 0, got still running after 500 ms')),
    ("bye_then_exit_3", ('E_EXIT_STATUS', 3, None, 'E_EXIT_STATUS: frame 3: plugin exited nonzero after bye — expected exit code 0, got exit code 3')),
    ("capabilities_without_discover", ('E_SCHEMA', 1, 'hello.payload.capabilities', 'E_SCHEMA: frame 1: hello.payload.capabilities lacks "discover" — expected array containing "discover", got array of 1')),
    ("digest_mismatch", ('E_SCHEMA', 1, 'hello.digest', 'E_SCHEMA: frame 1: hello.digest does not match the frame — expected e2ee9a1694399100c030b81536e06c6a237855a684dfcbdd03c7566690ed66e0, got 0000000000000000000000000000000000000000000000000000000000000000')),
    ("duplicate_keys", ('E_FRAME_JSON', 1, None, 'E_FRAME_JSON: frame 1: invalid JSON: duplicate key "seq"')),
    ("error_instead_of_bye", ('E_PLUGIN_ERROR', 3, None, 'E_PLUGIN_ERROR: frame 3: plugin answered with an error frame: Crashed: out of coffee')),
    ("error_instead_of_hello", ('E_PLUGIN_ERROR', 1, None, 'E_PLUGIN_ERROR: frame 1: plugin answered with an error frame: Crashed: out of coffee')),
    ("empty_capabilities", ('E_SCHEMA', 1, 'hello.payload.capabilities', 'E_SCHEMA: frame 1: hello.payload.capabilities is too short — expected array of at least 1, got array of 0')),
    ("empty_line", ('E_FRAME_JSON', 1, None, 'E_FRAME_JSON: frame 1: empty line — expected a JSON object')),
    ("exits_before_hello", ('E_EOF', 1, None, 'E_EOF: frame 1: output ended before the expected frame (awaiting hello) — expected a complete frame, got EOF (exit code 3)')),
    ("exits_mid_request", ('E_EOF', 2, None, 'E_EOF: frame 2: output ended before the expected frame (discover outstanding) — expected a complete frame, got EOF (exit code 4)')),
    ("gpp2_peer", ('E_PROTOCOL_VERSION', 1, 'hello.protocolVersion', 'E_PROTOCOL_VERSION: frame 1: hello.protocolVersion speaks GPP/2 but this host speaks GPP/3 — expected 3, got integer 2')),
    ("hangs_on_discover", ('E_TIMEOUT', 2, None, 'E_TIMEOUT: frame 2: watchdog fired waiting for result or error — expected a complete frame within 500 ms (raise request_ms to allow more)')),
    ("identity_changes", ('E_UNKNOWN_PLUGIN', 2, 'result.pluginId', "E_UNKNOWN_PLUGIN: frame 2: result.pluginId does not match the pinned plugin — expected 'fixture', got string 'impostor'")),
    ("invalid_json", ('E_FRAME_JSON', 1, None, 'E_FRAME_JSON: frame 1: invalid JSON: Expecting property name enclosed in double quotes at column 23')),
    ("invalid_utf8", ('E_FRAME_JSON', 1, None, 'E_FRAME_JSON: frame 1: invalid JSON: invalid UTF-8 at byte 14')),
    ("line_over_cap", ('E_FRAME_JSON', 1, None, 'E_FRAME_JSON: frame 1: line exceeds max_line_bytes — expected at most 1024 bytes, got more than 1024 bytes')),
    ("missing_field", ('E_SCHEMA', 1, 'hello.seq', 'E_SCHEMA: frame 1: hello.seq missing — expected integer')),
    ("mistyped_field", ('E_SCHEMA', 1, 'hello.payload.capabilities', "E_SCHEMA: frame 1: hello.payload.capabilities has the wrong type — expected array of at least 1, got string 'discover'")),
    ("never_hello", ('E_TIMEOUT', 1, None, 'E_TIMEOUT: frame 1: watchdog fired waiting for hello — expected a complete frame within 3000 ms (raise handshake_ms to allow more)')),
    ("no_bye", ('E_TIMEOUT', 3, None, 'E_TIMEOUT: frame 3: watchdog fired waiting for bye — expected a complete frame within 500 ms (raise shutdown_ms to allow more)')),
    ("no_classification_signals", ('E_SCHEMA', 2, 'result.payload.classificationSignals', 'E_SCHEMA: frame 2: result.payload.classificationSignals missing — expected array')),
    ("partial_line_then_exit", ('E_EOF', 2, None, 'E_EOF: frame 2: output ended mid-frame — expected a complete frame, got EOF (exit code 0)')),
    ("request_error", ('E_PLUGIN_ERROR', 2, None, 'E_PLUGIN_ERROR: frame 2: plugin answered with an error frame: BadRepo: cannot parse repo')),
    ("result_before_handshake", ('E_SCHEMA', 1, 'result.type', 'E_SCHEMA: frame 1: result.type arrived in the wrong phase (awaiting hello) — expected hello, got result')),
    ("second_hello", ('E_SCHEMA', 2, 'hello.type', 'E_SCHEMA: frame 2: hello.type arrived in the wrong phase (discover outstanding) — expected result or error, got hello')),
    ("seq_gap", ('E_SCHEMA', 2, 'result.seq', 'E_SCHEMA: frame 2: result.seq skips ahead — expected 2, got integer 3')),
    ("seq_repeat", ('E_SCHEMA', 2, 'result.seq', 'E_SCHEMA: frame 2: result.seq repeats an earlier frame — expected 2, got integer 1')),
    ("session_error", ('E_PLUGIN_ERROR', 2, None, 'E_PLUGIN_ERROR: frame 2: plugin answered with an error frame: Crashed: out of coffee')),
    ("trickles_partial_line", ('E_TIMEOUT', 2, None, 'E_TIMEOUT: frame 2: watchdog fired waiting for result or error — expected a complete frame within 500 ms (raise request_ms to allow more), got a partial line')),
    ("unknown_envelope_key", ('E_SCHEMA', 1, 'hello.trace', "E_SCHEMA: frame 1: hello.trace is not allowed — expected no such field, got string 'abc'")),
    ("unknown_type", ('E_UNKNOWN_TYPE', 1, 'type', "E_UNKNOWN_TYPE: frame 1: type is not a GPP/3 message type — expected one of hello ready discover result error shutdown bye, got string 'greeting'")),
    ("uppercase_digest", ('E_SCHEMA', 1, 'hello.digest', "E_SCHEMA: frame 1: hello.digest is malformed — expected 64 lowercase hex digits, got string 'E2EE9A1694399100C030B81536E06C6A237855A…'")),
    ("wrong_plugin_id", ('E_UNKNOWN_PLUGIN', 1, 'hello.pluginId', "E_UNKNOWN_PLUGIN: frame 1: hello.pluginId does not match the pinned plugin — expected 'fixture', got string 'someone-else'")),
    ("wrong_plugin_version", ('E_UNKNOWN_PLUGIN', 1, 'hello.pluginVersion', "E_UNKNOWN_PLUGIN: frame 1: hello.pluginVersion does not match the pinned plugin — expected '1.0.0', got string '9.9.9'")),
    ("wrong_request_id", ('E_SCHEMA', 2, 'result.payload.requestId', "E_SCHEMA: frame 2: result.payload.requestId answers another request — expected 'req-1', got 'not-req-1'")),
]
# fmt: on


async def _drive(name: str) -> tuple[PluginSession, codes.ProtocolError | None]:
    session = PluginSession(
        fixture_command(name),
        "fixture",
        "1.0.0",
        timeouts=fault_timeouts(name),
        max_line_bytes=1024,
    )
    try:
        await session.start()
        await session.discover(["."], request_id="req-1")
        await session.shutdown()
    except codes.ProtocolError as exc:
        return session, exc
    finally:
        await session.dispose()
    return session, None


@pytest.mark.parametrize(("name", "expected"), FAULTS, ids=[row[0] for row in FAULTS])
def test_fault_fixture(name: str, expected: tuple[str, int, str | None, str]) -> None:
    session, error = asyncio.run(_drive(name))
    assert error is not None, f"{name} did not fail"
    code, frame, subject, line = expected
    assert (error.code, error.frame, error.subject) == (code, frame, subject)
    assert error.fail_line() == "[plugin-protocol] FAIL " + line
    assert isinstance(error, codes.ERROR_CLASSES[code])
    diagnostic = error.diagnostic().split("\n")
    assert len(diagnostic) == 2 and diagnostic[1].startswith("[plugin-protocol] offending frame: ")
    assert len(diagnostic[1]) <= len("[plugin-protocol] offending frame: ") + 512
    assert "Traceback" not in error.diagnostic()
    assert session.closed and process_gone(session.pid)


def test_request_scoped_error_keeps_the_session() -> None:
    async def scenario() -> None:
        async with PluginSession(
            fixture_command("request_error"), "fixture", "1.0.0", timeouts=fault_timeouts("")
        ) as session:
            with pytest.raises(codes.PluginErrorResponse) as info:
                await session.discover(["."], request_id="first")
            assert info.value.request_id == "first" and not session.closed
            result = await session.discover(["."], request_id="second")
            assert result["requestId"] == "second"
        assert session.returncode == 0 and process_gone(session.pid)

    asyncio.run(scenario())


def test_a_request_written_to_a_pipe_already_closed_is_e_eof_on_uvloop() -> None:
    """The gateway's loop is uvloop, whose pipe transport raises RuntimeError when written after
    it has closed (the plugin died between two requests; asyncio's ignores the write): the
    request was an unhandled exception, a 500, where the plugin's end is a diagnostic."""

    async def scenario() -> None:
        session = PluginSession(
            reference_command(), "reference-detector", "1.0.0", cwd=str(DEMO_REPO)
        )
        await session.start()
        try:
            assert session._proc.stdin is not None
            session._proc.stdin.transport.close()  # as the plugin's death closes it
            with pytest.raises(codes.ProtocolError):  # a diagnostic, whichever end saw it first
                await session.discover(["."])
        finally:
            await session.dispose()
        assert process_gone(session.pid)

    with asyncio.Runner(loop_factory=uvloop.new_event_loop) as runner:
        runner.run(scenario())


def test_crash_reports_exit_status_and_stderr() -> None:
    _, error = asyncio.run(_drive("exits_mid_request"))
    assert isinstance(error, codes.UnexpectedEOFError)
    assert error.exit_code == 4
    assert error.stderr_tail == "fixture: crashing mid-request"


def test_twenty_megabytes_of_stderr_never_blocks_the_plugin() -> None:
    async def scenario() -> None:
        async with PluginSession(
            fixture_command("stderr_flood"),
            "fixture",
            "1.0.0",
            timeouts=Timeouts(10_000, 10_000, 5_000),
        ) as session:
            result = await session.discover(["."])
            assert result["resources"] == []
        assert session.stderr.total_bytes == 20 * 1024 * 1024
        assert len(session.stderr.lines) == 200
        assert session.stderr.tail().count("\n") == 3  # 4 KiB of 1 KiB lines
        assert process_gone(session.pid)

    asyncio.run(scenario())


def test_timeout_kills_the_plugin_with_sigkill() -> None:
    session, error = asyncio.run(_drive("hangs_on_discover"))
    assert isinstance(error, codes.WatchdogTimeoutError) and http_status(error) == 504
    assert session.returncode == -9


def test_a_plugin_that_cannot_start_fails_closed() -> None:
    async def scenario() -> codes.ProtocolError:
        session = PluginSession(["/nonexistent/plugin"], "fixture", "1.0.0")
        with pytest.raises(codes.UnexpectedEOFError) as info:
            await session.start()
        return info.value

    error = asyncio.run(scenario())
    assert error.frame == 1 and "could not be started" in error.problem


def test_a_plugin_that_stops_reading_cannot_stall_a_large_discover() -> None:
    """300 KB of paths overfill the pipe of a plugin that no longer reads: the write itself is
    under the request watchdog, so the caller gets E_TIMEOUT and the plugin is killed."""
    paths = [f"src/module_{n:05}/" + "x" * 80 for n in range(3500)]

    async def scenario() -> tuple[PluginSession, codes.ProtocolError]:
        session = PluginSession(
            fixture_command("never_reads"),
            "fixture",
            "1.0.0",
            timeouts=fault_timeouts("hangs_on_discover"),  # the request watchdog alone short
        )
        await session.start()
        try:
            async with asyncio.timeout(60):  # bound, never reached
                with pytest.raises(codes.WatchdogTimeoutError) as info:
                    await session.discover(paths, request_id="big")
        finally:
            await session.dispose()
        return session, info.value

    session, error = asyncio.run(scenario())
    assert error.frame == 2 and http_status(error) == 504
    assert error.fail_line().startswith(
        "[plugin-protocol] FAIL E_TIMEOUT: frame 2: watchdog fired writing discover: the plugin "
        "stopped reading its stdin — expected discover read within 500 ms (raise request_ms to allow more), got "
    )
    assert re.search(r"got \d+ of 350209 bytes not taken$", error.fail_line())
    assert session.closed and session.returncode == -9 and process_gone(session.pid)


def test_shutdown_cuts_short_a_request_stuck_writing() -> None:
    """A request still writing to a deaf plugin when shutdown begins gets shutdown's deadline:
    both end within `shutdown_ms` (not `request_ms`), the request with E_TIMEOUT."""
    timeouts = Timeouts(handshake_ms=3000, request_ms=60_000, shutdown_ms=300)
    paths = [f"p{n:05}/" + "y" * 90 for n in range(3500)]

    async def scenario() -> tuple[PluginSession, BaseException | None]:
        session = PluginSession(
            fixture_command("never_reads"), "fixture", "1.0.0", timeouts=timeouts
        )
        await session.start()
        request = asyncio.create_task(session.discover(paths))
        try:
            async with asyncio.timeout(5):  # far below request_ms: only shutdown can end it
                while session._unwritten is None:  # until the request is stuck writing
                    await asyncio.sleep(0)
                await session.shutdown()
                outcome = (await asyncio.gather(request, return_exceptions=True))[0]
        finally:
            await session.dispose()
        return session, outcome if isinstance(outcome, BaseException) else None

    session, error = asyncio.run(scenario())
    assert isinstance(error, codes.WatchdogTimeoutError)
    assert "watchdog fired writing discover" in error.fail_line()
    assert session.closed and process_gone(session.pid)


def test_a_plugin_that_closes_stdout_and_lingers_cannot_stretch_shutdown(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """E_EOF waits for the plugin's exit status, but never past the watchdog's deadline: with
    a 30 s exit grace and shutdown_ms of 300, shutdown still ends at once."""
    monkeypatch.setattr(host_session, "EOF_EXIT_GRACE_S", 30.0)
    script = [["send", "hello", ""], ["read"], ["read"], ["close"], ["deaf"]]

    async def scenario() -> tuple[PluginSession, codes.ProtocolError]:
        session = PluginSession(
            [sys.executable, str(FIXTURE_PLUGINS / "scripted_peer.py"), json.dumps(script)],
            "fixture",
            "1.0.0",
            timeouts=Timeouts(3000, 300, 300),
        )
        await session.start()
        try:
            async with asyncio.timeout(10):  # far below the 30 s grace
                with pytest.raises(codes.UnexpectedEOFError) as info:
                    await session.shutdown()
        finally:
            await session.dispose()
        return session, info.value

    session, error = asyncio.run(scenario())
    assert error.fail_line() == (
        "[plugin-protocol] FAIL E_EOF: frame 2: output ended before the expected frame (shutting "
        "down) (plugin still running; killed) — expected a complete frame, got EOF"
    )
    assert process_gone(session.pid)


def test_a_caller_cancelled_mid_handshake_leaves_no_plugin() -> None:
    async def scenario() -> PluginSession:
        session = PluginSession(
            fixture_command("never_hello"), "fixture", "1.0.0", timeouts=fault_timeouts("")
        )  # the caller cancels, never the watchdog
        starting = asyncio.create_task(session.start())
        async with asyncio.timeout(10):
            while session.pid is None:  # spawned: now in the handshake
                await asyncio.sleep(0.01)
        starting.cancel()
        with pytest.raises(asyncio.CancelledError):
            await starting
        return session

    session = asyncio.run(scenario())
    assert session.closed and process_gone(session.pid)


def test_exchange_result_carries_the_payload_bytes_the_digest_covered() -> None:
    async def scenario() -> tuple[Result, dict[str, object], int | None]:
        async with PluginSession(
            reference_command(), "reference-detector", "1.0.0", cwd=str(DEMO_REPO)
        ) as session:
            result = await session.exchange(Discover("ünïcode-request", (".",)))
            payload = await session.discover(["."], "plain")
        return result, payload, session.pid

    result, payload, pid = asyncio.run(scenario())
    assert result.payload_bytes is not None
    assert result.payload_bytes == canonical({"requestId": result.request_id, **result.document})
    assert result.request_id == "ünïcode-request" and result.document["resources"]
    assert result.digest == digest(
        {"type": "result", "seq": 2, "payload": payload | {"requestId": "ünïcode-request"}}
    )
    assert process_gone(pid)


def test_a_discover_cancelled_in_its_own_task_ends_the_session() -> None:
    """`exchange` runs unshielded: cancelled mid-exchange, the session is out of step
    (a discover sent, its answer never read), so it is disposed of, never reused."""

    async def scenario() -> tuple[bool, bool, int | None]:
        session = PluginSession(fixture_command("hangs_on_discover"), "fixture", "1.0.0")
        await session.start()
        task = asyncio.create_task(session.exchange(Discover("r1", (".",))))
        for _ in range(1000):  # a few loop turns: until the discover is written
            if session._conn.frames_sent == 2:
                break
            await asyncio.sleep(0)
        assert session._conn.frames_sent == 2
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await asyncio.wait_for(task, 10)
        return task.cancelled(), session.closed, session.pid

    cancelled, closed, pid = asyncio.run(scenario())
    assert cancelled and closed
    assert process_gone(pid)
