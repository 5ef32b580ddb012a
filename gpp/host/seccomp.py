"""The seccomp filter every namespaced plugin runs under: an allow-list of the system calls a
discovery plugin and its runtimes make; the kernel's privileged surface refused with EPERM by
name; everything else answered ENOSYS.

A plugin reads files and writes JSON. ALLOWED is what CPython, Node (V8, libuv), the tree-sitter
packs, `sh` and glibc call (traced: `strace -f` of every bundled plugin in its sandbox) and
their ordinary neighbours, shaped on the allow-list container engines ship by default (files,
memory, threads, signals, time, sockets, namespaced IPC). A call outside it gets ENOSYS, as
from a kernel that lacks it: glibc and libuv fall back on ENOSYS (`clone3` → `clone`,
`faccessat2` → `faccessat`, `statx` → `fstatat`), so a new kernel's new call is not reachable
until it is listed here. REFUSED names what the attacks of issues 23 and 32 reached for (the
kernel keyring, `ptrace` of the sandbox's own init, `io_uring`, `userfaultfd`, `memfd_secret`,
native AIO's host-wide context pool, `modify_ldt`) and the rest of the privileged surface
(modules, `kexec`, mounts, namespaces, BPF, perf, swap, accounting, quotas): EPERM, which
runtimes probing for them report or fall back from (libuv tries `io_uring_setup`). Three calls
are allowed by argument: `personality` (harmless values only), `socket` and `socketpair` (their
families: see SOCKET_FAMILIES; for AF_INET and AF_INET6, TCP and UDP only: INET_SOCKETS); the
calls that set a file's mode refuse set-uid and set-gid bits (MODE_ARGUMENTS), and those that
would take pages of the host's huge page pool refuse it (HUGE_PAGE_ARGUMENTS).

The program is classic BPF, which `bwrap --seccomp FD` installs right before it execs the
plugin (bwrap's own setup is not filtered). It is built once per gateway process; system call
numbers come from libseccomp's table for the native architecture (`libseccomp.so.2`, no Python
bindings needed; a name this architecture lacks is skipped), the program itself is written here
so that its branches stay readable. Other ABIs are refused outright: a 32-bit (`int 0x80`) or
x32 call gets EPERM, whatever its number, so no second table can be missed.
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

ALLOWED = (
    # files and folders
    "read", "write", "readv", "writev", "pread64", "pwrite64", "preadv", "pwritev", "preadv2",
    "pwritev2", "open", "openat", "creat", "close", "close_range", "lseek",
    "stat", "fstat", "lstat", "newfstatat", "statx", "statfs", "fstatfs", "access", "faccessat",
    "faccessat2", "readlink", "readlinkat", "getdents", "getdents64", "getcwd", "chdir",
    "fchdir", "mkdir", "mkdirat", "rmdir", "unlink", "unlinkat", "rename", "renameat",
    "renameat2", "link", "linkat", "symlink", "symlinkat", "chmod", "fchmod", "fchmodat",
    "fchmodat2", "chown", "fchown", "lchown", "fchownat", "umask", "truncate", "ftruncate",
    "fallocate", "utime", "utimes", "utimensat", "futimesat", "fsync", "fdatasync", "sync",
    "syncfs", "sync_file_range", "flock", "fadvise64", "readahead", "getxattr", "lgetxattr",
    "fgetxattr", "listxattr", "llistxattr", "flistxattr", "setxattr", "lsetxattr", "fsetxattr",
    "removexattr", "lremovexattr", "fremovexattr", "sendfile", "splice", "tee", "vmsplice",
    "copy_file_range", "mknod", "mknodat", "dup", "dup2", "dup3", "fcntl", "ioctl", "pipe",
    "pipe2", "inotify_init", "inotify_init1", "inotify_add_watch", "inotify_rm_watch",
    "cachestat",
    # waiting on descriptors
    "poll", "ppoll", "select", "pselect6", "epoll_create", "epoll_create1", "epoll_ctl",
    "epoll_wait", "epoll_pwait", "epoll_pwait2", "eventfd", "eventfd2", "signalfd",
    "signalfd4", "timerfd_create", "timerfd_settime", "timerfd_gettime",
    # memory
    "brk", "mmap", "munmap", "mremap", "mprotect", "madvise", "mincore", "msync", "mlock",
    "mlock2", "munlock", "mlockall", "munlockall", "memfd_create", "membarrier", "pkey_alloc",
    "pkey_free", "pkey_mprotect", "map_shadow_stack",
    # processes and threads
    "clone", "clone3", "fork", "vfork", "execve", "execveat", "exit", "exit_group", "wait4",
    "waitid", "kill", "tkill", "tgkill", "getpid", "getppid", "gettid", "getpgid", "setpgid",
    "getpgrp", "getsid", "setsid", "getuid", "geteuid", "getgid", "getegid", "getresuid",
    "getresgid", "getgroups", "setuid", "setgid", "setreuid", "setregid", "setresuid",
    "setresgid", "setfsuid", "setfsgid", "setgroups", "capget", "capset", "prctl",
    "arch_prctl", "set_thread_area", "get_thread_area", "set_tid_address", "set_robust_list",
    "get_robust_list", "rseq", "futex", "futex_waitv", "futex_wake", "futex_wait",
    "futex_requeue", "sched_yield", "sched_getaffinity", "sched_setaffinity",
    "sched_getparam", "sched_setparam", "sched_getscheduler", "sched_setscheduler",
    "sched_get_priority_max", "sched_get_priority_min", "sched_rr_get_interval",
    "sched_getattr", "sched_setattr", "getpriority", "setpriority", "ioprio_get",
    "ioprio_set", "getrlimit", "setrlimit", "prlimit64", "getrusage", "times", "sysinfo",
    "uname", "getcpu", "getrandom", "pidfd_open", "pidfd_send_signal", "process_mrelease",
    # signals
    "rt_sigaction", "rt_sigprocmask", "rt_sigreturn", "rt_sigpending", "rt_sigsuspend",
    "rt_sigtimedwait", "rt_sigqueueinfo", "rt_tgsigqueueinfo", "sigaltstack", "pause",
    "alarm", "restart_syscall",
    # time
    "nanosleep", "clock_nanosleep", "clock_gettime", "clock_getres", "gettimeofday", "time",
    "getitimer", "setitimer", "timer_create", "timer_settime", "timer_gettime",
    "timer_getoverrun", "timer_delete",
    # sockets (`socket` and `socketpair` by family: ARGUMENT rules)
    "bind", "listen", "accept", "accept4", "connect", "getsockname", "getpeername",
    "getsockopt", "setsockopt", "sendto", "recvfrom", "sendmsg", "recvmsg", "sendmmsg",
    "recvmmsg", "shutdown",
    # System V and POSIX IPC: the sandbox's own IPC namespace
    "shmget", "shmat", "shmdt", "shmctl", "semget", "semop", "semtimedop", "semctl", "msgget",
    "msgsnd", "msgrcv", "msgctl", "mq_open", "mq_unlink", "mq_timedsend", "mq_timedreceive",
    "mq_notify", "mq_getsetattr",
    # restricting itself further
    "seccomp", "landlock_create_ruleset", "landlock_add_rule", "landlock_restrict_self",
)  # fmt: skip
"""Allowed (names this architecture lacks are skipped); any call neither here nor in REFUSED
nor argument-checked gets ENOSYS."""
RET_ENOSYS = 0x00050000 | errno.ENOSYS
LEAF = 8
"""Call numbers compared one by one at the end of each branch of the filter's binary search."""

