"""Both pool kinds answer the one Pool protocol: the same describe() keys (PluginInfo's), the
same states, the same process facts, from idle through ready to closed."""

from __future__ import annotations

import asyncio
import os
from pathlib import Path
from typing import Any

import pytest
from conftest import REPO
from gateway_harness import reference_plugin, write_config

from app.config import load_config
from app.models import PluginInfo
from app.pool import Gpp3Pool, JsonRpcPool, Pool, pool_for

INHERIT = {"sandbox": {"network": "inherit"}}
"""The sandbox is beside the point here (tests/host/test_sandbox.py proves it)."""


def jsonrpc_plugin() -> dict[str, Any]:
    return {
        "id": "example",
        "version": "1",
        "protocol": "jsonrpc-2.0",
        "root": str(REPO),
        "command": ["{python}", str(REPO / "plugins" / "jsonrpc_example.py")],
    }


@pytest.mark.parametrize(
    ("entry", "kind"), [(reference_plugin, Gpp3Pool), (jsonrpc_plugin, JsonRpcPool)]
)
def test_both_kinds_describe_themselves_alike(tmp_path: Path, entry: Any, kind: type[Pool]) -> None:
    plugin = next(
        iter(load_config(write_config(tmp_path, [{**entry(), **INHERIT}])).plugins.values())
    )
    pool = pool_for(plugin)
    assert type(pool) is kind

    async def lifecycle() -> list[dict[str, Any]]:
        seen = [pool.describe()]
        await pool.start_all()
        seen.append(pool.describe())
        await pool.close()
        seen.append(pool.describe())
        return seen

    idle, ready, closed = asyncio.run(lifecycle())
    for described in (idle, ready, closed):
        assert set(described) == set(PluginInfo.model_fields)
        PluginInfo.model_validate(described)
    assert (idle["state"], idle["pid"], idle["pids"]) == ("idle", None, [])
    assert idle["sandbox"] == {"view": plugin.declared_view()}  # what the registry gives it
    assert ready["state"] == "ready" and ready["pids"] == [ready["pid"]] and ready["instances"] == 1
    assert ready["sandbox"]["network"].startswith("inherit")
    assert ready["capabilities"] == (["jsonrpc-2.0"] if kind is JsonRpcPool else ["discover"])
    assert closed["state"] == "idle" and closed["pid"] is None
    with pytest.raises(ProcessLookupError):
        os.kill(ready["pid"], 0)  # reaped: no orphan


def test_a_discover_would_queue_only_while_every_slot_is_taken_or_others_wait(
    tmp_path: Path,
) -> None:
    """What the discover route asks before it decides how soon to watch for its client."""
    plugin = next(
        iter(
            load_config(
                write_config(tmp_path, [{**reference_plugin(), **INHERIT}])
            ).plugins.values()
        )
    )
    pool = pool_for(plugin)
    assert isinstance(pool, Gpp3Pool)

    async def scenario() -> list[bool]:
        seen = [pool.would_queue]
        slot = await pool._acquire()
        seen.append(pool.would_queue)
        waiter = asyncio.create_task(pool._acquire())
        await asyncio.sleep(0)  # it is queued now
        pool._release(slot)
        seen.append(pool.would_queue)  # the slot went to the waiter
        pool._release(await waiter)
        seen.append(pool.would_queue)
        return seen

    assert asyncio.run(scenario()) == [False, True, True, False]
