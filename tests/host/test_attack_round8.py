"""Issue 32, an eighth round of attack on the containment, as root: the seccomp allow-list by
the arguments a runtime never passes, and what a plugin's calls make the kernel do outside its
sandbox and its cgroup (root's `modprobe`, the host's huge page pool, socket buffers).

Each test runs the attack as root inside a real sandbox and passes only when it fails.
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import DEMO_REPO, FIXTURE_PLUGINS, REPO
from gateway_harness import echo_plugin, running_gateway, write_config
from test_containment import start

from gpp.core import codes
from gpp.host import JsonRpcSession, PluginSession, SandboxPolicy, process, sandbox, uids
from gpp.host.view import GPP_PACKAGE

PROBE = """import ctypes, errno, os, socket, struct, sys
sys.path.insert(0, {checkout!r})
from gpp.plugin.sdk import serve

libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long


def outcome(attempt):
    try:
        result = attempt()
    except OSError as exc:
        return errno.errorcode.get(exc.errno, str(exc.errno))
    return "ok" if result is None else result


def call(number, *args):
    def attempt():
        if libc.syscall(number, *args) < 0:
            raise OSError(ctypes.get_errno(), "")
    return attempt


def open_socket(family, kind, protocol=0):
    return lambda: socket.socket(family, kind, protocol).close()


{attempts}


def discover(paths):
    attrs = {{name: outcome(attempt) for name, attempt in ATTEMPTS.items()}}
    return {{"resources": [{{"kind": "probe", "name": "attempts", "location": {{"path": ".",
        "line": 1}}, "attrs": attrs}}], "unresolved": [], "findings": [],
        "classificationSignals": []}}

raise SystemExit(serve("round8-probe", "1.0.0", discover))
"""


def attempts(tmp_path: Path, code: str, policy: SandboxPolicy | None = None) -> dict[str, str]:
    """What each of the `ATTEMPTS` that `code` defines got in a default sandbox: "ok" or the
    errno's name."""
    plugin = tmp_path / "round8_probe.py"
    plugin.write_text(PROBE.format(checkout=str(GPP_PACKAGE.parent), attempts=code))
    result, _ = start([sys.executable, str(plugin)], plugin_id="round8-probe", policy=policy)
    attrs: dict[str, str] = result["resources"][0]["attrs"]
    return attrs


MODULE_LOADS = """
AF_INET, AF_INET6 = socket.AF_INET, socket.AF_INET6
STREAM, DGRAM, SEQPACKET, DCCP = 1, 2, 5, 6
ATTEMPTS = {
    "tcp": open_socket(AF_INET, STREAM),
    "tcp6-by-number": open_socket(AF_INET6, STREAM | socket.SOCK_CLOEXEC, 6),
    "udp": open_socket(AF_INET, DGRAM | socket.SOCK_NONBLOCK, 17),
    "udp6": open_socket(AF_INET6, DGRAM),
    "udplite": open_socket(AF_INET, DGRAM, 136),
    "mptcp": open_socket(AF_INET6, STREAM, 262),
    "sctp": open_socket(AF_INET, STREAM, 132),
    "sctp-seqpacket": open_socket(AF_INET6, SEQPACKET, 0),
    "dccp": open_socket(AF_INET, DCCP, 0),
    "l2tp-ip": open_socket(AF_INET, DGRAM, 115),
    "smc": open_socket(AF_INET, STREAM, 256),
    "mismatched": open_socket(AF_INET, DGRAM, 6),
}
"""


def test_a_plugin_cannot_have_root_load_a_protocol_module(tmp_path: Path) -> None:
    """Broken on main (medium). `socket(AF_INET, type, protocol)` for a pair the kernel has
    not registered makes it run `modprobe net-pf-2-proto-P-type-T` as root, outside the
    sandbox and its cgroup, for whoever asks (`inet_create`): a plugin chose which protocol
    module root loaded into the host's kernel (SCTP, DCCP, L2TP, SMC: seldom used, often
    exploited code, left there for every process until reboot), and each refused pair kept
    root's `modprobe` busy on the host's CPUs, charged to no budget. The filter let every
    AF_INET and AF_INET6 socket through. This kernel has no modules, so what is seen here is
    the filter's answer: the protocols it has built in (UDP-Lite, MPTCP) were created on main.
    Now only TCP and UDP pass; the rest get EPROTONOSUPPORT before the kernel looks."""
    got = attempts(tmp_path, MODULE_LOADS)
    for name in ("tcp", "tcp6-by-number", "udp", "udp6"):
        assert got[name] == "ok", (name, got)
    for name in ("udplite", "mptcp", "sctp", "sctp-seqpacket", "dccp", "l2tp-ip", "smc",
                 "mismatched"):  # fmt: skip
        assert got[name] == "EPROTONOSUPPORT", (name, got)


