"""What machine and which versions a bench run measured: figures mean little without them."""

from __future__ import annotations

import contextlib
import os
import platform
import subprocess
from importlib import metadata
from pathlib import Path

PACKAGES = ("uvicorn", "fastapi", "orjson", "pydantic", "uvloop", "httptools")


def cpu_model() -> str | None:
    with contextlib.suppress(OSError):
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    return platform.processor() or None


def memory_kib() -> dict[str, int]:
    """MemTotal and MemAvailable from /proc/meminfo, in KiB."""
    found: dict[str, int] = {}
    with contextlib.suppress(OSError):
        for line in Path("/proc/meminfo").read_text().splitlines():
            key, _, rest = line.partition(":")
            if key in ("MemTotal", "MemAvailable"):
                found[key] = int(rest.split()[0])
    return found


def load_average() -> list[float]:
    return [round(x, 2) for x in os.getloadavg()]


def machine() -> dict[str, object]:
    return {
        "cpu_model": cpu_model(),
        "cores": os.cpu_count(),
        "cores_usable": len(os.sched_getaffinity(0)),
        "memory_kib": memory_kib(),
        "kernel": platform.release(),
        "system": platform.system(),
        "machine": platform.machine(),
    }


def _tool_version(command: list[str]) -> str | None:
    """First line a tool prints about its version, or None when it is missing (bounded: 10 s).
    `wrk -v` exits 1 after printing it, so the exit status is not looked at."""
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=10, check=False)
    except (OSError, subprocess.TimeoutExpired):
        return None
    lines = (done.stdout or done.stderr).strip().splitlines()
    return lines[0] if lines else None


def versions() -> dict[str, str | None]:
    found: dict[str, str | None] = {"python": platform.python_version()}
    for package in PACKAGES:
        try:
            found[package] = metadata.version(package)
        except metadata.PackageNotFoundError:
            found[package] = None
    found["node"] = _tool_version(["node", "--version"])
    found["wrk"] = _tool_version(["wrk", "-v"])
    return found
