"""Issue 33, items 4 and 6 on the JSON-RPC path: no plugin's output monopolises the event loop,
a plugin that floods lines serving no request is ended, and clients share a plugin fairly.

Proved by order and counts, never by time: how many lines the reader handles between two turns
of another task, which diagnostic ends the flood, which calls are answered."""

from __future__ import annotations

import asyncio
import gc
import json
import logging
import os
import sys
import time
import tracemalloc
from pathlib import Path
from typing import Any, cast

import httpx
import pytest
from conftest import FIXTURE_PLUGINS, REPO
from gateway_harness import jsonrpc_plugin, running_gateway, write_config

from app.routes import rpc_endpoint
from gpp.core import JsonRpcConnection, codes
from gpp.core import jsonrpc as core_jsonrpc
from gpp.host import JsonRpcSession, PluginSession, SandboxPolicy, Timeouts
from gpp.host import jsonrpc as host_jsonrpc
from gpp.host.process import CpuBudget, StderrRing, allowance_left

WAIT_S = 60.0
EXAMPLE = REPO / "plugins" / "jsonrpc_example.py"

JUNK_AFTER_FIRST_CALL = """
import sys
sys.stdin.readline()
sys.stdout.write('{"jsonrpc": "2.0", "id": 1, "result": "first"}\\n'); sys.stdout.flush()
for _ in range(2_000_000):  # bounded: on a gateway that never ends it, it exits (E_EOF)
    sys.stdout.write('1\\n' * 512)
"""


