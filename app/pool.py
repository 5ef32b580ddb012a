"""The sessions of every registered plugin: one pool per plugin, of the kind its protocol needs.

`Pool` is what every kind shares: the plugin's health and leases, its state and its one
`describe()` (GET /plugins/{id}). A GPP/3 plugin's `Gpp3Pool` holds `instances` lock-step
sessions behind a bounded FIFO queue; a JSON-RPC plugin's `JsonRpcPool` holds one multiplexed
session. `PluginPools` maps plugin ids to pools and retires them on reload.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from abc import ABC, abstractmethod
from collections import deque
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from gpp.core import Discover, Result, codes
from gpp.host import SERVER_ERRORS, JsonRpcSession, PluginSession

from .config import PluginConfig
from .health import PluginHealth, PoolRefusal
from .leases import Leases
from .registry import RegistryChange

log = logging.getLogger("gpp.pool")


@dataclass
class Slot:
    """One pinned session position; the session is created lazily and replaced after failure."""

    index: int
    session: PluginSession | None = None
    starting: bool = False
    busy: bool = False


class Pool(ABC):
    """The sessions of one plugin, whatever protocol it speaks; `describe()` reads them."""

    def __init__(self, plugin: PluginConfig) -> None:
        self.plugin = plugin
        self.health = PluginHealth(plugin.id)
        self.leases = Leases()

    @abstractmethod
    async def start_all(self) -> None:
        """Eager start: bring every instance up now (failures are recorded, not raised)."""

    @abstractmethod
    async def close(self) -> None:
        """End every session cleanly where the plugin complies; kill the rest."""

    @property
    @abstractmethod
    def instances(self) -> int: ...

    @property
    @abstractmethod
    def pids(self) -> list[int]:
        """The pids of the live sessions."""

    @property
    @abstractmethod
    def capabilities(self) -> list[str]: ...

    @property
    @abstractmethod
    def queue_depth(self) -> int:
        """Requests waiting: for a free session (GPP/3), or for their answer (JSON-RPC)."""

    @property
    @abstractmethod
    def sandbox_mechanisms(self) -> dict[str, str]:
        """The isolation in effect for this plugin's sessions (what the last spawn used)."""

    @property
    @abstractmethod
    def busy(self) -> bool:
        """Live and unable to take a request at once."""

    @property
    def starting(self) -> bool:
        return False

    @property
    def live_sessions(self) -> int:
        return len(self.pids)

    @property
    def state(self) -> str:
        if self.health.backing_off:
            return "backoff"
        if self.starting:
            return "starting"
        if self.live_sessions:
            return "busy" if self.busy else "ready"
        if self.health.consecutive_failures:
            return "failed"
        return "idle"

    def describe(self) -> dict[str, Any]:
        pids = self.pids
        return {
            "id": self.plugin.id,
            "version": self.plugin.version,
            "protocol": self.plugin.protocol,
            "state": self.state,
            "capabilities": self.capabilities,
            "pid": pids[0] if pids else None,
            "pids": pids,
            "instances": self.instances,
            "queueDepth": self.queue_depth,
            "sandbox": self.sandbox_mechanisms or {"view": self.plugin.declared_view()},
            **self.health.describe(),
        }