UNNEEDED_CALLS = """
NR = {"x86_64": dict(unshare=272, clone=56, open_tree=428, fsopen=430, fanotify_init=300,
                      name_to_handle_at=303, syslog=103, pidfd_getfd=438, kcmp=312,
                      process_madvise=440, sched_setattr=314, ioprio_set=251, mbind=237,
                      move_pages=279, migrate_pages=256, lookup_dcookie=212, quotactl=179,
                      acct=163, vhangup=153, setns=308, chroot=161, listmount=458,
                      statmount=457, lsm_get_self_attr=459),
      "aarch64": dict(unshare=97, clone=220, open_tree=428, fsopen=430, fanotify_init=262,
                       name_to_handle_at=264, syslog=116, pidfd_getfd=438, kcmp=272,
                       process_madvise=440, sched_setattr=274, ioprio_set=30, mbind=235,
                       move_pages=239, migrate_pages=238, lookup_dcookie=18, quotactl=60,
                       acct=89, vhangup=58, setns=268, chroot=51, listmount=458,
                       statmount=457, lsm_get_self_attr=459)}[os.uname().machine]
CLONE_FLAGS = dict(newns=0x20000, newcgroup=0x2000000, newuts=0x4000000, newipc=0x8000000,
                   newuser=0x10000000, newpid=0x20000000, newnet=0x40000000, newtime=0x80)
DEADLINE = struct.pack("IIQiIQQQ", 48, 6, 0, 0, 0, 1000000, 10000000, 10000000)
buffer = ctypes.create_string_buffer(4096)
ATTEMPTS = {f"unshare-{name}": call(NR["unshare"], flag) for name, flag in CLONE_FLAGS.items()}
ATTEMPTS.update({
    # the child would be in a new user namespace: SIGCHLD | CLONE_NEWUSER, no stack (a fork)
    "clone-newuser": call(NR["clone"], 0x10000000 | 17, 0, 0, 0, 0),
    "open_tree": call(NR["open_tree"], -100, b"/tmp", 1),
    "fsopen": call(NR["fsopen"], b"tmpfs", 0),
    "fanotify_init": call(NR["fanotify_init"], 0, 0),
    "name_to_handle_at": call(NR["name_to_handle_at"], -100, b"/", buffer, buffer, 0),
    "syslog": call(NR["syslog"], 3, buffer, 64),
    "pidfd_getfd": call(NR["pidfd_getfd"], 0, 0, 0),
    "kcmp": call(NR["kcmp"], os.getpid(), os.getpid(), 0, 0, 0),
    "process_madvise": call(NR["process_madvise"], 0, 0, 0, 0, 0),
    "sched-deadline": call(NR["sched_setattr"], 0, DEADLINE, 0),
    "ioprio-realtime": call(NR["ioprio_set"], 1, 0, 1 << 13),
    "mbind": call(NR["mbind"], 0, 0, 0, 0, 0, 0),
    "move_pages": call(NR["move_pages"], 0, 0, 0, 0, 0, 0),
    "migrate_pages": call(NR["migrate_pages"], 0, 0, 0, 0),
    "lookup_dcookie": call(NR["lookup_dcookie"], 0, 0, 0),
    "quotactl": call(NR["quotactl"], 0, 0, 0, 0),
    "acct": call(NR["acct"], 0),
    "vhangup": call(NR["vhangup"]),
    "setns": call(NR["setns"], 0, 0),
    "chroot": call(NR["chroot"], b"/tmp"),
    "listmount": call(NR["listmount"], 0, 0, 0, 0),
    "statmount": call(NR["statmount"], 0, 0, 0, 0),
    "lsm_get_self_attr": call(NR["lsm_get_self_attr"], 0, 0, 0, 0),
    "af-alg": open_socket(38, socket.SOCK_SEQPACKET),
    "af-key": open_socket(15, socket.SOCK_RAW, 2),
    "af-can": open_socket(29, socket.SOCK_RAW, 1),
    "af-tipc": open_socket(30, socket.SOCK_RDM),
    "af-xdp": open_socket(44, socket.SOCK_RAW),
    "af-bluetooth": open_socket(31, socket.SOCK_STREAM),
    "af-smc": open_socket(43, socket.SOCK_STREAM),
    "af-rds": open_socket(21, socket.SOCK_SEQPACKET),
    "af-qipcrtr": open_socket(42, socket.SOCK_DGRAM),
    "netlink-generic": open_socket(16, socket.SOCK_RAW, 16),
    "netlink-sock-diag": open_socket(16, socket.SOCK_RAW, 4),
    "netlink-audit": open_socket(16, socket.SOCK_RAW, 9),
    "netlink-netfilter": open_socket(16, socket.SOCK_RAW, 12),
    "raw-ip": open_socket(socket.AF_INET, socket.SOCK_RAW, 1),
    "ping": open_socket(socket.AF_INET, socket.SOCK_DGRAM, 1),
})
"""


