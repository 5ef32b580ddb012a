"""Attack 7 on this session's host changes: a file the command names in a writable repository.

Round 6 stopped binding a listed view path of the repository again, read-only, over the
writable repository (a second session could swap it for a link between the plan's symlink
check and bwrap's bind). The folder of a file the command names there was still bound so.

Each test runs the attack as root and passes only when it fails.
"""

from __future__ import annotations

import asyncio
import os
import shutil
import sys
import tempfile
from pathlib import Path
from typing import Any

import pytest
from test_containment import PROBE, look

from gpp.host import process, sandbox


@pytest.mark.parametrize("listed", [False, True])
def test_a_named_file_in_a_writable_repository_swapped_after_the_plan_binds_nothing_of_the_host(
    monkeypatch: pytest.MonkeyPatch, listed: bool
) -> None:
    """The registry runs the plugin on two files of its writable repository (`["{python}",
    "probe.py", "conf/rules.cfg"]`, `readonly_root = false`): the folder `conf` (or, with a
    listed view, the file itself) was bound again, read-only, over the repository, and a second
    session of the plugin, writing that same repository, swapped `conf` for a relative symlink
    up to `/proc` between the plan's symlink check and bwrap's bind: bwrap bound the host's
    `/proc` (where the link leads, from the old root and the new alike) inside the sandbox.
    (The swap is made in that window here, as the racing session would make it.)"""
    base = Path(tempfile.mkdtemp(prefix="gpp-redteam-"))
    try:
        base.chmod(0o755)  # reached without staging, as a user's checkout is
        repository = base / "repo"
        (repository / "conf").mkdir(parents=True)
        (repository / "conf" / "rules.cfg").write_text("x = 1\n")
        (repository / "tools").mkdir()
        shutil.copy(PROBE, repository / "probe.py")
        real_plan = sandbox.plan  # what `process` calls as `plan`

        def plan_then_swap(*args: Any, **kwargs: Any) -> Any:
            made = real_plan(*args, **kwargs)
            shutil.rmtree(repository / "conf")
            (repository / "conf").symlink_to(os.path.relpath("/proc", repository))
            return made

        monkeypatch.setattr(process, "plan", plan_then_swap)
        gateway = f"/proc/{os.getpid()}/cmdline"
        policy: dict[str, Any] = {"readonly_root": False}
        if listed:
            policy["view"] = (str(repository / "tools"),)
        command = [
            sys.executable,
            str(repository / "probe.py"),
            str(repository / "conf" / "rules.cfg"),
        ]
        seen = look(
            command, [gateway, f"{repository}/conf/{os.getpid()}/cmdline"], repository, **policy
        )
    finally:
        shutil.rmtree(base)
    assert not any(attrs.get("exists") for name, attrs in seen.items() if name != "self"), seen


def test_a_gateway_run_real_time_or_at_a_raised_priority_hands_neither_to_its_plugins(
    tmp_path: Path,
) -> None:
    """Round 6 set RLIMIT_RTPRIO and RLIMIT_NICE to 0 so that no plugin runs real-time or at a
    raised priority. They bound what a process may ask for, not what it inherits: a gateway
    run real-time (a unit's `CPUSchedulingPolicy=rr`, `chrt`) or at `Nice=-5` handed both on
    through fork and exec, and a plugin spinning at SCHED_RR on every CPU left the host 5 %."""
    try:
        policy, param = os.sched_getscheduler(0), os.sched_getparam(0)
        nice = os.getpriority(os.PRIO_PROCESS, 0)
        os.sched_setscheduler(0, os.SCHED_RR, os.sched_param(1))
        os.setpriority(os.PRIO_PROCESS, 0, -5)
    except PermissionError:
        pytest.skip("the gateway cannot run real-time here (not root)")
    repository = tmp_path / "repo"
    repository.mkdir()
    os.chmod(tmp_path, 0o755)
    # fields 18 and 19 of /proc/self/stat: priority (-2: SCHED_RR at 1) and nice; 41: policy
    show = "exec cut -d' ' -f18,19,41 /proc/self/stat"

    async def run() -> str:
        plugin = await process.start_plugin(
            ["/bin/sh", "-c", show],
            cwd=str(repository),
            env={"PATH": "/usr/bin:/bin"},
            sandbox=sandbox.SandboxPolicy(readonly_root=False),
        )
        assert plugin.proc.stdout is not None
        out = await plugin.proc.stdout.read()
        await plugin.reap()
        return out.decode()

    try:
        seen = asyncio.run(run())
    finally:
        os.sched_setscheduler(0, policy, param)
        os.setpriority(os.PRIO_PROCESS, 0, nice)
    _, plugin_nice, plugin_policy = map(int, seen.split())
    assert plugin_policy == os.SCHED_OTHER, seen
    assert plugin_nice >= 0, seen
