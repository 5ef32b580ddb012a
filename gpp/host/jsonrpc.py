"""The host side of JSON-RPC 2.0 plugins (`gpp.plugin.jsonrpc` is the plugin side): one plugin
process, the requests of many clients multiplexed on it. Asyncio; the gateway's pool
(`app.pool.JsonRpcPool`) restarts a session that ended.

Unlike GPP/3, JSON-RPC requests may overlap, so many HTTP clients share one plugin session at
once. The gateway gives every forwarded request an id of its own (a counter) so clients never
collide, and restores each client's id, value and type (`7` is not `"7"`), in the response and
in the `$/progress` notifications that name it. A client can cancel only its own calls: its
`$/cancelRequest` is mapped to the gateway's id (see `cancel`) and never forwarded raw.

Two deadlines, both `request_ms`, keep one slow call from hurting other clients:

- A request that goes unanswered gets its own -32002 and the plugin a `$/cancelRequest` for it;
  the session lives on. Every request's clock runs from when the gateway accepted it, time spent
  queued behind others included: when only the oldest call's clock ran, one client's batch of
  slow calls made another client's quick call wait 11.5 s with `request_ms = 1000`. (The pool
  bounds how many calls may wait at once: `max_queue`, then 503.)
- The session is killed only when the plugin says nothing at all (no answer, no notification)
  while it owes answers, or takes no byte of what is written to it for `request_ms`: a busy
  plugin is slow (one client's burst filling its stdin is backpressure, not a reason to fail
  every other client's call), a silent or deaf one is stuck. Every call still waiting then gets -32002 (-32001 when the plugin
  exited) and the pool starts the next request afresh, with the same back-off as GPP/3 plugins.

JSON-RPC has no handshake, so a plugin's start-up would count against its first request; until
the plugin's first word the deadlines stretch to `handshake_ms` after the spawn, GPP/3's budget
for a plugin to come up.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import logging
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Unpack

from gpp.core import codes, jsonrpc
from gpp.core.canonical_json import JSONRejected, loads_strict
from gpp.core.codes import OFFENDING_FRAME_LIMIT
from gpp.core.framing import DEFAULT_MAX_LINE_BYTES, LineBuffer, LineTooLong
from gpp.host.process import OFF_LOOP_BYTES, ProcessOptions, ProcessSession, wait_exit
from gpp.host.rate_limit import RateLimitedLog, TokenBucket
from gpp.host.session import Timeouts

log = logging.getLogger("gpp.rpc")
DEFAULT_TIMEOUTS = Timeouts()

PLUGIN_EXITED = -32001
PLUGIN_TIMED_OUT = -32002
PLUGIN_UNAVAILABLE = -32003
SERVER_ERRORS = (PLUGIN_EXITED, PLUGIN_TIMED_OUT, PLUGIN_UNAVAILABLE)

Listener = Callable[[dict[str, Any]], None]
CPU_WINDOW_S = 600.0
"""A JSON-RPC session may use `cpu_seconds` of CPU in any this many seconds (refilling)."""
JUNK_BURST = 1000
JUNK_PER_SECOND = 100.0
"""Lines that serve no request a plugin may write (see `JsonRpcSession._serves_nothing`)."""
READ_CHUNK = 1 << 16
LINES_PER_TURN = 256
"""Lines dispatched back to back before the reader yields to the loop, at most; fewer when
they took `TURN_S` (checked every `TURN_CHECK_LINES` lines)."""
TURN_S = 0.000_2
TURN_CHECK_LINES = 8
REST_PER_TURN = 3.0
"""After a full slice the reader leaves the loop this many times as long as the slice took:
a plugin that writes without pause gets at most a quarter of the loop. At half (1.0), one
plugin flooding valid `$/progress` lines made another plugin's discover 1.9 to 3.9 times
slower; a quarter still reads some 20,000 lines a second of one plugin."""


class TurnSlice:
    """One turn of a reader on the loop: over after `LINES_PER_TURN` lines or `TURN_S`
    seconds, whichever comes first. Small, because every task waiting for the loop (another
    plugin's answer, a client's request) waits up to one slice at each of its own steps."""

    __slots__ = ("cpu_started", "lines", "started")

    def __init__(self) -> None:
        self.lines = 0
        self.started = time.perf_counter()
        self.cpu_started = time.thread_time()

    def spent(self) -> bool:
        self.lines += 1
        if self.lines >= LINES_PER_TURN:
            return True
        return self.lines % TURN_CHECK_LINES == 0 and time.perf_counter() - self.started > TURN_S

    def elapsed(self) -> float:
        return time.perf_counter() - self.started

    def cpu_spent(self) -> float:
        """The loop thread's CPU time in this slice: what the plugin's lines cost the gateway,
        which its budget is charged (wall time would also charge it for the moments a loaded
        machine left the gateway unscheduled)."""
        return time.thread_time() - self.cpu_started

    def rest(self) -> float:
        """How long the reader leaves the loop to others after a full slice: `REST_PER_TURN`
        times as long as the slice took, so a plugin that writes without pause gets at most
        a quarter of the loop (its pipe fills and it waits: the cost of its output is its
        own)."""
        return REST_PER_TURN * self.elapsed()


MAX_UNREAD_FOR_REFUSALS = 1 << 20
"""Bytes the plugin may leave unread before its requests to the client go unanswered."""
_LENIENT = json.JSONDecoder(parse_int=lambda text: int(text) if len(text) <= 20 else text)
"""Reads a refused line only to find the call it answers: a literal `int` cannot convert (over
4,300 digits) stays text rather than raising, so that call still gets its -32603 at once."""


@dataclass(eq=False)
class Call:
    """One forwarded request: whose it is, where its answer goes, and when it was sent."""

    gateway_id: int
    client_id: Any
    listener: Listener | None
    answer: asyncio.Future[dict[str, Any]]
    sent_at: float  # loop time it was written


class JsonRpcSession(ProcessSession):
    """One JSON-RPC plugin process and the requests in flight on it.

    The process itself (spawn, stderr, `alive`, kill and reap) is the ProcessSession's;
    `on_failure` hears, once, the error that ends the session, whether or not a client waits.
    Its `cpu_seconds` is a budget per `CPU_WINDOW_S` (`process.CpuBudget`), not for its life.
    """

    cpu_window_s = CPU_WINDOW_S

    def __init__(
        self,
        command: Sequence[str],
        plugin_id: str,
        *,
        timeouts: Timeouts = DEFAULT_TIMEOUTS,
        max_line_bytes: int = DEFAULT_MAX_LINE_BYTES,
        on_failure: Callable[[codes.ProtocolError], None] | None = None,
        **options: Unpack[ProcessOptions],
    ) -> None:
        super().__init__(command, plugin_id, **options)
        self.timeouts = timeouts
        self.max_line_bytes = max_line_bytes
        self.failure: codes.ProtocolError | None = None
        self._on_failure = on_failure
        self._ids = itertools.count(1)
        self._budget_s = timeouts.request_ms / 1000
        self._up_by = 0.0  # loop time by which the plugin must be up: spawn + handshake_ms
        self._spoken = False
        self._calls: dict[int, Call] = {}  # waiting for their answers, oldest first
        self._owed: set[int] = set()  # given up on (timed out, client left): answers dropped
        self._quiet_since = 0.0  # when the plugin last spoke, or began to owe answers
        self._written = 0  # bytes handed to the plugin's stdin
        self._taken = 0  # of those, how many it had taken when last looked at (see `_deaf`)
        self._taken_at = 0.0  # when it was last seen taking more
        self._changed = asyncio.Event()  # wakes the watchdog (see `_poke`)
        self._wake_at: float | None = None  # when the sleeping watchdog wakes by itself
        self.junk_lines = 0
        """Lines that served no request (see `_serves_nothing`)."""
        self._junk = TokenBucket(JUNK_BURST, JUNK_PER_SECOND)
        self._flooded: codes.ProtocolError | None = None
        self.stdout_log = RateLimitedLog(log, plugin_id, "plugin stdout lines suppressed")
        """What the plugin's stdout makes the gateway say (junk, answers to no request),
        rate-limited as its stderr is: a plugin decides how much junk it writes, not the log."""

    @property
    def in_flight(self) -> int:
        """Requests the plugin has not answered yet, given-up ones included."""
        return len(self._calls) + len(self._owed)

    async def start(self) -> None:
        """Spawn the plugin and start reading it; raises E_EOF when it cannot start."""
        await self._spawn()
        self._up_by = asyncio.get_running_loop().time() + self.timeouts.handshake_ms / 1000
        assert self._proc.stdout is not None
        self._tasks += [
            asyncio.create_task(self._read(self._proc.stdout)),
            asyncio.create_task(self._watch()),
        ]
        log.info("spawn", extra={"fields": {"plugin": self.plugin_id, "pid": self.pid}})

    # ------------------------------------------------------------------------------ clients

    def send(self, request: jsonrpc.Request, listener: Listener | None = None) -> Call | None:
        """Write one request or notification now; a request's answer is `await call.answer`:
        the plugin's with the client's own id, or a -3200x server error.

        Synchronous, so a batch's lines leave in order and a `$/cancelRequest` later in the
        same batch finds the call it names already registered.
        """
        if request.is_notification:
            self._write(_outgoing(request, jsonrpc.NO_ID))
            return None
        loop = asyncio.get_running_loop()
        call = Call(next(self._ids), request.id, listener, loop.create_future(), loop.time())
        if self.closed:  # the session ended between the pool handing it out and now
            call.answer.set_result(self._ended(call))
            return call
        self._begin_owing()
        self._calls[call.gateway_id] = call
        self._write(_outgoing(request, call.gateway_id))
        self._poke()
        return call

    def abandon(self, call: Call) -> None:
        """The client left: the plugin is sent `$/cancelRequest` and the answer will be dropped.

        A call nobody awaits is still under the watchdog even if this is never called, so a
        vanished client can never wedge the session.
        """
        self._give_up(call, None)

    async def flush(self) -> None:
        """Wait until the plugin has read what was written, at most `request_ms` (see `_due`).

        A plugin that stops reading its stdin can never answer: when it took no byte within
        the deadline the session is killed (every waiting call gets -32002), so a write never
        hangs a request. One that reads, only slower than a client's burst came, is busy, not
        deaf: the session lives, and each call is answered or times out on its own clock.
        """
        if self.closed or not self._unread_bytes():  # all taken by the pipe: nothing to wait for
            return
        loop = asyncio.get_running_loop()
        try:
            async with asyncio.timeout_at(self._due(loop.time())):
                await self._proc.stdin.drain()  # type: ignore[union-attr]
        except TimeoutError:
            if self._deaf(loop.time()):
                await self._fail(self._stuck())
            # else busy: it reads, slower than this burst came; each call keeps its deadline
        except (ConnectionError, RuntimeError):
            pass  # the plugin is gone: the reader sees EOF and fails everything pending

    def cancel(self, call: Call) -> None:
        """A client's own `$/cancelRequest`, mapped to the gateway's id for its call.

        The call keeps waiting: the plugin answers it (-32800, or its result if it was done).
        """
        if call.gateway_id in self._calls:
            self._tell_cancel(call.gateway_id)

    async def close(self, timeout_s: float) -> None:
        """Close stdin (a JSON-RPC server's end of session), wait for exit, then kill the group.
        Before the spawn (its sandbox still planned), the start kills what it spawns."""
        if self._process is None:
            self.closed = True
            return
        self.closed = True
        self._changed.set()
        if self._proc.stdin is not None:
            self._proc.stdin.close()
        await wait_exit(self._proc, timeout_s)
        await self._reap()
        self._end_calls()

    # ------------------------------------------------------------------------------ the plugin

    def _write(self, message: dict[str, Any]) -> None:
        """Hand one line to the pipe's buffer; `flush` bounds the wait for the plugin to read."""
        if self.closed:
            return
        stdin = self._proc.stdin
        assert stdin is not None
        transport = stdin.transport
        if transport.is_closing():  # the plugin is gone: the reader's EOF
            return  # fails every call still waiting, this one included
        line = json.dumps(message, ensure_ascii=False, separators=(",", ":")).encode() + b"\n"
        all_taken = not transport.get_write_buffer_size()
        self._written += len(line)
        with contextlib.suppress(RuntimeError, ConnectionError):  # uvloop: a transport the
            stdin.write(line)  # plugin's death closed raises; the EOF answers
        if all_taken and (unread := transport.get_write_buffer_size()):  # what the pipe took
            self._taken = self._written - unread  # at once is no sign of reading: `_deaf`
            self._taken_at = asyncio.get_running_loop().time()  # counts from here

    def _tell_cancel(self, gateway_id: int) -> None:
        self._write(jsonrpc.notification(jsonrpc.CANCEL_METHOD, {"id": gateway_id}))

    async def _read(self, stdout: asyncio.StreamReader) -> None:
        """Read and dispatch the plugin's lines, yielding to the loop after every read and
        every `LINES_PER_TURN` lines, and parsing a long line in a worker thread: one plugin's
        output must not hold every other plugin and client (`1\\n` lines written without pause
        once made another plugin's discover 2,000 times slower). The time spent on its lines
        is charged to its CPU budget (`_charge`): what its output costs the gateway is its."""
        lines = LineBuffer(self.max_line_bytes)
        try:
            while chunk := await stdout.read(READ_CHUNK):
                lines.feed(chunk)
                turn = TurnSlice()
                while (line := lines.next_line()) is not None:
                    if len(line) >= OFF_LOOP_BYTES:
                        message = await asyncio.to_thread(_decode, line)
                    else:
                        message = _decode(line)
                    violation = self._dispatch(line, message) or self._flooded
                    if violation is not None:
                        await self._fail(violation)
                        return
                    if turn.spent():
                        self._charge(turn.cpu_spent())
                        await asyncio.sleep(turn.rest())
                        turn = TurnSlice()
                self._charge(turn.cpu_spent())
                if len(chunk) == READ_CHUNK:  # more may be buffered: `read` would not suspend
                    await asyncio.sleep(0)
        except LineTooLong as exc:
            await self._fail(
                codes.FrameJSONError(
                    "line exceeds max_line_bytes",
                    expected=f"at most {exc.cap} bytes",
                    got=f"more than {exc.cap} bytes",
                    offending_frame=exc.head,
                )
            )
            return
        if self.closed:  # we closed its stdin: the end of the session, not a failure
            return
        await wait_exit(self._proc, 2.0)
        reason = self._end_reason()  # never frozen: its CPU budget is checked all along
        problem = f"plugin exited ({reason})" if reason else "plugin exited"
        await self._fail(codes.UnexpectedEOFError(problem, exit_code=self._exit_status()))

    def _dispatch(self, line: bytes, message: Any) -> codes.ProtocolError | None:
        """Route one line (`_decode`'s value); a line that is not I-JSON is the E_FRAME_JSON
        that ends the session, as every violation ends a GPP/3 one (the call it answers gets its
        own -32603 first)."""
        if isinstance(message, JSONRejected):
            self._refuse_line(line, message)
            return codes.FrameJSONError(f"invalid JSON: {message.reason}", offending_frame=line)
        if not isinstance(message, dict):
            self._serves_nothing(line, codes.FrameJSONError, "a line that is not a JSON object")
            return None
        if "method" in message and "id" in message:  # a request to the client: none is served
            self._heard()
            self._refuse_request(message["id"])
            self._serves_nothing(line, codes.SchemaError, "a request to the gateway")
            return None
        if "method" in message:  # a notification: route it to the request it names
            self._heard()
            params = message.get("params")
            if isinstance(params, dict) and type(params.get("id")) is int:
                call = self._calls.get(params["id"])
                if call is not None and call.listener is not None:
                    call.listener({**message, "params": {**params, "id": call.client_id}})
            return None
        answered = message.get("id")
        if type(answered) is int and answered in self._owed:
            self._heard()
            self._owed.discard(answered)
            return None
        call = self._calls.get(answered) if type(answered) is int else None
        if call is None:
            self.stdout_log.warning("answer to no pending request", id=str(answered)[:200])
            self._serves_nothing(line, codes.SchemaError, "an answer to no pending request")
            return None
        self._heard()
        message["id"] = call.client_id  # same key position: the layout stays as the plugin wrote it
        self._settle(call, message)
        return None

    def _serves_nothing(self, line: bytes, error: type[codes.ProtocolError], what: str) -> None:
        """A line that reaches no client costs the gateway its parse all the same: the plugin
        may write `JUNK_BURST` of them, then `JUNK_PER_SECOND`; past that the session ends
        (E_FRAME_JSON for what is not a JSON object, E_SCHEMA for a well-formed message that
        answers nothing), so a plugin cannot spend the gateway's CPU for hours on its own
        budget's seconds."""
        self.junk_lines += 1
        if self._junk.take() or self._flooded is not None:
            return
        self._flooded = error(
            f"plugin flooded its stdout with lines that serve no request "
            f"({self.junk_lines} in all); killed",
            expected=f"at most {JUNK_BURST} such lines at once, then {JUNK_PER_SECOND:g} a second",
            got=what,
            offending_frame=line[:OFFENDING_FRAME_LIMIT],
        )

    def _refuse_request(self, request_id: Any) -> None:
        """A plugin-to-client request is answered -32601 here and never forwarded: it reached
        SSE clients as a notification carrying an id, which no client can answer. Not while
        the plugin leaves what it was sent unread: a flood of requests must not grow the
        write buffer, and the watchdog deals with a plugin that does not read."""
        if type(request_id) not in (str, int) or self._unread_bytes() > MAX_UNREAD_FOR_REFUSALS:
            self.stdout_log.warning("request from plugin left unanswered", id=str(request_id)[:200])
            return
        self._write(jsonrpc.error(request_id, jsonrpc.METHOD_NOT_FOUND))

    def _refuse_line(self, line: bytes, reason: JSONRejected) -> None:
        """A line that is not I-JSON (NaN, Infinity, a lone surrogate, …) is never passed on;
        when it answers a waiting call, that call gets -32603 saying why (the others, the
        session's end)."""
        with contextlib.suppress(ValueError, RecursionError):  # only to learn which call it is
            message = _LENIENT.decode(line.decode("utf-8", "surrogatepass"))
            answered = message.get("id") if isinstance(message, dict) else None
            call = self._calls.get(answered) if type(answered) is int else None
            if call is not None:
                self._heard()
                self._settle(
                    call,
                    jsonrpc.error(
                        call.client_id,
                        jsonrpc.INTERNAL_ERROR,
                        data={"reason": f"the plugin's answer is not I-JSON: {reason.reason}"},
                    ),
                )
                return
        self.stdout_log.warning(
            "unparseable line from plugin",
            reason=reason.reason,
            line=line[:200].decode("utf-8", "replace"),
        )
        self._serves_nothing(line, codes.FrameJSONError, "a line that is not I-JSON")

    # ------------------------------------------------------------------------------ deadlines

    async def _watch(self) -> None:
        """One timer for both deadlines (see the module docstring); woken by `_changed`."""
        loop = asyncio.get_running_loop()
        while not self.closed:
            now = loop.time()
            wake_at: float | None = None
            if self._owes_answers():
                wake_at = self._due(self._quiet_since)
                if now >= wake_at:
                    await self._fail(self._stuck())
                    return
            head = next(iter(self._calls.values()), None)
            if head is not None:
                due = self._due(head.sent_at)  # the oldest's is the earliest: same budget
                if now >= due:
                    if self._deaf(now):  # it takes nothing of what it is sent: a dead session
                        await self._fail(self._stuck())
                        return
                    self._give_up(head, self._timed_out(head))
                    continue
                wake_at = due if wake_at is None else min(wake_at, due)
            self._changed.clear()
            self._wake_at = wake_at
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout_at(wake_at):
                    await self._changed.wait()
            self._wake_at = None

    def _poke(self) -> None:
        """Wake the watchdog where its sleep is now wrong: the session closed, or something is
        owed while it sleeps with no deadline at all.

        Every other change moves a deadline later (the plugin spoke, a call was answered or
        added behind the oldest), so the watchdog finds it when it wakes at the earlier time it
        already has: a request costs no wake-up of its own. The one change that can bring a
        deadline forward, the plugin's first word ending the start-up stretch, pokes itself.
        """
        if self.closed or (self._wake_at is None and self._owes_answers()):
            self._changed.set()

    def _due(self, since: float) -> float:
        """When a `request_ms` clock started at `since` runs out (later while starting up)."""
        due = since + self._budget_s
        return due if self._spoken else max(due, self._up_by)

    def _owes_answers(self) -> bool:
        return bool(self._calls or self._owed)

    def _begin_owing(self) -> None:
        """Silence is counted from when the plugin first owes an answer, not from its last word."""
        if not self._owes_answers():
            self._quiet_since = asyncio.get_running_loop().time()

    def _heard(self) -> None:
        if not self._spoken:  # deadlines no longer stretch to the start-up's: they come forward
            self._spoken = True
            self._changed.set()
        self._quiet_since = asyncio.get_running_loop().time()
        self._poke()

    def _stuck(self) -> codes.WatchdogTimeoutError:
        """Why the session is killed: it does not read what it is sent, or it has fallen silent."""
        ms = self.timeouts.request_ms
        unread = self._unread_bytes()
        if unread:
            return codes.WatchdogTimeoutError(
                f"plugin did not read its stdin within {ms} ms; killed",
                expected="the plugin reading its requests",
                got=f"{unread} bytes unread",
            )
        return codes.WatchdogTimeoutError(
            f"plugin said nothing for {ms} ms while {self.in_flight} request(s) waited; killed"
        )

    def _deaf(self, now: float) -> bool:
        """Bytes wait in the pipe and the plugin took none of them for `request_ms`.

        Looked at only when a deadline is due, so taking is seen late, never early: a plugin
        that took anything since the last look counts as reading from now on.
        """
        unread = self._unread_bytes()
        if not unread:
            return False
        taken = self._written - unread
        if taken > self._taken:
            self._taken, self._taken_at = taken, now
            return False
        return now - self._taken_at >= self._budget_s

    def _unread_bytes(self) -> int:
        assert self._proc.stdin is not None
        return self._proc.stdin.transport.get_write_buffer_size()

    def _timed_out(self, call: Call) -> dict[str, Any]:
        error = codes.WatchdogTimeoutError(
            f"plugin did not answer request {call.client_id!r} within "
            f"{self.timeouts.request_ms} ms; $/cancelRequest sent"
        )
        return jsonrpc.error(
            call.client_id, PLUGIN_TIMED_OUT, error.fail_line(), {"code": error.code}
        )

    def _give_up(self, call: Call, answer: dict[str, Any] | None) -> None:
        """Stop waiting for `call`: its client gets `answer` (None: it left), the plugin is told
        to cancel it, and its answer, which the plugin still owes, will be dropped."""
        if call.gateway_id not in self._calls:
            return
        self._settle(call, answer)
        if not self.closed:
            self._owed.add(call.gateway_id)
            self._tell_cancel(call.gateway_id)

    def _settle(self, call: Call, answer: dict[str, Any] | None) -> None:
        del self._calls[call.gateway_id]
        if answer is not None and not call.answer.done():
            call.answer.set_result(answer)
        self._poke()

    # ------------------------------------------------------------------------------ the end

    async def _fail(self, error: codes.ProtocolError) -> None:
        """Fail every waiting call with a server error and end the session."""
        if self.failure is not None:
            return
        self.failure = error
        self.closed = True
        self._changed.set()
        await self._reap()
        error.stderr_tail = self.stderr.tail() or None
        if isinstance(error, codes.UnexpectedEOFError):
            error.exit_code = (
                error.exit_code if error.exit_code is not None else self._exit_status()
            )
        self._end_calls()
        log.warning(
            "kill",
            extra={
                "fields": {
                    "plugin": self.plugin_id,
                    "pid": self.pid,
                    "reason": error.code,
                    "problem": error.problem,
                }
            },
        )
        if self._on_failure is not None:
            self._on_failure(error)  # once, whether or not a client is still waiting

    def _end_calls(self) -> None:
        self.stdout_log.flush()
        for call in list(self._calls.values()):
            self._settle(call, self._ended(call))
        self._owed.clear()

    def _ended(self, call: Call) -> dict[str, Any]:
        """The answer for a call the session can no longer serve."""
        error = self.failure
        if error is None:
            return jsonrpc.error(call.client_id, PLUGIN_UNAVAILABLE, "the gateway is shutting down")
        code = PLUGIN_TIMED_OUT if isinstance(error, codes.WatchdogTimeoutError) else PLUGIN_EXITED
        data = {"code": error.code, "exitCode": error.exit_code, "stderrTail": error.stderr_tail}
        return jsonrpc.error(call.client_id, code, error.fail_line(), data)


def _decode(line: bytes) -> Any:
    """The line's JSON value, or the JSONRejected saying why it has none (a value, so that a
    worker thread can hand it back as well as the loop)."""
    try:
        return loads_strict(line)
    except JSONRejected as exc:
        return exc


def _outgoing(request: jsonrpc.Request, gateway_id: Any) -> dict[str, Any]:
    message: dict[str, Any] = {"jsonrpc": "2.0", "method": request.method}
    if request.params is not None:
        message["params"] = request.params
    if gateway_id is not jsonrpc.NO_ID:
        message["id"] = gateway_id
    return message
