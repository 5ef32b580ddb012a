"""The sandbox around every plugin process: namespaces, rlimits, a pids cgroup, death with us.

A plugin is untrusted code. Each session runs it as PID 1 of a fresh PID namespace (so when the
session ends, or the gateway dies, the kernel kills every process it ever started, setsid'd and
double-forked ones included), in an empty network namespace unless its config says
`network = "inherit"`, optionally with the repository bound read-only, under rlimits applied
before exec, and inside a pids cgroup where one is writable (RLIMIT_NPROC does not bind root).

The chain: gateway → `unshare` (SIGKILLed when the gateway thread that spawned it dies, via
PR_SET_PDEATHSIG) → the plugin as the namespace's init (SIGKILLed when `unshare` dies, via
`--kill-child`) → everything below it. Where namespaces are not allowed, a plugin that asked for
network isolation is refused, never silently run without it.
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import functools
import os
import resource
import shutil
import signal
import subprocess
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

PR_SET_PDEATHSIG = 1
RELEASE_POLLS, RELEASE_POLL_S = 100, 0.02  # up to 2 s for a killed namespace to be reaped
PIDS_CGROUP_ROOTS = (Path("/sys/fs/cgroup/pids"), Path("/sys/fs/cgroup"))


class SandboxUnavailable(Exception):
    """The sandbox a plugin's config asks for cannot be built here; the plugin is refused."""


@dataclass(frozen=True)
class SandboxPolicy:
    network: Literal[False, "inherit"] = False
    memory_mb: int | None = 1024
    cpu_seconds: int | None = 60
    max_open_files: int | None = 256
    max_processes: int | None = 64
    max_file_size_mb: int | None = 64
    readonly_root: bool = False


@dataclass
class SpawnPlan:
    """How to start one sandboxed plugin, and what to undo after it ends."""

    argv: list[str]
    preexec: Callable[[], None]
    mechanisms: dict[str, str]
    cgroup: Path | None = None
    shell_init: bool = False

    def status(self, raw: int | None) -> int | None:
        """The plugin's own exit status from what the spawned process reported."""
        return decode_status(raw) if self.shell_init and raw is not None else raw

    def cleanup(self) -> None:
        """Remove the pids cgroup; a group still holding processes is left to the sweep."""
        if self.cgroup is not None:
            with contextlib.suppress(OSError):
                self.cgroup.rmdir()

    async def release(self) -> None:
        """`cleanup` once the group is empty. Processes killed with the namespace linger as
        zombies until init reaps them, so give the kernel a moment (bounded) first."""
        if self.cgroup is None:
            return
        for _ in range(RELEASE_POLLS):
            if _cgroup_empty(self.cgroup):
                break
            await asyncio.sleep(RELEASE_POLL_S)
        self.cleanup()


@functools.cache
def namespaces_available() -> bool:
    """Whether this process may create PID, network and mount namespaces (probed once)."""
    unshare = shutil.which("unshare")
    if unshare is None:
        return False
    try:
        probe = subprocess.run(
            [unshare, "--pid", "--fork", "--net", "--mount", "true"],
            capture_output=True, timeout=10, check=False,
        )  # fmt: skip
    except (OSError, subprocess.TimeoutExpired):
        return False
    return probe.returncode == 0


@functools.cache
def _pids_cgroup_root() -> Path | None:
    """A writable pids cgroup hierarchy (v1 `pids` or a v2 root offering `pids`), or None."""
    for root in PIDS_CGROUP_ROOTS:
        limit_file = "pids.max"
        if root == Path("/sys/fs/cgroup"):
            controllers = root / "cgroup.controllers"
            if not controllers.exists() or "pids" not in controllers.read_text().split():
                continue
        probe = root / f"gpp-probe-{uuid.uuid4().hex[:8]}"
        try:
            probe.mkdir()
        except OSError:
            continue
        usable = (probe / limit_file).exists()
        with contextlib.suppress(OSError):
            probe.rmdir()
        if usable:
            return root
    return None


