"""A uid of its own for every plugin session a root gateway starts, from a dedicated range.

Per-uid kernel quotas (inotify instances and watches, pipe-buffer pages, epoll watches, mqueue
bytes, pending signals, RLIMIT_NPROC) and per-uid permission checks (signals, ptrace,
`/proc/<pid>/environ`) are only per plugin if no two plugins, and nothing else on the host,
share a uid: the shared `nobody` let one plugin take the uid's 128 inotify instances from all
the others, and anything running as `nobody` could read every plugin.

The default range starts at 0x70000000 (1879048192), 65536 uids: above every range systemd
assigns (regular users end at 60000, dynamic users at 65519, `systemd-nspawn` container ranges
at 0x6FFFFFFF; `/etc/subuid` ranges conventionally start at 100000 and step by 65536), below
systemd's "foreign" range (0x7FFF0000) and below 2^31, past which tools that treat uids as
signed misbehave. The operator can set another (`sandbox.uid_range`); a range that contains 0
or 65534, or overlaps a uid or gid of `/etc/passwd` or `/etc/group` or a subordinate range of
`/etc/subuid` or `/etc/subgid`, is refused at config load (`host_refusal`).

A lease is a lock file per uid (`flock`, exclusive, non-blocking) in a root-only folder: unique
among this gateway's live sessions and among every gateway of the host, and released by the
kernel when the gateway dies, whatever the way. The uid is picked from a random point of the
range, so a uid just released is rarely the next one given out. A session gives its uid back
only once its processes are gone (its cgroup empty, or its PID namespace's init reaped).
"""

from __future__ import annotations

import contextlib
import ctypes
import fcntl
import functools
import os
import secrets
import signal
import stat
import tempfile
from dataclasses import dataclass
from pathlib import Path

DEFAULT_UID_RANGE = (0x7000_0000, 0x7000_FFFF)
"""(first, last), inclusive: see the module docstring for why there."""
NOBODY = 65534
LEASE_FOLDER_NAME = "gpp-uids"
LEASE_BASES = ("/run", tempfile.gettempdir())
"""Where the lease folder may go, in order: `/run` (a tmpfs on systemd hosts), else the
temporary folder (checked root-owned and 0700, as anyone could have made it first)."""
HOST_ID_FILES = ("/etc/passwd", "/etc/group")
HOST_SUBORDINATE_FILES = ("/etc/subuid", "/etc/subgid")


class UidsExhausted(Exception):
    """Every uid of the range is leased (by this gateway or another on the host)."""


def range_refusal(first: int, last: int) -> str | None:
    """Why `[first, last]` cannot be a plugin uid range, on its own (None: it can)."""
    if not 0 < first <= last < 2**32 - 1:
        return f"[{first}, {last}] must be two uids with 0 < first <= last < 4294967295"
    if first <= NOBODY <= last:
        return f"[{first}, {last}] contains {NOBODY} (nobody), which other programs run as"
    return None


def overlap_refusal(
    first: int, last: int, id_files: dict[str, str], subordinate_files: dict[str, str]
) -> str | None:
    """Why `[first, last]` cannot be used on a host whose account files read `id_files`
    (passwd and group: `name:x:ID:…`) and subordinate-id files `subordinate_files`
    (`name:START:COUNT`); None when no account and no subordinate range falls in it."""
    if why := range_refusal(first, last):
        return why
    for path, text in id_files.items():
        for line in text.splitlines():
            parts = line.split(":")
            if len(parts) > 2 and parts[2].isdigit() and first <= int(parts[2]) <= last:
                return (
                    f"[{first}, {last}] contains id {parts[2]} of {parts[0]!r} in {path}: a "
                    "plugin must share its uid with nothing on the host; choose a range no "
                    "account uses"
                )
    for path, text in subordinate_files.items():
        for line in text.splitlines():
            parts = line.split(":")
            if len(parts) == 3 and parts[1].isdigit() and parts[2].isdigit():
                start, count = int(parts[1]), int(parts[2])
                if start <= last and first < start + count:
                    return (
                        f"[{first}, {last}] overlaps {parts[0]!r}'s subordinate ids "
                        f"{start}..{start + count - 1} in {path}; choose a range no account uses"
                    )
    return None


