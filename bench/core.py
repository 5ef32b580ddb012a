"""GPP/3 core figures (issue 13): frame verify against orjson.loads + sha256 of the same line,
and lock-step discovers on one session against a raw pipe peer moving the same bytes.

Each figure is the median of rounds that interleave the case and its baseline, so a load change
hits both. `python bench/core.py [--quick]` prints the rows; `run(quick)` returns them for
`python -m bench`. Asserts nothing.
"""

from __future__ import annotations

import asyncio
import hashlib
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

import orjson  # noqa: E402

from bench import table  # noqa: E402
from gpp.core import (  # noqa: E402
    Connection,
    Discover,
    Hello,
    Ready,
    Result,
    Role,
    build_frame,
)
from gpp.host import PluginSession  # noqa: E402

GROUP = "core"
PLUGIN_ID, PLUGIN_VERSION = "bench", "1"
REQUEST_ID = "x" * 32

SDK_PLUGIN = """
import sys
sys.path[:0] = [sys.argv[1], sys.argv[1] + "/bench"]
from core import result_document
from gpp.plugin.sdk import serve
DOCUMENT = result_document(int(sys.argv[2]))
sys.exit(serve("bench", "1", lambda paths: DOCUMENT))
"""
RAW_PEER = """
import sys
r, w = sys.stdin.buffer, sys.stdout.buffer
reply = r.readline()  # the bytes to answer every request line with
for line in r:
    w.write(reply); w.flush()
"""


@dataclass(frozen=True)
class Sizes:
    verify_mib: float
    verify_rounds: int
    trips: int  # round trips per batch, tiny result
    big_trips: int  # round trips per batch, 1 MiB result
    rounds: int


FULL = Sizes(verify_mib=3.5, verify_rounds=9, trips=1000, big_trips=20, rounds=7)
QUICK = Sizes(verify_mib=3.5, verify_rounds=3, trips=200, big_trips=5, rounds=3)


def result_document(target_bytes: int) -> dict[str, Any]:
    """A result document of about `target_bytes` canonical bytes, shaped like a real scan."""
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
        size += 285  # about what one resource and its signal take, canonical
        n += 1
    return {
        "resources": resources,
        "unresolved": [],
        "findings": [],
        "classificationSignals": signals,
    }


def _seconds(fn: Callable[[], object]) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def row(
    case: str, figure: str, value: float, unit: str, target: str | None = None, **detail: object
) -> dict[str, object]:
    met = None if target is None else value >= float(target.removeprefix(">= "))
    return table.row(GROUP, case, figure, round(value, 3), unit, target, met, detail)


# ------------------------------------------------------------------------------ frame verify


def verify_rows(sizes: Sizes) -> list[dict[str, object]]:
    document = result_document(int(sizes.verify_mib * 1024 * 1024))
    line, _ = build_frame(PLUGIN_ID, PLUGIN_VERSION, "result", 2, {"requestId": "r1", **document})
    body = line[:-1]
    chunks = [line[i : i + 65536] for i in range(0, len(line), 65536)]  # as a pipe delivers it
    hello, _ = build_frame(PLUGIN_ID, PLUGIN_VERSION, "hello", 1, {"capabilities": ["discover"]})
    mib = len(line) / (1024 * 1024)

    def host_awaiting_result() -> Connection:
        host = Connection(Role.HOST, PLUGIN_ID, PLUGIN_VERSION)
        host.receive_data(hello)
        host.next_event()
        host.send(Ready())
        host.send(Discover("r1", (".",)))
        return host

    def verify() -> None:
        host = host_awaiting_result()
        for chunk in chunks:
            host.receive_data(chunk)
            event = host.next_event()
        assert isinstance(event, Result) and event.payload_bytes is not None

    def baseline() -> None:
        orjson.loads(body)
        hashlib.sha256(body).hexdigest()

    ratios, verify_s = [], []
    for _ in range(sizes.verify_rounds):
        base = _seconds(baseline)
        took = _seconds(verify)
        ratios.append(base / took)
        verify_s.append(took)
    case = f"frame verify, {mib:.1f} MiB result"
    return [
        row(
            case,
            "vs orjson.loads+sha256",
            statistics.median(ratios),
            "ratio",
            ">= 0.5",
            rounds=len(ratios),
            ratios=[round(r, 3) for r in ratios],
        ),
        row(case, "throughput", mib / statistics.median(verify_s), "MiB/s"),
    ]


# ----------------------------------------------------------------------------- round trips


class RawPeer:
    """A child that answers each request line with fixed bytes: the pipes' cost alone."""

    def __init__(self, proc: asyncio.subprocess.Process) -> None:
        self.proc = proc

    @classmethod
    async def start(cls, reply: bytes) -> RawPeer:
        proc = await asyncio.create_subprocess_exec(
            sys.executable,
            "-c",
            RAW_PEER,
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            limit=64 * 1024 * 1024,
        )
        assert proc.stdin is not None
        proc.stdin.write(reply)
        return cls(proc)

    async def exchange(self, request: bytes) -> bytes:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(request)
        await self.proc.stdin.drain()
        return await self.proc.stdout.readline()

    async def close(self) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        await self.proc.wait()


