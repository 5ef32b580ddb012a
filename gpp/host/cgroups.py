"""One cgroup per plugin session: the limits that bound a plugin as a whole, and its freezer.

Rlimits bind one process each: a plugin that forks, or holds its memory in memfds, SysV shm or
tmpfs files, escapes every one of them. A cgroup charges all of it (pages, kernel memory such as
tmpfs inodes, every descendant) to one group, so each session gets its own, made before the spawn
and entered by the spawned process before it execs. What lives here:

- `find_layout`: where this gateway may make groups (pure: reads `/proc/self/mountinfo` and
  `/proc/self/cgroup` text), cgroup v2 where the host mounts it with the controllers, else the v1
  hierarchies (`memory`, `pids`, `cpuacct`, and `freezer` when mounted). Groups go under the
  gateway's own cgroup in each hierarchy, so whatever limits the gateway has bound its plugins too.
- `SessionGroup`: one session's group (one directory per v1 hierarchy, one for v2): the limit
  writes, the files the child writes its pid to, the CPU counter, freeze and thaw, the OOM-kill
  count, removal.

On v2 a cgroup with processes cannot also enable controllers for its children (the "no internal
processes" rule). When the gateway's own cgroup is such a cgroup and the controllers are not yet
enabled below it, `delegate_v2` moves the gateway into a leaf of its own (`gpp-gateway`), as
`systemd-run --scope` and podman do, and then enables them; only then, and only the gateway's
own process and those that started it there (`make serve`'s `make`) move.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import uuid
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

V1_REQUIRED = ("memory", "pids", "cpuacct")
"""The v1 hierarchies a session group needs: its memory, its process count, its CPU counter."""
V1_OPTIONAL = ("freezer",)
"""Used where mounted: an idle session is frozen in it."""
V2_REQUIRED = ("memory", "pids")
"""The v2 controllers enabled for session groups (`cpu.stat` and `cgroup.freeze` need none)."""
V2_LEAF = "gpp-gateway"
GROUP_PREFIX = "gpp-"


class CgroupUnavailable(Exception):
    """No usable cgroup for a session can be made here (why, for the diagnostic)."""


@dataclass(frozen=True)
class Layout:
    """Where this gateway makes session groups: the parent directory per hierarchy.

    v2: one entry, key "unified"; v1: one per controller (several controllers may share a
    directory where the host mounts them together, e.g. `cpu,cpuacct`)."""

    version: Literal[1, 2]
    parents: Mapping[str, Path]

    def describe(self) -> str:
        return f"cgroup v{self.version}"


@dataclass(frozen=True)
class Limits:
    """What a session group enforces; None is no limit."""

    memory_bytes: int | None
    pids: int | None


def find_layout(mountinfo: str, proc_cgroup: str) -> Layout | str:
    """The layout for this process from its mountinfo and /proc/self/cgroup texts, or why none.

    v1 wins where its controllers are mounted (a host mounting v1 `memory` has no v2 memory
    controller); v2 is used where the unified mount offers memory and pids (checked later by
    `delegate_v2`, which reads the files)."""
    v1_mounts: dict[str, tuple[str, str]] = {}  # controller -> (mount root, mount point)
    v2_mount: tuple[str, str] | None = None
    for line in mountinfo.splitlines():
        fields = line.split()
        if "-" not in fields:
            continue
        dash = fields.index("-")
        fs_type, options = fields[dash + 1], fields[dash + 3].split(",")
        root, point = fields[3], _unescape(fields[4])
        if fs_type == "cgroup":
            for option in options:
                v1_mounts.setdefault(option, (root, point))
        elif fs_type == "cgroup2" and v2_mount is None:
            v2_mount = (root, point)
    paths: dict[str, str] = {}  # controller (or "" for v2) -> this process's cgroup path
    for line in proc_cgroup.splitlines():
        number, _, rest = line.partition(":")
        controllers, _, path = rest.partition(":")
        if number == "0" and not controllers:
            paths[""] = path
        for controller in controllers.split(","):
            if controller:
                paths[controller] = path
    if all(c in v1_mounts and c in paths for c in V1_REQUIRED):
        wanted = [*V1_REQUIRED, *(c for c in V1_OPTIONAL if c in v1_mounts and c in paths)]
        return Layout(1, {c: _inside(*v1_mounts[c], paths[c]) for c in wanted})
    if v2_mount is not None and "" in paths:
        return Layout(2, {"unified": _inside(*v2_mount, paths[""])})
    missing = [c for c in V1_REQUIRED if c not in v1_mounts]
    return f"no cgroup v2 mount, and the v1 hierarchies {', '.join(missing)} are not mounted"


def _inside(mount_root: str, mount_point: str, path: str) -> Path:
    """The directory of cgroup `path` under a mount of `mount_root` (a container often mounts
    its own cgroup as the root of the hierarchy it sees)."""
    relative = os.path.relpath(path, mount_root) if path.startswith(mount_root) else path
    return Path(mount_point, relative.lstrip("/")) if relative != "." else Path(mount_point)


def _unescape(field_text: str) -> str:
    return field_text.replace("\\040", " ").replace("\\011", "\t").replace("\\134", "\\")


def delegate_v2(parent: Path, own_pid: int) -> None:
    """Make `parent` able to hold session groups with the memory and pids controllers.

    Raises CgroupUnavailable when the controllers are not offered. When they are not yet enabled
    for children and `parent` holds processes (it is not the hierarchy's root), the gateway's
    own process moves into the leaf `gpp-gateway` first: a cgroup with processes cannot enable
    controllers below it. So do the processes that started it and wait for it in `parent`
    (`_starters`): `systemd-run --user --scope -p Delegate=yes make serve` runs `make` in the
    scope, the gateway's parent, and the enable would fail on it. Other processes in `parent`
    are left alone (the enable then fails)."""
    offered = _words(parent / "cgroup.controllers")
    missing = [c for c in V2_REQUIRED if c not in offered]
    if missing:
        raise CgroupUnavailable(
            f"cgroup v2 at {parent} does not offer the {', '.join(missing)} controller(s) "
            "(not delegated to the gateway's cgroup)"
        )
    enabled = _words(parent / "cgroup.subtree_control")
    if all(c in enabled for c in V2_REQUIRED):
        return
    is_root = not (parent / "cgroup.type").exists()  # only non-root v2 cgroups have a type
    procs = (parent / "cgroup.procs").read_text().split()
    if not is_root and procs:
        leaf = parent / V2_LEAF
        leaf.mkdir(exist_ok=True)
        (leaf / "cgroup.procs").write_text(str(own_pid))
        for pid in _starters(own_pid, set(procs)):
            with contextlib.suppress(OSError):  # gone meanwhile: nothing left to move
                (leaf / "cgroup.procs").write_text(str(pid))
    try:
        (parent / "cgroup.subtree_control").write_text(
            " ".join(f"+{c}" for c in V2_REQUIRED if c not in enabled)
        )
    except OSError as exc:
        raise CgroupUnavailable(
            f"cannot enable {', '.join(V2_REQUIRED)} for children of {parent}: {exc.strerror}"
        ) from None


def _starters(own_pid: int, procs: set[str], proc: Path = Path("/proc")) -> list[int]:
    """The gateway's ancestors that are in its cgroup (`procs`), nearest first, up to the first
    that is not: what started it (`make`, a shell) in the cgroup it was started in."""
    found: list[int] = []
    pid = own_pid
    while True:
        try:
            status = (proc / str(pid) / "status").read_text()
        except OSError:
            return found
        parent = next(
            (int(line.split()[1]) for line in status.splitlines() if line.startswith("PPid:")), 0
        )
        if parent <= 1 or str(parent) not in procs or parent in found or parent == own_pid:
            return found  # a cycle (pids reused while read): what was found so far
        found.append(parent)
        pid = parent


def _words(path: Path) -> list[str]:
    try:
        return path.read_text().split()
    except OSError:
        return []


TCP_LIMIT_V1 = "memory.kmem.tcp.limit_in_bytes"
"""cgroup v1's bound on the socket buffers of a group's TCP and UDP sockets, a counter of its
own beside `memory.limit_in_bytes`: unset, they are charged to no group at all (v2 charges
them to `memory.max`). Setting it is what turns their accounting on for the group's sockets."""
SOCKET_BYTES_V1 = 64 * 1024 * 1024
"""The most a v1 session's TCP and UDP buffers may hold (less when `memory_mb` is less): the
pool they draw from, `net.ipv4.tcp_mem`, is the host's, a tenth of its memory or less (2.2 GB
on 24 GB), and two plugins at the default `memory_mb` (1 GiB) would fill it, every TCP socket
of the host starving then. A discovery plugin's sockets (its own loopback; with `network =
"inherit"`, a few requests) need far less."""


@dataclass
class SessionGroup:
    """One plugin session's cgroup: a directory per v1 hierarchy, or one v2 directory."""

    version: Literal[1, 2]
    dirs: dict[str, Path]
    """Controller (v1) or "unified" (v2) → the group's directory."""
    frozen: bool = field(default=False, init=False)

    @classmethod
    def create(cls, layout: Layout, limits: Limits, own_pid: int) -> SessionGroup:
        """Make the group under every parent and write its limits; raises CgroupUnavailable
        (after removing what it made)."""
        name = f"{GROUP_PREFIX}{own_pid}-{uuid.uuid4().hex[:12]}"
        group = cls(layout.version, {})
        try:
            for controller, parent in layout.parents.items():
                directory = parent / name
                if directory not in group.dirs.values():
                    directory.mkdir()
                group.dirs[controller] = directory
            group._write_limits(limits)
        except OSError as exc:
            group.remove()
            raise CgroupUnavailable(
                f"cannot make the plugin's cgroup under {', '.join(map(str, layout.parents.values()))}: "
                f"{exc.strerror or exc}"
            ) from None
        return group

    def _write_limits(self, limits: Limits) -> None:
        if self.version == 2:
            unified = self.dirs["unified"]
            if limits.memory_bytes is not None:
                (unified / "memory.max").write_text(str(limits.memory_bytes))
                if (unified / "memory.swap.max").exists():  # absent where the kernel has no swap
                    (unified / "memory.swap.max").write_text("0")
            if limits.pids is not None:
                (unified / "pids.max").write_text(str(limits.pids))
            return
        memory = self.dirs["memory"]
        if limits.memory_bytes is not None:
            (memory / "memory.limit_in_bytes").write_text(str(limits.memory_bytes))
            if (memory / "memory.memsw.limit_in_bytes").exists():  # swap accounting on
                (memory / "memory.memsw.limit_in_bytes").write_text(str(limits.memory_bytes))
        # v1 charges socket buffers (TCP, UDP) to no group unless this is set: a plugin's
        # connections over its own loopback held 544 MiB under memory_mb = 64, from the host's
        # memory and its TCP pool (tcp_mem), which every netns shares (round 8)
        if (memory / TCP_LIMIT_V1).exists():
            socket_bytes = min(limits.memory_bytes or SOCKET_BYTES_V1, SOCKET_BYTES_V1)
            (memory / TCP_LIMIT_V1).write_text(str(socket_bytes))
        if limits.pids is not None:
            (self.dirs["pids"] / "pids.max").write_text(str(limits.pids))

    @property
    def procs_files(self) -> tuple[str, ...]:
        """The files the spawned child writes its own pid to, before it execs."""
        return tuple(sorted({str(d / "cgroup.procs") for d in self.dirs.values()}))

    @property
    def can_freeze(self) -> bool:
        return self.version == 2 or "freezer" in self.dirs

    def cpu_usage_ns(self) -> int:
        """CPU time used by every process ever in the group (exited ones included)."""
        if self.version == 1:
            return int((self.dirs["cpuacct"] / "cpuacct.usage").read_text())
        for line in (self.dirs["unified"] / "cpu.stat").read_text().splitlines():
            key, _, value = line.partition(" ")
            if key == "usage_usec":
                return int(value) * 1000
        raise OSError(f"no usage_usec in {self.dirs['unified'] / 'cpu.stat'}")

    def oom_kills(self) -> int:
        """How many processes the memory limit has killed (0 where unreadable)."""
        name = "memory.events" if self.version == 2 else "memory.oom_control"
        directory = self.dirs["unified" if self.version == 2 else "memory"]
        with contextlib.suppress(OSError, ValueError):
            for line in (directory / name).read_text().splitlines():
                key, _, value = line.partition(" ")
                if key == "oom_kill":
                    return int(value)
        return 0

    def freeze(self) -> None:
        """Stop every process of the group (asynchronous: not awaited)."""
        self._set_frozen(True)

    def thaw(self) -> None:
        """Let the group run again; done when this returns."""
        self._set_frozen(False)

    def _set_frozen(self, frozen: bool) -> None:
        if frozen == self.frozen or not self.can_freeze:
            return
        if self.version == 2:
            path, value = self.dirs["unified"] / "cgroup.freeze", "1" if frozen else "0"
        else:
            path, value = self.dirs["freezer"] / "freezer.state", "FROZEN" if frozen else "THAWED"
        with contextlib.suppress(OSError):  # a group already removed: nothing left to freeze
            fd = os.open(path, os.O_WRONLY)
            try:
                os.write(fd, value.encode())
            finally:
                os.close(fd)
        self.frozen = frozen

    def is_frozen(self) -> bool:
        """What the kernel says (v1 reports FREEZING until every task has stopped)."""
        if self.version == 2:
            return "frozen 1" in (self.dirs["unified"] / "cgroup.events").read_text()
        return (self.dirs["freezer"] / "freezer.state").read_text().strip() == "FROZEN"

    def kill(self) -> None:
        """SIGKILL every process of the group. Killing bwrap alone leaves the namespace's
        processes a moment to run (its init dies, then they do), in which a plugin writing to
        the stdout the gateway has just closed dies of EPIPE, and its traceback lands in the
        stderr tail the diagnostic quotes. With SIGKILL pending, none runs another instruction."""
        if self.version == 2 and (kill_file := self.dirs["unified"] / "cgroup.kill").exists():
            with contextlib.suppress(OSError):
                kill_file.write_text("1")
                return
        for directory in set(self.dirs.values()):
            with contextlib.suppress(OSError):
                for pid in (directory / "cgroup.procs").read_text().split():
                    with contextlib.suppress(ProcessLookupError, PermissionError):
                        os.kill(int(pid), signal.SIGKILL)

    def empty(self) -> bool:
        return all(_empty(d) for d in self.dirs.values())

    def remove(self) -> bool:
        """Remove every directory of the group; False if one is left (still has processes)."""
        removed = True
        for directory in set(self.dirs.values()):
            try:
                directory.rmdir()
            except FileNotFoundError:
                pass
            except OSError:
                removed = False
        return removed


def _empty(directory: Path) -> bool:
    try:
        return not (directory / "cgroup.procs").read_text().strip()
    except OSError:
        return True


def sweep_stale(parents: Iterable[Path]) -> None:
    """Remove empty groups left by gateways that died (SIGKILL leaves no time to clean up)."""
    for parent in parents:
        for group in parent.glob(f"{GROUP_PREFIX}*-*"):
            creator = group.name.split("-")[1]
            dead = creator.isdigit() and not Path(f"/proc/{creator}").exists()
            if dead and _empty(group):
                with contextlib.suppress(OSError):
                    group.rmdir()


THAW_ON_EXIT = """
cat >/dev/null
for state in "$1"/gpp-"$2"-*/freezer.state; do
  [ -e "$state" ] && echo THAWED >"$state"
done
"""
"""The watcher of a v1 freezer: waits for EOF on its stdin (the gateway's end closes when the
gateway dies, however it dies), then thaws every group the gateway left."""


def watch_v1_freezer(freezer_parent: Path, own_pid: int) -> subprocess.Popen[bytes]:
    """Start the process that thaws this gateway's v1 freezer groups once the gateway is gone.

    A task frozen in a v1 freezer does not die of SIGKILL until thawed (v2 kills frozen tasks):
    without this, a SIGKILLed gateway would leave its idle plugins frozen for ever, their
    parent-death signals pending. The watcher, a `sh` in a session of its own, holds the read
    end of a pipe whose only write end is the gateway's (close-on-exec, so no other child
    inherits it)."""
    return subprocess.Popen(
        ["sh", "-c", THAW_ON_EXIT, "gpp-thaw-on-exit", str(freezer_parent), str(own_pid)],
        stdin=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )


def enter(procs_files: Iterable[str]) -> None:
    """Move the calling process into the group (between fork and exec: plain syscalls only)."""
    pid = str(os.getpid()).encode()
    for procs in procs_files:
        fd = os.open(procs, os.O_WRONLY)
        try:
            os.write(fd, pid)
        finally:
            os.close(fd)