PERSONALITY_ALLOWED = (0x0, 0x8, 0x20000, 0x20008, 0xFFFFFFFF)
"""`personality` values that change nothing that matters: PER_LINUX, PER_LINUX32, UNAME26 (and
both), and the query. The rest (ADDR_NO_RANDOMIZE, READ_IMPLIES_EXEC, MMAP_PAGE_ZERO…) are refused."""

AUDIT_ARCH = {"x86_64": 0xC000003E, "aarch64": 0xC00000B7}
X32_SYSCALL_BIT = 0x40000000

# classic BPF
LD_W_ABS, JEQ_K, JGE_K, JSET_K, RET_K, JA, AND_K = 0x20, 0x15, 0x35, 0x45, 0x06, 0x05, 0x54
RET_ALLOW = 0x7FFF0000
RET_EPERM = 0x00050000 | errno.EPERM
NR, ARCH, ARG0 = 0, 4, 16  # offsets in struct seccomp_data (arg0: its low 32 bits)


class SeccompUnavailable(Exception):
    """The filter cannot be built here (no libseccomp table, an architecture we do not know)."""


SOCKET_FAMILIES = (1, 2, 10)
"""AF_UNIX, AF_INET, AF_INET6: the families `socket` may create. Every other one is refused
with EAFNOSUPPORT, as a kernel built without it would answer (runtimes treat that as "not
here"): AF_PACKET, AF_VSOCK (no network namespace divides it: `network = false` would not be
"no network" on a VM guest), AF_ALG, AF_BLUETOOTH, AF_NETLINK and the rest. AF_NETLINK with
NETLINK_ROUTE was allowed (glibc's and libuv's interface lists): the replies a netlink socket
queues are charged to no cgroup, and a plugin asking for `lo` without reading held 479 MiB of
the host's unreclaimable kernel memory in twenty sockets under `memory_mb = 64` (issue 32,
round 8; NETLINK_KOBJECT_UEVENT carried the host's device events into any namespace).
glibc's `getaddrinfo` falls back without it (AI_ADDRCONFIG assumes both families); a plugin
lists its namespace's interfaces (`lo`) from `/proc/net/dev`."""
SOCKETPAIR_FAMILIES = (1,)
"""AF_UNIX only (the one family `socketpair` means anything for)."""
RET_EAFNOSUPPORT = 0x00050000 | errno.EAFNOSUPPORT
INET_FAMILIES = (2, 10)
"""AF_INET, AF_INET6: allowed for the socket types and protocols of INET_SOCKETS only."""
SOCK_TYPE_MASK = 0xF
"""`socket`'s type without its SOCK_NONBLOCK and SOCK_CLOEXEC flags."""
INET_SOCKETS = ((1, (0, 6)), (2, (0, 17)))
"""(type, its protocols): SOCK_STREAM with 0 or IPPROTO_TCP, SOCK_DGRAM with 0 or IPPROTO_UDP,
what runtimes and resolvers create. Any other pair gets EPROTONOSUPPORT, as from a kernel
without the protocol, before the kernel looks for it: for a pair it has not registered, the
kernel runs `modprobe net-pf-N-proto-P-type-T` as root, outside the sandbox and its cgroup,
whoever asks (`inet_create`), so a plugin chose which module root loaded into the host's kernel
(SCTP, DCCP, L2TP, SMC: rarely used, often exploited code, there for every process until
reboot) and could keep root's `modprobe` running on the host's CPUs, charged to no budget
(issue 32, round 8). SOCK_RAW needs a capability the plugin lacks; MPTCP, UDP-Lite and ping
sockets are refused too (runtimes fall back on EPROTONOSUPPORT)."""
RET_EPROTONOSUPPORT = 0x00050000 | errno.EPROTONOSUPPORT


