"""Plugin processes: spawn with a scrubbed environment in a process group, kill the group, reap.

Kept apart from the session so the session reads as protocol, and so isolation (namespaces,
rlimits) has one place to live.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
from collections import deque
from collections.abc import Callable, Mapping, Sequence

from .sandbox import SandboxPolicy, SpawnPlan, plan

PASSED_ENV = ("PATH", "LANG")
"""The only variables a plugin inherits; everything else it gets is said in its config."""


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
    spawn_plan = plan(sandbox, command, cwd) if sandbox is not None else None
    try:
        proc = await asyncio.create_subprocess_exec(
            *(spawn_plan.argv if spawn_plan else command),
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
            cwd=cwd,
            env=dict(env),
            start_new_session=True,
            preexec_fn=spawn_plan.preexec if spawn_plan else None,
        )
    except BaseException:
        if spawn_plan is not None:
            spawn_plan.cleanup()
        raise
    return proc, spawn_plan


def kill_group(proc: asyncio.subprocess.Process) -> None:
    """SIGKILL the plugin's process group; a group already gone is not an error."""
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(proc.pid, signal.SIGKILL)
    with contextlib.suppress(ProcessLookupError):
        proc.kill()


async def wait_exit(proc: asyncio.subprocess.Process, timeout: float) -> int | None:
    """The exit status if the process ends within `timeout` seconds, else None."""
    try:
        return await asyncio.wait_for(proc.wait(), timeout)
    except TimeoutError:
        return None


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
            for raw in complete[-self.lines.maxlen :] if self.lines.maxlen else complete:
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