def test_calls_and_sockets_no_runtime_needs_are_refused_in_the_sandbox(tmp_path: Path) -> None:
    """Held. What earlier rounds did not try: each namespace `unshare` flag alone and a
    `clone` into a new user namespace, the new mount API, `fanotify`, file handles, the
    kernel log, another process's descriptors, real-time deadline and I/O scheduling, NUMA
    page moves, `listmount`/`statmount`, and every socket family or netlink protocol but the
    few a runtime uses. None may succeed (the filter's EPERM, ENOSYS or EAFNOSUPPORT, or the
    kernel's own refusal for want of a capability)."""
    got = attempts(tmp_path, UNNEEDED_CALLS)
    succeeded = {name: result for name, result in got.items() if result == "ok"}
    assert not succeeded, got
    filtered = ("open_tree", "fsopen", "fanotify_init", "name_to_handle_at", "syslog",
                "pidfd_getfd", "kcmp", "lookup_dcookie", "quotactl", "acct", "vhangup",
                "setns", "chroot")  # fmt: skip
    assert {name: got[name] for name in filtered} == dict.fromkeys(filtered, "EPERM"), got
    unlisted = ("process_madvise", "mbind", "move_pages", "migrate_pages", "listmount",
                "statmount", "lsm_get_self_attr")  # fmt: skip
    assert {name: got[name] for name in unlisted} == dict.fromkeys(unlisted, "ENOSYS"), got
    families = [name for name in got if name.startswith(("af-", "netlink-"))]
    assert {name: got[name] for name in families} == dict.fromkeys(families, "EAFNOSUPPORT")


SOCKET_BUFFERS = """
def fill():
    pairs = []
    queued = 0
    chunk = b"x" * 65536
    while queued < 1 << 30 and len(pairs) < 120:  # 240 descriptors: under max_open_files
        pair = socket.socketpair()
        for end in pair:
            end.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 1 << 30)
            end.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1 << 30)
            end.setblocking(False)
            while True:
                try:
                    queued += end.send(chunk)
                except BlockingIOError:
                    break
        pairs.append(pair)
    return f"queued {queued >> 20} MiB in {len(pairs)} socket pairs"

ATTEMPTS = {"fill": fill}
"""


INET_BUFFERS = """
MiB = 1 << 20


def tcp():  # connections over the sandbox's own loopback, never read from
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(64)
    queued, held = 0, []
    for _ in range(50):
        client = socket.socket()
        client.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 1 << 30)
        client.connect(listener.getsockname())
        server, _ = listener.accept()
        server.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1 << 30)
        client.setblocking(False)
        while True:
            try:
                queued += client.send(b"x" * 65536)
            except BlockingIOError:
                break
        held += [client, server]
    return str(queued // MiB)


def udp():  # datagrams to sockets that never read them
    sender = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    held = []
    for _ in range(60):
        receiver = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        receiver.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1 << 30)
        receiver.bind(("127.0.0.1", 0))
        held.append(receiver)
        for _ in range(200):
            sender.sendto(b"x" * 60000, receiver.getsockname())
    queues = [line.split()[4] for line in open("/proc/net/udp").readlines()[1:]]
    return str(sum(int(queue.split(":")[1], 16) for queue in queues) // MiB)


ATTEMPTS = {"tcp": tcp, "udp": udp}
"""
SOCKET_BUFFERS_MB = 64


