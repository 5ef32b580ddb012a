"""The sandbox around every plugin process: bubblewrap namespaces, a cgroup per session, rlimits,
death with us.

A plugin is untrusted code, and the gateway often runs as root. Each session runs the plugin under
bubblewrap (`bwrap`): a user namespace in which it holds no capability at all and `no_new_privs` is
set (so root's uid buys it nothing: no `setns`, no remount, no mount of cgroupfs, no nested user
namespace); a PID namespace with its own `/proc` (no process outside its session is visible, and
when the session ends, or the gateway dies, the kernel kills every process it ever started); an
empty network namespace unless its config says `network = "inherit"`; and a minimal filesystem
view (`gpp.host.view`): system directories, and read-only what the registry names (the entry
file's folder, or the registry's `view`), the interpreter and the SDKs, the repository
(read-only when `readonly_root`), a private `/dev` and `/proc`, and nothing else of the host
(the registry, the token file and other plugins' files masked where they fall in the view).
The only writable places besides the repository are `/tmp`, `/dev/shm` and HOME, each a tmpfs
capped at `memory_mb` (its pages and inodes charged to the session's cgroup too); bwrap's own
root and `/dev` are read-only, and HOME is no host directory (no disk to fill).
Each session has a cgroup of its own (`gpp.host.cgroups`), made before the spawn and entered by the
spawned process before it execs, so every process of the plugin is in it: memory (`memory_mb`,
memfd, shm, tmpfs and children included), `pids.max` (`max_processes`: RLIMIT_NPROC does not
bind root), and the CPU counter that `cpu_seconds` is checked against as the plugin's total
budget. Where no such cgroup can be made, the plugin is refused unless its config says
`cgroup = "optional"`. The remaining rlimits bind each process: NOFILE and FSIZE, CORE at 1
(no dump, piped or not), RTPRIO and NICE at 0, NPROC where the session has a uid of its own;
RLIMIT_CPU, and RLIMIT_AS (which breaks runtimes that reserve address space), only where the
plugin runs without a cgroup. An idle GPP/3 session's group is frozen
(`gpp.host.process.PluginProcess`); a v1 freezer's tasks die of SIGKILL only once thawed, so a
watcher (`cgroups.watch_v1_freezer`) thaws the groups of a gateway that died.
A root gateway then switches to the session's own unprivileged uid (leased from
`sandbox.uid_range` by `gpp.host.uids`) before bwrap runs (`gpp.host.identity`: the plugin is
never uid 0 of the host, so `/proc/sys` and root's files and keyrings are out of reach, and
shares no per-uid quota with another plugin), and bwrap installs a seccomp allow-list
(`gpp.host.seccomp`) just before it execs the plugin. `/dev/ptmx` is not in the view unless
the registry says `terminal = true`.
All of it is decided from the registry alone, never from what a plugin or a repository wrote:
only the registry's own `argv[0]` is resolved when it is a version manager's shim
(`gpp.host.shims`); a plugin's shebangs are the kernel's business inside the sandbox. Planning runs
in a thread of its own, bounded (`gpp.host.process`, after the uid is leased), so nothing here
stalls the event loop, and a plan held by a hung mount fails its start alone.

The chain: gateway → `bwrap` (SIGKILLed when the gateway thread that spawned it dies, via
PR_SET_PDEATHSIG) → bwrap's init, PID 1 of the namespace (dies with `bwrap`: `--die-with-parent`)
→ `sh`, which exec's the plugin with its stdin and stdout moved back to fds 0 and 1. Those two
pipes reach bwrap on fds 3 and 4, which bwrap's own processes close: the plugin alone holds them,
so a plugin that closes stdout gives EOF at once. Where namespaces cannot be built, a plugin that
asked for network isolation or a read-only root is refused, never silently run without them;
one that said it may run without them still gets its cgroup, the uid switch, no_new_privs and an
empty capability bounding set (`_without_namespaces`): never root, never a capability.
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import errno
import fcntl
import functools
import os
import resource
import shutil
import signal
import subprocess
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Literal

from gpp.host import cgroups, io_priority, seccomp, shims, uids, view
from gpp.host.cgroups import CgroupUnavailable, Layout, Limits, SessionGroup
from gpp.host.identity import (
    Identity,
    allowed,
    drops_root,
    identify_folder,
    readable_refusal,
    stage,
    traversable,
)
from gpp.host.uids import DEFAULT_UID_RANGE, UidLease
from gpp.host.view import SYSTEM_DIRS, ViewUnavailable

PR_SET_PDEATHSIG = 1
PR_CAPBSET_DROP, PR_SET_NO_NEW_PRIVS = 24, 38
PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL = 47, 4
LOCKDOWN_FAILED = 126
RELEASE_POLLS, RELEASE_POLL_S = 100, 0.02  # up to 2 s for a killed namespace to be reaped

SYSTEM_FILES = ("/etc/ld.so.cache", "/etc/alternatives", "/etc/localtime", "/etc/passwd",
                "/etc/group", "/etc/nsswitch.conf", "/etc/hosts", "/etc/hostname",
                "/etc/resolv.conf")  # fmt: skip
"""The few files of /etc that programs need (the last three: names, for `network = "inherit"`;
the UTS namespace already tells the hostname); the rest (shadow, keys, the gateway's config)
stays out of sight. Each is a mount (about a millisecond of every start): keep the list short."""

PIPES_ASIDE = 'exec "$@" 3<&0 4>&1 0</dev/null 1>&2'
"""Run before bwrap (by `sh`, which becomes bwrap): the plugin's stdin and stdout pipes move to
fds 3 and 4, which bwrap's own processes close and only the plugin inherits; bwrap itself gets
/dev/null and stderr."""
PIPES_BACK = (
    'unset PWD OLDPWD; trap \'status=$?; if [ -f "$1" ] && [ -r "$1" ] && read -r line '
    '< "$1"; then case $line in "#!"*) echo "gpp-sandbox: $1 names ${line#??} in its #! '
    'line: add it to sandbox.view in the registry" >&2;; esac; fi; '
    'exit $status\' EXIT; exec "$@" <&3 >&4 3<&- 4>&-'
)
"""Run inside the sandbox (by `sh`, which becomes the plugin): the pipes back on 0 and 1. bwrap
sets PWD; the plugin gets only the environment it was given. Where the exec fails (126/127), the
trap says what the file's shebang names: read inside the sandbox, as the plugin's uid, since the
gateway never reads a plugin's files (the trap does not survive a successful exec)."""


OUTER_ENVIRONMENT = {"PATH": "/usr/sbin:/usr/bin:/sbin:/bin"}
"""The whole environment of `sh` and `bwrap`, which run outside the sandbox (as the session's
uid, with no namespace, seccomp filter or `no_new_privs` yet): the registry's `env` is the
plugin's and names the plugin's files (`LD_PRELOAD`, `LD_LIBRARY_PATH`, `LD_AUDIT`, `GCONV_PATH`
would have the loader run them there: issue 32, round 5), so it reaches the plugin through
bwrap's `--clearenv` and `--setenv`, read from a descriptor (`--args`: not a command line every
local user can read), and bwrap's own processes never see it."""


class SandboxUnavailable(Exception):
    """The sandbox a plugin's config asks for cannot be built here; the plugin is refused."""


@dataclass(frozen=True)
class SandboxPolicy:
    """One plugin's isolation (DESIGN.md §5 `[plugin.sandbox]`, §7); a limit of None is no limit.

    The one declaration of the sandbox keys and their defaults: the gateway's config validates
    `[defaults.sandbox]` and `[plugin.sandbox]` as this class, so a key added here is a config
    key too.
    """

    network: Literal[False, "inherit"] = False
    memory_mb: int | None = 1024
    cpu_seconds: int | None = 60
    max_open_files: int | None = 256
    max_processes: int | None = 64
    max_file_size_mb: int | None = 64
    readonly_root: bool = True
    cgroup: Literal["required", "optional"] = "required"
    """"optional": run the plugin without its own cgroup where none can be made (then memory,
    CPU and processes are bounded per process by rlimits only); said explicitly, never implied."""
    uid_range: tuple[int, int] = DEFAULT_UID_RANGE
    """[first, last]: where a root gateway takes each session's own uid (and gid, the same
    number) from (`gpp.host.uids`); never 0 nor 65534, and checked against the host's accounts
    at config load."""
    terminal: bool = False
    """Whether the plugin may open `/dev/ptmx` (the host-wide pty pool); off unless said."""
    view: tuple[str, ...] | None = None
    """What the plugin sees besides its interpreter and the SDKs (`gpp.host.view`): None, the
    folder of each file its command names; a list, those files alone and these paths (the
    config makes them absolute, relative to the registry's folder)."""
    hide: tuple[str, ...] = ()
    """Paths shown empty where they fall inside the view; the config adds the gateway's own
    registry and token files and the other plugins' entry files."""

    def __post_init__(self) -> None:
        for declared in fields(self):
            value = getattr(self, declared.name)
            if type(value) is int and value <= 0:  # the limits (the flags are bools)
                raise ValueError(f"{declared.name}: must be greater than 0 (or None: no limit)")
        if why := uids.range_refusal(*self.uid_range):
            raise ValueError(f"uid_range: {why}")


@dataclass
class SpawnPlan:
    """How to start one sandboxed plugin, and what to undo after it ends.

    `namespaced` plans run under bwrap, whose init reports a plugin killed by signal N as exit
    status 128+N (see `decode_status`).
    """

    argv: list[str]
    preexec: Callable[[], None]
    mechanisms: dict[str, str]
    cgroup: SessionGroup | None = None
    namespaced: bool = False
    fds: tuple[int, ...] = ()
    """Descriptors the spawned process inherits (the seccomp program); the spawn closes them."""
    uid_lease: UidLease | None = None
    """The session's own uid (a root gateway's), given back once its processes are gone."""
    env: dict[str, str] | None = None
    """The environment of the process spawned (`OUTER_ENVIRONMENT` under bwrap, which hands
    the plugin its own); None: the plugin's, as it is exec'd directly (no namespaces)."""

    def close_fds(self) -> None:
        """Close `fds` in the gateway once the child holds them (or the spawn failed)."""
        for fd in self.fds:
            with contextlib.suppress(OSError):
                os.close(fd)
        self.fds = ()

    def status(self, raw: int | None) -> int | None:
        """The plugin's own exit status from what the spawned process reported."""
        return decode_status(raw) if self.namespaced and raw is not None else raw

    def cleanup(self) -> None:
        """Remove the session's cgroup; a group still holding processes is left to the sweep,
        and its uid stays leased (a uid is never given to a second plugin while a process of
        the first may still run as it: without a cgroup or PID namespace, while `/proc` shows
        one running as it; without namespaces, the System V IPC and POSIX message queues it
        made in the gateway's IPC namespace are removed before its uid is given back)."""
        if self.cgroup is not None:
            gone = self.cgroup.remove()
        else:  # no PID namespace either: a process of the uid may have left the group
            gone = self.namespaced or self.uid_lease is None or not self._lingering()
        if gone and self.uid_lease is not None:
            if not self.namespaced:  # the gateway's IPC namespace: what it made there is gone too
                uids.end_ipc_of(self.uid_lease.uid)
            self.uid_lease.release()
            self.uid_lease = None

    def _lingering(self) -> bool:
        """Whether a process still runs as the session's own uid (without namespaces and a
        cgroup, a setsid'd grandchild outlives its process group: issue 32's red team)."""
        return self.uid_lease is not None and bool(uids.processes_of(self.uid_lease.uid))

    async def release(self) -> None:
        """`cleanup` once the group is empty. Processes killed with the namespace linger as
        zombies until init reaps them, so give the kernel a moment (bounded) first; a frozen
        v1 group must be thawed for its killed processes to die at all."""
        if self.cgroup is None and self.namespaced:  # its init is reaped: every process gone
            self.cleanup()
            return
        if self.cgroup is None:  # neither: end whatever still runs as the session's uid
            for _ in range(RELEASE_POLLS):
                if not self._lingering():
                    break
                if self.uid_lease is not None:
                    uids.end_processes_of(self.uid_lease.uid)
                await asyncio.sleep(RELEASE_POLL_S)
            self.cleanup()
            return
        self.cgroup.thaw()
        for _ in range(RELEASE_POLLS):
            if self.cgroup.empty():
                break
            await asyncio.sleep(RELEASE_POLL_S)
        self.cleanup()


def namespaces_available() -> bool:
    """Whether bwrap can build the default sandbox here."""
    return _bwrap_refusal() is None


def namespaces_refusal() -> str | None:
    """Why bwrap cannot build the default sandbox here (None when it can): for `check-config`."""
    return _bwrap_refusal()


PROBE_RETRY_S = 30.0
"""How long a failed namespace probe stands before the next spawn probes again: a success is
kept for the gateway's life, but a failure may pass (bwrap installed, a sysctl turned on, a
probe that timed out on a loaded machine) and must not refuse every plugin until a restart."""
_probed: tuple[str | None, float] | None = None
"""The last probe's refusal (None: namespaces work) and when it ran (`time.monotonic`)."""
_PROBING = threading.RLock()
"""Held while the host is probed (`_probed`, `cgroup_layout`): plans run in threads
(`process.spawn`), and two starts must neither probe at once nor see a half-written cache."""


def _bwrap_refusal() -> str | None:
    """Why bwrap cannot build the default sandbox here, or None (`_probe_bwrap`): a success
    cached for good, a failure for PROBE_RETRY_S. Thread-safe: one probe at a time, the
    others wait for its answer."""
    global _probed
    with _PROBING:
        now = time.monotonic()
        if _probed is None or (_probed[0] is not None and now - _probed[1] >= PROBE_RETRY_S):
            _probed = (_probe_bwrap(), now)
        return _probed[0]


def _probe_bwrap() -> str | None:
    """Why bwrap cannot build the default sandbox here (a real run, as a plugin would be run:
    a root gateway's under a leased uid of the default range), or None."""
    true = shutil.which("true")
    if shutil.which("bwrap") is None or true is None:
        return "bwrap is not installed"
    lease: UidLease | None = None
    try:
        if drops_root():
            lease = uids.lease(DEFAULT_UID_RANGE)
        probe = subprocess.run(
            [*_bwrap(SandboxPolicy(), [], None, None), "--", true],
            capture_output=True,
            timeout=10,
            check=False,
            preexec_fn=Identity(lease.uid, lease.uid).switch if lease is not None else None,
            cwd="/",  # as for a plugin: the uid switched to may not reach the gateway's cwd
        )
    except (OSError, subprocess.TimeoutExpired, uids.UidsExhausted) as exc:
        return str(exc)
    finally:
        if lease is not None:
            lease.release()
    return None if probe.returncode == 0 else probe.stderr.decode(errors="replace").strip()


@functools.cache
def cgroup_layout() -> Layout | str:
    """Where session cgroups go on this host (probed once), or why there is no such place."""
    try:
        layout = cgroups.find_layout(
            Path("/proc/self/mountinfo").read_text(), Path("/proc/self/cgroup").read_text()
        )
        if isinstance(layout, str):
            return layout
        if layout.version == 2:
            cgroups.delegate_v2(layout.parents["unified"], os.getpid())
        cgroups.sweep_stale(layout.parents.values())
        if "freezer" in layout.parents:
            _freezer_watchers.append(
                cgroups.watch_v1_freezer(layout.parents["freezer"], os.getpid())
            )
    except (OSError, CgroupUnavailable) as exc:
        return str(exc)
    return layout


_freezer_watchers: list[subprocess.Popen[bytes]] = []
"""Kept for the gateway's life: their stdin pipes close when it dies (see watch_v1_freezer)."""


def plan(
    policy: SandboxPolicy,
    command: Sequence[str],
    root: str | None,
    home: str | None = None,
    env: Mapping[str, str] | None = None,
    uid: int | None = None,
) -> SpawnPlan:
    """The argv and pre-exec step that put `command` in its sandbox (`env`: the plugin's, for
    PATH lookups; `uid`: the session's own, which a root gateway leases (`gpp.host.uids`) and
    runs the plugin as). Raises SandboxUnavailable, or FileNotFoundError when the plugin's
    executable does not exist.

    The sandbox is the mechanisms of `NAMESPACED` (or `DEGRADED`, where no namespace can be
    built) applied in order, one function each, as docs/security.md lists them."""
    with _PROBING:  # plans run in threads (`process.spawn`): the host is probed once
        namespaced = namespaces_available()
        cgroup_layout()
    if drops_root() and uid is None:
        raise SandboxUnavailable("no uid of its own was leased for the plugin")
    spawn = _Spawn(
        policy,
        list(command),
        os.path.abspath(root) if root else None,
        home,
        env or {},
        uid if drops_root() else None,
        namespaced,
    )
    try:
        for mechanism in NAMESPACED if namespaced else DEGRADED:
            mechanism(spawn)
    except BaseException:
        SpawnPlan(spawn.argv, lambda: None, spawn.mechanisms, fds=spawn.fds).close_fds()
        raise
    spawn_plan = SpawnPlan(
        spawn.argv,
        functools.partial(
            _pre_exec,
            spawn.limits,
            spawn.cgroup.procs_files if spawn.cgroup is not None else (),
            spawn.identity,
            None if namespaced else _last_capability(),
            None if namespaced else spawn.root,
        ),
        spawn.mechanisms,
        spawn.cgroup,
        namespaced,
        spawn.fds,
    )
    spawn_plan.env = dict(OUTER_ENVIRONMENT) if namespaced else None
    return spawn_plan


@dataclass
class _Spawn:
    """A spawn being planned: what the registry gives, and what each mechanism adds to it."""

    policy: SandboxPolicy
    argv: list[str]
    """The plugin's command, then (`_namespaces`) the whole chain: sh, bwrap, sh, the plugin."""
    root: str | None
    home: str | None
    env: Mapping[str, str]
    switch_to: int | None
    """The session's own uid, where the gateway is root."""
    namespaced: bool
    mechanisms: dict[str, str] = field(default_factory=dict)
    binds: _Binds | None = None
    identity: Identity | None = None
    fds: tuple[int, ...] = ()
    cgroup: SessionGroup | None = None
    limits: dict[str, tuple[int, int]] = field(default_factory=dict)


def _view(spawn: _Spawn) -> None:
    """What the plugin runs and sees, from the registry alone (`gpp.host.view`): the command
    with its `argv[0]` resolved (a version manager's shim: `gpp.host.shims`), and the binds;
    the session's uid (a root gateway's) is who must be able to read and reach them."""
    policy, command, root, uid = spawn.policy, spawn.argv, spawn.root, spawn.switch_to
    executable = _executable(command[0], root, spawn.env.get("PATH"))
    entries = view.entry_files(command, root)
    listed = None if policy.view is None else list(policy.view)
    untrusted = [*([root] if root else []), *(os.path.dirname(e) for e in entries), *(listed or [])]
    # what the registry names by path is a file, not a PATH lookup's shim: never read; a file
    # of the plugin's own (`runs_itself`; words the repository resolves do not count) is never
    # followed either, and another's symlink only to what the plugin's uid reaches unstaged
    named = view.entry_files(command, root, absolute=True)
    runs_itself = view.runs_itself(executable, command, named, untrusted)
    # only a bare name found in a folder of the gateway's own PATH, not through a symlink, may
    # be a shim: a folder the registry's PATH adds (a relative one, or the plugin's own) may be
    # the plugin's, and a link on the PATH may lead to a plugin's file; what is found there is
    # run as the registry names it, never read (as a path the registry names)
    by_path = "/" in command[0] or not shims.may_be_a_shim(executable)
    try:
        resolution = (
            shims.Resolution(executable, (executable,))
            if by_path or runs_itself
            else shims.resolve(executable, untrusted)
        )
        reach = None if uid is None else (lambda path: traversable(path, uid, uid))
        follow: Literal["yes", "reachable", "no"] = (
            "no" if runs_itself else "reachable" if by_path else "yes"
        )
        # a word the repository resolves names the repository's file, bound with it already:
        # its folder, bound again read-only over a writable repository, would be the
        # repository's choice (a relative link up to `/etc` put the host's over the sandbox's)
        own = [entry for entry in entries if not (root and view.under(entry, root))]
        seen = view.plugin_view(resolution.binary, own, listed, policy.hide, root, reach, follow)
    except (shims.Unresolvable, ViewUnavailable) as exc:
        raise SandboxUnavailable(
            f"{command[0]!r} cannot be run in the sandbox: {exc}; name the interpreter by "
            "its full path in the command"
            if isinstance(exc, shims.Unresolvable)
            else str(exc)
        ) from None
    spawn.mechanisms["executable"] = resolution.describe()
    spawn.mechanisms["view"] = seen.describe()
    readonly = bool(policy.readonly_root and root)
    sources: dict[str, str] = {}
    found: dict[str, tuple[int, int]] = {}
    covered: list[str] = []
    if uid is not None:
        gid = uid
        if root and (why := readable_refusal(root, uid, gid)):
            raise SandboxUnavailable(why)
        if spawn.home:
            sources = stage([*seen.folders, *([root] if root else [])], uid, gid, spawn.home)
            found = _identify_sources(sources)
        if root:
            covered = view.covering(root, seen, lambda f: allowed(f, uid, gid, os.X_OK))
    argv = view.bind_args(seen, root, readonly, sources, covered, spawn.home)
    staged = tuple((source, folder, *found[source]) for source, folder in sources.items())
    spawn.argv = [resolution.binary, *command[1:]]
    spawn.binds = _Binds(argv, readonly, staged)


def _own_uid(spawn: _Spawn) -> None:
    """A root gateway's plugin runs as the session's own uid, inside and outside its user
    namespace, with the folders that uid cannot reach staged for it."""
    if spawn.switch_to is not None and spawn.binds is not None:
        uid = spawn.switch_to
        spawn.identity = Identity(uid, uid, spawn.binds.staged, _keyctl_number())
    spawn.mechanisms["identity"] = _identity_said(
        spawn.identity, spawn.policy, "inside and outside its user namespace"
    )


def _syscall_filter(spawn: _Spawn) -> None:
    """The seccomp allow-list bwrap installs just before it execs the plugin (`gpp.host.seccomp`),
    and the host-wide pty pool kept out of reach unless the registry asks for a terminal."""
    try:
        spawn.fds = (seccomp.memfd(),)
    except (seccomp.SeccompUnavailable, OSError) as exc:
        raise SandboxUnavailable(f"the sandbox's seccomp filter cannot be built: {exc}") from None
    spawn.mechanisms["syscalls"] = (
        f"seccomp allow-list of {len(seccomp.allowed_numbers())} calls (ENOSYS for any "
        f"other); EPERM for {len(seccomp.refused_numbers())} calls (keyctl, ptrace, "
        "io_uring, native AIO, modify_ldt, userfaultfd, bpf, perf_event_open, mount, "
        "unshare, setns…), unusual personality values and 32-bit/x32 ABIs; sockets of "
        "AF_UNIX, AF_INET, AF_INET6 only (EAFNOSUPPORT: netlink, packet, "
        "vsock…), and of these TCP and UDP only (EPROTONOSUPPORT: no protocol module "
        "loaded for the plugin); no huge pages (the host's pool); a fresh session keyring"
    )
    spawn.mechanisms["terminal"] = (
        "/dev/ptmx: ptys from the host-wide pool (config: terminal = true)"
        if spawn.policy.terminal
        else "no /dev/ptmx (the host-wide pty pool is out of reach)"
    )


def _namespaces(spawn: _Spawn) -> None:
    """bwrap: user (no capability, no nested one), PID, network, mount, IPC and UTS namespaces,
    the view's binds in a read-only root; the plugin's pipes set aside from bwrap's own
    processes (`PIPES_ASIDE`, `PIPES_BACK`)."""
    policy, binds = spawn.policy, spawn.binds
    assert binds is not None and spawn.fds  # `_view` and `_syscall_filter` came first
    spawn.mechanisms["containment"] = (
        "pid-namespace via bubblewrap (killed with its init; init dies with the gateway)"
    )
    spawn.mechanisms["network"] = (
        "empty network namespace"
        if policy.network is False
        else 'inherited (config: network = "inherit")'
    )
    spawn.mechanisms["privileges"] = (
        "user namespace with no capabilities, no_new_privs, no nested user namespaces"
    )
    spawn.mechanisms["filesystem"] = (
        "minimal view: system dirs and the view read-only; private /proc and /dev; /tmp, "
        "/dev/shm and HOME in size-capped tmpfs; the rest read-only; repository "
        f"{'read-only' if binds.readonly else 'read-write'}"
    )
    spawn.fds = (*spawn.fds, _environment_fd(spawn.env))
    sh = shutil.which("sh") or "/bin/sh"
    spawn.argv = [
        sh,
        "-c",
        PIPES_ASIDE,
        "gpp-sandbox",
        *_bwrap(policy, binds.argv, spawn.root, spawn.home),
        "--seccomp",
        str(spawn.fds[0]),
        "--args",
        str(spawn.fds[1]),
        "--",
        sh,
        "-c",
        PIPES_BACK,
        "gpp-plugin",
        *spawn.argv,
    ]


def _environment_fd(env: Mapping[str, str]) -> int:
    """A descriptor (numbered 10 or above, as the seccomp program's) holding bwrap's options
    that give the plugin `env` and nothing else: `--clearenv`, then `--setenv NAME VALUE` for
    each variable, NUL-separated, at offset 0 (`--args`). Raises SandboxUnavailable for a name
    or value the kernel cannot carry (a NUL, or `=` in a name), which would shift the options."""
    words = ["--clearenv"]
    for name, value in env.items():
        if not name or "=" in name or "\0" in name or "\0" in value:
            raise SandboxUnavailable(f"env: {name!r} cannot be passed to a plugin")
        words += ["--setenv", name, value]
    data = b"".join(os.fsencode(word) + b"\0" for word in words)
    fd = os.memfd_create("gpp-environment", os.MFD_CLOEXEC)
    try:
        view_of = memoryview(data)
        while view_of:
            view_of = view_of[os.write(fd, view_of) :]
        os.lseek(fd, 0, os.SEEK_SET)
        return fcntl.fcntl(fd, fcntl.F_DUPFD_CLOEXEC, 10)
    finally:
        os.close(fd)


def _without_namespaces(spawn: _Spawn) -> None:
    """Where no namespace can be built: refused, unless the config allows it (`network =
    "inherit"`, `readonly_root = false`); then the process group, the cgroup and the rlimits,
    and still no root and no capability (issue 32): a root gateway switches the plugin to the
    session's own uid, and every plugin gets `no_new_privs` and an empty capability bounding
    set (`_pre_exec`). Lost: the view (the plugin sees what its uid may read), the private
    /proc and /dev (the host's `/dev/ptmx` is in reach), the seccomp filter and /tmp of its
    own."""
    policy, root, uid = spawn.policy, spawn.root, spawn.switch_to
    if policy.network is False or policy.readonly_root:
        reason = _bwrap_refusal()
        raise SandboxUnavailable(
            "bubblewrap (bwrap) is missing, or this kernel or these privileges do not allow "
            f"namespaces{f' ({reason})' if reason else ''}, so the sandbox "
            f"({'network = false' if policy.network is False else 'readonly_root = true'}) "
            'cannot be built; set sandbox.network = "inherit" and readonly_root = false to '
            "run this plugin without them"
        )
    spawn.mechanisms["containment"] = "process group + parent-death signal (no namespaces here)"
    spawn.mechanisms["network"] = 'inherited (config: network = "inherit")'
    spawn.mechanisms["privileges"] = (
        "no_new_privs, no capability (bounding set emptied); no namespaces, so no private view, "
        "/proc or /tmp and no seccomp filter"
    )
    if uid is not None:
        gid = uid
        if root and (why := readable_refusal(root, uid, gid) or _reach_refusal(root, uid, gid)):
            raise SandboxUnavailable(why)
        spawn.identity = Identity(uid, gid, (), _keyctl_number())
    spawn.mechanisms["identity"] = _identity_said(spawn.identity, policy, WITHOUT_NAMESPACES)


def _cgroup(spawn: _Spawn) -> None:
    """The session's own cgroup (`_session_group`): memory, pids and the CPU budget of the
    plugin as a whole, entered before exec."""
    spawn.cgroup = _session_group(spawn.policy, spawn.mechanisms)


def _rlimits_of(spawn: _Spawn) -> None:
    """The per-process limits the cgroup does not make needless (`_rlimits`)."""
    spawn.limits = _rlimits(
        spawn.policy, per_plugin=spawn.cgroup is not None, own_uid=spawn.identity is not None
    )
    spawn.mechanisms["rlimits"] = ", ".join(
        f"{name}={value}" for name, (_, value) in spawn.limits.items()
    )


NAMESPACED: tuple[Callable[[_Spawn], None], ...] = (
    _view,
    _own_uid,
    _syscall_filter,
    _namespaces,
    _cgroup,
    _rlimits_of,
)
"""The mechanisms of a sandbox, in the order they are applied (docs/security.md, "How a spawn
is planned", lists them in this order: a test holds the two together)."""
DEGRADED: tuple[Callable[[_Spawn], None], ...] = (_without_namespaces, _cgroup, _rlimits_of)
"""Where bwrap cannot build namespaces and the config allows running without them."""


@dataclass(frozen=True)
class _Binds:
    """bwrap's bind options for a plugin's view and repository, and what a root gateway stages."""

    argv: list[str]
    readonly: bool
    staged: tuple[tuple[str, str, int, int], ...] = ()


def _identify_sources(sources: Mapping[str, str]) -> dict[str, tuple[int, int]]:
    """The device and inode of each folder to stage, reached by a walk that follows no symlink
    a user could have placed (`identity.open_folder`): root's mount in the child follows
    symlinks, so the child checks it mounted these very folders."""
    found: dict[str, tuple[int, int]] = {}
    for source in sources:
        try:
            found[source] = identify_folder(source)
        except OSError as exc:
            raise SandboxUnavailable(
                f"{source} lies behind a folder the plugin's uid cannot search, and cannot be "
                f"staged for it: {exc.strerror or exc}"
            ) from None
    return found


def _reach_refusal(root: str, uid: int, gid: int) -> str | None:
    """Why `uid:gid` cannot enter the repository `root` on its own, by its path and by where
    its symlinks lead (the plugin enters it as that uid: `_pre_exec`)."""
    if all(traversable(path, uid, gid) for path in (root, os.path.realpath(root))):
        return None
    return (
        f"repository {root} lies under a folder uid {uid} cannot search, and without namespaces "
        "nothing can be staged for it; make its parent folders searchable (chmod o+x)"
    )


WITHOUT_NAMESPACES = "without namespaces"


def _identity_said(identity: Identity | None, policy: SandboxPolicy, where: str) -> str:
    if identity is None and where == WITHOUT_NAMESPACES:
        return (
            f"the gateway's own uid ({os.geteuid()}), without namespaces: the plugin can do "
            "whatever the gateway's user can, read its token file, /proc/<gateway>/environ "
            "and that user's files, and signal the gateway (a root gateway would give it a "
            "uid of its own)"
        )
    if identity is None:
        return f"the gateway's own uid ({os.geteuid()}), unprivileged"
    return (
        f"uid {identity.uid}, gid {identity.gid}: the session's own (sandbox.uid_range "
        f"{list(policy.uid_range)}), no supplementary groups, {where} (the gateway is root)"
    )


def _session_group(policy: SandboxPolicy, mechanisms: dict[str, str]) -> SessionGroup | None:
    """The session's own cgroup, its mechanisms described; None only where the config allows
    it (`cgroup = "optional"`), else SandboxUnavailable."""
    layout = cgroup_layout()
    mib = 1024 * 1024
    limits = Limits(policy.memory_mb and policy.memory_mb * mib, policy.max_processes)
    try:
        if isinstance(layout, str):
            raise CgroupUnavailable(layout)
        group = SessionGroup.create(layout, limits, os.getpid())
    except CgroupUnavailable as exc:
        if policy.cgroup != "optional":
            raise SandboxUnavailable(
                f"no cgroup can be made for the plugin here ({exc}), so its limits cannot bind "
                "it as a whole; run the gateway with a writable (delegated) cgroup, or set "
                'sandbox.cgroup = "optional" to run it with per-process rlimits only'
            ) from None
        mechanisms["cgroup"] = f'none ({exc}); config: cgroup = "optional"'
        if policy.max_processes:
            mechanisms["processes"] = (
                f"RLIMIT_NPROC={policy.max_processes} (per uid: the session's own where the "
                "gateway is root, else the gateway's, shared with it)"
            )
        return None
    memory_file = "memory.max" if layout.version == 2 else "memory.limit_in_bytes"
    said = [
        f"memory: {memory_file}={policy.memory_mb} MiB, no swap (children, memfd, shm, tmpfs "
        "and kernel memory included; on v1, TCP and UDP buffers: 64 MiB at most, beside it)"
        if policy.memory_mb
        else "memory: no limit",
        f"CPU budget cpu_seconds={policy.cpu_seconds} for the plugin as a whole"
        if policy.cpu_seconds
        else "no CPU budget",
        "frozen between requests" if group.can_freeze else "not frozen when idle (no freezer)",
    ]
    mechanisms["cgroup"] = f"{layout.describe()}, one per session: {'; '.join(said)}"
    if policy.max_processes:
        mechanisms["processes"] = (
            f"cgroup v{layout.version} pids.max={policy.max_processes} (the whole plugin)"
        )
    return group


@functools.cache
def _last_capability() -> int:
    """The highest capability number this kernel knows (dropping past it fails)."""
    try:
        return int(Path("/proc/sys/kernel/cap_last_cap").read_text())
    except (OSError, ValueError):
        return 40  # CAP_CHECKPOINT_RESTORE, the last one of Linux 5.9 to 6.x


@functools.cache
def _keyctl_number() -> int:
    try:
        return seccomp._syscall_number("keyctl")
    except seccomp.SeccompUnavailable:
        return -1


def _bwrap(
    policy: SandboxPolicy, binds: Sequence[str], root: str | None, home: str | None
) -> list[str]:
    """bwrap's own options: every namespace, no capabilities, the system dirs and `binds`."""
    argv = [shutil.which("bwrap") or "bwrap", "--unshare-all", "--unshare-user",
            "--disable-userns", "--die-with-parent", "--new-session", "--cap-drop", "ALL"]  # fmt: skip
    if policy.network == "inherit":
        argv.append("--share-net")
    for path in SYSTEM_DIRS:
        if os.path.islink(path):
            argv += ["--symlink", os.readlink(path), path]
        elif os.path.isdir(path):
            argv += ["--ro-bind", path, path]
    for path in SYSTEM_FILES:
        argv += ["--ro-bind-try", path, path]
    # files in a tmpfs are memory that RLIMIT_AS does not see: each writable one is capped
    size = ["--size", str(policy.memory_mb * 1024 * 1024)] if policy.memory_mb else []
    argv += [
        "--proc",
        "/proc",
        "--dev",
        "/dev",
        *size,
        "--tmpfs",
        "/dev/shm",
        *([] if policy.terminal else NO_PTYS),
        "--remount-ro",
        "/dev",
        *size,
        "--tmpfs",
        "/tmp",
        *binds,
    ]
    if home:  # in memory, not a host directory: no disk to fill, nothing left behind
        argv += ["--perms", "0700", *size, "--tmpfs", home]
    # bwrap's root is an uncapped tmpfs: read-only once every mount point is in it
    return [*argv, "--remount-ro", "/", "--chdir", root or home or "/"]


NO_PTYS = ("--perms", "0555", "--size", "4096", "--tmpfs", "/dev/pts", "--remount-ro", "/dev/pts")
"""bwrap's `/dev` holds a devpts instance (`/dev/ptmx` → `pts/ptmx`) whose ptys come from the
host-wide pool (`kernel.pty.max`); an empty, read-only tmpfs over `/dev/pts` leaves
`/dev/ptmx` dangling (ENOENT) unless the registry says `terminal = true`."""


def _executable(name: str, root: str | None, path: str | None = None) -> str:
    """The plugin's executable as an absolute path: inside the sandbox there is no cwd to be
    relative to until bwrap has set it, and PATH lookup would see another filesystem. A bare
    name is looked up on the plugin's PATH (`path`), as it would be unsandboxed."""
    found = (
        os.path.join(root or os.getcwd(), name) if "/" in name else shutil.which(name, path=path)
    )
    if found is None or not os.access(found, os.X_OK):
        raise FileNotFoundError(errno.ENOENT, os.strerror(errno.ENOENT), name)
    return os.path.abspath(found)


SHELL_SIGNAL_BASE = 128


def decode_status(returncode: int) -> int:
    """A sandboxed plugin's status as asyncio reports statuses: -N when killed by signal N.

    bwrap's init (PID 1 of the namespace, the plugin's parent) exits 128+N when the plugin was
    killed by signal N: a namespace's init cannot itself die of most signals, so the signal
    only survives as that number. A plugin exiting 129..192 on its own reads as a signal too.
    """
    if SHELL_SIGNAL_BASE < returncode <= SHELL_SIGNAL_BASE + 64:
        return -(returncode - SHELL_SIGNAL_BASE)
    return returncode


def _rlimits(
    policy: SandboxPolicy, per_plugin: bool, own_uid: bool = False
) -> dict[str, tuple[int, int]]:
    """The per-process limits; with a session cgroup, CPU and memory are the cgroup's (the
    plugin's total). No RLIMIT_AS under a cgroup: V8, glibc's arenas, Go and the JVM reserve
    far more address space than they touch, and a Node plugin aborted (`std::bad_alloc`) on
    30,000 files under `RLIMIT_AS = memory_mb` with a tenth of it resident (issue 32); the
    cgroup counts what is really used. RLIMIT_NPROC counts every process of a uid: with a uid
    of its own per session (`own_uid`, a root gateway) it is the plugin's count, a second
    bound beside `pids.max`; as the gateway's own uid it would count the gateway's processes
    too, so it applies there only without a cgroup."""
    mib = 1024 * 1024
    wanted = {
        "RLIMIT_AS": None if per_plugin else policy.memory_mb and policy.memory_mb * mib,
        "RLIMIT_CPU": None if per_plugin else policy.cpu_seconds,
        "RLIMIT_NOFILE": policy.max_open_files,
        "RLIMIT_NPROC": policy.max_processes if own_uid or not per_plugin else None,
        "RLIMIT_FSIZE": policy.max_file_size_mb and policy.max_file_size_mb * mib,
    }
    limits = {name: (getattr(resource, name), value) for name, value in wanted.items() if value}
    # no core dump: the gateway's hard limit (unlimited, as systemd leaves it) let a plugin raise
    # its own and crash at will, each core the host's to write or hand to its crash handler
    # (`|systemd-coredump`, apport: root, outside the sandbox and the cgroup, on host disk)
    limits["RLIMIT_CORE"] = (resource.RLIMIT_CORE, NO_CORE_DUMP)
    # no real-time scheduling and no raised priority, whatever the gateway's own hard limits
    # allow (PAM's `rtprio` for a login, a unit's LimitRTPRIO): a SCHED_FIFO plugin on every
    # CPU left the host, the gateway and its CPU budget check 5 % of the time (round 6)
    limits["RLIMIT_RTPRIO"] = (resource.RLIMIT_RTPRIO, 0)
    limits["RLIMIT_NICE"] = (resource.RLIMIT_NICE, 0)
    return limits


NO_CORE_DUMP = 1
"""RLIMIT_CORE, soft and hard: 1, not 0. The kernel ignores the limit for a crash handler that
`core_pattern` pipes to (`|systemd-coredump`, apport): at 0 it still starts the handler, as
root, outside the sandbox and its cgroup, on every crash; 1 is its one special value, "abort
the core" (what it sets for the handler itself), and below a page no core file is written
either (issue 32, round 6). A plugin may still lower its soft limit to 0 (see
docs/security.md)."""


OOM_SCORE_ADJ = "/proc/self/oom_score_adj"


def reset_oom_protection(path: str = OOM_SCORE_ADJ) -> None:
    """The calling process's OOM score adjustment back to 0 when it is negative (between fork
    and exec: the plugin's), as fork hands it on like the scheduling policy: a gateway run with
    a unit's `OOMScoreAdjust=-1000` (or -900, as services the host must keep are) handed every
    plugin immunity from the OOM killer, the host's and its own cgroup's (which skips such
    processes: a plugin at `memory_mb` then waited on its full group instead of being killed),
    and the plugin, with no capability, could not give it up (round 9). Raising it needs no
    privilege; a positive one is kept (the operator asked for plugins to go first). Raises
    OSError. Opened for writing only then: a gateway that switched uid itself (forked from
    root, as tests do) is not dumpable, and its `/proc/self` files are root's."""
    fd = os.open(path, os.O_RDONLY | os.O_CLOEXEC)
    try:
        said = os.read(fd, 32)
    finally:
        os.close(fd)
    if int(said or b"0") >= 0:
        return
    fd = os.open(path, os.O_WRONLY | os.O_CLOEXEC)
    try:
        os.write(fd, b"0".ljust(len(said)))  # the kernel strips the spaces
    finally:
        os.close(fd)


def _pre_exec(
    limits: dict[str, tuple[int, int]],
    procs_files: Sequence[str],
    identity: Identity | None = None,
    lockdown: int | None = None,
    chdir: str | None = None,
) -> None:
    """Runs in the child between fork and exec: only async-signal-tolerant, allocation-light work.
    `lockdown` (no bwrap to do it; the kernel's last capability number): an empty capability
    bounding set while still root, then, after the uid switch, `no_new_privs`. `chdir` (no
    bwrap to set the plugin's cwd: the repository) is entered after the uid switch, as the
    plugin's uid: root's `chdir` would follow a repository swapped for a symlink into a tree
    that uid cannot search, and leave the plugin inside it."""
    libc = ctypes.CDLL(None, use_errno=True)
    libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    if os.getppid() == 1:  # the gateway died between fork and prctl
        os._exit(1)
    cgroups.enter(procs_files)  # before exec: every process of the plugin is in the group
    # the gateway's own scheduling is not the plugin's: RLIMIT_RTPRIO and RLIMIT_NICE at 0 bound
    # what it may ask for, not what fork hands on from a gateway run real-time (a unit's
    # `CPUSchedulingPolicy=rr`, `chrt`) or at `Nice=-5` (attack 7: SCHED_RR plugins again)
    try:
        if os.sched_getscheduler(0) not in (os.SCHED_OTHER, os.SCHED_BATCH, os.SCHED_IDLE):
            os.sched_setscheduler(0, os.SCHED_OTHER, os.sched_param(0))
        if os.getpriority(os.PRIO_PROCESS, 0) < 0:
            os.setpriority(os.PRIO_PROCESS, 0, 0)
        # and its I/O priority: `ionice -c1` (a unit's IOSchedulingClass=realtime) ran every
        # plugin in the real-time I/O class, ahead of every other process's disk access
        io_priority.reset_raised(libc)
        reset_oom_protection()
    except OSError:
        os._exit(LOCKDOWN_FAILED)
    for which, value in limits.values():
        soft_hard = (value, value)
        if which == resource.RLIMIT_CPU:  # SIGXCPU at the limit, SIGKILL a second later
            soft_hard = (value, value + 1)
        resource.setrlimit(which, soft_hard)
    if lockdown is not None:
        for capability in range(lockdown + 1):  # needs CAP_SETPCAP: a non-root gateway has none
            if libc.prctl(PR_CAPBSET_DROP, capability, 0, 0, 0) != 0 and os.geteuid() == 0:
                os._exit(LOCKDOWN_FAILED)
        # ambient capabilities pass through exec: a non-root gateway given one (a unit's
        # AmbientCapabilities=, `setpriv --ambient-caps`) handed it to its plugin, which runs
        # as its uid here with no bwrap to drop it (round 9); clearing needs no privilege
        if libc.prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0) != 0:
            os._exit(LOCKDOWN_FAILED)
    if identity is not None:  # last: placing the process in its cgroup needs root
        identity.switch()  # from root to another uid: permitted, effective and ambient cleared
    if chdir is not None:
        try:
            os.chdir(chdir)
        except OSError:
            os._exit(LOCKDOWN_FAILED)
    if lockdown is not None and libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0:
        os._exit(LOCKDOWN_FAILED)
