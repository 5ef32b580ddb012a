"""The sandbox's cost: plugin start (spawn + handshake) and discover round trip, with and
without it, measured in one run, bare and sandboxed starts interleaved so a load change hits
both. Prints figures and ratios (`python bench/sandbox.py`); asserts nothing."""

from __future__ import annotations

import asyncio
import statistics
import sys
import time
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from gpp.host import (  # noqa: E402
    PluginSession,
    SandboxPolicy,
    namespaces_available,
)

DETECTORS = {
    "python": ([sys.executable, str(REPO / "plugins/reference_detector.py")], "reference-detector"),
    "node": (["node", str(REPO / "plugins/reference_detector.mjs")], "reference-detector-node"),
}
DEMO_REPO = str(REPO / "plugins/examples/demo-repo")


@dataclass(frozen=True)
class Sizes:
    starts: int
    round_trips: int


FULL = Sizes(starts=15, round_trips=500)
QUICK = Sizes(starts=3, round_trips=50)


@dataclass(frozen=True)
class Cost:
    start_s: float
    """Median spawn + handshake."""
    round_trip_s: float
    """Mean discover round trip on one warm session."""


def session(command: list[str], plugin_id: str, policy: SandboxPolicy | None) -> PluginSession:
    return PluginSession(command, plugin_id, "1.0.0", sandbox=policy, cwd=DEMO_REPO)


async def start_once(command: list[str], plugin_id: str, policy: SandboxPolicy | None) -> float:
    plugin = session(command, plugin_id, policy)
    begin = time.perf_counter()
    await plugin.start()
    elapsed = time.perf_counter() - begin
    await plugin.shutdown()
    return elapsed


async def round_trip(
    command: list[str], plugin_id: str, policy: SandboxPolicy | None, count: int
) -> float:
    async with session(command, plugin_id, policy) as plugin:
        for _ in range(min(20, count)):
            await plugin.discover(["api"])
        begin = time.perf_counter()
        for _ in range(count):
            await plugin.discover(["api"])
        return (time.perf_counter() - begin) / count


async def measure(command: list[str], plugin_id: str, sizes: Sizes) -> tuple[Cost, Cost]:
    """(bare, sandboxed), the starts interleaved."""
    starts: dict[bool, list[float]] = {False: [], True: []}
    for _ in range(sizes.starts):
        for boxed in (False, True):
            policy = SandboxPolicy() if boxed else None
            starts[boxed].append(await start_once(command, plugin_id, policy))
    bare_trip = await round_trip(command, plugin_id, None, sizes.round_trips)
    boxed_trip = await round_trip(command, plugin_id, SandboxPolicy(), sizes.round_trips)
    return (
        Cost(statistics.median(starts[False]), bare_trip),
        Cost(statistics.median(starts[True]), boxed_trip),
    )


def rows_for(name: str, bare: Cost, boxed: Cost, sizes: Sizes) -> list[dict[str, object]]:
    start_detail = {"bare_ms": round(bare.start_s * 1000, 2), "starts": sizes.starts}
    trip_detail = {"bare_ms": round(bare.round_trip_s * 1000, 4), "round_trips": sizes.round_trips}
    return [
        {
            "group": "sandbox",
            "case": f"{name} detector start",
            "figure": "sandboxed, median",
            "value": round(boxed.start_s * 1000, 2),
            "unit": "ms",
            "target": None,
            "met": None,
            "detail": start_detail,
        },
        {
            "group": "sandbox",
            "case": f"{name} detector start",
            "figure": "sandboxed / bare",
            "value": round(boxed.start_s / bare.start_s, 3),
            "unit": "ratio",
            "target": None,
            "met": None,
            "detail": start_detail,
        },
        {
            "group": "sandbox",
            "case": f"{name} discover round trip",
            "figure": "sandboxed, mean",
            "value": round(boxed.round_trip_s * 1000, 4),
            "unit": "ms",
            "target": None,
            "met": None,
            "detail": trip_detail,
        },
        {
            "group": "sandbox",
            "case": f"{name} discover round trip",
            "figure": "sandboxed / bare",
            "value": round(boxed.round_trip_s / bare.round_trip_s, 3),
            "unit": "ratio",
            "target": None,
            "met": None,
            "detail": trip_detail,
        },
    ]


async def measure_all(sizes: Sizes) -> list[dict[str, object]]:
    rows = []
    for name, (command, plugin_id) in DETECTORS.items():
        bare, boxed = await measure(command, plugin_id, sizes)
        rows.extend(rows_for(name, bare, boxed, sizes))
    return rows


def run(quick: bool) -> list[dict[str, object]]:
    """The bench rows (see bench/table.py): per detector, start and round trip, sandboxed in ms
    and as a ratio to bare. No targets: the figures say what isolation costs."""
    return asyncio.run(measure_all(QUICK if quick else FULL))


def main() -> None:
    print(f"namespaces available: {namespaces_available()}")
    for name, (command, plugin_id) in DETECTORS.items():
        bare, boxed = asyncio.run(measure(command, plugin_id, FULL))
        print(f"{name} reference detector:")
        print(
            f"  start (median of {FULL.starts}):  bare {bare.start_s * 1000:7.1f} ms   "
            f"sandboxed {boxed.start_s * 1000:7.1f} ms   "
            f"ratio {boxed.start_s / bare.start_s:.2f}"
        )
        print(
            f"  discover round trip:     bare {bare.round_trip_s * 1000:7.3f} ms   "
            f"sandboxed {boxed.round_trip_s * 1000:7.3f} ms   "
            f"ratio {boxed.round_trip_s / bare.round_trip_s:.2f}"
        )


if __name__ == "__main__":
    main()