def host_refusal(uid_range: tuple[int, int]) -> str | None:
    """`overlap_refusal` against this host's files (a missing file holds no id)."""

    def read(paths: tuple[str, ...]) -> dict[str, str]:
        texts = {}
        for path in paths:
            with contextlib.suppress(OSError, UnicodeDecodeError):
                texts[path] = Path(path).read_text("utf-8")
        return texts

    first, last = uid_range
    return overlap_refusal(first, last, read(HOST_ID_FILES), read(HOST_SUBORDINATE_FILES))


@dataclass
class UidLease:
    """One uid held for one session: the lock file's descriptor holds it."""

    uid: int
    fd: int
    path: str

    def release(self) -> None:
        """Give the uid back (idempotent): unlinked while still locked, so a gateway that opens
        the old file after this sees it was replaced (`lease` checks) and tries again."""
        if self.fd < 0:
            return
        with contextlib.suppress(OSError):
            os.unlink(self.path)
        os.close(self.fd)
        self.fd = -1


def lease(uid_range: tuple[int, int], folder: str | None = None) -> UidLease:
    """A uid of `uid_range` no live session of any gateway of this host holds. Raises
    UidsExhausted, or OSError when there is no root-only place for the locks."""
    first, last = uid_range
    size = last - first + 1
    where = folder or lease_folder()
    _sweep(where)
    start = secrets.randbelow(size)
    running = _running_uids() | {owner for owner, _, _ in _ipc_objects()}
    for step in range(size):
        uid = first + (start + step) % size
        if uid in running:  # a process runs as it, or IPC is its: nothing may share its uid
            continue
        if (held := _try(where, uid)) is not None:
            if not processes_of(uid):  # started since the list was made
                return held
            os.close(held.fd)  # skipped: unlocked, its file left (swept as litter)
    raise UidsExhausted(
        f"every uid of sandbox.uid_range [{first}, {last}] is held by a live plugin session "
        "(of this gateway or another on this host) or runs a process; widen the range"
    )


def _running_uids() -> set[int]:
    """Every uid (real, effective, saved or filesystem) a live process of the host runs as: a
    uid of the range that one does (a set-uid file a plugin left before the seccomp filter
    refused them, a session of the degraded mode that outlived everything) is not leased."""
    running: set[int] = set()
    for name in os.listdir("/proc"):
        if name.isdigit():
            with contextlib.suppress(OSError, ValueError):
                running |= set(_status_uids(name))
    return running


SYSV_IPC = (("shm", "shmid", "shmctl"), ("msg", "msqid", "msgctl"), ("sem", "semid", "semctl"))
"""System V IPC's kinds: their `/proc/sysvipc` file, its id column, the call that removes one."""
IPC_RMID = 0
MQUEUE_FOLDER = "/dev/mqueue"
"""Where systemd mounts the IPC namespace's POSIX message queues (their files: owner, unlink)."""


def end_ipc_of(uid: int) -> list[str]:
    """Remove what `uid` owns or made in the gateway's IPC namespace: System V shared memory,
    message queues and semaphore sets, and its POSIX message queues where `MQUEUE_FOLDER` is
    mounted. A session without namespaces shares that namespace, and what it made there
    outlived it, owned by its uid: the next session given the uid read it (another plugin's,
    as likely), and its memory, uncharged once the session's cgroup was gone, stayed until
    reboot (issue 32, round 8). Call it once none of the uid's processes is left (they could
    make more). The objects removed, as "shm 3"."""
    libc = ctypes.CDLL(None, use_errno=True)
    controls = {kind: getattr(libc, control) for kind, _, control in SYSV_IPC}
    removed = []
    for owner, kind, ipc_id in _ipc_objects():
        if owner == uid:
            args = (ipc_id, 0, IPC_RMID) if kind == "sem" else (ipc_id, IPC_RMID, None)
            if controls[kind](*args) == 0:
                removed.append(f"{kind} {ipc_id}")
    with contextlib.suppress(OSError), os.scandir(MQUEUE_FOLDER) as queues:
        for queue in queues:
            with contextlib.suppress(OSError):
                if queue.stat(follow_symlinks=False).st_uid == uid:
                    os.unlink(queue.path)
                    removed.append(f"mqueue {queue.name}")
    return removed


