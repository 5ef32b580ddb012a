"""Who is still using a plugin's pool, so a reload can retire it without losing a request.

A request takes a lease when its route looks the plugin up, before it reads its body, and lets
go when its answer is ready. A pool a reload has taken out of the registry is shut down only
once its last lease is gone: whatever was queued, in flight or still arriving finishes on it.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable


class Leases:
    def __init__(self) -> None:
        self.held = 0
        self._idle: asyncio.Event | None = None  # made in the loop that waits on it
        self._stop_waiting = False

    def acquire(self) -> None:
        self.held += 1

    def take(self) -> Callable[[], None]:
        """A lease whose release may be called more than once: for an end reached two ways."""
        self.acquire()
        held = True

        def release() -> None:
            nonlocal held
            if held:
                held = False
                self.release()

        return release

    def release(self) -> None:
        self.held -= 1
        if self.held == 0 and self._idle is not None:
            self._idle.set()

    async def released(self) -> None:
        """Return once no lease is held (or `stop_waiting` was called)."""
        self._idle = self._idle or asyncio.Event()
        while self.held and not self._stop_waiting:
            self._idle.clear()
            await self._idle.wait()

    def stop_waiting(self) -> None:
        """The gateway is stopping: its own drain has already bounded what is in flight."""
        self._stop_waiting = True
        if self._idle is not None:
            self._idle.set()