@dataclass(frozen=True)
class Pairing:
    """A call's first argument `value` allowed only when another argument (`first`, masked
    with `mask`) is a key of `pairs` and a third (`second`) one of that key's values; else
    `refusal`. (`socket(AF_INET, type, protocol)`: each type with its own protocols.)"""

    value: int
    first: int
    mask: int
    second: int
    pairs: tuple[tuple[int, tuple[int, ...]], ...]
    refusal: int


@dataclass(frozen=True)
class ArgumentRule:
    """A call allowed only with its first argument among `allowed`, else `refusal`."""

    number: int
    allowed: tuple[int, ...]
    refusal: int
    paired: tuple[Pairing, ...] = ()
    """First argument values allowed only with one of their pairs of two other arguments."""


SETID_BITS = 0o6000
"""S_ISUID | S_ISGID: a mode with either is refused (EPERM) to every call that sets one."""
MODE_ARGUMENTS = (
    ("chmod", 1), ("fchmod", 1), ("fchmodat", 2), ("fchmodat2", 2), ("open", 2), ("openat", 3),
    ("creat", 1), ("mknod", 1), ("mknodat", 2),
)  # fmt: skip
"""Each call that sets a file's mode, and the index of its mode argument (`openat2` carries
it in a struct the filter cannot read: it is not allowed, and glibc, CPython, Node and Go do
not call it). A plugin with a writable repository (`readonly_root = false`) could otherwise
leave a set-uid copy of a program there, owned by its session's uid: any local user running
it becomes that uid, and can signal, trace and read whichever plugin session gets the uid next
(issue 32's red team). glibc passes a mode of 0 where no file is created."""


