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
from dataclasses import dataclass

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
    "io_setup", "io_submit", "io_getevents", "io_pgetevents", "io_destroy", "io_cancel",
    "modify_ldt",
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


SOCKET_FAMILIES = (1, 2, 10)
"""AF_UNIX, AF_INET, AF_INET6: the families `socket` may create (and AF_NETLINK for
NETLINK_ROUTE only, below). Every other one is refused with EAFNOSUPPORT, as a kernel built
without it would answer (runtimes treat that as "not here"): AF_PACKET, AF_VSOCK (no network
namespace divides it: `network = false` would not be "no network" on a VM guest), AF_ALG,
AF_BLUETOOTH and the rest."""
AF_NETLINK, NETLINK_ROUTE = 16, 0
"""NETLINK_ROUTE is how glibc and libuv list interfaces and addresses (`if_nameindex`,
`getifaddrs`, `getaddrinfo`'s AI_ADDRCONFIG), and it answers for the plugin's own network
namespace only; the other netlink protocols are refused (NETLINK_KOBJECT_UEVENT carries the
host's device events into any namespace, audit, netfilter, crypto…)."""
SOCKETPAIR_FAMILIES = (1,)
"""AF_UNIX only (the one family `socketpair` means anything for)."""
RET_EAFNOSUPPORT = 0x00050000 | errno.EAFNOSUPPORT


@dataclass(frozen=True)
class ArgumentRule:
    """A call allowed only with its first argument among `allowed`, else `refusal`."""

    number: int
    allowed: tuple[int, ...]
    refusal: int
    narrowed: tuple[tuple[int, int, tuple[int, ...]], ...] = ()
    """(first argument's value, index of another argument, its allowed values): a first
    argument allowed only with that other argument among those values."""


@functools.cache
def program() -> bytes:
    """The compiled filter, as `bwrap --seccomp` reads it (an array of `struct sock_filter`).
    Raises SeccompUnavailable."""
    machine = platform.machine()
    if machine not in AUDIT_ARCH:
        raise SeccompUnavailable(f"no seccomp filter for this architecture ({machine})")
    rules = [
        ArgumentRule(_syscall_number("personality"), PERSONALITY_ALLOWED, RET_EPERM),
        ArgumentRule(
            _syscall_number("socket"),
            SOCKET_FAMILIES,
            RET_EAFNOSUPPORT,
            narrowed=((AF_NETLINK, 2, (NETLINK_ROUTE,)),),  # socket(family, type, protocol)
        ),
        ArgumentRule(_syscall_number("socketpair"), SOCKETPAIR_FAMILIES, RET_EAFNOSUPPORT),
    ]
    return assemble(AUDIT_ARCH[machine], refused_numbers(), rules, x32=machine == "x86_64")


@functools.cache
def refused_numbers() -> list[int]:
    """The numbers of the REFUSED calls this architecture has. Raises SeccompUnavailable."""
    return sorted({n for n in map(_syscall_number, REFUSED) if n >= 0})


Instruction = tuple[int, int | str, int | str, int]
"""(code, jump if true, jump if false, k); a jump is a count of instructions to skip or the
name of a label further on (`_resolve` turns names into counts)."""


def assemble(arch: int, refused: list[int], rules: list[ArgumentRule], *, x32: bool) -> bytes:
    """The program: wrong ABI → EPERM; a refused number → EPERM; a call with an argument rule
    whose first argument is not allowed → the rule's refusal; anything else allowed."""
    code: list[Instruction | str] = [
        (LD_W_ABS, 0, 0, ARCH),
        (JEQ_K, 1, 0, arch),
        (RET_K, 0, 0, RET_EPERM),
        (LD_W_ABS, 0, 0, NR),
    ]
    if x32:
        code.append((JGE_K, "deny", 0, X32_SYSCALL_BIT))
    code += [(JEQ_K, "deny", 0, number) for number in refused]
    code += [(JEQ_K, f"rule{i}", 0, rule.number) for i, rule in enumerate(rules)]
    code += [(RET_K, 0, 0, RET_ALLOW), "deny", (RET_K, 0, 0, RET_EPERM)]
    for index, rule in enumerate(rules):
        code += [f"rule{index}", (LD_W_ABS, 0, 0, ARG0)]
        code += [(JEQ_K, f"allow{index}", 0, value) for value in rule.allowed]
        code += [(JEQ_K, f"narrow{index}.{n}", 0, v) for n, (v, _, _) in enumerate(rule.narrowed)]
        code.append((RET_K, 0, 0, rule.refusal))
        for n, (_, argument, allowed) in enumerate(rule.narrowed):
            code += [f"narrow{index}.{n}", (LD_W_ABS, 0, 0, ARG0 + 8 * argument)]
            code += [(JEQ_K, f"allow{index}", 0, value) for value in allowed]
            code.append((RET_K, 0, 0, rule.refusal))
        code += [f"allow{index}", (RET_K, 0, 0, RET_ALLOW)]
    return b"".join(struct.pack("=HBBI", *op) for op in _resolve(code))


def _resolve(code: list[Instruction | str]) -> list[tuple[int, int, int, int]]:
    """Labels (the strings in `code`) out, jumps to them as forward counts. Raises
    SeccompUnavailable when one is longer than classic BPF's 8-bit jumps."""
    labels: dict[str, int] = {}
    program: list[Instruction] = []
    for item in code:
        if isinstance(item, str):
            labels[item] = len(program)
        else:
            program.append(item)

    def distance(at: int, jump: int | str) -> int:
        count = jump if isinstance(jump, int) else labels[jump] - at - 1
        if not 0 <= count <= 255:
            raise SeccompUnavailable("seccomp filter too long for its jumps")
        return count

    return [
        (op, distance(at, jt), distance(at, jf), k) for at, (op, jt, jf, k) in enumerate(program)
    ]


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
