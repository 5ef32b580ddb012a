"""A plugin never inherits a real-time or raised I/O priority from its gateway (issue 32).

`_pre_exec` resets a real-time scheduling policy and a negative nice the gateway runs with
(attack 7); the I/O priority went through fork and exec the same way: a gateway started under
`ionice -c1 -n0` ran every plugin in the real-time I/O class, whose disk access goes before
every other process's. The tests run the attack as root and pass only when it fails."""

from __future__ import annotations

import asyncio
import ctypes
import errno
import os
import subprocess
from pathlib import Path

import pytest

from gpp.host import io_priority, process, sandbox

IONICE_S = 10


def ionice(*args: str) -> str:
    return subprocess.run(
        ["ionice", *args], capture_output=True, text=True, timeout=IONICE_S, check=True
    ).stdout.strip()


def plugin_priorities(tmp_path: Path, **policy: object) -> tuple[str, dict[int, str]]:
    """The gateway's own I/O priority while it spawned a waiting plugin, and every process of
    that plugin's session (its cgroup: bwrap, the sandbox's init, the plugin) as `ionice -p`
    reads it from the host."""
    repository = tmp_path / "repo"
    repository.mkdir()
    os.chmod(tmp_path, 0o755)

    async def run() -> dict[int, str]:
        plugin = await process.start_plugin(
            ["/bin/sh", "-c", "echo started; read _"],
            cwd=str(repository),
            env={"PATH": "/usr/bin:/bin"},
            sandbox=sandbox.SandboxPolicy(**policy),  # type: ignore[arg-type]
        )
        try:
            assert plugin.proc.stdout is not None and plugin.proc.stdin is not None
            started = await asyncio.wait_for(plugin.proc.stdout.readline(), 60)
            assert started == b"started\n", started
            group = plugin.group
            assert group is not None, "a root gateway makes a session cgroup"
            pids = {
                int(pid) for procs in group.procs_files for pid in Path(procs).read_text().split()
            }
            seen = {pid: ionice("-p", str(pid)) for pid in sorted(pids)}
            plugin.proc.stdin.write(b"\n")
        finally:
            await plugin.reap()
        return seen

    ionice("-c1", "-n0", "-p", str(os.getpid()))  # as `ionice -c1 -n0 gpp serve` would
    try:
        own = ionice("-p", str(os.getpid()))
        seen = asyncio.run(run())
    finally:
        ionice("-c0", "-p", str(os.getpid()))
    return own, seen


@pytest.mark.skipif(os.geteuid() != 0, reason="only root may take the real-time I/O class")
def test_a_gateway_run_at_real_time_io_priority_hands_it_to_no_plugin(tmp_path: Path) -> None:
    own, seen = plugin_priorities(tmp_path)
    assert own == "realtime: prio 0", own
    assert len(seen) >= 2, seen  # bwrap and what runs inside
    assert not any(said.startswith("realtime") for said in seen.values()), seen
    assert all(said.startswith("none") for said in seen.values()), seen


def test_only_a_raised_io_priority_is_reset() -> None:
    """Real-time and best-effort above the default are reset; the idle class and lowered
    best-effort (the operator asked for less) are kept."""
    assert io_priority.raised(io_priority.CLASS_RT, 7)
    assert io_priority.raised(io_priority.CLASS_BE, 0)
    assert io_priority.raised(io_priority.CLASS_BE, 3)
    assert not io_priority.raised(io_priority.CLASS_BE, 4)
    assert not io_priority.raised(io_priority.CLASS_BE, 7)
    assert not io_priority.raised(io_priority.CLASS_IDLE, 0)
    assert not io_priority.raised(io_priority.CLASS_NONE, 0)


def test_a_kernel_without_io_priorities_spawns_and_any_other_failure_fails_the_spawn(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """ENOSYS: nothing to inherit, nothing to reset; any other error of `ioprio_get` fails
    closed (the spawn's `_pre_exec` exits LOCKDOWN_FAILED on it), as the sched reset does."""
    reset: list[int] = []
    monkeypatch.setattr(io_priority, "set_", lambda klass, *_: reset.append(klass))

    def failing(code: int) -> None:
        def get(*_: object) -> tuple[int, int]:
            raise OSError(code, "ioprio_get")

        monkeypatch.setattr(io_priority, "get", get)

    failing(errno.ENOSYS)
    io_priority.reset_raised(ctypes.CDLL(None))
    failing(errno.EPERM)
    with pytest.raises(OSError):
        io_priority.reset_raised(ctypes.CDLL(None))
    monkeypatch.setattr(io_priority, "get", lambda *_: (io_priority.CLASS_RT, 0))
    io_priority.reset_raised(ctypes.CDLL(None))
    assert reset == [io_priority.CLASS_NONE]
