"""Killing a plugin leaves its exit status to asyncio's child watcher.

A second reaper (Popen.poll inside `proc.kill()`) raced the watcher's waitpid: the watcher then
logged "Unknown child process pid" on the CLI's stderr and reported status 255.
"""

from __future__ import annotations

import asyncio
import signal
import subprocess
import sys

import pytest

from gpp.host.process import kill_group, start_plugin


def test_kill_group_kills_the_plugin_without_reaping_it(monkeypatch: pytest.MonkeyPatch) -> None:
    async def scenario() -> int:
        proc = await asyncio.create_subprocess_exec(
            sys.executable,
            "-c",
            "import sys; sys.stdin.read()",
            stdin=asyncio.subprocess.PIPE,
            start_new_session=True,
        )
        polls: list[int] = []
        with monkeypatch.context() as patch:
            patch.setattr(subprocess.Popen, "poll", lambda self: polls.append(self.pid))
            kill_group(proc)
        assert polls == []
        return await asyncio.wait_for(proc.wait(), 10)

    assert asyncio.run(scenario()) == -signal.SIGKILL


def test_reap_returns_though_the_plugin_filled_a_stdout_nobody_reads() -> None:
    """Issue 23: after a refused oversized line the host stops reading stdout; the transport
    pauses with its buffer full, the EOF of the killed plugin goes unseen, and on Python 3.11
    `proc.wait()` (which waits for every pipe to close) never returned: `gpp discover` hung."""

    async def scenario() -> int | None:
        started = await start_plugin(
            [sys.executable, "-c", "import sys\nwhile True: sys.stdout.buffer.write(b'[' * 65536)"],
            cwd=None,
            env=None,
            sandbox=None,
        )
        reader = started.proc.stdout
        assert reader is not None
        async with asyncio.timeout(30):  # the pipe fills and the transport stops reading
            while not getattr(reader, "_paused", True):
                await asyncio.sleep(0.01)
        async with asyncio.timeout(30):  # the reap itself is bounded well below this
            return await started.reap()

    assert asyncio.run(scenario()) == -signal.SIGKILL
