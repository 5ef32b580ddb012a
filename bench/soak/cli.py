"""`make soak`: parse the arguments, run the soak, print the table, write the JSON."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import signal
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

from .catalog import ALL_FAULTS, ALL_PLUGINS
from .gateway import (
    SIGTERM_BOUND_S,
    free_port,
    start_gateway,
    stop_gateway,
    wait_until,
    write_registry,
)
from .load import Soak
from .procfs import marked_processes, zombie_children
from .report import render, summarise, unhandled_exceptions


def run(args: argparse.Namespace) -> dict[str, Any]:
    token = uuid.uuid4().hex
    with tempfile.TemporaryDirectory(prefix="gpp-soak-") as tmp:
        config = write_registry(Path(tmp), args.plugins, token)
        port = free_port()
        log = Path(tmp) / "gateway.log"
        gateway = start_gateway(config, port, log)
        try:
            soak = Soak(
                port,
                gateway,
                random.Random(args.seed),
                args.plugins,
                set(args.faults),
                time.monotonic() + args.duration,
                args.client_timeout,
            )
            asyncio.run(soak.drive())
            wait_until(lambda: not zombie_children(gateway.pid), 5)
            final_zombies = zombie_children(gateway.pid)
            sigterm = stop_gateway(gateway, SIGTERM_BOUND_S)
        finally:
            if gateway.poll() is None:
                gateway.kill()
                gateway.wait(30)
        wait_until(lambda: not marked_processes(token, Path(tmp)), 3)
        orphans = marked_processes(token, Path(tmp))
        for pid in orphans:  # found and counted; now leave nothing behind
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        log_text = log.read_text(errors="replace")
        unhandled = unhandled_exceptions(log_text)
        count = sum(entry["count"] for entry in unhandled.values())
        report = summarise(soak, args, sigterm, orphans, final_zombies, count)
        report["unhandledExceptions"] = unhandled
        report["gatewayLogTail"] = log_text[-4000:]
    return report


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m bench.soak",
        description="Soak a real `gpp serve` under hostile plugins, hostile clients and random "
        "SIGKILLs; print the invariants as a table, write them as JSON, exit 1 if one fails "
        "(bench/soak/__init__.py says what each one means).",
    )
    parser.add_argument("--duration", type=float, default=180.0, help="seconds of load (180)")
    parser.add_argument("--quick", action="store_true", help="60 s of load (for make test)")
    parser.add_argument("--seed", type=int, default=None, help="random seed (default: random)")
    parser.add_argument(
        "--plugins",
        default=",".join(ALL_PLUGINS),
        help=f"comma-separated subset of {','.join(ALL_PLUGINS)}",
    )
    parser.add_argument(
        "--faults",
        default=",".join(ALL_FAULTS),
        help=f"comma-separated subset of {','.join(ALL_FAULTS)}",
    )
    parser.add_argument(
        "--client-timeout",
        type=float,
        default=20.0,
        help="seconds a client waits for its answer before counting it lost",
    )
    parser.add_argument(
        "--max-fd-slope",
        type=float,
        default=20.0,
        help="allowed fd growth per minute after warm-up (20)",
    )
    parser.add_argument(
        "--max-rss-slope",
        type=float,
        default=10.0,
        help="allowed RSS growth in MiB per minute after warm-up (10)",
    )
    parser.add_argument(
        "--json",
        type=Path,
        default=Path("soak-results.json"),
        help="where to write the results (soak-results.json)",
    )
    args = parser.parse_args(argv)
    if args.quick:
        args.duration = 60.0
    if args.seed is None:
        args.seed = random.randrange(2**32)
    args.plugins = [p for p in args.plugins.split(",") if p]
    args.faults = [f for f in args.faults.split(",") if f]
    for name, chosen, allowed in (
        ("plugin", args.plugins, ALL_PLUGINS),
        ("fault", args.faults, ALL_FAULTS),
    ):
        unknown = sorted(set(chosen) - set(allowed))
        if unknown:
            parser.error(f"unknown {name}(s): {', '.join(unknown)}")
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    report = run(args)
    args.json.write_text(json.dumps(report, indent=2) + "\n")
    print(render(report))
    print(f"results: {args.json}")
    if report["failed"]:
        print(f"soak FAILED: {', '.join(report['failed'])}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
