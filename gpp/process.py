"""Plugin processes: spawn with a scrubbed environment in a process group, kill the group, reap;
and `ProcessSession`, the process half that the GPP/3 and the JSON-RPC host sessions share.

Kept apart from the sessions so each reads as protocol, and so isolation (namespaces, rlimits)
and the end of a process have one place to live.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import os
import shutil
import signal
import tempfile
from collections import deque
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol, TypedDict, Unpack, runtime_checkable

from . import codes
from .sandbox import SandboxPolicy, SandboxUnavailable, SpawnPlan, plan

PASSED_ENV = ("PATH", "LANG")
"""The only variables a plugin inherits; everything else it gets is said in its config."""
NOT_STARTED = {126: "could not be executed", 127: "was not found"}
"""What the sandbox's `sh` means by these statuses (before `hello`)."""


def scrubbed_env(extra: Mapping[str, str] | None, home: str) -> dict[str, str]:
    env = {key: os.environ[key] for key in PASSED_ENV if key in os.environ}
    env.setdefault("PATH", os.defpath)
    env["HOME"] = home
    env.update(extra or {})
    return env


async def spawn(
    command: Sequence[str],
    *,
    cwd: str | None,
    env: Mapping[str, str],
    sandbox: SandboxPolicy | None = None,
) -> tuple[asyncio.subprocess.Process, SpawnPlan | None]:
    """Start the plugin as the leader of a new session (so its whole group can be killed),
    inside its sandbox when one is given. Raises SandboxUnavailable or OSError."""
    spawn_plan = plan(sandbox, command, cwd, env.get("HOME"), env) if sandbox is not None else None
    try:
        proc = await asyncio.create_subprocess_exec(
            *(spawn_plan.argv if spawn_plan else command),
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
            # bwrap sets the plugin's cwd (`--chdir`); the uid it runs as may not reach `cwd`
            # (uvloop changes directory after the pre-exec step has changed uid)
            cwd="/" if spawn_plan is not None and spawn_plan.namespaced else cwd,
            env=dict(env),
            start_new_session=True,
            preexec_fn=spawn_plan.preexec if spawn_plan else None,
            pass_fds=spawn_plan.fds if spawn_plan else (),
        )
    except BaseException:
        if spawn_plan is not None:
            spawn_plan.cleanup()
        raise
    finally:
        if spawn_plan is not None:
            spawn_plan.close_fds()
    return proc, spawn_plan


@dataclass
class PluginProcess:
    """A started plugin: the OS process, its sandbox plan, its HOME, as a ProcessSession holds
    it; `reap` undoes everything `start_plugin` did."""

    proc: asyncio.subprocess.Process
    plan: SpawnPlan | None
    home: str
    reaped: bool = False

    @property
    def mechanisms(self) -> dict[str, str]:
        return self.plan.mechanisms if self.plan is not None else {}

    def status(self, raw: int | None) -> int | None:
        """The plugin's own exit status (the sandbox's init reports signals as 128+N)."""
        return self.plan.status(raw) if self.plan is not None else raw

    @property
    def returncode(self) -> int | None:
        return self.status(self.proc.returncode)

    def not_started_hint(self, status: int | None) -> str:
        """What to say when a sandboxed plugin exits 126 or 127 before `hello`: the shell
        inside the sandbox could not find (127) or not execute (126) what the command runs."""
        resolved = self.mechanisms.get("executable")
        if resolved is None or status not in NOT_STARTED:
            return ""
        return (
            f"; inside the sandbox, {resolved.split(' → ')[-1].split(' (')[0]} "
            f"{NOT_STARTED[status]} (the command resolved as: {resolved}); name an interpreter "
            "the sandbox can see by its full path, or install it outside /root and HOME folders"
        )

    async def reap(self, kill: bool = True) -> int | None:
        """Kill the group (unless it already exited and `kill` is False), wait, clean up.
        Idempotent: later calls only return the status."""
        if self.reaped:
            return self.returncode
        self.reaped = True
        if kill or self.proc.returncode is None:
            kill_group(self.proc)
        status = self.status(await self.proc.wait())
        if self.proc.stdin is not None:
            self.proc.stdin.close()
        shutil.rmtree(self.home, ignore_errors=True)
        if self.plan is not None:
            await self.plan.release()
        return status


