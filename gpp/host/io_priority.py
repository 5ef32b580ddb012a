"""A process's I/O priority (`ioprio_get`, `ioprio_set`: Python's `os` has neither).

Fork and exec hand the I/O priority on like the scheduling policy: a gateway started with
`ionice -c1` (or a unit's `IOSchedulingClass=realtime`) ran every plugin in the real-time I/O
class, ahead of every other process's disk access, and the plugin, with no capability, could
not even give it up to the default. `reset_raised` is the spawn's step (between fork and exec)
that puts a real-time or raised best-effort priority back to the default; an idle or lowered
one (`ionice -c3`, `nice`d) is kept: the operator asked for less, and a plugin may have less.
"""

from __future__ import annotations

import ctypes
import errno
import platform

IOPRIO_WHO_PROCESS = 1
CLASS_SHIFT = 13
LEVEL_MASK = (1 << CLASS_SHIFT) - 1
CLASS_NONE, CLASS_RT, CLASS_BE, CLASS_IDLE = 0, 1, 2, 3
DEFAULT_LEVEL = 4
"""The best-effort level a process of nice 0 gets in the default class (`(nice + 20) / 5`)."""
DEFAULT = CLASS_NONE << CLASS_SHIFT
"""Class NONE: the kernel derives the priority from the process's scheduling (nice) again."""

SYSCALLS = {"x86_64": (251, 252), "aarch64": (30, 31)}
"""`ioprio_set` and `ioprio_get` per architecture (asm/unistd.h): no libc wrapper exists."""
NUMBERS = SYSCALLS.get(platform.machine())


def get(pid: int = 0, libc: ctypes.CDLL | None = None) -> tuple[int, int]:
    """(class, level) of process `pid` (0: the caller). Raises OSError."""
    if NUMBERS is None:
        raise OSError(f"no ioprio_get number for {platform.machine()}")
    libc = libc or ctypes.CDLL(None, use_errno=True)
    value = libc.syscall(NUMBERS[1], IOPRIO_WHO_PROCESS, pid)
    if value < 0:
        raise OSError(ctypes.get_errno(), f"ioprio_get({pid})")
    return value >> CLASS_SHIFT, value & LEVEL_MASK


def set_(klass: int, level: int, pid: int = 0, libc: ctypes.CDLL | None = None) -> None:
    """Set process `pid`'s (0: the caller) class and level. Raises OSError."""
    if NUMBERS is None:
        raise OSError(f"no ioprio_set number for {platform.machine()}")
    libc = libc or ctypes.CDLL(None, use_errno=True)
    if libc.syscall(NUMBERS[0], IOPRIO_WHO_PROCESS, pid, (klass << CLASS_SHIFT) | level) != 0:
        raise OSError(ctypes.get_errno(), f"ioprio_set({pid})")


def raised(klass: int, level: int) -> bool:
    """Real-time, or best-effort above the default level (a lower number is a higher priority)."""
    return klass == CLASS_RT or (klass == CLASS_BE and level < DEFAULT_LEVEL)


def reset_raised(libc: ctypes.CDLL) -> None:
    """The calling process back to the default I/O priority when its own is raised (between
    fork and exec: the plugin's). An architecture without known numbers is left as it is (its
    plugins keep what the gateway has), and so is a kernel without the calls (ENOSYS: no I/O
    priority to inherit). Raises OSError."""
    if NUMBERS is None:
        return
    try:
        own = get(0, libc)
    except OSError as exc:
        if exc.errno == errno.ENOSYS:
            return
        raise
    if raised(*own):
        set_(CLASS_NONE, 0, 0, libc)