def test_tcp_and_udp_buffers_are_bounded_with_the_plugins_memory(tmp_path: Path) -> None:
    """Broken on main (high). On cgroup v1 (this host's, as CI's) the buffers of TCP and UDP
    sockets are charged to no group unless the group's `memory.kmem.tcp.limit_in_bytes` is
    set: a plugin of the default sandbox (no network: its own loopback) held 544 MiB in TCP
    connections it never read and 476 MiB in UDP datagrams under `memory_mb = 64`, from the
    host's memory and from `tcp_mem` / `udp_mem`, pools of a tenth of the host's memory or
    less that every network namespace shares (at their limit every TCP socket of the host
    starves, the gateway's own front door included). The limit is now set, at `memory_mb` or
    64 MiB, whichever is less: even at the default `memory_mb` (1 GiB, half of this host's
    `tcp_mem`) what a plugin's sockets hold stops there."""
    got = attempts(tmp_path, INET_BUFFERS, SandboxPolicy())
    assert int(got["tcp"]) <= SOCKET_BUFFERS_MB and int(got["udp"]) <= SOCKET_BUFFERS_MB, got


NETLINK_REPLIES = """
def queue_replies():  # RTM_GETLINK of `lo` (no dump), asked again and again, never read
    request = struct.pack("=IHHII", 32, 18, 1, 0, 0) + struct.pack("=BxHiII", 0, 0, 1, 0, 0)
    held, asked = [], 0
    for _ in range(20):
        route = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, 0)  # NETLINK_ROUTE
        route.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1 << 30)
        route.bind((0, 0))
        for _ in range(20000):
            route.send(request)
            asked += 1
        held.append(route)
    return f"{asked} replies queued in {len(held)} sockets"

ATTEMPTS = {"netlink": queue_replies}
"""


def test_a_plugin_holds_no_kernel_memory_in_netlink_replies(tmp_path: Path) -> None:
    """Broken on main (high). The filter let NETLINK_ROUTE through (for glibc's and libuv's
    interface lists), and the replies a netlink socket queues are charged to no cgroup, on v1
    or v2: twenty sockets of a plugin under `memory_mb = 64`, asking for `lo` and never
    reading, held 479 MiB of the host's unreclaimable kernel memory, each up to twice
    `net.core.rmem_max` (8 MiB here; 416 KiB at the kernels' default), as many as its
    descriptors reach (`max_open_files` × `max_processes`: some 16,000): the host's memory,
    out of any OOM killer's group. In the plugin's own network namespace it lists `lo` alone;
    glibc's `getaddrinfo` falls back without it. AF_NETLINK is now refused (EAFNOSUPPORT) with
    every protocol."""
    got = attempts(tmp_path, NETLINK_REPLIES, SandboxPolicy(memory_mb=64))
    assert got == {"netlink": "EAFNOSUPPORT"}, got


KERNEL_QUEUES = """
def messages():  # System V message queues of the sandbox's IPC namespace, each kept full
    message = struct.pack("l", 1) + b"x" * 8000
    queued = 0
    for _ in range(20000):
        queue = libc.msgget(0, 0o1600)
        if queue < 0:
            raise OSError(ctypes.get_errno(), "msgget")
        for _ in range(2):
            if libc.msgsnd(queue, message, 8000, 0o4000) == 0:  # IPC_NOWAIT
                queued += 8000
    return f"queued {queued >> 20} MiB"


def pipes():  # pipes grown to 1 MiB (F_SETPIPE_SZ) and filled, never read
    import fcntl
    held, queued = [], 0
    for _ in range(120):
        read_end, write_end = os.pipe()
        fcntl.fcntl(write_end, 1031, 1 << 20)
        os.set_blocking(write_end, False)
        while True:
            try:
                queued += os.write(write_end, b"x" * 65536)
            except BlockingIOError:
                break
        held.append((read_end, write_end))
    return f"queued {queued >> 20} MiB"


ATTEMPTS = {os.environ["QUEUE"]: {"messages": messages, "pipes": pipes}[os.environ["QUEUE"]]}
"""


