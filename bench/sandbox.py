"""The sandbox's cost: plugin start (spawn + handshake) and discover round trip, with and
without it, measured in one run. Prints figures and ratios; asserts nothing."""

from __future__ import annotations

import asyncio
import statistics
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from gpp.host import PluginSession  # noqa: E402
from gpp.sandbox import SandboxPolicy, namespaces_available  # noqa: E402

DETECTORS = {
    "python": ([sys.executable, str(REPO / "plugins/reference_detector.py")], "reference-detector"),
    "node": (["node", str(REPO / "plugins/reference_detector.mjs")], "reference-detector-node"),
}
STARTS = 15
ROUND_TRIPS = 500


async def measure(
    command: list[str], plugin_id: str, policy: SandboxPolicy | None
) -> tuple[float, float]:
    starts = []
    for _ in range(STARTS):
        session = PluginSession(command, plugin_id, "1.0.0", sandbox=policy,
                                cwd=str(REPO / "plugins/examples/demo-repo"))  # fmt: skip
        begin = time.perf_counter()
        await session.start()
        starts.append(time.perf_counter() - begin)
        await session.shutdown()
    async with PluginSession(command, plugin_id, "1.0.0", sandbox=policy,
                             cwd=str(REPO / "plugins/examples/demo-repo")) as session:  # fmt: skip
        for _ in range(20):
            await session.discover(["api"])
        begin = time.perf_counter()
        for _ in range(ROUND_TRIPS):
            await session.discover(["api"])
        round_trip = (time.perf_counter() - begin) / ROUND_TRIPS
    return statistics.median(starts), round_trip


async def main() -> None:
    print(f"namespaces available: {namespaces_available()}")
    for name, (command, plugin_id) in DETECTORS.items():
        bare = await measure(command, plugin_id, None)
        boxed = await measure(command, plugin_id, SandboxPolicy())
        print(f"{name} reference detector:")
        print(f"  start (median of {STARTS}):  bare {bare[0] * 1000:7.1f} ms   "
              f"sandboxed {boxed[0] * 1000:7.1f} ms   ratio {boxed[0] / bare[0]:.2f}")  # fmt: skip
        print(f"  discover round trip:     bare {bare[1] * 1000:7.3f} ms   "
              f"sandboxed {boxed[1] * 1000:7.3f} ms   ratio {boxed[1] / bare[1]:.2f}")  # fmt: skip


if __name__ == "__main__":
    asyncio.run(main())