HUGE_PAGE_ARGUMENTS = (("mmap", 3, 0x40000), ("memfd_create", 1, 0x4), ("shmget", 2, 0o4000))
"""Each call that takes pages of the host's huge page pool, the index of its flags argument and
the flag that asks for them (MAP_HUGETLB, MFD_HUGETLB, SHM_HUGETLB): refused with ENOMEM, what
the kernel answers when the pool is empty, and what runtimes asking for huge pages fall back
from. The pool (`vm.nr_hugepages`, reserved at boot for a database or a VM) is the host's:
no namespace divides it, and the memory cgroup does not charge its pages (the hugetlb
controller would, which session groups do not use), so a plugin took every page of it, past
`memory_mb`, from the service it was reserved for; with `vm.nr_overcommit_hugepages`, surplus
pages from the host's free memory too (issue 32, round 8). Transparent huge pages are ordinary
memory the cgroup charges: `madvise(MADV_HUGEPAGE)` stays allowed."""
RET_ENOMEM = 0x00050000 | errno.ENOMEM
F_SETFL = 4
PACKET_ARGUMENTS = (("fcntl", 2, os.O_DIRECT, (1, F_SETFL)), ("open", 1, os.O_DIRECT, None),
                    ("openat", 2, os.O_DIRECT, None), ("pipe2", 1, os.O_DIRECT, None))  # fmt: skip
"""Each call that can put `O_DIRECT` on a descriptor the plugin holds (`fcntl(F_SETFL)`, an
open of `/proc/self/fd/N`, which a gateway of the plugin's own uid lets it make, and `pipe2`,
whose packets `splice` and `tee` carry into its stdio pipes, round 11), the index
of its flags argument and, for `fcntl`, the command it applies to: refused with EINVAL, as a
file system without direct I/O answers. On a pipe `O_DIRECT` is packet mode: each write is a
packet of its own and each read of the other end returns at most one, so a plugin writing
single bytes to its stdout or stderr with it made the gateway's event loop do a read and a
callback per byte, however far behind it fell (ordinary writes merge in the pipe and a
reader behind gets them by the 64 KiB): 200,000 bytes took 200,001 reads and ten times the
time, with every client waiting (issue 32, round 10). Runtimes do not ask for direct I/O."""
RET_EINVAL = 0x00050000 | errno.EINVAL
F_SETPIPE_SZ = 1031
PIPE_SHRINKING = 0xFFFF0000
"""The bits of every pipe size of 16 pages (64 KiB, a pipe's default) or more: a
`fcntl(F_SETPIPE_SZ)` with none of them, a pipe shrunk below 16 buffers, is refused with EPERM.
A pipe's ring holds as many buffers as its size has pages, and a buffer `splice` or `vmsplice`
fills is never merged with the next: a plugin that shrank its stderr to one page and spliced
one byte at a time from a file made every read of the gateway's end return one byte, packet
mode without `O_DIRECT` (200,000 bytes: 200,003 reads, 8 times the time; attack13). At 16
buffers or more a reader behind gets at least 16 such bytes a read. Growing a pipe stays
allowed (its buffers are charged to the plugin's memory, round 8); runtimes do not shrink
their pipes."""


