"""The asyncio host adapter: one plugin process driven through the sans-IO `Connection`.

Everything here is IO and time: pipes, the watchdog deadlines, killing and reaping. Every
protocol decision is the connection's. Any fault kills the plugin's process group, reaps it and
closes the session; the caller gets exactly one ProtocolError.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
import uuid
from collections.abc import AsyncIterator, Callable, Mapping, Sequence
from dataclasses import dataclass
from types import TracebackType
from typing import Any, NoReturn, TypeVar, overload

from gpp.core import codes
from gpp.core.connection import Connection, UsageError
from gpp.core.framing import DEFAULT_MAX_LINE_BYTES
from gpp.core.messages import (
    Bye,
    Discover,
    Event,
    Hello,
    PluginError,
    Ready,
    Result,
    Role,
    SessionError,
    Shutdown,
)
from gpp.core.request_budget import request_budget_environment
from gpp.host.process import OFF_LOOP_BYTES, ProcessSession, wait_exit
from gpp.host.sandbox import SandboxPolicy

log = logging.getLogger("gpp.host")
READ_CHUNK = 1 << 16
EOF_EXIT_GRACE_S = 2.0
"""How long a plugin whose stdout ended gets to exit by itself, so its status can be reported."""
_T = TypeVar("_T", bound=Event)
_U = TypeVar("_U", bound=Event)


@dataclass(frozen=True)
class Timeouts:
    handshake_ms: int = 10_000
    request_ms: int = 10_000
    shutdown_ms: int = 5_000


class PluginSession(ProcessSession):
    """A pinned GPP/3 session with one plugin process. Lock-step: one discover at a time.

    The process itself (spawn, stderr, `alive`, kill and reap) is the ProcessSession's.
    """

    def __init__(
        self,
        command: Sequence[str],
        plugin_id: str,
        plugin_version: str,
        *,
        cwd: str | None = None,
        env: Mapping[str, str] | None = None,
        timeouts: Timeouts = Timeouts(),
        max_line_bytes: int = DEFAULT_MAX_LINE_BYTES,
        on_stderr: Callable[[str], None] | None = None,
        sandbox: SandboxPolicy | None = None,
        announced_id: str | None = None,
    ) -> None:
        """`announced_id`: the pluginId its frames must carry, when it is registered under
        another id (`plugin_id`, which the logs name)."""
        # The plugin learns its budget (the contract's environment.requestBudget, read through
        # its SDK): a pack answers what it has before the watchdog fires rather than be killed
        # with nothing (plugins/packs/scan.py).
        env = {**request_budget_environment(timeouts.request_ms), **(env or {})}
        super().__init__(command, plugin_id, cwd=cwd, env=env, on_stderr=on_stderr, sandbox=sandbox)
        self.plugin_version = plugin_version
        self.timeouts = timeouts
        self.capabilities: tuple[str, ...] = ()
        self._conn = Connection(
            Role.HOST, announced_id or plugin_id, plugin_version, max_line_bytes=max_line_bytes
        )
        self._turn = asyncio.Lock()
        self._deadline: asyncio.Timeout | None = None  # the watchdog of the exchange under way
        self._unwritten: tuple[str, int] | None = None  # type and size of a frame being written

    # ---------------------------------------------------------------------------- public API

    async def start(self) -> None:
        """Spawn the plugin and complete the handshake (hello → ready)."""
        await self._spawn()
        started = time.perf_counter()
        self._log("spawn", command=" ".join(self.command))
        try:
            async with self._turn, self._watchdog(self.timeouts.handshake_ms, key="handshake_ms"):
                hello = await self._read(Hello)
                self.capabilities = hello.capabilities
                await self._write(Ready())
            self._idle()
        except asyncio.CancelledError:
            await self.dispose()  # a caller gone mid-handshake leaves no half-started plugin
            raise
        self._log(
            "handshake",
            ms=round((time.perf_counter() - started) * 1000, 2),
            capabilities=",".join(self.capabilities),
        )

    async def discover(self, paths: Sequence[str], request_id: str | None = None) -> dict[str, Any]:
        """The result payload for `paths`; raises InvalidRequestError (nothing sent, session
        intact), PluginErrorResponse (session intact) or a fatal ProtocolError (session gone).

        A thin wrapper over `exchange`, run shielded: a caller that is cancelled mid-request
        does not leave the session out of step, the answer is read and dropped.
        """
        work = asyncio.create_task(
            self.exchange(Discover(request_id or uuid.uuid4().hex, tuple(paths)))
        )
        # An abandoned exchange's error is already recorded on the session: consume it here.
        work.add_done_callback(lambda task: task.cancelled() or task.exception())
        result = await asyncio.shield(work)
        return {"requestId": result.request_id, **result.document}

    async def exchange(self, request: Discover) -> Result:
        """The one way a discover is done: send `request`, return the Result event (which also
        carries the frame's digest and payload bytes), or raise as `discover` says.

        It runs in the caller's task, unshielded: the gateway's pool runs each request as a task
        of its own, shielded from whoever waits for it. Cancelled mid-exchange all the same, the
        session is out of step, so it is disposed of before the cancellation goes on.
        """
        try:
            return await self._exchange(request)
        except asyncio.CancelledError:
            await asyncio.shield(self.dispose())
            raise

    async def shutdown(self) -> None:
        """shutdown → bye → exit 0, all within one `shutdown_ms`; else E_TIMEOUT or
        E_EXIT_STATUS and a kill.

        A request still holding the session gets the same deadline to finish: past it, its own
        watchdog is brought forward (E_TIMEOUT, plugin killed), so shutdown never waits longer
        than `shutdown_ms` plus the kill, whatever the plugin does.
        """
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.timeouts.shutdown_ms / 1000
        try:
            async with asyncio.timeout_at(deadline):
                await self._turn.acquire()
        except TimeoutError:
            if self._deadline is not None:
                self._deadline.reschedule(loop.time())
            await self._turn.acquire()  # the request's watchdog kills the plugin and lets go
        try:
            if self.closed or self._process is None:
                return
            self._running()
            async with self._watchdog(self.timeouts.shutdown_ms, deadline, key="shutdown_ms"):
                await self._write(Shutdown())
                await self._read(Bye)
            bye_frame = self._conn.frames_received
            await wait_exit(self._proc, max(0.0, deadline - loop.time()))
            status = self._process.returncode
            if status != 0:
                problem = (
                    "plugin did not exit after bye"
                    if status is None
                    else "plugin exited nonzero after bye"
                )
                await self._fatal(
                    codes.ExitStatusError(
                        problem,
                        frame=bye_frame,
                        expected="exit code 0",
                        got=f"still running after {self.timeouts.shutdown_ms} ms"
                        if status is None
                        else codes.describe_exit(status),
                        exit_code=status,
                    )
                )
            await self._close()
        finally:
            self._turn.release()

    async def dispose(self) -> None:
        """Best-effort kill and reap; never raises."""
        with contextlib.suppress(Exception):
            await self._close(kill=True)

    async def __aenter__(self) -> PluginSession:
        await self.start()
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        if exc_type is None:
            await self.shutdown()
        else:
            await self.dispose()

    # ------------------------------------------------------------------------------ internals

    async def _exchange(self, request: Discover) -> Result:
        async with self._turn:
            if self.closed or self._process is None:
                raise RuntimeError("session is not running")
            self._running()
            try:
                async with self._watchdog(self.timeouts.request_ms, key="request_ms"):
                    await self._write(request)
                    answer = await self._read(Result, PluginError)
            finally:
                self._idle()
            if isinstance(answer, Result):
                return answer
            raise codes.PluginErrorResponse(
                f"plugin answered with an error frame: {answer.code}: {answer.message}",
                frame=self._conn.frames_received,
                request_id=request.request_id,
                offending_frame=self._conn.last_frame,
            )

    @contextlib.asynccontextmanager
    async def _watchdog(
        self, budget_ms: int, deadline: float | None = None, *, key: str
    ) -> AsyncIterator[None]:
        """One deadline over everything the block writes and reads; any fault in it is fatal.

        Writes count too: a plugin that stops reading its stdin blocks the drain of a large
        frame just as surely as one that never answers blocks the read.
        """
        loop = asyncio.get_running_loop()
        deadline = loop.time() + budget_ms / 1000 if deadline is None else deadline
        try:
            try:
                async with asyncio.timeout_at(deadline) as self._deadline:
                    yield
            finally:
                self._deadline = None
        except TimeoutError:
            await self._fatal(self._timed_out(budget_ms, key))
        except codes.InvalidRequestError:
            raise  # the caller's bad request: nothing was sent, the session is intact
        except codes.ProtocolError as exc:
            await self._fatal(exc, exit_by=deadline)

    def _timed_out(self, budget_ms: int, key: str) -> codes.WatchdogTimeoutError:
        """The timeout, its `expected` naming the registry key that sets the budget (`request_ms`
        of the plugin's entry), so a scan too big for it says in one line what to raise."""
        frame = self._conn.frames_received + 1  # the frame the plugin owed
        if self._unwritten is not None:
            message_type, size = self._unwritten
            assert self._proc.stdin is not None
            return codes.WatchdogTimeoutError(
                f"watchdog fired writing {message_type}: the plugin stopped reading its stdin",
                frame=frame,
                expected=f"{message_type} read within {budget_ms} ms (raise {key} to allow more)",
                got=f"{self._proc.stdin.transport.get_write_buffer_size()} of {size} bytes "
                "not taken",
            )
        partial = self._conn.partial_frame
        return codes.WatchdogTimeoutError(
            f"watchdog fired waiting for {self._conn.allowed_from_peer() or 'a frame'}",
            frame=frame,
            expected=f"a complete frame within {budget_ms} ms (raise {key} to allow more)",
            got="a partial line" if partial else None,
            offending_frame=partial or None,
        )

    async def _write(self, event: Event) -> None:
        if isinstance(event, Discover) and sum(map(len, event.paths)) >= OFF_LOOP_BYTES:
            line = await asyncio.to_thread(self._conn.send, event)  # its encoding and digest
        else:  # would hold the loop as long as the parse of a result that size
            line = self._conn.send(event)
        assert self._proc.stdin is not None
        self._unwritten = (event.TYPE, len(line))
        try:
            self._proc.stdin.write(line)
            await self._proc.stdin.drain()
        except (BrokenPipeError, ConnectionResetError, RuntimeError):
            # the plugin is gone (uvloop raises RuntimeError on a transport its death closed,
            # where asyncio's ignores the write: a soak found it as a 500); reading its stdout
            # reports E_EOF with its status
            pass
        self._unwritten = None

    @overload
    async def _read(self, expected: type[_T], /) -> _T: ...
    @overload
    async def _read(self, expected: type[_T], alternative: type[_U], /) -> _T | _U: ...
    async def _read(self, *expected: type[Any]) -> Event:
        """The next event, which the connection's phase rules allow to be only one of
        `expected` or a session-fatal error; the latter raises E_PLUGIN_ERROR."""
        assert self._proc.stdout is not None
        stdout = self._proc.stdout
        fed = 0  # bytes read for this event: a long line is parsed in a worker thread
        while (event := self._conn.next_event()) is None:
            chunk = await stdout.read(READ_CHUNK)
            self._conn.receive_data(chunk)
            fed += len(chunk)
            if fed >= OFF_LOOP_BYTES and b"\n" in chunk:
                if (event := await asyncio.to_thread(self._conn.next_event)) is not None:
                    break
            elif fed > READ_CHUNK:  # a read with data buffered does not suspend: yield
                await asyncio.sleep(0)
        if isinstance(event, SessionError):
            raise codes.PluginErrorResponse(
                f"plugin answered with an error frame: {event.code}: {event.message}",
                frame=self._conn.frames_received,
                offending_frame=self._conn.last_frame,
            )
        if type(event) not in expected:
            raise UsageError(f"the phase rules let {event!r} through")  # a bug, not the peer
        return event

    async def _fatal(self, error: codes.ProtocolError, exit_by: float | None = None) -> NoReturn:
        """Kill, reap, complete the error with exit status and stderr, raise it.

        After E_EOF the plugin gets a grace to exit by itself, so its status can be reported,
        but never past `exit_by`, the watchdog's deadline: a plugin that closes stdout and
        lingers cannot stretch a shutdown beyond `shutdown_ms`.
        """
        self._log("kill", reason=error.code, frame=error.frame)
        if self._process is not None and isinstance(error, codes.UnexpectedEOFError):
            grace = EOF_EXIT_GRACE_S
            if exit_by is not None:
                grace = max(0.0, min(grace, exit_by - asyncio.get_running_loop().time()))
            await wait_exit(self._proc, grace)
            error.exit_code = self._process.returncode
            if error.frame == 1:  # before hello: say what the sandbox could not run, if that
                error.problem += self._process.not_started_hint(error.exit_code)
            if error.exit_code is None:
                error.problem += " (plugin still running; killed)"
        if reason := self._end_reason():
            error.problem += f" ({reason})"
        await self._close(kill=True)
        error.stderr_tail = self.stderr.tail() or None
        self._conn.error = self._conn.error or error
        raise error

    async def _close(self, kill: bool = False) -> None:
        await self._reap(kill)

    def _log(self, event: str, **fields: object) -> None:
        log.info(event, extra={"fields": {"plugin": self.plugin_id, "pid": self.pid, **fields}})
