"""The host's Result event over real pipes: the payload's canonical bytes ride along, so the
gateway sends them as the HTTP body without encoding the document a second time."""

from __future__ import annotations

import asyncio
import contextlib

from conftest import DEMO_REPO, fixture_command, process_gone, reference_command

from gpp.core.canonical_json import canonical, digest
from gpp.core.messages import Discover, Result
from gpp.host.session import PluginSession


def test_exchange_result_carries_the_payload_bytes_the_digest_covered() -> None:
    async def scenario() -> tuple[Result, dict[str, object], int | None]:
        async with PluginSession(
            reference_command(), "reference-detector", "1.0.0", cwd=str(DEMO_REPO)
        ) as session:
            result = await session.exchange(Discover("ünïcode-request", (".",)))
            payload = await session.discover(["."], "plain")
        return result, payload, session.pid

    result, payload, pid = asyncio.run(scenario())
    assert result.payload_bytes is not None
    assert result.payload_bytes == canonical({"requestId": result.request_id, **result.document})
    assert result.request_id == "ünïcode-request" and result.document["resources"]
    assert result.digest == digest(
        {"type": "result", "seq": 2, "payload": payload | {"requestId": "ünïcode-request"}}
    )
    assert process_gone(pid)


def test_a_discover_cancelled_in_its_own_task_ends_the_session() -> None:
    """`exchange` runs unshielded: cancelled mid-exchange, the session is out of step
    (a discover sent, its answer never read), so it is disposed of, never reused."""

    async def scenario() -> tuple[bool, bool, int | None]:
        session = PluginSession(fixture_command("hangs_on_discover"), "fixture", "1.0.0")
        await session.start()
        task = asyncio.create_task(session.exchange(Discover("r1", (".",))))
        for _ in range(1000):  # a few loop turns: until the discover is written
            if session._conn.frames_sent == 2:
                break
            await asyncio.sleep(0)
        assert session._conn.frames_sent == 2
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await asyncio.wait_for(task, 10)
        return task.cancelled(), session.closed, session.pid

    cancelled, closed, pid = asyncio.run(scenario())
    assert cancelled and closed
    assert process_gone(pid)
