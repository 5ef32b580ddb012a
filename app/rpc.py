"""JSON-RPC 2.0 plugins: one pinned process per plugin, multiplexed.

Unlike GPP/3, JSON-RPC requests may overlap, so many HTTP clients share one plugin session at
once. The gateway gives every forwarded request an id of its own (a counter) so clients never
collide, and restores each client's id, value and type (`7` is not `"7"`), in the response and
in the `$/progress` notifications that name it. A crash or a hang fails every pending request
with a server error (-32001 exited, -32002 timed out) and the next request starts afresh, with
the same back-off as GPP/3 plugins.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import logging
from collections.abc import Callable
from typing import Any

from gpp import codes, jsonrpc
from gpp.process import PluginProcess, StderrRing, start_plugin, wait_exit
from gpp.wire import LineBuffer, LineTooLong

from .config import PluginConfig
from .health import PluginHealth

log = logging.getLogger("gpp.rpc")

PLUGIN_EXITED = -32001
PLUGIN_TIMED_OUT = -32002
PLUGIN_UNAVAILABLE = -32003

Listener = Callable[[dict[str, Any]], None]


class JsonRpcSession:
    """One JSON-RPC plugin process and the requests in flight on it."""

    def __init__(self, plugin: PluginConfig, on_stderr: Callable[[str], None]) -> None:
        self.plugin = plugin
        self.pid: int | None = None
        self.stderr = StderrRing()
        self.closed = False
        self.failure: codes.ProtocolError | None = None
        self._on_stderr = on_stderr
        self._process: PluginProcess | None = None
        self._ids = itertools.count(1)
        self._pending: dict[int, tuple[asyncio.Future[dict[str, Any]], Any, Listener | None]] = {}
        self._abandoned: set[int] = set()  # cancelled calls whose answers may still arrive
        self._tasks: list[asyncio.Task[None]] = []
        self._write_lock = asyncio.Lock()

    @property
    def sandbox_mechanisms(self) -> dict[str, str]:
        return self._process.mechanisms if self._process is not None else {}

    @property
    def alive(self) -> bool:
        return not self.closed and self._process is not None and self._proc.returncode is None

    @property
    def _proc(self) -> asyncio.subprocess.Process:
        assert self._process is not None, "session not started"
        return self._process.proc

    @property
    def in_flight(self) -> int:
        return len(self._pending)

    async def start(self) -> None:
        try:
            self._process = await start_plugin(
                self.plugin.command, cwd=str(self.plugin.root), env=self.plugin.env,
                sandbox=self.plugin.sandbox_policy,
            )  # fmt: skip
        except codes.ProtocolError:
            self.closed = True
            raise
        self.pid = self._proc.pid
        assert self._proc.stdout is not None and self._proc.stderr is not None
        self._tasks = [
            asyncio.create_task(self._read(self._proc.stdout)),
            asyncio.create_task(self.stderr.drain(self._proc.stderr, self._on_stderr)),
        ]
        log.info("spawn", extra={"fields": {"plugin": self.plugin.id, "pid": self.pid}})

    async def call(
        self, request: jsonrpc.Request, listener: Listener | None = None
    ) -> dict[str, Any]:
        """Forward one request; the response comes back with the client's own id.

        Cancelled (the HTTP client left): the plugin is sent `$/cancelRequest` for it.
        """
        gateway_id = next(self._ids)
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._pending[gateway_id] = (future, request.id, listener)
        try:
            await self._send(_outgoing(request, gateway_id))
            async with asyncio.timeout(self.plugin.limits.request_ms / 1000):
                answer = await asyncio.shield(future)
        except TimeoutError:
            await self._fail(codes.WatchdogTimeoutError(
                f"plugin did not answer request {request.id!r} within "
                f"{self.plugin.limits.request_ms} ms; killed"))  # fmt: skip
            answer = future.result()
        except asyncio.CancelledError:
            self._abandoned.add(gateway_id)
            if gateway_id in self._pending and self.alive:
                with contextlib.suppress(Exception):
                    await self._send(
                        jsonrpc.notification(jsonrpc.CANCEL_METHOD, {"id": gateway_id})
                    )
            raise
        finally:
            self._pending.pop(gateway_id, None)
        return answer

    async def notify(self, request: jsonrpc.Request) -> None:
        await self._send(_outgoing(request, jsonrpc.NO_ID))

    async def close(self, timeout_s: float) -> None:
        """Close stdin (a JSON-RPC server's end of session), wait for exit, then kill the group."""
        if self._process is None:
            return
        self.closed = True
        if self._proc.stdin is not None:
            self._proc.stdin.close()
        await wait_exit(self._proc, timeout_s)
        await self._reap()

    async def _send(self, message: dict[str, Any]) -> None:
        assert self._proc.stdin is not None
        line = json.dumps(message, ensure_ascii=False, separators=(",", ":")).encode() + b"\n"
        async with self._write_lock:
            try:
                self._proc.stdin.write(line)
                await self._proc.stdin.drain()
            except (BrokenPipeError, ConnectionResetError):
                pass  # the reader sees EOF and fails everything pending

    async def _read(self, stdout: asyncio.StreamReader) -> None:
        lines = LineBuffer(self.plugin.limits.max_line_bytes)
        try:
            while chunk := await stdout.read(1 << 16):
                lines.feed(chunk)
                while (line := lines.next_line()) is not None:
                    self._dispatch(line)
        except LineTooLong as exc:
            await self._fail(codes.FrameJSONError(
                "line exceeds max_line_bytes", expected=f"at most {exc.cap} bytes",
                got=f"more than {exc.cap} bytes", offending_frame=exc.head))  # fmt: skip
            return
        if self.closed:  # we closed its stdin: the end of the session, not a failure
            return
        await wait_exit(self._proc, 2.0)
        await self._fail(codes.UnexpectedEOFError("plugin exited", exit_code=self._returncode()))

    def _dispatch(self, line: bytes) -> None:
        try:
            message = json.loads(line)
        except ValueError:
            log.warning("unparseable line from plugin", extra={"fields": {
                "plugin": self.plugin.id, "line": line[:200].decode("utf-8", "replace")}})  # fmt: skip
            return
        if not isinstance(message, dict):
            return
        if "method" in message:  # a notification: route it to the request it names
            params = message.get("params")
            if isinstance(params, dict) and type(params.get("id")) is int:
                entry = self._pending.get(params["id"])
                if entry is not None and entry[2] is not None:
                    entry[2]({**message, "params": {**params, "id": entry[1]}})
            return
        answered = message.get("id")
        entry = self._pending.get(answered) if type(answered) is int else None
        if entry is None:
            if answered in self._abandoned:
                self._abandoned.discard(answered)
                return
            log.warning("answer to no pending request", extra={"fields": {
                "plugin": self.plugin.id, "id": message.get("id")}})  # fmt: skip
            return
        future, client_id, _ = entry
        if not future.done():
            message["id"] = client_id  # same key position: the layout stays as the plugin wrote it
            future.set_result(message)

    async def _fail(self, error: codes.ProtocolError) -> None:
        """Fail every pending request with a server error and end the session."""
        if self.failure is not None:
            return
        self.failure = error
        self.closed = True
        await self._reap()
        error.stderr_tail = self.stderr.tail() or None
        if isinstance(error, codes.UnexpectedEOFError):
            error.exit_code = error.exit_code if error.exit_code is not None else self._returncode()
        code = PLUGIN_TIMED_OUT if isinstance(error, codes.WatchdogTimeoutError) else PLUGIN_EXITED
        data = {"code": error.code, "exitCode": error.exit_code, "stderrTail": error.stderr_tail}
        for future, client_id, _ in list(self._pending.values()):
            if not future.done():
                future.set_result(jsonrpc.error(client_id, code, error.fail_line(), data))
        log.warning("kill", extra={"fields": {"plugin": self.plugin.id, "pid": self.pid,
                                              "reason": error.code}})  # fmt: skip

    def _returncode(self) -> int | None:
        return self._process.returncode if self._process is not None else None

    async def _reap(self) -> None:
        if self._process is not None:
            await self._process.reap()
        current = asyncio.current_task()
        for task in self._tasks:
            if task is not current and not task.done():
                done, _ = await asyncio.wait({task}, timeout=1.0)
                if not done:
                    task.cancel()


def _outgoing(request: jsonrpc.Request, gateway_id: Any) -> dict[str, Any]:
    message: dict[str, Any] = {"jsonrpc": "2.0", "method": request.method}
    if request.params is not None:
        message["params"] = request.params
    if gateway_id is not jsonrpc.NO_ID:
        message["id"] = gateway_id
    return message


class JsonRpcPlugin:
    """The pinned session of one JSON-RPC plugin: lazy start, restart after failure, back-off."""

    def __init__(self, plugin: PluginConfig) -> None:
        self.plugin = plugin
        self.health = PluginHealth(plugin.id)
        self.session: JsonRpcSession | None = None
        self._starting: asyncio.Lock | None = None

    async def session_for_request(self) -> JsonRpcSession:
        self.health.refuse_if_unavailable()
        if self._starting is None:
            self._starting = asyncio.Lock()
        async with self._starting:
            if self.session is not None and self.session.alive:
                return self.session
            if self.session is not None:
                self.health.restarts += 1
            self.session = JsonRpcSession(self.plugin, self.health.stderr_line)
            try:
                await self.session.start()
            except codes.ProtocolError as exc:
                self.health.record_failure(exc)
                raise
            return self.session

    def settle(self, session: JsonRpcSession, answer: dict[str, Any]) -> None:
        """Book one answered request as a success, or as the failure that ended the session."""
        if session.failure is not None and answer.get("error", {}).get("code") in (
            PLUGIN_EXITED, PLUGIN_TIMED_OUT):  # fmt: skip
            if self.health.last_error is not session.failure:
                self.health.record_failure(session.failure)
        else:
            self.health.record_success()

    async def start_all(self) -> None:
        with contextlib.suppress(codes.ProtocolError):
            await self.session_for_request()

    async def close(self) -> None:
        self.health.closing = True
        if self.session is not None:
            await self.session.close(self.plugin.limits.shutdown_ms / 1000)

    instances = 1

    @property
    def live_sessions(self) -> int:
        return int(self.session is not None and self.session.alive)

    @property
    def queue_depth(self) -> int:
        return self.session.in_flight if self.session is not None else 0

    @property
    def state(self) -> str:
        if self.health.backing_off:
            return "backoff"
        if self.session is not None and self.session.alive:
            return "busy" if self.session.in_flight else "ready"
        return "failed" if self.health.consecutive_failures else "idle"

    def describe(self) -> dict[str, Any]:
        pid = self.session.pid if self.session is not None and self.session.alive else None
        return {
            "id": self.plugin.id,
            "version": self.plugin.version,
            "protocol": self.plugin.protocol,
            "state": self.state,
            "capabilities": ["jsonrpc-2.0"],
            "pid": pid,
            "pids": [pid] if pid else [],
            "instances": 1,
            "queueDepth": self.queue_depth,
            "sandbox": self.session.sandbox_mechanisms if self.session is not None else {},
            **self.health.describe(),
        }
