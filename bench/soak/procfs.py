"""What /proc says about the gateway: its fds, RSS, zombie children, and processes of a run."""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from pathlib import Path

RUN_MARKER = "GPP_SOAK_RUN"  # in every plugin's environment: one way orphans are found


def _stat_fields(pid: int) -> list[str] | None:
    """Fields of /proc/<pid>/stat after the command name (state first, then ppid)."""
    try:
        raw = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    return raw.rpartition(")")[2].split()


def parent_of(pid: int) -> int | None:
    fields = _stat_fields(pid)
    return int(fields[1]) if fields else None


def _pids() -> Iterator[int]:
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            yield int(entry)


def zombie_children(parent: int) -> list[int]:
    found = []
    for pid in _pids():
        fields = _stat_fields(pid)
        if fields and fields[0] == "Z" and int(fields[1]) == parent:
            found.append(pid)
    return found


def marked_processes(token: str, workdir: Path) -> list[int]:
    """Live processes of this run's plugins and their kin: the marker in their environment, or
    a working directory inside the run's own (a plugin that scrubs its environment is found)."""
    needle = f"{RUN_MARKER}={token}".encode()
    found = []
    for pid in _pids():
        with contextlib.suppress(OSError):
            cwd = Path(os.readlink(f"/proc/{pid}/cwd"))
            environ = Path(f"/proc/{pid}/environ").read_bytes().split(b"\0")
            if needle in environ or cwd.is_relative_to(workdir):
                found.append(pid)
    return found


def fd_count(pid: int) -> int | None:
    try:
        return len(os.listdir(f"/proc/{pid}/fd"))
    except OSError:
        return None


def rss_kib(pid: int) -> int | None:
    with contextlib.suppress(OSError):
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return None


def mem_total_kib() -> int | None:
    with contextlib.suppress(OSError, IndexError, ValueError):
        return int(Path("/proc/meminfo").read_text().split()[1])
    return None