class ProcessOptions(TypedDict, total=False):
    """How a session starts its plugin, beside the command: the keywords every session takes.

    `cwd` is the plugin's repository, `env` what it gets beyond PATH, LANG and a fresh HOME,
    `on_stderr` hears each stderr line, `sandbox` None runs it unsandboxed (tests, `--no-sandbox`).
    """

    cwd: str | None
    env: Mapping[str, str] | None
    on_stderr: Callable[[str], None] | None
    sandbox: SandboxPolicy | None


class ProcessSession:
    """What a session with one plugin process does the same way whatever protocol it speaks:
    spawn the plugin (sandboxed, scrubbed environment, fresh HOME), drain its stderr into a
    bounded ring, tell whether it still runs, and kill, reap and clean up after it.

    `gpp.host.PluginSession` (GPP/3) and `gpp.jsonrpc.host.JsonRpcSession` build their protocol
    on it; what they run alongside the plugin (readers, watchdogs) goes in `_tasks`, which
    `_reap` waits for, boundedly, once the process group is gone.
    """

    def __init__(
        self, command: Sequence[str], plugin_id: str, **options: Unpack[ProcessOptions]
    ) -> None:
        self.command = list(command)
        self.plugin_id = plugin_id
        self.cwd = options.get("cwd")
        self.env = dict(options.get("env") or {})
        self.sandbox = options.get("sandbox")
        self.pid: int | None = None
        """The child's pid, kept after it exits."""
        self.returncode: int | None = None
        self.stderr = StderrRing()
        self.closed = False
        self._on_stderr = options.get("on_stderr")
        self._process: PluginProcess | None = None
        self._tasks: list[asyncio.Task[None]] = []

    @property
    def alive(self) -> bool:
        """Started, not closed, and the process has not exited (e.g. died while idle)."""
        return not self.closed and self._process is not None and self._proc.returncode is None

    @property
    def sandbox_mechanisms(self) -> dict[str, str]:
        """The isolation in effect, by concern (empty before the spawn)."""
        return self._process.mechanisms if self._process is not None else {}

    @property
    def _proc(self) -> asyncio.subprocess.Process:
        assert self._process is not None, "session not started"
        return self._process.proc

    def _exit_status(self) -> int | None:
        """The plugin's own exit status so far (None: running, or never started)."""
        return self._process.returncode if self._process is not None else None

    async def _spawn(self) -> None:
        """Start the plugin and its stderr drain; a plugin that cannot start closes the session
        and raises E_EOF saying why."""
        if self._process is not None:
            raise RuntimeError("session already started")
        try:
            self._process = await start_plugin(
                self.command, cwd=self.cwd, env=self.env, sandbox=self.sandbox
            )
        except codes.ProtocolError:
            self.closed = True
            raise
        self.pid = self._proc.pid
        assert self._proc.stderr is not None
        self._tasks.append(
            asyncio.create_task(self.stderr.drain(self._proc.stderr, self._on_stderr))
        )

    async def _reap(self, kill: bool = True) -> None:
        """Close the session: kill the group (unless it exited and `kill` is False), reap it,
        then let the session's tasks end, at most a second each (stderr ends with the process
        group; the bound covers a leaked descendant holding the pipe). Idempotent."""
        self.closed = True
        if self._process is not None:
            self.returncode = await self._process.reap(kill)
        current = asyncio.current_task()
        for task in self._tasks:
            if task is not current and not task.done():
                done, _ = await asyncio.wait({task}, timeout=1.0)
                if not done:
                    task.cancel()


