"""Pinned GPP/3 sessions: per plugin, `instances` lock-step sessions behind a bounded FIFO queue."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import deque
from dataclasses import dataclass, field
from typing import Any

from gpp import codes
from gpp.host import PluginSession
from gpp.messages import Result

from .config import PluginConfig
from .health import PluginHealth, PoolRefusal
from .rpc import JsonRpcPlugin

log = logging.getLogger("gpp.pool")


@dataclass
class Slot:
    """One pinned session position; the session is created lazily and replaced after failure."""

    index: int
    session: PluginSession | None = None
    starting: bool = False
    busy: bool = False


class PluginPool:
    """The sessions of one GPP/3 plugin."""

    def __init__(self, plugin: PluginConfig) -> None:
        self.plugin = plugin
        self.slots = [Slot(i) for i in range(plugin.limits.instances)]
        self.health = PluginHealth(plugin.id)
        self.capabilities: tuple[str, ...] = ()
        self._free: deque[Slot] = deque(self.slots)
        self._waiters: deque[asyncio.Future[Slot]] = deque()

    # --------------------------------------------------------------------------- requests

    async def discover(self, paths: list[str], request_id: str) -> Result:
        """One discover on a free session: queued FIFO, refused when full or backing off.

        Once a slot is taken the work runs shielded, to its end: a client that leaves does not
        hand the slot on while its plugin is still busy (the next request would meet a session
        in the middle of an exchange), and the slot shows busy for as long as it is.
        """
        self.health.refuse_if_unavailable()
        slot = await self._acquire()
        work = asyncio.create_task(self._discover_on(slot, paths, request_id))
        # An abandoned request's outcome is already recorded in the health: consume it here.
        work.add_done_callback(lambda task: task.cancelled() or task.exception())
        return await asyncio.shield(work)

    async def _discover_on(self, slot: Slot, paths: list[str], request_id: str) -> Result:
        try:
            self.health.refuse_if_unavailable()
            session = await self._session_for(slot)
            slot.busy = True
            try:
                result = await session.discover_result(paths, request_id)
            except codes.InvalidRequestError:
                raise
            except codes.ProtocolError as exc:
                if session.closed:
                    self.health.record_failure(exc)
                raise
            finally:
                slot.busy = False
            self.health.record_success()
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
        self.health.closing = True
        for waiter in self._waiters:
            if not waiter.done():
                waiter.set_exception(PoolRefusal("gateway is shutting down", 1, None))
        await asyncio.gather(*(self._close_slot(slot) for slot in self.slots))

    # ------------------------------------------------------------------------------ state

    @property
    def state(self) -> str:
        if self.health.backing_off:
            return "backoff"
        if any(s.starting for s in self.slots):
            return "starting"
        live = [s for s in self.slots if s.session is not None and s.session.alive]
        if live and all(s.busy for s in live) and len(live) == len(self.slots):
            return "busy"
        if live:
            return "ready"
        if self.health.consecutive_failures:
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

    @property
    def instances(self) -> int:
        return len(self.slots)

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
            "sandbox": self._sandbox_mechanisms(),
            **self.health.describe(),
        }

    # -------------------------------------------------------------------------- internals

    def _sandbox_mechanisms(self) -> dict[str, str]:
        """The isolation in effect for this plugin's sessions (what the last spawn used)."""
        for slot in self.slots:
            if slot.session is not None and slot.session.sandbox_mechanisms:
                return slot.session.sandbox_mechanisms
        return {}

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
            self.health.restarts += 1
        plugin = self.plugin
        session = PluginSession(
            plugin.command, plugin.id, plugin.version, cwd=str(plugin.root), env=plugin.env,
            timeouts=plugin.timeouts, max_line_bytes=plugin.limits.max_line_bytes,
            on_stderr=self.health.stderr_line, sandbox=plugin.sandbox_policy,
        )  # fmt: skip
        slot.session, slot.starting = session, True
        try:
            await session.start()
        except codes.ProtocolError as exc:
            self.health.record_failure(exc)
            raise
        finally:
            slot.starting = False
        self.capabilities = session.capabilities
        return session

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


@dataclass
class SessionPool:
    """Every registered plugin's pool, by id."""

    pools: dict[str, PluginPool | JsonRpcPlugin] = field(default_factory=dict)

    async def start_eager(self) -> None:
        await asyncio.gather(*(p.start_all() for p in self.pools.values() if p.plugin.eager))

    async def close(self) -> None:
        await asyncio.gather(*(p.close() for p in self.pools.values()))

    def not_ready(self) -> list[str]:
        """Eager plugins without a live session: why /readyz says no."""
        return [
            p.plugin.id
            for p in self.pools.values()
            if p.plugin.eager and p.live_sessions < p.instances
        ]
