"""app.leases: a retired pool is shut down only once the last request holding it lets go, so a
reload loses nothing that was queued, in flight or still arriving."""

from __future__ import annotations

import asyncio

from app.leases import Leases


async def _settle() -> None:
    """Let every ready task run (asyncio runs them in order, so a few passes are enough)."""
    for _ in range(5):
        await asyncio.sleep(0)


def test_released_waits_for_the_last_lease() -> None:
    async def scenario() -> None:
        leases = Leases()
        first, second = leases.take(), leases.take()
        waiter = asyncio.ensure_future(leases.released())
        await _settle()
        first()
        await _settle()
        assert not waiter.done() and leases.held == 1
        second()
        await asyncio.wait_for(waiter, 5)
        assert leases.held == 0

    asyncio.run(scenario())


def test_a_lease_released_twice_counts_once() -> None:
    leases = Leases()
    release = leases.take()
    other = leases.take()
    release()
    release()  # an end reached two ways (answer sent, client gone)
    assert leases.held == 1
    other()
    assert leases.held == 0


def test_nothing_held_returns_at_once_and_stop_waiting_ends_a_wait() -> None:
    async def scenario() -> None:
        leases = Leases()
        await asyncio.wait_for(leases.released(), 5)
        leases.acquire()
        waiter = asyncio.ensure_future(leases.released())
        await _settle()
        assert not waiter.done()
        leases.stop_waiting()
        await asyncio.wait_for(waiter, 5)
        assert leases.held == 1  # the gateway's own drain bounds what is still in flight

    asyncio.run(scenario())