def plan(policy: SandboxPolicy, command: Sequence[str], root: str | None) -> SpawnPlan:
    """The argv and pre-exec step that put `command` in its sandbox."""
    mechanisms: dict[str, str] = {}
    argv = list(command)
    if namespaces_available():
        flags = ["--pid", "--fork", "--kill-child"]
        mechanisms["containment"] = (
            "pid-namespace (killed with its init; init dies with the gateway)"
        )
        if policy.network is False:
            flags.append("--net")
            mechanisms["network"] = "empty network namespace"
        else:
            mechanisms["network"] = 'inherited (config: network = "inherit")'
        readonly = bool(policy.readonly_root and root)
        if readonly:
            flags.append("--mount")
            mechanisms["filesystem"] = "repository bound read-only (mount namespace)"
        argv = [shutil.which("unshare") or "unshare", *flags, "--", *_init(argv, root, readonly)]
    elif policy.network is False or policy.readonly_root:
        raise SandboxUnavailable(
            "this kernel or these privileges do not allow namespaces, so the sandbox "
            f"({'network = false' if policy.network is False else 'readonly_root = true'}) "
            'cannot be built; set sandbox.network = "inherit" and readonly_root = false to '
            "run this plugin without them"
        )
    else:
        mechanisms["containment"] = "process group + parent-death signal (no namespaces here)"
        mechanisms["network"] = 'inherited (config: network = "inherit")'
    limits = _rlimits(policy)
    mechanisms["rlimits"] = ", ".join(f"{name}={value}" for name, (_, value) in limits.items())
    cgroup = _pids_cgroup(policy.max_processes)
    if cgroup is not None:
        mechanisms["processes"] = f"pids cgroup, pids.max={policy.max_processes}"
    elif policy.max_processes:
        mechanisms["processes"] = f"RLIMIT_NPROC={policy.max_processes} (per user; not for root)"
    return SpawnPlan(argv, functools.partial(_pre_exec, limits, cgroup), mechanisms, cgroup,
                     shell_init=namespaces_available())  # fmt: skip


def _init(command: list[str], root: str | None, readonly: bool) -> list[str]:
    """`sh` as the namespace's PID 1, running the plugin as its child.

    The plugin must not be PID 1 itself: the kernel drops signals to a namespace init that has
    no handler for them (SIGXCPU at the CPU limit among them), and an init must reap orphans.
    `sh` does both, and reports a plugin killed by signal N as exit status 128+N (see
    `decode_status`). The trailing `exit` keeps sh from exec'ing the plugin in its place.
    """
    script = 'unset PWD OLDPWD; "$@"; exit $?'  # sh sets PWD: the plugin gets only its env
    if readonly:  # cd again after mounting: the inherited cwd points into the writable mount
        script = ('mount --bind "$0" "$0" && mount -o remount,bind,ro "$0" && cd "$0" || exit 125; '
                  + script)  # fmt: skip
    return ["sh", "-c", script, os.path.abspath(root or "."), *command]


SHELL_SIGNAL_BASE = 128


def decode_status(returncode: int) -> int:
    """A sandboxed plugin's status as asyncio reports statuses: -N when killed by signal N."""
    if SHELL_SIGNAL_BASE < returncode <= SHELL_SIGNAL_BASE + 64:
        return -(returncode - SHELL_SIGNAL_BASE)
    return returncode


def _rlimits(policy: SandboxPolicy) -> dict[str, tuple[int, int]]:
    mib = 1024 * 1024
    wanted = {
        "RLIMIT_AS": policy.memory_mb and policy.memory_mb * mib,
        "RLIMIT_CPU": policy.cpu_seconds,
        "RLIMIT_NOFILE": policy.max_open_files,
        "RLIMIT_NPROC": policy.max_processes,
        "RLIMIT_FSIZE": policy.max_file_size_mb and policy.max_file_size_mb * mib,
    }
    return {name: (getattr(resource, name), value) for name, value in wanted.items() if value}


def _cgroup_empty(group: Path) -> bool:
    try:
        return not (group / "cgroup.procs").read_text().strip()
    except OSError:
        return True


@functools.cache
def _sweep_stale_cgroups(root: Path) -> None:
    """Remove empty groups left by gateways that died (SIGKILL leaves no time to clean up)."""
    for group in root.glob("gpp-*-*"):
        creator = group.name.split("-")[1]
        if creator.isdigit() and not Path(f"/proc/{creator}").exists() and _cgroup_empty(group):
            with contextlib.suppress(OSError):
                group.rmdir()


def _pids_cgroup(max_processes: int | None) -> Path | None:
    root = _pids_cgroup_root()
    if root is None or not max_processes:
        return None
    _sweep_stale_cgroups(root)
    group = root / f"gpp-{os.getpid()}-{uuid.uuid4().hex[:12]}"
    try:
        group.mkdir()
        (group / "pids.max").write_text(str(max_processes))
    except OSError:
        with contextlib.suppress(OSError):
            group.rmdir()
        return None
    return group


def _pre_exec(limits: dict[str, tuple[int, int]], cgroup: Path | None) -> None:
    """Runs in the child between fork and exec: only async-signal-tolerant, allocation-light work."""
    libc = ctypes.CDLL(None, use_errno=True)
    libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    if os.getppid() == 1:  # the gateway died between fork and prctl
        os._exit(1)
    if cgroup is not None:
        with open(cgroup / "cgroup.procs", "w") as procs:
            procs.write(str(os.getpid()))
    for which, value in limits.values():
        soft_hard = (value, value)
        if which == resource.RLIMIT_CPU:  # SIGXCPU at the limit, SIGKILL a second later
            soft_hard = (value, value + 1)
        resource.setrlimit(which, soft_hard)
