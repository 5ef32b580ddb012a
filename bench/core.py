"""GPP/3 core figures: frame verify throughput against raw sha256, and discovers per second on
one session against a raw pipe echo. Prints figures and ratios; asserts nothing."""

from __future__ import annotations

import asyncio
import hashlib
import sys
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from gpp.connection import Connection  # noqa: E402
from gpp.host import PluginSession  # noqa: E402
from gpp.messages import Discover, Ready, Result, Role  # noqa: E402
from gpp.wire import build_frame  # noqa: E402

EMPTY_PLUGIN = """
import sys
sys.path.insert(0, sys.argv[1])
from gpp.sdk import serve
EMPTY = {"resources": [], "unresolved": [], "findings": [], "classificationSignals": []}
sys.exit(serve("bench", "1", lambda paths: EMPTY))
"""
ECHO = """
import sys
r, w = sys.stdin.buffer, sys.stdout.buffer
for line in r:
    w.write(line); w.flush()
"""


def best_of(runs: int, fn: Any) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def result_document(target_bytes: int) -> dict[str, Any]:
    resources, signals = [], []
    n = 0
    size = 0
    while size < target_bytes:
        loc = {"path": f"services/svc{n % 97}/schema_{n}.gfx", "line": n % 5000 + 1}
        resources.append(
            {
                "kind": "table",
                "name": f"table_{n}",
                "location": loc,
                "attrs": {"pii": "email,phone", "rows": n, "audited": n % 2 == 0},
            }
        )
        signals.append(
            {"resource": f"table:table_{n}", "signal": "pii", "value": "email", "source": loc}
        )
        size += 330
        n += 1
    return {
        "resources": resources,
        "unresolved": [],
        "findings": [],
        "classificationSignals": signals,
    }


def verify_throughput() -> None:
    document = result_document(4 * 1024 * 1024)
    line, _ = build_frame("bench", "1", "result", 2, {"requestId": "r1", **document})
    mib = len(line) / (1024 * 1024)

    def verify() -> None:
        host = Connection(Role.HOST, "bench", "1")
        host.receive_data(build_frame("bench", "1", "hello", 1, {"capabilities": ["discover"]})[0])
        host.next_event()
        host.send(Ready())
        host.send(Discover("r1", (".",)))
        host.receive_data(line)
        assert isinstance(host.next_event(), Result)

    verify_s = best_of(5, verify)
    sha_s = best_of(5, lambda: hashlib.sha256(line).hexdigest())
    payload = {"requestId": "r1", **document}
    build_s = best_of(5, lambda: build_frame("bench", "1", "result", 2, payload, trusted=True))
    general_s = best_of(5, lambda: build_frame("bench", "1", "result", 2, payload))
    print(f"result frame: {mib:.2f} MiB, {len(document['resources'])} resources")
    print(f"  verify (parse + digest + schema): {mib / verify_s:8.1f} MiB/s")
    print(f"  build, schema-checked payload:    {mib / build_s:8.1f} MiB/s")
    print(f"  build, arbitrary value:           {mib / general_s:8.1f} MiB/s")
    print(f"  raw hashlib.sha256:               {mib / sha_s:8.1f} MiB/s")
    print(f"  verify / sha256 ratio:            {sha_s / verify_s:8.3f}")


async def round_trips() -> None:
    n = 2000
    async with PluginSession([sys.executable, "-c", EMPTY_PLUGIN, str(REPO)], "bench", "1") as s:
        for _ in range(50):
            await s.discover(["."])
        start = time.perf_counter()
        for _ in range(n):
            await s.discover(["."])
        gpp_rate = n / (time.perf_counter() - start)

    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-c", ECHO, stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE
    )
    assert proc.stdin and proc.stdout
    request, _ = build_frame("bench", "1", "discover", 2, {"requestId": "x" * 32, "paths": ["."]})
    start = time.perf_counter()
    for _ in range(n):
        proc.stdin.write(request)
        await proc.stdin.drain()
        await proc.stdout.readline()
    echo_rate = n / (time.perf_counter() - start)
    proc.stdin.close()
    await proc.wait()
    print(f"round trips on one session ({n} each):")
    print(f"  GPP/3 discover (SDK plugin):      {gpp_rate:8.0f} /s")
    print(f"  raw pipe echo (same frame bytes): {echo_rate:8.0f} /s")
    print(f"  discover / echo ratio:            {gpp_rate / echo_rate:8.3f}")


if __name__ == "__main__":
    verify_throughput()
    asyncio.run(round_trips())
