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
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from types import TracebackType
from typing import Any

from . import codes
from .connection import Connection
from .messages import (
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
from .process import PluginProcess, StderrRing, start_plugin, wait_exit
from .sandbox import SandboxPolicy
from .wire import DEFAULT_MAX_LINE_BYTES

log = logging.getLogger("gpp.host")
READ_CHUNK = 1 << 16
EOF_EXIT_GRACE_S = 2.0
"""How long a plugin whose stdout ended gets to exit by itself, so its status can be reported."""


@dataclass(frozen=True)
class Timeouts:
    handshake_ms: int = 10_000
    request_ms: int = 10_000
    shutdown_ms: int = 5_000


class PluginSession:
    """A pinned GPP/3 session with one plugin process. Lock-step: one discover at a time."""

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
    ) -> None:
        self.command = list(command)
        self.sandbox = sandbox
        self.plugin_id = plugin_id
        self.plugin_version = plugin_version
        self.cwd = cwd
        self.env = dict(env or {})
        self.timeouts = timeouts
        self.pid: int | None = None
        self.returncode: int | None = None
        self.capabilities: tuple[str, ...] = ()
        self.stderr = StderrRing()
        self._on_stderr = on_stderr
        self._conn = Connection(Role.HOST, plugin_id, plugin_version, max_line_bytes=max_line_bytes)
        self._process: PluginProcess | None = None
        self._stderr_task: asyncio.Task[None] | None = None
        self._turn = asyncio.Lock()
        self.closed = False

    # ---------------------------------------------------------------------------- public API

    async def start(self) -> None:
        """Spawn the plugin and complete the handshake (hello → ready)."""
        if self._process is not None:
            raise RuntimeError("session already started")
        try:
            self._process = await start_plugin(self.command, cwd=self.cwd, env=self.env,
                                               sandbox=self.sandbox)  # fmt: skip
        except codes.ProtocolError:
            self.closed = True
            raise
        self.pid = self._proc.pid
        started = time.perf_counter()
        self._log("spawn", command=" ".join(self.command))
        assert self._proc.stderr is not None
        self._stderr_task = asyncio.create_task(
            self.stderr.drain(self._proc.stderr, self._on_stderr)
        )
        async with self._turn:
            hello = await self._expect(self.timeouts.handshake_ms)
            assert isinstance(hello, Hello)
            self.capabilities = hello.capabilities
            await self._send(Ready())
        self._log("handshake", ms=round((time.perf_counter() - started) * 1000, 2),
                  capabilities=",".join(self.capabilities))  # fmt: skip

    async def discover(self, paths: Sequence[str], request_id: str | None = None) -> dict[str, Any]:
        """The result payload for `paths`; raises InvalidRequestError (nothing sent, session
        intact), PluginErrorResponse (session intact) or a fatal ProtocolError (session gone).

        The exchange runs shielded: a caller that is cancelled mid-request does not leave the
        session out of step, the answer is read and dropped.
        """
        result = await self.discover_result(paths, request_id)
        return {"requestId": result.request_id, **result.document}

    async def discover_result(self, paths: Sequence[str], request_id: str | None = None) -> Result:
        """Like `discover`, but the Result event, which also carries the frame's digest."""
        event = Discover(request_id or uuid.uuid4().hex, tuple(paths))
        exchange = asyncio.create_task(self._exchange(event))
        # An abandoned exchange's error is already recorded on the session: consume it here.
        exchange.add_done_callback(lambda task: task.cancelled() or task.exception())
        return await asyncio.shield(exchange)

    async def shutdown(self) -> None:
        """shutdown → bye → exit 0, each within `shutdown_ms`; else E_EXIT_STATUS and a kill."""
        async with self._turn:
            if self.closed or self._process is None:
                return
            await self._send(Shutdown())
            bye = await self._expect(self.timeouts.shutdown_ms)
            assert isinstance(bye, Bye)
            bye_frame = self._conn.frames_received
            await wait_exit(self._proc, self.timeouts.shutdown_ms / 1000)
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

    async def dispose(self) -> None:
        """Best-effort kill and reap; never raises."""
        with contextlib.suppress(Exception):
            await self._close(kill=True)

    @property
    def alive(self) -> bool:
        """Started, not closed, and the process has not exited (e.g. died while idle)."""
        return not self.closed and self._process is not None and self._proc.returncode is None

    @property
    def sandbox_mechanisms(self) -> dict[str, str]:
        return self._process.mechanisms if self._process is not None else {}

    @property
    def _proc(self) -> asyncio.subprocess.Process:
        assert self._process is not None, "session not started"
        return self._process.proc

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
            await self._send(request)
            answer = await self._expect(self.timeouts.request_ms)
            if isinstance(answer, Result):
                return answer
            assert isinstance(answer, (PluginError, SessionError))
            error = codes.PluginErrorResponse(
                f"plugin answered with an error frame: {answer.code}: {answer.message}",
                frame=self._conn.frames_received,
                request_id=request.request_id,
                offending_frame=self._conn.last_frame,
            )
            if isinstance(answer, SessionError):
                await self._fatal(error)
            raise error

    async def _send(self, event: Event) -> None:
        line = self._conn.send(event)  # InvalidRequestError here leaves the session as it was
        assert self._proc.stdin is not None
        try:
            self._proc.stdin.write(line)
            await self._proc.stdin.drain()
        except (BrokenPipeError, ConnectionResetError):
            pass  # the plugin is gone; reading its stdout reports E_EOF with its status

    async def _expect(self, budget_ms: int) -> Event:
        """The next event, within a deadline that covers the whole frame."""
        assert self._proc.stdout is not None
        stdout = self._proc.stdout
        try:
            async with asyncio.timeout(budget_ms / 1000):
                while (event := self._conn.next_event()) is None:
                    self._conn.receive_data(await stdout.read(READ_CHUNK))
                return event
        except TimeoutError:
            partial = self._conn.partial_frame
            await self._fatal(
                codes.WatchdogTimeoutError(
                    f"watchdog fired waiting for {self._conn.allowed_from_peer() or 'a frame'}",
                    frame=self._conn.frames_received + 1,
                    expected=f"a complete frame within {budget_ms} ms",
                    got="a partial line" if partial else "nothing",
                    offending_frame=partial or None,
                )
            )
        except codes.ProtocolError as exc:
            await self._fatal(exc)
        raise AssertionError("unreachable")

    async def _fatal(self, error: codes.ProtocolError) -> None:
        """Kill, reap, complete the error with exit status and stderr, raise it."""
        self._log("kill", reason=error.code, frame=error.frame)
        if self._process is not None and isinstance(error, codes.UnexpectedEOFError):
            await wait_exit(self._proc, EOF_EXIT_GRACE_S)
            error.exit_code = self._process.returncode
            if error.exit_code is None:
                error.problem += " (plugin still running; killed)"
        await self._close(kill=True)
        error.stderr_tail = self.stderr.tail() or None
        self._conn.error = self._conn.error or error
        raise error

    async def _close(self, kill: bool = False) -> None:
        self.closed = True
        if self._process is not None:
            self.returncode = await self._process.reap(kill)
        if self._stderr_task is not None:
            # stderr ends with the process group; a bounded wait covers a leaked descendant
            done, _ = await asyncio.wait({self._stderr_task}, timeout=1.0)
            if not done:
                self._stderr_task.cancel()

    def _log(self, event: str, **fields: object) -> None:
        log.info(event, extra={"fields": {"plugin": self.plugin_id, "pid": self.pid, **fields}})
