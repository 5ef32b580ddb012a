"""Pinned plugin sessions: per plugin, `instances` lock-step sessions behind a bounded FIFO queue.

A failed session is gone; the request that met the failure gets its diagnostic and the next
request spawns a fresh session at once. Consecutive failures back off (0.5 s doubling to 30 s),
during which requests are refused with the last diagnostic instead of hammering a broken plugin.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from gpp import codes
from gpp.host import PluginSession
from gpp.messages import Result

from .config import PluginConfig

log = logging.getLogger("gpp.pool")

BACKOFF_FIRST_S = 0.5
BACKOFF_MAX_S = 30.0


class PoolRefusal(Exception):
    """A request refused before reaching a plugin: 503 with Retry-After."""

    def __init__(self, reason: str, retry_after: float, last: codes.ProtocolError | None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.retry_after = retry_after
        self.last = last


@dataclass
class Slot:
    """One pinned session position; the session is created lazily and replaced after failure."""

    index: int
    session: PluginSession | None = None
    starting: bool = False
    busy: bool = False


SessionFactory = Callable[[PluginConfig, Callable[[str], None]], PluginSession]


def default_session_factory(
    plugin: PluginConfig, on_stderr: Callable[[str], None]
) -> PluginSession:
    return PluginSession(
        plugin.command,
        plugin.id,
        plugin.version,
        cwd=str(plugin.root),
        env=plugin.env,
        timeouts=plugin.timeouts,
        max_line_bytes=plugin.limits.max_line_bytes,
        on_stderr=on_stderr,
    )


@dataclass
class PluginStats:
    served: int = 0
    failed: int = 0
    restarts: int = 0
    spawned: int = 0


class PluginPool:
    """The sessions of one GPP/3 plugin."""

    def __init__(
        self,
        plugin: PluginConfig,
        *,
        session_factory: SessionFactory = default_session_factory,
        on_event: Callable[[str, PluginPool], None] | None = None,
    ) -> None:
        self.plugin = plugin
        self.slots = [Slot(i) for i in range(plugin.limits.instances)]
        self.stats = PluginStats()
        self.capabilities: tuple[str, ...] = ()
        self.last_error: codes.ProtocolError | None = None
        self.recent_stderr: deque[str] = deque(maxlen=20)
        self.consecutive_failures = 0
        self.backoff_until = 0.0
        self._free: deque[Slot] = deque(self.slots)
        self._waiters: deque[asyncio.Future[Slot]] = deque()
        self._factory = session_factory
        self._on_event = on_event or (lambda name, pool: None)
        self._closing = False

    # --------------------------------------------------------------------------- requests

    async def discover(self, paths: list[str], request_id: str) -> Result:
        """One discover on a free session: queued FIFO, refused when full or backing off."""
        self._refuse_if_backing_off()
        slot = await self._acquire()
        try:
            self._refuse_if_backing_off()
            session = await self._session_for(slot)
            slot.busy = True
            try:
                result = await session.discover_result(paths, request_id)
            except codes.InvalidRequestError:
                raise
            except codes.ProtocolError as exc:
                if session.closed:
                    self._failed(slot, exc)
                raise
            finally:
                slot.busy = False
            self.stats.served += 1
            self.consecutive_failures = 0
            return result
        finally:
            self._release(slot)

    @property
    def queue_depth(self) -> int:
        return sum(1 for w in self._waiters if not w.done())

    async def start_all(self) -> None:
        """Eager start: bring every instance up now (failures are recorded, not raised)."""
        for slot in self.slots:
            if slot.session is None:
                with contextlib.suppress(codes.ProtocolError):  # recorded as lastDiagnostic
                    await self._session_for(slot)

    async def close(self) -> None:
        """shutdown/bye with every live session; dispose of whatever does not comply."""
        self._closing = True
        for waiter in self._waiters:
            if not waiter.done():
                waiter.set_exception(PoolRefusal("gateway is shutting down", 1, None))
        await asyncio.gather(*(self._close_slot(slot) for slot in self.slots))

    # ------------------------------------------------------------------------------ state

    @property
    def state(self) -> str:
        if time.monotonic() < self.backoff_until:
            return "backoff"
        if any(s.starting for s in self.slots):
            return "starting"
        live = [s for s in self.slots if s.session is not None and s.session.alive]
        if live and all(s.busy for s in live) and len(live) == len(self.slots):
            return "busy"
        if live:
            return "ready"
        if self.last_error is not None and self.consecutive_failures:
            return "failed"
        return "idle"

    @property
    def pids(self) -> list[int]:
        return [
            s.session.pid
            for s in self.slots
            if s.session is not None and s.session.alive and s.session.pid is not None
        ]

    @property
    def live_sessions(self) -> int:
        return len(self.pids)

    def describe(self) -> dict[str, Any]:
        return {
            "id": self.plugin.id,
            "version": self.plugin.version,
            "protocol": self.plugin.protocol,
            "state": self.state,
            "capabilities": list(self.capabilities),
            "pid": self.pids[0] if self.pids else None,
            "pids": self.pids,
            "instances": len(self.slots),
            "queueDepth": self.queue_depth,
            "restarts": self.stats.restarts,
            "served": self.stats.served,
            "failed": self.stats.failed,
            "retryAfter": self._retry_after() or None,
            "lastDiagnostic": self.last_error.diagnostic() if self.last_error else None,
            "lastCode": self.last_error.code if self.last_error else None,
            "recentStderr": list(self.recent_stderr),
        }

    # -------------------------------------------------------------------------- internals

    def _refuse_if_backing_off(self) -> None:
        if self._closing:
            raise PoolRefusal("gateway is shutting down", 1, None)
        wait = self._retry_after()
        if wait:
            raise PoolRefusal(
                f"plugin {self.plugin.id} is backing off after "
                f"{self.consecutive_failures} consecutive failures",
                wait,
                self.last_error,
            )

    def _retry_after(self) -> float:
        return max(0.0, self.backoff_until - time.monotonic())

    async def _acquire(self) -> Slot:
        if self._free and not self._waiters:
            return self._free.popleft()
        if self.queue_depth >= self.plugin.limits.max_queue:
            raise PoolRefusal(
                f"plugin {self.plugin.id} has {self.queue_depth} requests queued (max_queue)",
                1,
                None,
            )
        waiter: asyncio.Future[Slot] = asyncio.get_running_loop().create_future()
        self._waiters.append(waiter)
        try:
            return await waiter
        except asyncio.CancelledError:
            # The client left while queued: drop it; a slot handed over meanwhile goes on.
            if waiter in self._waiters:
                self._waiters.remove(waiter)
            if waiter.done() and not waiter.cancelled() and waiter.exception() is None:
                self._release(waiter.result())
            raise

    def _release(self, slot: Slot) -> None:
        while self._waiters:
            waiter = self._waiters.popleft()
            if not waiter.done():
                waiter.set_result(slot)
                return
        self._free.append(slot)

    async def _session_for(self, slot: Slot) -> PluginSession:
        if slot.session is not None and slot.session.alive:
            return slot.session
        if slot.session is not None:  # failed, or died while idle
            await slot.session.dispose()
            self.stats.restarts += 1
        session = self._factory(self.plugin, self._stderr_line)
        slot.session, slot.starting = session, True
        self.stats.spawned += 1
        try:
            await session.start()
        except codes.ProtocolError as exc:
            self._failed(slot, exc)
            raise
        finally:
            slot.starting = False
        self.capabilities = session.capabilities
        self._on_event("ready", self)
        return session

    def _failed(self, slot: Slot, error: codes.ProtocolError) -> None:
        self.stats.failed += 1
        self.last_error = error
        self.consecutive_failures += 1
        if self.consecutive_failures >= 2:
            delay = min(BACKOFF_MAX_S, BACKOFF_FIRST_S * 2 ** (self.consecutive_failures - 2))
            self.backoff_until = time.monotonic() + delay
        log.warning(
            "session failed",
            extra={"fields": {"plugin": self.plugin.id, "code": error.code,
                              "consecutive": self.consecutive_failures,
                              "backoff_s": round(self._retry_after(), 3)}},
        )  # fmt: skip
        self._on_event("failed", self)

    def _stderr_line(self, line: str) -> None:
        self.recent_stderr.append(line)
        log.info("plugin stderr", extra={"fields": {"plugin": self.plugin.id, "line": line}})

    async def _close_slot(self, slot: Slot) -> None:
        session = slot.session
        if session is None or not session.alive:
            return
        try:
            await session.shutdown()
        except codes.ProtocolError as exc:
            log.warning(
                "shutdown failed",
                extra={"fields": {"plugin": self.plugin.id, "code": exc.code}},
            )
        finally:
            await session.dispose()


def retry_after_header(seconds: float) -> str:
    return str(max(1, math.ceil(seconds)))


@dataclass
class SessionPool:
    """Every registered plugin's pool, by id."""

    pools: dict[str, PluginPool] = field(default_factory=dict)

    async def start_eager(self) -> None:
        await asyncio.gather(*(p.start_all() for p in self.pools.values() if p.plugin.eager))

    async def close(self) -> None:
        await asyncio.gather(*(p.close() for p in self.pools.values()))

    def not_ready(self) -> list[str]:
        """Eager plugins without a live session: why /readyz says no."""
        return [
            p.plugin.id
            for p in self.pools.values()
            if p.plugin.eager and p.live_sessions < len(p.slots)
        ]
