"""The seccomp program, run by a tiny classic-BPF interpreter: what it answers for each kind of
call, without a kernel in the way (the escape tests prove the kernel applies it)."""

from __future__ import annotations

import struct

import pytest

from gpp.host import seccomp

X86_64 = seccomp.AUDIT_ARCH["x86_64"]
ALLOWED = [0, 1, 39, 57, 59, 102, 424, 426, *range(1000, 1400)]  # a deep search tree
AF_UNIX, AF_INET, AF_INET6, AF_NETLINK, AF_PACKET, AF_ALG, AF_VSOCK = 1, 2, 10, 16, 17, 38, 40
SOCK_STREAM, SOCK_DGRAM, SOCK_RAW, SOCK_SEQPACKET, SOCK_DCCP = 1, 2, 3, 5, 6
I386 = 0x40000003


def run(program: bytes, arch: int, nr: int, arg0: int = 0, arg2: int = 0, **more: int) -> int:
    """The action the program returns for `struct seccomp_data` {nr, arch, ip=0, args[0..5]}
    (`more`: arg1, arg3… by name)."""
    return walk(program, arch, nr, arg0, arg2, **more)[0]


def walk(
    program: bytes, arch: int, nr: int, arg0: int = 0, arg2: int = 0, **more: int
) -> tuple[int, int]:
    """The action, and how many instructions ran to reach it."""
    args = [more.get(f"arg{i}", 0) for i in range(6)]
    args[0], args[2] = arg0, arg2
    data = struct.pack("=iIQ6Q", nr, arch, 0, *args)
    code = [struct.unpack_from("=HBBI", program, i) for i in range(0, len(program), 8)]
    pc, acc = 0, 0
    for step in range(1, len(code) + 1):  # no backward jumps: at most one pass
        op, jt, jf, k = code[pc]
        if op == seccomp.LD_W_ABS:
            (acc,) = struct.unpack_from("=I", data, k)
            pc += 1
        elif op == seccomp.AND_K:
            acc &= k
            pc += 1
        elif op in (seccomp.JEQ_K, seccomp.JGE_K, seccomp.JSET_K):
            taken = {seccomp.JEQ_K: acc == k, seccomp.JGE_K: acc >= k}.get(op, bool(acc & k))
            pc += 1 + (jt if taken else jf)
        elif op == seccomp.JA:
            pc += 1 + k
        elif op == seccomp.RET_K:
            return int(k), step
        else:
            raise AssertionError(f"unexpected opcode {op:#x}")
    raise AssertionError("ran off the end")


@pytest.fixture(scope="module")
def program() -> bytes:
    rules = [
        seccomp.ArgumentRule(135, seccomp.PERSONALITY_ALLOWED, seccomp.RET_EPERM),
        seccomp.ArgumentRule(41, seccomp.SOCKET_FAMILIES, seccomp.RET_EAFNOSUPPORT),
        seccomp.ArgumentRule(53, seccomp.SOCKETPAIR_FAMILIES, seccomp.RET_EAFNOSUPPORT),
    ]
    return seccomp.assemble(X86_64, [101, 250, 425], rules, ALLOWED, x32=True)


def test_refused_calls_get_eperm_allowed_ones_pass_the_rest_enosys(program: bytes) -> None:
    for nr in (101, 250, 425):  # ptrace, keyctl, io_uring_setup
        assert run(program, X86_64, nr) == seccomp.RET_EPERM, nr
    for nr in ALLOWED:  # read, write, getpid, fork, execve, neighbours, and a long tail
        assert run(program, X86_64, nr) == seccomp.RET_ALLOW, nr
    for nr in (2, 100, 423, 427, 999, 1400, 5000):  # listed nowhere: as if the kernel lacked it
        assert run(program, X86_64, nr) == seccomp.RET_ENOSYS, nr


def test_other_abis_are_refused_whatever_the_number(program: bytes) -> None:
    assert run(program, I386, 20) == seccomp.RET_EPERM  # getpid, int 0x80
    assert run(program, X86_64, seccomp.X32_SYSCALL_BIT | 39) == seccomp.RET_EPERM  # x32 getpid


def test_personality_keeps_its_harmless_values_only(program: bytes) -> None:
    for value in seccomp.PERSONALITY_ALLOWED:
        assert run(program, X86_64, 135, value) == seccomp.RET_ALLOW, hex(value)
    for value in (0x0040000, 0x0400000, 0x0100000, 0x1):  # no ASLR, READ_IMPLIES_EXEC, page 0
        assert run(program, X86_64, 135, value) == seccomp.RET_EPERM, hex(value)