class Gpp3Pool(Pool):
    """The sessions of one GPP/3 plugin."""

    def __init__(self, plugin: PluginConfig) -> None:
        super().__init__(plugin)
        self.slots = [Slot(i) for i in range(plugin.limits.instances)]
        self.handshake_capabilities: tuple[str, ...] = ()
        self._free: deque[Slot] = deque(self.slots)
        self._waiters: deque[asyncio.Future[Slot]] = deque()

    # --------------------------------------------------------------------------- requests

    async def discover(self, request: Discover) -> Result:
        """One discover request on a free session: queued FIFO, refused when full or backing off.

        Once a slot is taken the work runs shielded, to its end: a client that leaves does not
        hand the slot on while its plugin is still busy (the next request would meet a session
        in the middle of an exchange), and the slot shows busy for as long as it is. The work
        holds a lease of its own, so a reload retires this pool only after it.
        """
        self.health.refuse_if_unavailable()
        slot = await self._acquire()
        self.leases.acquire()
        work = asyncio.create_task(self._discover_on(slot, request))
        # An abandoned request's outcome is already recorded in the health: consume it here.
        work.add_done_callback(lambda task: task.cancelled() or task.exception())
        return await asyncio.shield(work)

    async def _discover_on(self, slot: Slot, request: Discover) -> Result:
        try:
            self.health.refuse_if_unavailable()
            session = await self._session_for(slot)
            slot.busy = True
            try:
                result = await session.exchange(request)
            except codes.InvalidRequestError:
                raise
            except codes.ProtocolError as exc:
                if session.closed:
                    self.health.record_failure(exc)
                else:
                    self.health.record_request_failure(exc)
                raise
            finally:
                slot.busy = False
            self.health.record_success()
            return result
        finally:
            self._release(slot)
            self.leases.release()

    @property
    def would_queue(self) -> bool:
        """Whether a discover asked now would wait for a slot rather than start at once."""
        return not self._free or bool(self._waiters)

    @property
    def queue_depth(self) -> int:
        return sum(1 for w in self._waiters if not w.done())

    async def start_all(self) -> None:
        """Each free slot without a session is claimed as a request claims it, for its
        handshake: a request arriving meanwhile waits for the slot rather than sharing a
        half-started session (and, when the start fails, starts its own: a 502, not a 500)."""
        for slot in self.slots:
            if slot.session is None and any(free is slot for free in self._free):
                self._free.remove(slot)
                try:
                    with contextlib.suppress(codes.ProtocolError):  # recorded as lastDiagnostic
                        await self._session_for(slot)
                finally:
                    self._release(slot)

    async def close(self) -> None:
        """shutdown/bye with every live session; dispose of whatever does not comply."""
        self.health.closing = True
        for waiter in self._waiters:
            if not waiter.done():
                waiter.set_exception(PoolRefusal("gateway is shutting down", 1, None))
        await asyncio.gather(*(self._close_slot(slot) for slot in self.slots))

    # ------------------------------------------------------------------------------ state

    @property
    def starting(self) -> bool:
        return any(s.starting for s in self.slots)

    @property
    def busy(self) -> bool:
        live = [s for s in self.slots if s.session is not None and s.session.alive]
        return all(s.busy for s in live) and len(live) == len(self.slots)

    @property
    def pids(self) -> list[int]:
        return [
            s.session.pid
            for s in self.slots
            if s.session is not None and s.session.alive and s.session.pid is not None
        ]

    @property
    def instances(self) -> int:
        return len(self.slots)

    @property
    def capabilities(self) -> list[str]:
        """What the plugin's last handshake said."""
        return list(self.handshake_capabilities)

    @property
    def sandbox_mechanisms(self) -> dict[str, str]:
        for slot in self.slots:
            if slot.session is not None and slot.session.sandbox_mechanisms:
                return slot.session.sandbox_mechanisms
        return {}

    async def _acquire(self) -> Slot:
        if self._free and not self._waiters:
            return self._free.popleft()
        limit = self.plugin.limits.max_queue
        if len(self._waiters) >= limit and self.queue_depth >= limit:  # the count only if near
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
        session = self.plugin.session(on_stderr=self.health.stderr_line)
        slot.session, slot.starting = session, True
        try:
            await session.start()
        except codes.ProtocolError as exc:
            self.health.record_failure(exc)
            raise
        finally:
            slot.starting = False
        self.handshake_capabilities = session.capabilities
        return session

    async def _close_slot(self, slot: Slot) -> None:
        session = slot.session
        if session is None:
            return
        if not session.alive:  # failed, or still starting: its start kills what it spawns
            await session.dispose()
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


class JsonRpcPool(Pool):
    """The pinned session of one JSON-RPC plugin: lazy start, restart after failure, back-off."""

    def __init__(self, plugin: PluginConfig) -> None:
        super().__init__(plugin)
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
            self.session = self.plugin.jsonrpc_session(
                on_stderr=self.health.stderr_line, on_failure=self.health.record_failure
            )
            try:
                await self.session.start()
            except codes.ProtocolError as exc:
                self.health.record_failure(exc)
                raise
            return self.session

    def refuse_if_full(self, session: JsonRpcSession, calls: int = 1) -> None:
        """503 (PoolRefusal) when `calls` more (a batch's every request and notification)
        would put more than `max_queue` in flight on the session, as /discover refuses past
        its queue: without a bound, calls piled up without limit, and each now times out
        counting its time in the queue; one batch of 4,000 put them all in flight at once."""
        limit = self.plugin.limits.max_queue
        if session.in_flight + calls > max(limit, 1):  # max_queue = 0: one at a time
            raise PoolRefusal(
                f"plugin {self.plugin.id} has {session.in_flight} calls in flight and this "
                f"request brings {calls}: more than max_queue = {limit}",
                1,
                None,
            )

    def settle(self, answer: dict[str, Any]) -> None:
        """Book a request the plugin answered as served. The gateway's own server errors are
        not: a session's failure is booked once by the session, a call timed out alone not at
        all (the session lives on, so it is no reason for a back-off)."""
        error = answer.get("error")
        if not (isinstance(error, dict) and error.get("code") in SERVER_ERRORS):
            self.health.record_success()

    async def start_all(self) -> None:
        with contextlib.suppress(codes.ProtocolError):
            await self.session_for_request()

    async def close(self) -> None:
        """Close the plugin's stdin (a JSON-RPC server's end of session), kill what lingers."""
        self.health.closing = True
        if self.session is not None:
            await self.session.close(self.plugin.limits.shutdown_ms / 1000)

    @property
    def instances(self) -> int:
        return 1

    @property
    def capabilities(self) -> list[str]:
        return ["jsonrpc-2.0"]

    @property
    def pids(self) -> list[int]:
        session = self.session
        if session is None or not session.alive or session.pid is None:
            return []
        return [session.pid]

    @property
    def queue_depth(self) -> int:
        return self.session.in_flight if self.session is not None else 0

    @property
    def busy(self) -> bool:
        return bool(self.queue_depth)

    @property
    def sandbox_mechanisms(self) -> dict[str, str]:
        return self.session.sandbox_mechanisms if self.session is not None else {}