def _ipc_objects() -> list[tuple[int, str, int]]:
    """(uid, kind, id) of each System V IPC object of the gateway's IPC namespace, once for
    its owner and once for its creator where they differ."""
    found = []
    for kind, id_column, _ in SYSV_IPC:
        try:
            header, *rows = Path(f"/proc/sysvipc/{kind}").read_text().splitlines()
        except (OSError, ValueError):
            continue
        columns = header.split()
        for line in rows:
            row = dict(zip(columns, line.split(), strict=False))
            with contextlib.suppress(KeyError, ValueError):
                for owner in {int(row["uid"]), int(row["cuid"])}:
                    found.append((owner, kind, int(row[id_column])))
    return found


def _status_uids(pid: str) -> list[int]:
    """The uids of `/proc/<pid>/status` (none for a zombie). Raises OSError, ValueError."""
    with open(f"/proc/{pid}/status", encoding="utf-8") as status:
        fields = dict(line.split(":", 1) for line in status if ":" in line)
    if fields.get("State", "").split()[:1] == ["Z"]:
        return []
    return [int(word) for word in fields.get("Uid", "").split()]


def _try(folder: str, uid: int) -> UidLease | None:
    path = os.path.join(folder, str(uid))
    fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(fd)
        return None
    try:  # the holder released it (unlinked) between our open and lock: not the live file
        same = os.stat(path, follow_symlinks=False).st_ino == os.fstat(fd).st_ino
    except FileNotFoundError:
        same = False
    if not same:
        os.close(fd)
        return _try(folder, uid)
    return UidLease(uid, fd, path)


@functools.cache
def _sweep(folder: str) -> None:
    """Once per gateway: remove the lock files of gateways that died without giving their uids
    back (their locks died with them; the files are litter). Each is locked before it is
    unlinked, so a live lease is never touched."""
    with contextlib.suppress(OSError):
        for name in os.listdir(folder):
            if name.isdigit() and (stale := _try(folder, int(name))) is not None:
                stale.release()


def processes_of(uid: int) -> list[int]:
    """The host's live processes (zombies aside) running as `uid` by any of their real,
    effective, saved or filesystem uids, from `/proc`: where a session has neither a PID
    namespace nor a cgroup, the only way to know whether one of its processes outlived it."""
    found = []
    for name in os.listdir("/proc"):
        if name.isdigit():
            with contextlib.suppress(OSError, ValueError):  # gone meanwhile
                if uid in _status_uids(name):
                    found.append(int(name))
    return found


def end_processes_of(uid: int) -> list[int]:
    """SIGKILL every live process of `uid` (a session's own: nothing else runs as it); the
    pids signalled. A process forked meanwhile is found by the next call."""
    ended = []
    for pid in processes_of(uid):
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)
            ended.append(pid)
    return ended


def lease_folder() -> str:
    """The root-only folder of the lock files (made once, checked every time: a folder in a
    shared temporary directory could have been made by someone else). Raises OSError."""
    problems = []
    for base in LEASE_BASES:
        folder = os.path.join(base, LEASE_FOLDER_NAME)
        try:
            os.mkdir(folder, 0o700)
        except FileExistsError:
            pass
        except OSError as exc:
            problems.append(f"{folder}: {exc.strerror or exc}")
            continue
        st = os.lstat(folder)
        if (
            stat.S_ISDIR(st.st_mode)
            and st.st_uid == os.geteuid()
            and not stat.S_IMODE(st.st_mode) & 0o077
        ):
            return folder
        problems.append(f"{folder}: not a folder of uid {os.geteuid()} with mode 0700")
    raise OSError(f"no private folder for the plugin uid leases ({'; '.join(problems)})")
