"""The seccomp filter every namespaced plugin runs under: system calls a discovery plugin never
needs, refused with EPERM.

A plugin reads files and writes JSON. The calls refused here are the ones the attacks of issue 23
reached for (the kernel keyring, `ptrace` of the sandbox's own init, `io_uring`, `userfaultfd`,
`memfd_secret`) and the rest of the kernel's privileged or rarely-hardened surface: modules,
`kexec`, mounts, namespaces, BPF, perf, swap, accounting, quotas. EPERM rather than a kill:
runtimes probe some of these (libuv tries `io_uring_setup` and falls back, CPython's `os`
module reports an OSError), and a refusal keeps them working.

The program is classic BPF, which `bwrap --seccomp FD` installs right before it execs the
plugin (bwrap's own setup is not filtered). It is built once per gateway process; system call
numbers come from libseccomp's table for the native architecture (`libseccomp.so.2`, no Python
bindings needed), the program itself is written here so that its few branches (the ABI check,
`personality`'s harmless values) stay readable. Other ABIs are refused outright: a 32-bit
(`int 0x80`) or x32 call gets EPERM, whatever its number, so no second table can be missed.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import errno
import functools
import os
import platform
import struct

REFUSED = (
    "keyctl", "add_key", "request_key",
    "ptrace", "process_vm_readv", "process_vm_writev", "kcmp", "pidfd_getfd",
    "io_uring_setup", "io_uring_enter", "io_uring_register",
    "userfaultfd", "perf_event_open", "bpf", "memfd_secret",
    "kexec_load", "kexec_file_load", "init_module", "finit_module", "delete_module",
    "mount", "umount2", "pivot_root", "chroot", "move_mount", "open_tree", "fsopen", "fsmount",
    "fspick", "fsconfig", "mount_setattr",
    "unshare", "setns",
    "swapon", "swapoff", "reboot", "acct", "quotactl", "quotactl_fd", "lookup_dcookie",
    "syslog", "vhangup", "iopl", "ioperm", "uselib", "ustat", "sysfs", "_sysctl",
    "name_to_handle_at", "open_by_handle_at", "fanotify_init",
    "settimeofday", "clock_settime", "clock_adjtime", "adjtimex",
    "nfsservctl", "create_module", "get_kernel_syms", "query_module", "vm86", "vm86old",
)  # fmt: skip
"""Refused with EPERM (names this architecture lacks are skipped)."""

PERSONALITY_ALLOWED = (0x0, 0x8, 0x20000, 0x20008, 0xFFFFFFFF)
"""`personality` values that change nothing that matters: PER_LINUX, PER_LINUX32, UNAME26 (and
both), and the query. The rest (ADDR_NO_RANDOMIZE, READ_IMPLIES_EXEC, MMAP_PAGE_ZERO…) are refused."""

AUDIT_ARCH = {"x86_64": 0xC000003E, "aarch64": 0xC00000B7}
X32_SYSCALL_BIT = 0x40000000

# classic BPF
LD_W_ABS, JEQ_K, JGE_K, RET_K = 0x20, 0x15, 0x35, 0x06
RET_ALLOW = 0x7FFF0000
RET_EPERM = 0x00050000 | errno.EPERM
NR, ARCH, ARG0 = 0, 4, 16  # offsets in struct seccomp_data (arg0: its low 32 bits)


class SeccompUnavailable(Exception):
    """The filter cannot be built here (no libseccomp table, an architecture we do not know)."""


@functools.cache
def program() -> bytes:
    """The compiled filter, as `bwrap --seccomp` reads it (an array of `struct sock_filter`).
    Raises SeccompUnavailable."""
    machine = platform.machine()
    if machine not in AUDIT_ARCH:
        raise SeccompUnavailable(f"no seccomp filter for this architecture ({machine})")
    numbers = refused_numbers()
    personality = _syscall_number("personality")
    return assemble(AUDIT_ARCH[machine], numbers, personality, x32=machine == "x86_64")


@functools.cache
def refused_numbers() -> list[int]:
    """The numbers of the REFUSED calls this architecture has. Raises SeccompUnavailable."""
    return sorted({n for n in map(_syscall_number, REFUSED) if n >= 0})


def assemble(arch: int, refused: list[int], personality: int, *, x32: bool) -> bytes:
    """The program: wrong ABI → EPERM; a refused number → EPERM; `personality` with a value
    outside PERSONALITY_ALLOWED → EPERM; anything else allowed."""
    checks = [(JGE_K, X32_SYSCALL_BIT)] if x32 else []
    checks += [(JEQ_K, number) for number in refused]
    # layout: [0] ld arch, [1] jeq arch, [2] ret EPERM, [3] ld nr, checks…, jeq personality,
    # ret ALLOW, ret EPERM (the `deny` every check jumps to), then the personality block
    body: list[tuple[int, int, int, int]] = [
        (LD_W_ABS, 0, 0, ARCH),
        (JEQ_K, 1, 0, arch),
        (RET_K, 0, 0, RET_EPERM),
        (LD_W_ABS, 0, 0, NR),
    ]
    deny = len(body) + len(checks) + 2  # index of the shared `ret EPERM`
    for code, value in checks:
        body.append((code, deny - len(body) - 1, 0, value))
    body.append((JEQ_K, 2, 0, personality))  # → personality block, past ALLOW and EPERM
    body += [(RET_K, 0, 0, RET_ALLOW), (RET_K, 0, 0, RET_EPERM)]
    body.append((LD_W_ABS, 0, 0, ARG0))
    allowed = len(PERSONALITY_ALLOWED)
    for index, value in enumerate(PERSONALITY_ALLOWED):
        body.append((JEQ_K, allowed - index, 0, value))  # → the final ret ALLOW
    body += [(RET_K, 0, 0, RET_EPERM), (RET_K, 0, 0, RET_ALLOW)]
    if any(jt > 255 for _, jt, _, _ in body):  # classic BPF jumps are 8-bit
        raise SeccompUnavailable("seccomp filter too long for its jumps")
    return b"".join(struct.pack("=HBBI", code, jt, jf, k) for code, jt, jf, k in body)


def memfd() -> int:
    """A fresh fd (numbered 10 or above, clear of the fds the spawn moves pipes to) holding the
    program at offset 0: one per spawn, since bwrap reads it to the end. The caller closes it."""
    data = program()
    fd = os.memfd_create("gpp-seccomp", os.MFD_CLOEXEC)
    try:
        os.write(fd, data)
        os.lseek(fd, 0, os.SEEK_SET)
        import fcntl

        high = fcntl.fcntl(fd, fcntl.F_DUPFD_CLOEXEC, 10)
    finally:
        os.close(fd)
    return high


@functools.cache
def _libseccomp() -> ctypes.CDLL:
    name = ctypes.util.find_library("seccomp") or "libseccomp.so.2"
    try:
        lib = ctypes.CDLL(name)
    except OSError as exc:
        raise SeccompUnavailable(f"libseccomp is not installed ({exc})") from None
    lib.seccomp_syscall_resolve_name.argtypes = [ctypes.c_char_p]
    lib.seccomp_syscall_resolve_name.restype = ctypes.c_int
    return lib


def _syscall_number(name: str) -> int:
    """The native number of a call, negative when this architecture has none."""
    return int(_libseccomp().seccomp_syscall_resolve_name(name.encode()))