@pytest.mark.parametrize("queue", ["messages", "pipes"])
def test_kernel_queues_a_plugin_fills_are_charged_to_its_memory(tmp_path: Path, queue: str) -> None:
    """Held. Besides socket buffers, the other queues a plugin fills without reading are
    kernel memory too: System V messages (up to `msgmni` queues of `msgmnb` bytes in its IPC
    namespace: some 500 MiB) and pipe buffers grown with `F_SETPIPE_SZ`. The memory cgroup
    charges both: past `memory_mb` the plugin is OOM-killed."""
    plugin = tmp_path / "round8_probe.py"
    plugin.write_text(PROBE.format(checkout=str(GPP_PACKAGE.parent), attempts=KERNEL_QUEUES))
    with pytest.raises(codes.ProtocolError) as caught:
        start(
            [sys.executable, str(plugin)],
            env={"QUEUE": queue},
            plugin_id="round8-probe",
            policy=SandboxPolicy(memory_mb=64),
        )
    assert "OOM-killed" in caught.value.diagnostic(), caught.value.diagnostic()


def test_socket_buffers_are_charged_to_the_plugins_memory(tmp_path: Path) -> None:
    """Held. Bytes queued in sockets are kernel memory, not the plugin's pages: AF_UNIX socket
    pairs (the one family `socketpair` creates) filled to the largest buffers `SO_SNDBUF`
    allows, as many as its descriptors reach, would hold some hundred megabytes of the host's
    memory per 64 MiB plugin were they not charged. The memory cgroup charges them: the plugin
    is OOM-killed at `memory_mb` and the diagnostic says so."""
    with pytest.raises(codes.ProtocolError) as caught:
        attempts(tmp_path, SOCKET_BUFFERS, SandboxPolicy(memory_mb=64))
    assert caught.value.code == "E_EOF", caught.value.diagnostic()
    assert "OOM-killed" in caught.value.diagnostic(), caught.value.diagnostic()


HUGE_PAGES = """
def pool():
    fields = dict(line.split(":", 1) for line in open("/proc/meminfo"))
    return int(fields["HugePages_Free"]), int(fields["Hugepagesize"].split()[0]) * 1024

FREE, PAGE = pool()
libc.mmap.restype = ctypes.c_void_p
libc.mmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int, ctypes.c_int, ctypes.c_int,
                      ctypes.c_long]
NR = {"x86_64": dict(memfd_create=319, shmget=29),
      "aarch64": dict(memfd_create=279, shmget=194)}[os.uname().machine]

def take_the_pool():  # MAP_PRIVATE | MAP_ANONYMOUS | MAP_HUGETLB, every free page, touched
    address = libc.mmap(None, FREE * PAGE, 3, 0x22 | 0x40000, -1, 0)
    if address in (None, ctypes.c_void_p(-1).value):
        raise OSError(ctypes.get_errno(), "")
    ctypes.memset(address, 1, FREE * PAGE)
    return f"took {FREE} huge pages: {pool()[0]} left"

ATTEMPTS = {
    "mmap": take_the_pool,
    "memfd": call(NR["memfd_create"], b"huge", 0x4),  # MFD_HUGETLB
    "shmget": call(NR["shmget"], 0, PAGE, 0o1600 | 0o4000),  # IPC_CREAT | 0600 | SHM_HUGETLB
    "pool": lambda: "as it was" if pool()[0] == FREE else f"{FREE} free, then {pool()[0]}",
}
"""
NR_HUGEPAGES = Path("/proc/sys/vm/nr_hugepages")
HUGE_PAGES_LOCK = Path(tempfile.gettempdir()) / "gpp-test-huge-pages.lock"
RESERVED_PAGES = 4