async def start_plugin(
    command: Sequence[str],
    *,
    cwd: str | None,
    env: Mapping[str, str] | None,
    sandbox: SandboxPolicy | None,
) -> PluginProcess:
    """Spawn a plugin with a fresh HOME, or raise E_EOF saying why it could not start."""
    _sweep_stale_homes()
    home = tempfile.mkdtemp(prefix=f"{HOME_PREFIX}{os.getpid()}-")
    try:
        proc, spawn_plan = await spawn(
            command, cwd=cwd, env=scrubbed_env(env, home), sandbox=sandbox
        )
    except (OSError, SandboxUnavailable) as exc:
        shutil.rmtree(home, ignore_errors=True)
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        raise codes.UnexpectedEOFError(
            f"plugin could not be started: {reason}",
            frame=1,
            expected="a running plugin",
            got=" ".join(command),
        ) from None
    return PluginProcess(proc, spawn_plan, home)


HOME_PREFIX = "gpp-home-"


@functools.cache
def _sweep_stale_homes() -> None:
    """Remove plugin HOMEs left by gateways that died without cleaning up (SIGKILL)."""
    for home in Path(tempfile.gettempdir()).glob(f"{HOME_PREFIX}*-*"):
        creator = home.name.removeprefix(HOME_PREFIX).split("-")[0]
        if creator.isdigit() and not Path(f"/proc/{creator}").exists():
            shutil.rmtree(home, ignore_errors=True)


def kill_group(proc: asyncio.subprocess.Process) -> None:
    """SIGKILL the plugin's process group; a group already gone is not an error.

    The plugin leads its group (it starts a new session and, as a session leader, cannot leave
    it), so the group signal reaches it too. Not `proc.kill()` as well: Popen polls with
    waitpid before signalling, and a plugin that died in between is reaped there, under asyncio's
    child watcher, which then logs "Unknown child process pid" and reports status 255.
    """
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(proc.pid, signal.SIGKILL)


async def wait_exit(proc: asyncio.subprocess.Process, timeout: float) -> int | None:
    """The exit status if the process ends within `timeout` seconds, else None."""
    try:
        return await asyncio.wait_for(proc.wait(), timeout)
    except TimeoutError:
        return None


@runtime_checkable
class CountsSkippedLines(Protocol):
    """A line sink that wants to know how many lines a flood skipped unread (to count them)."""

    def __call__(self, line: str) -> None: ...

    def lines_skipped(self, count: int) -> None: ...


class StderrRing:
    """The last lines a plugin wrote to stderr, bounded in count and bytes.

    Drained continuously by `drain`, so a plugin that writes megabytes never blocks on a full
    pipe, and a crash still says why in the diagnostic.
    """

    def __init__(self, max_lines: int = 200, max_line_bytes: int = 4096) -> None:
        self.lines: deque[str] = deque(maxlen=max_lines)
        self.max_line_bytes = max_line_bytes
        self.total_bytes = 0

    async def drain(
        self, stream: asyncio.StreamReader, on_line: Callable[[str], None] | None = None
    ) -> None:
        partial = b""
        while chunk := await stream.read(65536):
            self.total_bytes += len(chunk)
            *complete, partial = (partial + chunk).split(b"\n")
            kept = complete[-self.lines.maxlen :] if self.lines.maxlen else complete
            if len(kept) < len(complete) and isinstance(on_line, CountsSkippedLines):
                on_line.lines_skipped(len(complete) - len(kept))
            for raw in kept:
                self._add(raw, on_line)
            if len(partial) > self.max_line_bytes:
                self._add(partial, on_line)
                partial = b""
        if partial:
            self._add(partial, on_line)

    def _add(self, raw: bytes, on_line: Callable[[str], None] | None) -> None:
        line = raw[: self.max_line_bytes].decode("utf-8", "replace").rstrip("\r")
        self.lines.append(line)
        if on_line is not None:
            on_line(line)

    def tail(self, max_lines: int = 20, max_bytes: int = 4096) -> str:
        """The last lines, at most `max_lines` and `max_bytes`, oldest first."""
        picked: list[str] = []
        size = 0
        for line in reversed(self.lines):
            size += len(line.encode()) + 1
            if len(picked) >= max_lines or size > max_bytes:
                break
            picked.append(line)
        return "\n".join(reversed(picked))
