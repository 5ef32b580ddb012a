"""The host's Result event over real pipes: the payload's canonical bytes ride along, so the
gateway sends them as the HTTP body without encoding the document a second time."""

from __future__ import annotations

import asyncio

from conftest import DEMO_REPO, process_gone, reference_command

from gpp.canonical_json import canonical, digest
from gpp.host import PluginSession
from gpp.messages import Result


def test_discover_result_carries_the_payload_bytes_the_digest_covered() -> None:
    async def scenario() -> tuple[Result, dict[str, object], int | None]:
        async with PluginSession(
            reference_command(), "reference-detector", "1.0.0", cwd=str(DEMO_REPO)
        ) as session:
            result = await session.discover_result(["."], "ünïcode-request")
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