def test_a_plugin_flooding_lines_that_serve_no_request_is_ended_with_e_frame_json(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """Tiny `1` lines written outside any call cost the gateway a parse each (500 times the
    plugin's CPU), were never logged, and went on for as long as the plugin liked. Now the
    session ends with E_FRAME_JSON after the junk allowance, and the kill is logged with why."""

    async def scenario() -> tuple[Any, codes.ProtocolError, int]:
        ended: asyncio.Future[codes.ProtocolError] = asyncio.get_running_loop().create_future()
        session = JsonRpcSession(
            [sys.executable, "-c", JUNK_AFTER_FIRST_CALL],
            "junk-flood",
            on_failure=ended.set_result,
        )
        await session.start()
        try:
            first = session.send(core_jsonrpc.Request("work", None, 1))
            assert first is not None
            answer = await asyncio.wait_for(first.answer, WAIT_S)
            error = await asyncio.wait_for(ended, WAIT_S)
        finally:
            await session.close(5)
        return answer, error, session.junk_lines

    with caplog.at_level(logging.WARNING, logger="gpp.rpc"):
        answer, error, junk_lines = asyncio.run(scenario())
    assert answer == {"jsonrpc": "2.0", "id": 1, "result": "first"}
    assert isinstance(error, codes.FrameJSONError), error
    assert "flooded its stdout" in error.problem and error.offending_frame == "1"
    # the allowance, plus what refilled while it was read: far below the 10^9 lines written
    assert host_jsonrpc.JUNK_BURST < junk_lines < 100 * host_jsonrpc.JUNK_BURST
    kills = [r for r in caplog.records if r.getMessage() == "kill"]
    assert [r.fields["reason"] for r in kills] == ["E_FRAME_JSON"]  # type: ignore[attr-defined]
    assert "flooded" in kills[0].fields["problem"]  # type: ignore[attr-defined]


def test_answers_to_no_request_past_the_allowance_end_the_session_with_e_schema() -> None:
    plugin = (
        "import sys\n"
        "for n in range(10**6):\n"
        '    sys.stdout.write(\'{"jsonrpc": "2.0", "id": %d, "result": 1}\\n\' % (n + 10**6))\n'
    )

    async def scenario() -> codes.ProtocolError:
        ended: asyncio.Future[codes.ProtocolError] = asyncio.get_running_loop().create_future()
        session = JsonRpcSession(
            [sys.executable, "-c", plugin], "stray", on_failure=ended.set_result
        )
        await session.start()
        try:
            return await asyncio.wait_for(ended, WAIT_S)
        finally:
            await session.close(5)

    error = asyncio.run(scenario())
    assert isinstance(error, codes.SchemaError) and "flooded" in error.problem, error


def test_the_reader_yields_to_the_loop_between_bounded_batches() -> None:
    """A plugin that writes without pause: the reader found data buffered at every read and
    never suspended, so ~800 notifications (one 64 KiB read) were handled while every other
    task waited. Now another task gets a turn every LINES_PER_TURN lines at most."""
    count = 20_000

    async def scenario() -> tuple[list[int], Any]:
        heard: list[dict[str, Any]] = []
        session = JsonRpcSession(
            [sys.executable, str(FIXTURE_PLUGINS / "jsonrpc_notification_flood.py")], "flood"
        )
        await session.start()
        try:
            call = session.send(core_jsonrpc.Request("flood", {"count": count}, 1), heard.append)
            assert call is not None
            gaps: list[int] = []
            async with asyncio.timeout(WAIT_S):
                while not call.answer.done():
                    before = len(heard)
                    await asyncio.sleep(0)
                    gaps.append(len(heard) - before)
            return gaps, call.answer.result()
        finally:
            await session.close(5)

    gaps, answer = asyncio.run(scenario())
    assert answer["result"] == count
    assert sum(gaps) == count  # every notification was handled while this task took turns
    assert max(gaps) <= host_jsonrpc.LINES_PER_TURN, max(gaps)


def test_after_a_full_slice_the_reader_rests_three_times_as_long() -> None:
    """At half the loop (a rest as long as the slice), one plugin flooding valid `$/progress`
    lines made another plugin's discover 1.9 to 3.9 times slower; the reader now leaves the
    loop three times as long as its slice took: a quarter of the loop at most."""
    turn = host_jsonrpc.TurnSlice()
    turn.started -= 0.5  # a slice that took half a second
    before = turn.elapsed()
    rest = turn.rest()
    after = turn.elapsed()
    assert 3 * before <= rest <= 3 * after


def test_the_time_the_reader_spends_on_a_plugins_lines_is_charged_to_it() -> None:
    """What a plugin's output costs the gateway counts against that plugin: every slice the
    reader spends on its lines is charged to its CPU budget (`ProcessSession._charge`)."""
    count = 20_000

    async def scenario() -> tuple[list[float], Any]:
        charged: list[float] = []
        session = JsonRpcSession(
            [sys.executable, str(FIXTURE_PLUGINS / "jsonrpc_notification_flood.py")], "flood"
        )
        session._charge = charged.append  # type: ignore[method-assign, assignment]
        await session.start()
        try:
            call = session.send(core_jsonrpc.Request("flood", {"count": count}, 1))
            assert call is not None
            answer = await asyncio.wait_for(call.answer, WAIT_S)
            return charged, answer
        finally:
            await session.close(5)

    charged, answer = asyncio.run(scenario())
    assert answer["result"] == count
    assert len(charged) >= count // host_jsonrpc.LINES_PER_TURN  # a charge per slice at least
    assert all(seconds >= 0 for seconds in charged) and sum(charged) > 0


def test_work_charged_to_a_budget_is_spent_like_the_plugins_own() -> None:
    async def scenario() -> list[float]:
        spent: list[float] = []
        counter = _Counter()
        budget = CpuBudget(cast(Any, counter), 1.0, spent.append, host_jsonrpc.CPU_WINDOW_S)
        counter.used_ns = int(0.25e9)  # the plugin's own: a quarter of its budget
        budget._check()
        budget.disarm()
        assert spent == []
        budget.charge(0.8)  # the gateway's parsing of its lines
        budget._check()
        budget.disarm()
        return spent

    assert asyncio.run(scenario()) == [pytest.approx(1.05)]


@pytest.mark.skipif(os.geteuid() != 0, reason="a session cgroup (the CPU budget) needs root")
def test_a_plugin_flooding_cheap_valid_lines_is_ended_by_its_cpu_budget() -> None:
    """A plugin writing one prebuilt block of valid `$/progress` lines again and again spends
    next to no CPU of its own while the gateway parses every line: its budget lasted hours.
    With the gateway's reading charged to it, `cpu_seconds = 1` ends it, the diagnostic
    saying what the gateway spent."""

    async def scenario() -> codes.ProtocolError:
        ended: asyncio.Future[codes.ProtocolError] = asyncio.get_running_loop().create_future()
        session = JsonRpcSession(
            [sys.executable, str(FIXTURE_PLUGINS / "jsonrpc_cheap_flood.py")],
            "cheap-flood",
            cwd=str(REPO),
            sandbox=SandboxPolicy(cpu_seconds=1, cgroup="required"),
            timeouts=Timeouts(request_ms=600_000),
            on_failure=ended.set_result,
        )
        await session.start()
        try:
            call = session.send(core_jsonrpc.Request("flood", None, 1))
            assert call is not None
            return await asyncio.wait_for(ended, WAIT_S * 3)
        finally:
            await session.close(5)

    failure = asyncio.run(scenario())
    assert isinstance(failure, codes.UnexpectedEOFError), failure
    assert "CPU budget spent" in failure.problem, failure.problem
    assert "and the gateway" in failure.problem and "reading its output" in failure.problem


# ---------------------------------------------------------------------- fair sharing (item 4)


def test_every_call_of_a_batch_counts_against_max_queue(tmp_path: Path) -> None:
    """One batch put 4,000 calls in flight past `max_queue = 8` while every other client got
    503. Now a batch whose requests and notifications would pass `max_queue` is refused whole
    (503, Retry-After), and one that fits is answered."""
    plugin = jsonrpc_plugin("example", EXAMPLE, max_queue=3)
    with running_gateway(write_config(tmp_path, [plugin])) as gw, gw.client() as http:

        def post(batch: list[dict[str, Any]]) -> httpx.Response:
            return http.post(
                "/plugins/example/rpc",
                content=json.dumps(batch),
                headers={"Content-Type": "application/json"},
            )

        sums = [{"jsonrpc": "2.0", "method": "sum", "params": [n, 1], "id": n} for n in range(4)]
        update = {"jsonrpc": "2.0", "method": "update", "params": [1]}
        refused = post(sums)
        assert refused.status_code == 503, refused.text
        assert refused.headers["retry-after"] == "1" and "max_queue = 3" in refused.text
        assert post([*sums[:2], update, update]).status_code == 503  # notifications count too
        answered = post(sums[:3])
        assert [a["result"] for a in answered.json()] == [1, 2, 3]


SLOW_READER = """
import json, sys, time
for line in sys.stdin:
    request = json.loads(line)
    time.sleep(0.2)  # busy: it reads every request, one at a time
    if "id" in request:
        reply = {"jsonrpc": "2.0", "id": request["id"], "result": len(line)}
        sys.stdout.write(json.dumps(reply) + "\\n"); sys.stdout.flush()
"""


def test_a_burst_that_fills_a_busy_plugins_stdin_is_backpressure_not_a_kill() -> None:
    """One client's burst filled a shared plugin's stdin; the gateway read that as "the plugin
    stopped reading" and killed the session, failing every other client's call in flight. A
    plugin that keeps taking bytes is busy, not deaf: its session lives, and each call is
    answered or times out on its own clock (a plugin that takes nothing is still killed:
    `test_rpc_endpoint.py::test_a_plugin_that_stops_reading_gets_a_timeout_and_a_fresh_session`).
    """
    burst = 20  # 20 × 300 KB at 0.2 s each: 4 s of reading, past request_ms = 3 s

    async def scenario() -> tuple[list[dict[str, Any]], bool, codes.ProtocolError | None]:
        session = JsonRpcSession(
            [sys.executable, "-c", SLOW_READER],
            "slow-reader",
            timeouts=Timeouts(handshake_ms=3000, request_ms=3000),
        )
        await session.start()
        try:
            calls = [
                session.send(core_jsonrpc.Request("work", {"blob": "x" * 300_000}, n))
                for n in range(burst)
            ]
            await session.flush()
            answers = [
                await asyncio.wait_for(call.answer, WAIT_S) for call in calls if call is not None
            ]
            return answers, session.alive, session.failure
        finally:
            await session.close(5)

    answers, alive, failure = asyncio.run(scenario())
    assert failure is None and alive  # never killed
    assert len(answers) == burst
    assert "result" in answers[0]  # the first was read and answered
    for answer in answers:  # every other one: its result, or its own timeout
        if "error" in answer:
            assert answer["error"]["code"] == -32002, answer
            assert "did not answer request" in answer["error"]["message"], answer


# ---------------------------------------------------------------------- bounded memory (item 3)


class _StalledSession:
    """A plugin session whose stdin never drains: `flush` waits until the test lets it go."""

    def __init__(self) -> None:
        self.flushing = asyncio.Event()
        self.release = asyncio.Event()
        self.lines = 0

    def send(self, request: core_jsonrpc.Request, listener: Any = None) -> None:
        self.lines += len(json.dumps(request.params))  # as the real one encodes it

    async def flush(self) -> None:
        self.flushing.set()
        await self.release.wait()


def test_a_json_rpc_body_waiting_on_its_plugin_holds_about_its_own_size() -> None:
    """A parsed body of small values costs up to 25 times its size (`[{}, {}, …]`), and the
    route held it while the call waited on the plugin: 40 notifications of 1 MiB took the
    gateway from 60 to 1,034 MiB. Once written, a call's params are let go."""
    notification = {"jsonrpc": "2.0", "method": "update", "params": [{}] * 300_000}
    body = json.dumps(notification).encode()

    async def scenario() -> int:
        session = _StalledSession()
        tracemalloc.start()
        try:
            message = JsonRpcConnection(rpc_endpoint.MAX_BATCH_ENTRIES).receive(body)
            work = asyncio.create_task(
                rpc_endpoint._run(cast(Any, None), cast(JsonRpcSession, session), message)
            )
            await asyncio.wait_for(session.flushing.wait(), WAIT_S)
            gc.collect()
            held, _ = tracemalloc.get_traced_memory()
            session.release.set()
            await asyncio.wait_for(work, WAIT_S)
        finally:
            tracemalloc.stop()
        assert session.lines >= len(body) - 100  # the whole params went out
        return held

    held = asyncio.run(scenario())
    assert held < 2 * len(body), f"{held} bytes held for a body of {len(body)}"


# ---------------------------------------------------------------------- CPU budget per window


class _Counter:
    """A session cgroup's CPU counter, set by the test."""

    def __init__(self) -> None:
        self.used_ns = 0

    def cpu_usage_ns(self) -> int:
        return self.used_ns


def test_a_json_rpc_sessions_cpu_budget_is_per_window_not_for_its_whole_life() -> None:
    """A JSON-RPC session's `cpu_seconds` was one budget for its whole life and every client:
    many clients' calls (or one client's heavy ones) added up until it was killed under
    everyone's calls in flight. It now refills: `cpu_seconds` in any CPU_WINDOW_S."""
    window = host_jsonrpc.CPU_WINDOW_S
    assert JsonRpcSession.cpu_window_s == window
    assert PluginSession.cpu_window_s is None  # a GPP/3 session's budget stays its life's

    async def scenario() -> tuple[list[float], list[float]]:
        spent_steady: list[float] = []
        spent_burst: list[float] = []
        for spent, share in ((spent_steady, 0.1), (spent_burst, 0.6)):
            counter = _Counter()
            budget = CpuBudget(cast(Any, counter), 10.0, spent.append, window)
            for _ in range(30):  # 30 windows' worth of checks, one per tenth of a window
                budget._checked_at -= window / 10  # as if that much time had passed
                counter.used_ns += int(share * 10e9)  # `share` of the budget each time
                budget._check()
                budget.disarm()
                if spent:
                    break
        return spent_steady, spent_burst

    steady, burst = asyncio.run(scenario())
    # a tenth of the budget per tenth of a window, 30 windows long: 30 budgets in all, alive
    assert steady == []
    # 0.6 of it per tenth of a window outruns the refill: spent within the first window
    assert burst and burst[0] <= 10.0 * 1.2 + 1e-9
    assert allowance_left(10, 10, 600.0, 0.0, 4) == 6
    assert allowance_left(6, 10, 600.0, 300.0, 0) == 10  # refills, never past the budget


def test_the_stderr_drain_yields_to_the_loop_after_every_read() -> None:
    """With its pipe full, the stderr drain found data at every read and never suspended: a
    plugin flooding stderr held the loop for everything buffered. Now one read per turn."""
    chunk = b"x" * 1000 + b"\n"
    reads = 10

    async def scenario() -> list[int]:
        stream = asyncio.StreamReader(limit=1 << 24)
        for _ in range(reads * 64):
            stream.feed_data(chunk)
        stream.feed_eof()
        ring = StderrRing()
        drain = asyncio.create_task(ring.drain(stream))
        gaps: list[int] = []
        async with asyncio.timeout(WAIT_S):
            while not drain.done():
                before = ring.total_bytes
                await asyncio.sleep(0)
                gaps.append(ring.total_bytes - before)
        return gaps

    gaps = asyncio.run(scenario())
    assert sum(gaps) == reads * 64 * len(chunk)
    assert max(gaps) <= 65536, max(gaps)


def test_a_slice_is_charged_the_cpu_it_took_not_the_time_the_gateway_was_off_cpu() -> None:
    """Charging wall time would bill a plugin for every moment a loaded machine left the
    gateway unscheduled (a JSON-RPC plugin then lost its `cpu_seconds` to its neighbours)."""
    turn = host_jsonrpc.TurnSlice()
    time.sleep(0.05)  # off CPU, as when the scheduler runs others
    assert turn.elapsed() >= 0.05
    assert turn.cpu_spent() < 0.05
