"""The verdict of a run: invariants with their limits, the JSON document and the table."""

from __future__ import annotations

import argparse
import os
import re
import time
from collections import Counter
from dataclasses import asdict
from typing import Any

from .load import Soak
from .procfs import mem_total_kib

WARMUP_S = 10.0
UNHANDLED_MARKS = ("Traceback (most recent call last)", "Exception in ASGI application")


def slope_per_minute(points: list[tuple[float, float]]) -> float:
    """Least-squares slope of y over t (seconds), per minute; 0 for fewer than two points."""
    if len(points) < 2:
        return 0.0
    mean_t = sum(t for t, _ in points) / len(points)
    mean_y = sum(y for _, y in points) / len(points)
    spread = sum((t - mean_t) ** 2 for t, _ in points)
    if spread == 0:
        return 0.0
    return 60 * sum((t - mean_t) * (y - mean_y) for t, y in points) / spread


def summarise(
    soak: Soak,
    args: argparse.Namespace,
    sigterm: dict[str, Any],
    orphans: list[int],
    final_zombies: list[int],
    unhandled: int,
) -> dict[str, Any]:
    """The run as a JSON document: counts, slopes, and each invariant with its value and limit
    (`failed` names the broken ones)."""
    outcomes = Counter(o.outcome for o in soak.outcomes)
    lost = [o for o in soak.outcomes if o.outcome != "vanished" and not o.outcome.isdigit()]
    mixed = [o for o in soak.outcomes if o.mixed]
    steady = [s for s in soak.samples if s.t >= min(WARMUP_S, args.duration / 5)]
    served = Counter(o.plugin for o in soak.outcomes if o.outcome == "200")
    by_fault: dict[str, Counter[str]] = {}
    for o in soak.outcomes:
        for fault in o.faults:
            by_fault.setdefault(fault, Counter())[o.outcome] += 1
    fd_slope = slope_per_minute([(s.t, s.fds) for s in steady])
    rss_slope = slope_per_minute([(s.t, s.rss_kib / 1024) for s in steady])
    invariants = {
        "lost": (len(lost), 0),
        "mixed": (len(mixed), 0),
        "http 500": (outcomes.get("500", 0), 0),
        "unhandled exceptions in the gateway log": (unhandled, 0),
        "zombies": (len(soak.zombies | set(final_zombies)), 0),
        "orphans": (len(orphans), 0),
        "plugins that never answered 200": (sum(1 for p in soak.plugins if not served[p]), 0),
        "fd slope per minute": (round(fd_slope, 2), args.max_fd_slope),
        "RSS slope MiB per minute": (round(rss_slope, 2), args.max_rss_slope),
        "SIGTERM exit status": (sigterm["exitCode"], 0),
    }
    failed = [
        name
        for name, (value, limit) in invariants.items()
        if value is None or (value > limit if "slope" in name else value != limit)
    ]
    return {
        "seed": args.seed,
        "durationSeconds": args.duration,
        "plugins": soak.plugins,
        "faults": sorted(soak.faults),
        "machine": {
            "nproc": os.cpu_count(),
            "memTotalKiB": mem_total_kib(),
            "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
        },
        "requests": len(soak.outcomes),
        "outcomes": dict(outcomes.most_common()),
        "servedByPlugin": dict(served),
        "faultsInjected": dict(soak.injected.most_common()),
        "outcomesByFault": {k: dict(v.most_common()) for k, v in sorted(by_fault.items())},
        "fd": {
            "first": steady[0].fds if steady else None,
            "last": steady[-1].fds if steady else None,
            "slopePerMinute": round(fd_slope, 2),
        },
        "rssMiB": {
            "first": round(steady[0].rss_kib / 1024, 1) if steady else None,
            "last": round(steady[-1].rss_kib / 1024, 1) if steady else None,
            "slopePerMinute": round(rss_slope, 2),
        },
        "sigterm": sigterm,
        "invariants": {k: {"value": v, "limit": lim} for k, (v, lim) in invariants.items()},
        "failed": failed,
        "lostExamples": [asdict(o) for o in lost[:10]],
        "mixedExamples": [asdict(o) for o in mixed[:10]],
        "samples": [asdict(s) for s in soak.samples],
    }


def unhandled_exceptions(log_text: str) -> dict[str, dict[str, Any]]:
    """Log lines that report an exception nothing handled: count and first line, by class."""
    found: dict[str, dict[str, Any]] = {}
    for line in log_text.splitlines():
        if any(mark in line for mark in UNHANDLED_MARKS):
            match = re.search(r'error="(\w+)|\\n(\w+(?:\.\w+)*): [^\\]*\\n"$', line)
            name = next((g for g in match.groups() if g), "?") if match else "?"
            example = line if len(line) <= 2000 else f"{line[:600]} … {line[-1400:]}"
            entry = found.setdefault(name.rpartition(".")[2], {"count": 0, "example": example})
            entry["count"] += 1
    return found


def render(report: dict[str, Any]) -> str:
    """The one table a run prints."""
    rows = [f"soak: {report['durationSeconds']} s, seed {report['seed']}, "
            f"{len(report['plugins'])} plugins, {report['machine']['nproc']} cpus, "
            f"{report['machine']['date']}",
            f"{'requests sent':44}{report['requests']:>10}"]  # fmt: skip
    rows += [
        f"  {'HTTP ' + k if k.isdigit() else k:42}{v:>10}" for k, v in report["outcomes"].items()
    ]
    rows.append("faults injected")
    for kind, count in report["faultsInjected"].items():
        seen = ", ".join(f"{k}: {v}" for k, v in report["outcomesByFault"].get(kind, {}).items())
        rows.append(f"  {kind:42}{count:>10}   {seen}")
    rows.append(f"{'invariant':44}{'value':>10}{'limit':>10}")
    for name, entry in report["invariants"].items():
        mark = "FAIL" if name in report["failed"] else "ok"
        rows.append(f"  {name:42}{entry['value']!s:>10}{entry['limit']!s:>10}  {mark}")
    lost = Counter(f"{o['plugin']} ({o['outcome']})" for o in report["lostExamples"])
    if lost:
        rows.append("  lost, first ten: " + ", ".join(f"{k} ×{v}" for k, v in lost.items()))
    if report["unhandledExceptions"]:
        rows.append(
            "  unhandled: "
            + ", ".join(
                f"{name} ×{entry['count']}" for name, entry in report["unhandledExceptions"].items()
            )
        )
        # the first of each kind, whole where short (its traceback's last frames and message):
        # a CI log is often the only place a rare one is ever seen
        rows += (f"    {entry['example']}" for entry in report["unhandledExceptions"].values())
    sigterm = report["sigterm"]
    rows.append(
        f"  (SIGTERM took {sigterm['seconds']} s, bound {sigterm['boundSeconds']} s; "
        f"fd {report['fd']['first']} → {report['fd']['last']}, "
        f"RSS {report['rssMiB']['first']} → {report['rssMiB']['last']} MiB)"
    )
    return "\n".join(row.rstrip() for row in rows)