def protocol_seconds(document: dict[str, Any], trips: int) -> float:
    """Seconds per round trip of the protocol work alone: what the host's and the plugin SDK's
    Connections do for one discover and its result (build, parse, check the schema, sign,
    verify), both sides in this one process, no pipes. Lock-step puts all of it on the round
    trip's path, so raw / (raw + this) is the most a session can reach against the raw peer."""
    host = Connection(Role.HOST, PLUGIN_ID, PLUGIN_VERSION)
    plugin = Connection(Role.PLUGIN, PLUGIN_ID, PLUGIN_VERSION)
    host.receive_data(plugin.send(Hello(("discover",))))
    host.next_event()
    plugin.receive_data(host.send(Ready()))
    plugin.next_event()
    start = time.perf_counter()
    for _ in range(trips):
        plugin.receive_data(host.send(Discover(REQUEST_ID, (".",))))
        request = plugin.next_event()
        assert isinstance(request, Discover)
        host.receive_data(plugin.send(Result(request.request_id, document)))
        assert isinstance(host.next_event(), Result)
    return (time.perf_counter() - start) / trips


async def _rate(batch: int, exchange: Callable[[], Any]) -> float:
    start = time.perf_counter()
    for _ in range(batch):
        await exchange()
    return batch / (time.perf_counter() - start)


async def round_trip_rows(
    case: str, document_bytes: int, batch: int, rounds: int, target: str
) -> list[dict[str, object]]:
    """Discovers per second on one SDK plugin session, and the same request and result bytes
    through a raw peer, in interleaved batches."""
    document = result_document(document_bytes)
    request, _ = build_frame(
        PLUGIN_ID, PLUGIN_VERSION, "discover", 2, {"requestId": REQUEST_ID, "paths": ["."]}
    )
    request_event = Discover(REQUEST_ID, (".",))
    reply, _ = build_frame(
        PLUGIN_ID, PLUGIN_VERSION, "result", 2, {"requestId": REQUEST_ID, **document}
    )
    session = PluginSession(
        [sys.executable, "-c", SDK_PLUGIN, str(REPO), str(document_bytes)],
        PLUGIN_ID,
        PLUGIN_VERSION,
        max_line_bytes=64 * 1024 * 1024,
    )
    raw = await RawPeer.start(reply)
    ratios, rates, ceilings, protocol_s = [], [], [], []
    try:
        await session.start()
        for _ in range(max(3, batch // 20)):  # warm both
            await session.exchange(request_event)
            await raw.exchange(request)
        for _ in range(rounds):
            raw_rate = await _rate(batch, lambda: raw.exchange(request))
            gpp_rate = await _rate(batch, lambda: session.exchange(request_event))
            protocol = protocol_seconds(document, batch)
            ratios.append(gpp_rate / raw_rate)
            rates.append((gpp_rate, raw_rate))
            ceilings.append((1 / raw_rate) / (1 / raw_rate + protocol))
            protocol_s.append(protocol)
    finally:
        await session.shutdown()
        await raw.close()
    gpp_median = statistics.median(r[0] for r in rates)
    raw_median = statistics.median(r[1] for r in rates)
    return [
        row(
            case,
            "vs raw pipe peer",
            statistics.median(ratios),
            "ratio",
            target,
            rounds=len(ratios),
            ratios=[round(r, 3) for r in ratios],
            result_bytes=len(reply),
        ),
        row(case, "GPP/3 discovers", gpp_median, "req/s"),
        row(case, "raw pipe round trips", raw_median, "req/s"),
        row(
            case,
            "protocol work alone",
            statistics.median(protocol_s) * 1000,
            "ms",
            why="both sides' Connections in one process, no pipes: build, parse, schema, "
            "sign, verify of one discover and its result",
        ),
        row(
            case,
            "ceiling vs raw pipe peer",
            statistics.median(ceilings),
            "ratio",
            why="raw / (raw + protocol work alone): the session's ratio if it cost nothing "
            "but the pipes and the protocol work",
            ratios=[round(c, 3) for c in ceilings],
        ),
    ]


async def _round_trips(sizes: Sizes) -> list[dict[str, object]]:
    tiny = await round_trip_rows(
        "session round trip, tiny result", 0, sizes.trips, sizes.rounds, ">= 0.5"
    )
    big = await round_trip_rows(
        "session round trip, 1 MiB result", 1024 * 1024, sizes.big_trips, sizes.rounds, ">= 0.6"
    )
    return tiny + big


def run(quick: bool) -> list[dict[str, object]]:
    sizes = QUICK if quick else FULL
    return verify_rows(sizes) + asyncio.run(_round_trips(sizes))


def main() -> None:
    quick = "--quick" in sys.argv[1:]
    for figure in run(quick):
        target = f"  (target {figure['target']}, {'met' if figure['met'] else 'NOT met'})"
        print(
            f"{figure['case']:38} {figure['figure']:26} {figure['value']:>10} "
            f"{figure['unit']:6}{target if figure['target'] else ''}"
        )


if __name__ == "__main__":
    main()