@dataclass(frozen=True)
class FlagRule:
    """A call allowed only when its `argument` has none of `bits` set, else `refusal`: a mode
    with S_ISUID or S_ISGID (MODE_ARGUMENTS), flags that ask for huge pages
    (HUGE_PAGE_ARGUMENTS) or for packet mode (PACKET_ARGUMENTS)."""

    number: int
    argument: int
    bits: int = SETID_BITS
    refusal: int = RET_EPERM
    when: tuple[int, int] | None = None
    """(an argument's index, a value): the rule applies only when that argument is the value
    (`fcntl`'s command); otherwise the call is allowed by this rule."""
    unless: bool = False
    """Refused when the argument has none of `bits` instead (a pipe size under 64 KiB)."""


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
            tuple(family for family in SOCKET_FAMILIES if family not in INET_FAMILIES),
            RET_EAFNOSUPPORT,
            paired=tuple(  # socket(family, type, protocol)
                Pairing(family, 1, SOCK_TYPE_MASK, 2, INET_SOCKETS, RET_EPROTONOSUPPORT)
                for family in INET_FAMILIES
            ),
        ),
        ArgumentRule(_syscall_number("socketpair"), SOCKETPAIR_FAMILIES, RET_EAFNOSUPPORT),
    ]
    every_flag = [
        *(FlagRule(_syscall_number(n), a) for n, a in MODE_ARGUMENTS),
        *(FlagRule(_syscall_number(n), a, b, RET_ENOMEM) for n, a, b in HUGE_PAGE_ARGUMENTS),
        *(FlagRule(_syscall_number(n), a, b, RET_EINVAL, w) for n, a, b, w in PACKET_ARGUMENTS),
        FlagRule(_syscall_number("fcntl"), 2, PIPE_SHRINKING, RET_EPERM, (1, F_SETPIPE_SZ), True),
    ]
    flagged = [flag for flag in every_flag if flag.number >= 0]
    ruled = {rule.number for rule in rules} | {flag.number for flag in flagged}
    allowed = [n for n in allowed_numbers() if n not in ruled]
    x32 = machine == "x86_64"
    return assemble(
        AUDIT_ARCH[machine], refused_numbers(), rules, allowed, x32=x32, flagged=flagged
    )


@functools.cache
def refused_numbers() -> list[int]:
    """The numbers of the REFUSED calls this architecture has. Raises SeccompUnavailable."""
    return sorted({n for n in map(_syscall_number, REFUSED) if n >= 0})


@functools.cache
def allowed_numbers() -> list[int]:
    """The numbers of the ALLOWED calls this architecture has (none of REFUSED)."""
    refused = set(refused_numbers())
    return sorted({n for n in map(_syscall_number, ALLOWED) if n >= 0} - refused)


Instruction = tuple[int, int | str, int | str, int | str]
"""(code, jump if true, jump if false, k); a jump is a count of instructions to skip or the
name of a label further on (`_resolve` turns names into counts); `JA`'s is its `k`."""