def test_the_real_program_refuses_every_named_call_this_machine_has() -> None:
    program = seccomp.program()
    numbers = [seccomp._syscall_number(name) for name in seccomp.REFUSED]
    present = [n for n in numbers if n >= 0]
    assert len(present) > 60
    arch = seccomp.AUDIT_ARCH[__import__("platform").machine()]
    for nr in present:
        assert run(program, arch, nr) == seccomp.RET_EPERM, nr
    for name in ("read", "write", "openat", "clone", "clone3", "execve", "wait4", "mmap"):
        assert run(program, arch, seccomp._syscall_number(name)) == seccomp.RET_ALLOW, name
    for name in ("get_mempolicy", "mbind", "process_madvise", "sethostname"):  # unlisted
        assert run(program, arch, seccomp._syscall_number(name)) == seccomp.RET_ENOSYS, name


def test_every_call_the_bundled_plugins_make_is_allowed() -> None:
    """What `strace -f` saw CPython, Node and the packs call in their sandboxes (issue 32)."""
    traced = ("access arch_prctl brk capget clone3 close dup2 epoll_create1 epoll_ctl "
              "epoll_pwait eventfd2 execve exit_group fcntl fstat futex getcwd getdents64 "
              "getegid geteuid getgid getpid getppid getrandom gettid getuid ioctl lseek madvise "
              "mmap mprotect mremap munmap newfstatat openat pipe2 pkey_alloc pread64 prlimit64 "
              "read readlink rseq rt_sigaction rt_sigprocmask sched_getaffinity set_robust_list "
              "set_tid_address statx sysinfo uname write")  # fmt: skip
    program = seccomp.program()
    arch = seccomp.AUDIT_ARCH[__import__("platform").machine()]
    for name in traced.split():
        number = seccomp._syscall_number(name)
        if number >= 0:
            assert run(program, arch, number) == seccomp.RET_ALLOW, name


def test_sockets_of_unix_and_inet_families_only(program: bytes) -> None:
    for family in (AF_UNIX, AF_INET, AF_INET6):
        assert run(program, X86_64, 41, family) == seccomp.RET_ALLOW, family
    for family in (0, 3, AF_PACKET, AF_ALG, AF_VSOCK, 45, 0x10001):
        assert run(program, X86_64, 41, family) == seccomp.RET_EAFNOSUPPORT, family


def test_no_netlink_socket_of_any_protocol() -> None:
    """Round 8: NETLINK_ROUTE was allowed for interface lists, and its replies are kernel
    memory no cgroup is charged; uevents (15) carry the host's device events."""
    program = seccomp.program()
    arch = seccomp.AUDIT_ARCH[__import__("platform").machine()]
    socket = seccomp._syscall_number("socket")
    for protocol in (0, 4, 9, 12, 15, 16):  # route, sock_diag, audit, netfilter, uevent, generic
        got = run(program, arch, socket, AF_NETLINK, protocol, arg1=SOCK_RAW)
        assert got == seccomp.RET_EAFNOSUPPORT, protocol


def test_socketpair_of_unix_family_only(program: bytes) -> None:
    assert run(program, X86_64, 53, AF_UNIX) == seccomp.RET_ALLOW
    for family in (AF_INET, AF_NETLINK, AF_VSOCK):
        assert run(program, X86_64, 53, family) == seccomp.RET_EAFNOSUPPORT, family


def test_the_real_program_refuses_native_aio_and_modify_ldt() -> None:
    program = seccomp.program()
    arch = seccomp.AUDIT_ARCH[__import__("platform").machine()]
    for name in ("io_setup", "io_submit", "io_getevents", "io_pgetevents", "io_destroy",
                 "io_cancel", "modify_ldt"):  # fmt: skip
        number = seccomp._syscall_number(name)
        if number >= 0:  # modify_ldt is x86 only
            assert run(program, arch, number) == seccomp.RET_EPERM, name
    socket = seccomp._syscall_number("socket")
    assert run(program, arch, socket, AF_VSOCK) == seccomp.RET_EAFNOSUPPORT
    assert run(program, arch, socket, AF_INET6, arg1=SOCK_STREAM) == seccomp.RET_ALLOW


def test_every_verdict_is_a_short_search_not_a_scan_of_the_lists() -> None:
    """The program is a binary search over some 350 numbers: a call costs a few dozen
    instructions at most, whichever it is (a scan cost up to 400, on every system call)."""
    program = seccomp.program()
    arch = seccomp.AUDIT_ARCH[__import__("platform").machine()]
    for nr in range(0, 600):
        action, steps = walk(program, arch, nr)
        assert steps <= 30, (nr, action, steps)