def pool_for(plugin: PluginConfig) -> Pool:
    return Gpp3Pool(plugin) if plugin.protocol == "gpp/3" else JsonRpcPool(plugin)


class Lease:
    """A request's hold on a plugin's pool (None: no such plugin) for a `with` block.

    A class, not a generator: every plugin request takes one, and a generator-based context
    manager costs several times as much."""

    __slots__ = ("pool",)

    def __init__(self, pool: Pool | None) -> None:
        self.pool = pool

    def __enter__(self) -> Pool | None:
        if self.pool is not None:
            self.pool.leases.acquire()
        return self.pool

    def __exit__(self, *exc_info: object) -> None:
        if self.pool is not None:
            self.pool.leases.release()


@dataclass
class PluginPools:
    """Every registered plugin's pool, by id, and the pools a reload retired that still serve."""

    by_id: dict[str, Pool] = field(default_factory=dict)
    retiring: dict[Pool, asyncio.Task[None]] = field(default_factory=dict, init=False)

    @classmethod
    def of(cls, plugins: Mapping[str, PluginConfig]) -> PluginPools:
        return cls({plugin_id: pool_for(plugin) for plugin_id, plugin in plugins.items()})

    def lease(self, plugin_id: str) -> Lease:
        """The plugin's current pool, kept open for the request until the block ends."""
        return Lease(self.by_id.get(plugin_id))

    def replace(self, plugins: Mapping[str, PluginConfig]) -> RegistryChange:
        """Route new requests by `plugins` from now on; kept plugins keep their pools (and their
        sessions); removed and changed ones are shut down once their last lease is gone."""
        old = self.by_id
        change = RegistryChange.between({i: p.plugin for i, p in old.items()}, plugins)
        self.by_id = {
            plugin_id: old[plugin_id] if plugin_id in change.kept else pool_for(plugin)
            for plugin_id, plugin in plugins.items()
        }
        for plugin_id in change.retired:
            self._retire(old[plugin_id])
        return change

    def renew(self, plugin_id: str) -> bool:
        """A fresh pool for the plugin as registered (its files changed: `gpp serve --reload`):
        the next request starts a new session; the old pool drains as a reload's does."""
        old = self.by_id.get(plugin_id)
        if old is None:
            return False
        self.by_id[plugin_id] = pool_for(old.plugin)
        self._retire(old)
        return True

    def _retire(self, pool: Pool) -> None:
        self.retiring[pool] = asyncio.create_task(self._close_when_released(pool))

    async def _close_when_released(self, pool: Pool) -> None:
        try:
            await pool.leases.released()
            await pool.close()
            log.info(
                "retired",
                extra={"fields": {"plugin": pool.plugin.id, "version": pool.plugin.version}},
            )
        finally:
            self.retiring.pop(pool, None)

    async def start_eager(self, plugin_ids: Iterable[str] | None = None) -> None:
        chosen = self.by_id if plugin_ids is None else plugin_ids
        await asyncio.gather(*(p.start_all() for i in chosen if (p := self.by_id[i]).plugin.eager))

    async def close(self) -> None:
        """SIGTERM: the server has drained (or cancelled) its requests; retired pools close now."""
        retiring = list(self.retiring.items())
        for pool, _ in retiring:
            pool.leases.stop_waiting()
        await asyncio.gather(
            *(p.close() for p in self.by_id.values()), *(task for _, task in retiring)
        )

    def not_ready(self) -> list[str]:
        """Eager plugins without a live session: why /readyz says no."""
        return [
            p.plugin.id
            for p in self.by_id.values()
            if p.plugin.eager and p.live_sessions < p.instances
        ]
