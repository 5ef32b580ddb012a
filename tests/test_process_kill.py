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

from gpp.process import kill_group


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