def assemble(
    arch: int,
    refused: list[int],
    rules: list[ArgumentRule],
    allowed: list[int],
    *,
    x32: bool,
    flagged: list[FlagRule] | None = None,
) -> bytes:
    """The program: wrong ABI → EPERM; a refused number → EPERM; a call with an argument rule
    whose first argument is not allowed (or not with the other arguments its `paired` ask
    for) → the refusal they name; a call of `flagged` whose argument has one of
    its bits set (a set-uid mode, a huge page, packet mode; where it names a `when`, only with
    that argument's value) → its refusal; an allowed number → allowed;
    anything else → ENOSYS."""
    flagged = flagged or []
    code: list[Instruction | str] = [
        (LD_W_ABS, 0, 0, ARCH),
        (JEQ_K, 1, 0, arch),
        (RET_K, 0, 0, RET_EPERM),
        (LD_W_ABS, 0, 0, NR),
    ]
    if x32:
        code += [(JGE_K, 0, 1, X32_SYSCALL_BIT), (RET_K, 0, 0, RET_EPERM)]
    verdicts = {n: "allow" for n in allowed} | {n: "deny" for n in refused}
    verdicts |= {rule.number: f"rule{i}" for i, rule in enumerate(rules)}
    checks: dict[int, list[FlagRule]] = {}  # a call may have several: `openat`'s mode, flags
    for flag in flagged:
        checks.setdefault(flag.number, []).append(flag)
    verdicts |= {number: f"flag{number}" for number in checks}
    code += _dispatch(sorted(verdicts.items()), "t")
    for index, rule in enumerate(rules):
        code += [f"rule{index}", (LD_W_ABS, 0, 0, ARG0)]
        code += [(JEQ_K, f"allow{index}", 0, value) for value in rule.allowed]
        code += [(JEQ_K, f"pair{index}.{n}", 0, p.value) for n, p in enumerate(rule.paired)]
        code.append((RET_K, 0, 0, rule.refusal))
        for n, pairing in enumerate(rule.paired):
            code += _pairing(pairing, f"pair{index}.{n}", f"allow{index}")
        code += [f"allow{index}", (RET_K, 0, 0, RET_ALLOW)]
    for number, rules_of_call in checks.items():
        code.append(f"flag{number}")
        for index, flag in enumerate(rules_of_call):
            passed = f"flag{number}.{index + 1}"
            if flag.when is not None:
                argument, value = flag.when
                code += [(LD_W_ABS, 0, 0, ARG0 + 8 * argument), (JEQ_K, 0, passed, value)]
            jumps = (passed, 0) if flag.unless else (0, passed)
            code += [(LD_W_ABS, 0, 0, ARG0 + 8 * flag.argument), (JSET_K, *jumps, flag.bits)]
            code += [(RET_K, 0, 0, flag.refusal), passed]
        code.append((RET_K, 0, 0, RET_ALLOW))
    code += ["unlisted", (RET_K, 0, 0, RET_ENOSYS)]
    return b"".join(struct.pack("=HBBI", *op) for op in _resolve(code))


def _pairing(pairing: Pairing, tag: str, allow: str) -> list[Instruction | str]:
    """`tag`: the first argument is `pairing.value`; on to `allow` when the other two make one
    of its pairs, else its refusal."""
    code: list[Instruction | str] = [
        tag,
        (LD_W_ABS, 0, 0, ARG0 + 8 * pairing.first),
        (AND_K, 0, 0, pairing.mask),
        *((JEQ_K, f"{tag}.{key}", 0, key) for key, _ in pairing.pairs),
        (RET_K, 0, 0, pairing.refusal),
    ]
    for key, values in pairing.pairs:
        code += [f"{tag}.{key}", (LD_W_ABS, 0, 0, ARG0 + 8 * pairing.second)]
        code += [(JEQ_K, allow, 0, value) for value in values]
        code.append((RET_K, 0, 0, pairing.refusal))
    return code


def _dispatch(entries: list[tuple[int, str]], tag: str) -> list[Instruction | str]:
    """A binary search over the sorted call numbers, each with its verdict ("allow", "deny",
    or the label of its argument rule): about log2(n) comparisons for any call rather than a
    scan of every number. Leaves of LEAF numbers compare for equality and end in their own
    `ret`s (8-bit jumps stay short); a number in no leaf jumps to "unlisted" (ENOSYS)."""
    if len(entries) <= LEAF:
        kinds = list(dict.fromkeys(verdict for _, verdict in entries))
        code: list[Instruction | str] = [(JEQ_K, f"{tag}.{v}", 0, n) for n, v in entries]
        code.append((JA, 0, 0, "unlisted"))
        for kind in kinds:
            action = {"allow": (RET_K, 0, 0, RET_ALLOW), "deny": (RET_K, 0, 0, RET_EPERM)}
            code += [f"{tag}.{kind}", action.get(kind, (JA, 0, 0, kind))]
        return code
    middle = len(entries) // 2
    return [
        (JGE_K, 0, 1, entries[middle][0]),  # at or past the middle: over the lower half (JA)
        (JA, 0, 0, f"{tag}>"),
        *_dispatch(entries[:middle], f"{tag}<"),
        f"{tag}>",
        *_dispatch(entries[middle:], f"{tag}>"),
    ]


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

    def offset(at: int, k: int | str) -> int:  # JA's 32-bit jump
        return k if isinstance(k, int) else labels[k] - at - 1

    return [
        (op, distance(at, jt), distance(at, jf), offset(at, k))
        for at, (op, jt, jf, k) in enumerate(program)
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