@contextlib.contextmanager
def reserved_huge_pages(count: int) -> Iterator[int]:
    """The host's huge page pool set to `count` pages (as a database host reserves one), and
    back to what it was after; yields how many the kernel reserved. One test at a time on the
    host (a lock file): two runs at once would each restore what the other set."""
    with open(HUGE_PAGES_LOCK, "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        before = NR_HUGEPAGES.read_text()
        try:
            NR_HUGEPAGES.write_text(str(count))
            yield int(NR_HUGEPAGES.read_text())
        finally:
            NR_HUGEPAGES.write_text(before)


def test_a_plugin_cannot_take_the_hosts_huge_page_pool(tmp_path: Path) -> None:
    """Broken on main (medium). A host that reserves huge pages (`vm.nr_hugepages`, for a
    database or VMs) holds them in a pool no namespace divides and the memory cgroup does not
    charge: a plugin's `mmap(MAP_HUGETLB)` took every page of it, past `memory_mb`, from the
    service it was reserved for (with `vm.nr_overcommit_hugepages`, surplus pages from the
    host's free memory too). `mmap`, `memfd_create` and `shmget` asking for huge pages now get
    ENOMEM, as from an empty pool, and the pool is left as it was."""
    with reserved_huge_pages(RESERVED_PAGES) as reserved:
        assert reserved == RESERVED_PAGES, f"the host reserved {reserved} huge pages, not 4"
        got = attempts(tmp_path, HUGE_PAGES)
    assert got == {"mmap": "ENOMEM", "memfd": "ENOMEM", "shmget": "ENOMEM", "pool": "as it was"}


IPC_LEFT_BEHIND = """
libc.shmat.restype = ctypes.c_void_p
libc.shmat.argtypes = [ctypes.c_int, ctypes.c_void_p, ctypes.c_int]
libc.shmdt.argtypes = [ctypes.c_void_p]
IPC_PRIVATE, CREATE = 0, 0o1600  # IPC_CREAT | 0600


def checked(result):
    if result < 0:
        raise OSError(ctypes.get_errno(), "")
    return result


def leave_shm():  # a segment outlives every process attached to it
    shmid = checked(libc.shmget(IPC_PRIVATE, 1 << 20, CREATE))
    address = libc.shmat(shmid, None, 0)
    ctypes.memmove(address, b"what the next plugin given this uid reads", 41)
    libc.shmdt(ctypes.c_void_p(address))
    return str(shmid)


def leave_message():
    msqid = checked(libc.msgget(IPC_PRIVATE, CREATE))
    message = struct.pack("l", 1) + b"for the next plugin given this uid"
    checked(libc.msgsnd(msqid, message, len(message) - 8, 0))
    return str(msqid)


ATTEMPTS = {
    "shm": leave_shm,
    "msg": leave_message,
    "sem": lambda: str(checked(libc.semget(IPC_PRIVATE, 1, CREATE))),
}
"""
SYSV_IPC = {"shm": "shmid", "msg": "msqid", "sem": "semid"}
IPCRM_FLAG = {"shm": "-m", "msg": "-q", "sem": "-s"}


def ipc_of(uid: int) -> dict[str, list[int]]:
    """The host's System V IPC objects (the gateway's IPC namespace) owned or made by `uid`."""
    found: dict[str, list[int]] = {}
    for kind, id_column in SYSV_IPC.items():
        header, *rows = Path(f"/proc/sysvipc/{kind}").read_text().splitlines()
        columns = header.split()
        for row in (dict(zip(columns, line.split(), strict=False)) for line in rows):
            if uid in (int(row["uid"]), int(row["cuid"])):
                found.setdefault(kind, []).append(int(row[id_column]))
    return found


def test_without_namespaces_a_session_leaves_no_ipc_to_the_next_plugin_given_its_uid(
    monkeypatch: pytest.MonkeyPatch, searchable_checkout: Path
) -> None:
    """Broken on main (medium). In the degraded mode (no namespaces; `network = "inherit"`,
    `readonly_root = false` said) the plugin shares the gateway's IPC namespace: the System V
    shared memory, message queues and semaphores it made outlived its session, owned by its
    uid, which went back to the pool. The next session given that uid (another plugin's, as
    likely) attached and read them (or wrote them for the other to find), and their memory,
    uncharged once the session's cgroup was gone, stayed on the host past every limit until
    reboot, each session adding to it. A degraded session's objects are removed when it ends,
    before its uid is given back."""
    monkeypatch.setattr(sandbox, "namespaces_available", lambda: False)
    folder = Path(tempfile.mkdtemp(prefix="gpp-round8-"))
    folder.chmod(0o755)
    plugin = folder / "round8_probe.py"
    plugin.write_text(PROBE.format(checkout=str(searchable_checkout), attempts=IPC_LEFT_BEHIND))
    python = shutil.which("python3", path="/usr/bin") or sys.executable
    policy = SandboxPolicy(network="inherit", readonly_root=False)

    async def scenario() -> tuple[dict[str, str], int]:
        async with PluginSession(
            [python, str(plugin)],
            "round8-probe",
            "1.0.0",
            cwd=str(searchable_checkout / DEMO_REPO.relative_to(REPO)),
            sandbox=policy,
        ) as session:
            said = session.sandbox_mechanisms["identity"]
            result = await session.discover(["."])
        return result["resources"][0]["attrs"], int(said.removeprefix("uid ").split(",")[0])

    uid = -1
    try:
        made, uid = asyncio.run(scenario())
        assert all(value.isdigit() for value in made.values()), made  # each was made
        assert ipc_of(uid) == {}, f"left by uid {uid} after its session: {ipc_of(uid)}"
    finally:
        for kind, ids in (ipc_of(uid) if uid > 0 else {}).items():
            for ipc_id in ids:
                subprocess.run(["ipcrm", IPCRM_FLAG[kind], str(ipc_id)], check=False)
        shutil.rmtree(folder)


def test_a_uid_that_owns_ipc_is_never_leased() -> None:
    """Held with the fix above. A gateway that died before its degraded session ended could
    not remove what the session made: its uid is not leased while it owns an IPC object."""
    uid = SandboxPolicy().uid_range[0] + 7
    make = "import ctypes; print(ctypes.CDLL(None).shmget(0, 4096, 0o1600))"
    as_uid = ["setpriv", f"--reuid={uid}", f"--regid={uid}", "--clear-groups"]
    made = subprocess.run(
        [*as_uid, "/usr/bin/python3", "-c", make],
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
        cwd="/",
    )
    shmid = int(made.stdout)
    try:
        assert shmid >= 0 and ipc_of(uid) == {"shm": [shmid]}, made
        with pytest.raises(uids.UidsExhausted):
            uids.lease((uid, uid)).release()
        assert uids.end_ipc_of(uid) == [f"shm {shmid}"]
        uids.lease((uid, uid)).release()
    finally:
        subprocess.run(["ipcrm", "-m", str(shmid)], check=False, capture_output=True)


WAIT_S = 120
"""The bound on every wait below: far above what a start needs; reached only on failure."""


@pytest.mark.parametrize("kind", ["gpp3", "jsonrpc"])
def test_a_session_closed_while_its_sandbox_is_planned_leaves_no_plugin_running(
    monkeypatch: pytest.MonkeyPatch, kind: str
) -> None:
    """Broken on main (medium). A reload (SIGHUP, or `gpp serve --reload` on a plugin's
    file) retires a pool at once when no request holds it, as while an eager plugin's
    first session is still being planned (in its own thread, up to 30 s): the retired pool's
    close found no live process (`alive` is false until the spawn) and did nothing, and the
    start then spawned the plugin into a pool nobody would close again, running for the
    gateway's life with its uid, cgroup and memory, one more at each such reload. A session
    closed (or disposed of) while it is planned now kills what the plan spawns, and its
    start fails."""
    entered, release = threading.Event(), threading.Event()
    leased: list[int] = []
    real_plan = sandbox.plan  # what `process` calls it by

    def held_plan(*args: Any, **kwargs: Any) -> sandbox.SpawnPlan:
        entered.set()
        release.wait(WAIT_S)
        made = real_plan(*args, **kwargs)
        if len(args) > 5 and args[5] is not None:
            leased.append(args[5])
        return made

    monkeypatch.setattr(process, "plan", held_plan)
    command = [sys.executable, str(FIXTURE_PLUGINS / "echo_plugin.py")]
    if kind == "jsonrpc":
        command = [sys.executable, str(FIXTURE_PLUGINS / "jsonrpc_deaf.py")]

    async def scenario() -> PluginSession | JsonRpcSession:
        session: PluginSession | JsonRpcSession = (
            PluginSession(command, "echo", "1.0.0", cwd=str(DEMO_REPO), sandbox=SandboxPolicy())
            if kind == "gpp3"
            else JsonRpcSession(command, "deaf", cwd=str(DEMO_REPO), sandbox=SandboxPolicy())
        )
        starting = asyncio.create_task(session.start())
        try:
            assert await asyncio.to_thread(entered.wait, WAIT_S), "the plan never began"
            if isinstance(session, JsonRpcSession):
                await session.close(1.0)  # what a retired JSON-RPC pool does
            else:
                await session.dispose()  # what a retired GPP/3 pool now does to a slot starting
        finally:
            release.set()
        with contextlib.suppress(codes.ProtocolError):
            await asyncio.wait_for(starting, WAIT_S)
        return session

    session = asyncio.run(scenario())
    try:
        assert not session.alive
        assert session.pid is None or not Path(f"/proc/{session.pid}").exists(), session.pid
        for uid in leased:  # a root gateway's session: nothing runs as its uid any more
            assert uids.processes_of(uid) == [], uid
    finally:
        if session.pid is not None:
            with contextlib.suppress(OSError):
                os.killpg(session.pid, signal.SIGKILL)


TOKEN = "round-8-token-0123456789abcdef"
AUTHORIZED = (
    b"Host: 127.0.0.1\r\nAuthorization: Bearer " + TOKEN.encode() + b"\r\n"
    b"Content-Type: application/json\r\n"
)
DISCOVER = b"POST /plugins/echo/discover HTTP/1.1\r\n" + AUTHORIZED
BODY = b'{"paths":["."]}'
FRONT_DOOR_ATTACKS = {
    # smuggling: two framings, two lengths, a signed length, an overflowing chunk size
    "length-and-chunked": (
        DISCOVER + b"Content-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n"
        b"GET /metrics HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n",
        {400},
    ),
    "two-lengths": (DISCOVER + b"Content-Length: 15\r\nContent-Length: 3\r\n\r\n" + BODY, {400}),
    "signed-length": (DISCOVER + b"Content-Length: +15\r\n\r\n" + BODY, {400}),
    "huge-chunk": (DISCOVER + b"Transfer-Encoding: chunked\r\n\r\nfffffffffffffffffff\r\n", {400}),
    # a public prefix walked out of, raw and percent-encoded: no token, no metrics
    "dot-dot-public": (b"GET /docs-assets/../metrics HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", {404}),
    "encoded-dot-dot": (
        b"GET /docs-assets/%2e%2e/metrics HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n",
        {404},
    ),
    "healthz-dot-dot": (b"GET /healthz/../metrics HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", {401}),
    "double-slash": (b"GET //metrics HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", {401}),
    # DNS rebinding by a Host that only starts as loopback, or none at all
    "host-userinfo": (b"GET /metrics HTTP/1.1\r\nHost: 127.0.0.1:80@evil\r\n\r\n", {403}),
    "no-host": (b"GET /metrics HTTP/1.0\r\n\r\n", {403}),
    # a body nested 100,001 deep: refused by the parser's depth bound, not by the stack
    "deep-body": (
        DISCOVER + b"Content-Length: 200002\r\n\r\n" + b"[" * 100001 + b"]" * 100001,
        {422},
    ),
}


def first_status(port: int, request: bytes) -> int:
    """The status of the gateway's first answer to `request` sent raw on a new connection."""
    with socket.create_connection(("127.0.0.1", port), timeout=WAIT_S) as connection:
        connection.sendall(request)
        head = b""
        while b"\r\n" not in head:
            chunk = connection.recv(4096)
            assert chunk, f"closed without an answer after {head!r}"
            head += chunk
    return int(head.split(b" ", 2)[1])


def test_odd_requests_at_the_front_door_are_refused_before_any_route(tmp_path: Path) -> None:
    """Held. A hostile local client's framing (both a length and chunks, two lengths, a signed
    one, a chunk size past 64 bits), a public prefix walked out of (`/docs-assets/../`, raw or
    percent-encoded), a Host that only starts as loopback or none, and a body nested 100,001
    deep: each gets its refusal, none reaches a plugin or `/metrics` without the token."""
    folder = tmp_path / "gateway"
    folder.mkdir(mode=0o700)
    token = folder / "token"
    token.write_text(TOKEN + "\n")
    token.chmod(0o600)
    config = write_config(folder, [echo_plugin()], gateway={"token_file": str(token)})
    with running_gateway(config) as gateway:
        got = {
            name: first_status(gateway.port, request)
            for name, (request, _) in FRONT_DOOR_ATTACKS.items()
        }
    expected = {name: statuses for name, (_, statuses) in FRONT_DOOR_ATTACKS.items()}
    assert {name: got[name] in expected[name] for name in got} == dict.fromkeys(got, True), got