def test_no_call_sets_a_set_uid_or_set_gid_bit() -> None:
    """Red team (issue 32): a plugin with a writable repository left a set-uid copy of `id`
    there, owned by its session's uid; any local user running it became that uid, and with it
    could signal, trace and read whichever later session got the uid. Every call that sets a
    mode refuses S_ISUID and S_ISGID (EPERM); `openat2`, whose mode the filter cannot read, is
    not allowed (ENOSYS)."""
    program = seccomp.program()
    arch = seccomp.AUDIT_ARCH[__import__("platform").machine()]
    for name, argument in seccomp.MODE_ARGUMENTS:
        number = seccomp._syscall_number(name)
        if number < 0:  # chmod, open, creat, mknod: not on aarch64
            continue
        for mode in (0o4755, 0o2755, 0o6755, 0o104755):
            got = run(program, arch, number, **{f"arg{argument}": mode})
            assert got == seccomp.RET_EPERM, (name, oct(mode))
        for mode in (0, 0o755, 0o1777, 0o100644):
            got = run(program, arch, number, **{f"arg{argument}": mode})
            assert got == seccomp.RET_ALLOW, (name, oct(mode))
    assert run(program, arch, seccomp._syscall_number("openat2")) == seccomp.RET_ENOSYS


def test_inet_sockets_of_tcp_and_udp_only() -> None:
    """Round 8: for a type and protocol pair it has not registered, `socket(AF_INET…)` has the
    kernel run `modprobe net-pf-2-proto-P-type-T` as root, outside the sandbox and its cgroup:
    the plugin chose which module root loaded into the host's kernel (SCTP, DCCP, L2TP, SMC),
    and kept root's `modprobe` busy on the host's CPUs. Only TCP and UDP pass (the type's
    SOCK_NONBLOCK and SOCK_CLOEXEC flags aside); the rest get EPROTONOSUPPORT, as from a
    kernel without the protocol, before the kernel looks for it."""
    program = seccomp.program()
    arch = seccomp.AUDIT_ARCH[__import__("platform").machine()]
    socket = seccomp._syscall_number("socket")
    flags = 0o4000 | 0o2000000  # SOCK_NONBLOCK | SOCK_CLOEXEC
    for family in (AF_INET, AF_INET6):
        for kind, protocol in ((SOCK_STREAM, 0), (SOCK_STREAM, 6), (SOCK_DGRAM, 0),
                               (SOCK_DGRAM, 17), (SOCK_STREAM | flags, 6)):  # fmt: skip
            got = run(program, arch, socket, family, protocol, arg1=kind)
            assert got == seccomp.RET_ALLOW, (family, kind, protocol)
        for kind, protocol in ((SOCK_STREAM, 132), (SOCK_SEQPACKET, 132), (SOCK_SEQPACKET, 0),
                               (SOCK_DCCP, 0), (SOCK_DCCP, 33), (SOCK_DGRAM, 115),
                               (SOCK_STREAM, 256), (SOCK_STREAM, 262), (SOCK_DGRAM, 136),
                               (SOCK_DGRAM, 6), (SOCK_STREAM, 17), (SOCK_DGRAM, 1),
                               (SOCK_RAW, 0), (0, 0), (SOCK_STREAM | flags, 132)):  # fmt: skip
            got = run(program, arch, socket, family, protocol, arg1=kind)
            assert got == seccomp.RET_EPROTONOSUPPORT, (family, kind, protocol)
        # the kernel reads `int protocol`: the upper half of the register is not its to see
        assert (
            run(program, arch, socket, family, 6 | 1 << 32, arg1=SOCK_STREAM) == seccomp.RET_ALLOW
        )
    assert run(program, arch, socket, AF_UNIX, arg1=SOCK_SEQPACKET) == seccomp.RET_ALLOW
    # no netlink at all: its replies are kernel memory no cgroup is charged (round 8)
    assert run(program, arch, socket, AF_NETLINK, 0, arg1=SOCK_RAW) == seccomp.RET_EAFNOSUPPORT


def test_no_call_takes_pages_of_the_hosts_huge_page_pool() -> None:
    """Round 8: `mmap(MAP_HUGETLB)` took every page of the host's huge page pool (reserved for
    a database or a VM; no namespace divides it, the memory cgroup does not charge it), past
    `memory_mb`. The three calls that ask for huge pages get ENOMEM for that flag alone."""
    program = seccomp.program()
    arch = seccomp.AUDIT_ARCH[__import__("platform").machine()]
    mmap, memfd, shmget = (seccomp._syscall_number(n) for n in ("mmap", "memfd_create", "shmget"))
    private_anonymous, huge = 0x22, 0x40000
    assert run(program, arch, mmap, arg3=private_anonymous) == seccomp.RET_ALLOW
    assert run(program, arch, mmap, arg3=private_anonymous | huge) == seccomp.RET_ENOMEM
    assert run(program, arch, mmap, arg3=private_anonymous | huge | 26 << 26) == seccomp.RET_ENOMEM
    assert run(program, arch, memfd, arg1=0x1) == seccomp.RET_ALLOW  # MFD_CLOEXEC
    assert run(program, arch, memfd, arg1=0x1 | 0x4) == seccomp.RET_ENOMEM
    assert run(program, arch, shmget, 0, 0o1600) == seccomp.RET_ALLOW  # IPC_CREAT | 0600
    assert run(program, arch, shmget, 0, 0o1600 | 0o4000) == seccomp.RET_ENOMEM
