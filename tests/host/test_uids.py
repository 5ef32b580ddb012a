"""The per-session uid leases (`gpp.host.uids`): a range checked against the host's accounts,
one uid per live session, across gateways too, given back when asked."""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
from pathlib import Path
from typing import Any

import pytest
from conftest import DEMO_REPO, REPO, reference_command

from gpp.host import PluginSession, SandboxPolicy, process, sandbox, uids
from gpp.host.sandbox import SpawnPlan

PASSWD = "root:x:0:0::/root:/bin/sh\nalice:x:1000:1000::/home/alice:/bin/sh\n"
GROUP = "root:x:0:\nstaff:x:50:\nbig:x:200000:\n"
SUBUID = "alice:100000:65536\n"


def refusal(first: int, last: int) -> str | None:
    return uids.overlap_refusal(
        first, last, {"/etc/passwd": PASSWD, "/etc/group": GROUP}, {"/etc/subuid": SUBUID}
    )


def test_the_default_range_is_free_of_every_account_of_this_host() -> None:
    assert uids.host_refusal(uids.DEFAULT_UID_RANGE) is None


@pytest.mark.parametrize(
    ("first", "last", "said"),
    [
        (900, 1100, "contains id 1000 of 'alice' in /etc/passwd"),
        (40, 60, "contains id 50 of 'staff' in /etc/group"),
        (199_999, 200_001, "contains id 200000 of 'big' in /etc/group"),
        (165_535, 170_000, "overlaps 'alice''s subordinate ids 100000..165535 in /etc/subuid"),
        (0, 5, "must be two uids"),
        (60_000, 70_000, "contains 65534 (nobody)"),
        (10, 9, "must be two uids"),
    ],
)
def test_a_range_that_touches_the_host_is_refused(first: int, last: int, said: str) -> None:
    why = refusal(first, last)
    assert why is not None and said in why, why


def test_a_range_clear_of_the_host_is_accepted() -> None:
    assert refusal(300_000, 300_100) is None
    assert refusal(1001, 1001) is None


@pytest.fixture
def folder(tmp_path: Path) -> str:
    where = tmp_path / "leases"
    where.mkdir(mode=0o700)
    return str(where)


def test_live_leases_never_share_a_uid(folder: str) -> None:
    held = [uids.lease((5000, 5007), folder) for _ in range(8)]
    assert sorted(lease.uid for lease in held) == list(range(5000, 5008))
    with pytest.raises(uids.UidsExhausted, match=r"\[5000, 5007\]"):
        uids.lease((5000, 5007), folder)
    for lease in held:
        lease.release()


def test_a_uid_held_elsewhere_is_not_given_and_a_released_one_is(folder: str) -> None:
    """A lock held through another open file (as another gateway's would be) keeps the uid;
    a released uid is given again."""
    first = uids.lease((7000, 7000), folder)
    with pytest.raises(uids.UidsExhausted):
        uids.lease((7000, 7000), folder)
    first.release()
    first.release()  # idempotent
    again = uids.lease((7000, 7000), folder)
    assert again.uid == 7000
    again.release()
    assert os.listdir(folder) == []  # nothing left behind


def test_a_lease_held_by_another_process_is_respected(folder: str) -> None:
    read_end, write_end = os.pipe()
    go_end, wait_end = os.pipe()
    pid = os.fork()
    if pid == 0:  # another gateway: takes the uid and holds it until told
        try:
            held = uids.lease((7100, 7100), folder)
            os.write(write_end, str(held.uid).encode())
            os.read(go_end, 1)
        finally:
            os._exit(0)
    try:
        assert os.read(read_end, 16) == b"7100"
        with pytest.raises(uids.UidsExhausted):
            uids.lease((7100, 7100), folder)
    finally:
        os.write(wait_end, b"x")
        os.waitpid(pid, 0)
    uids.lease((7100, 7100), folder).release()  # the holder is gone: so is its lock


def test_the_lease_folder_must_be_private(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    shared = tmp_path / "shared"
    shared.mkdir()
    (shared / uids.LEASE_FOLDER_NAME).mkdir(mode=0o777)
    os.chmod(shared / uids.LEASE_FOLDER_NAME, 0o777)
    monkeypatch.setattr(uids, "LEASE_BASES", (str(shared),))
    with pytest.raises(OSError, match="mode 0700"):
        uids.lease_folder()
    private = tmp_path / "private"
    private.mkdir()
    monkeypatch.setattr(uids, "LEASE_BASES", (str(shared), str(private)))
    assert uids.lease_folder() == str(private / uids.LEASE_FOLDER_NAME)


def test_the_files_of_dead_gateways_are_swept_live_leases_kept(folder: str) -> None:
    live = uids.lease((7200, 7200), folder)
    Path(folder, "7201").touch()  # a dead gateway's: no lock holds it
    uids._sweep.cache_clear()
    uids.lease((7300, 7300), folder).release()  # the first lease of a gateway sweeps
    assert sorted(os.listdir(folder)) == ["7200"]
    live.release()


@pytest.mark.skipif(os.geteuid() != 0, reason="a uid per session is a root gateway's")
def test_a_sessions_uid_is_held_while_it_runs_and_given_back_when_it_ends() -> None:
    async def scenario() -> int:
        async with PluginSession(
            reference_command(), "reference-detector", "1.0.0", cwd=str(DEMO_REPO),
            sandbox=SandboxPolicy(),
        ) as session:  # fmt: skip
            said = session.sandbox_mechanisms["identity"]
            uid = int(said.removeprefix("uid ").split(",")[0])
            with pytest.raises(uids.UidsExhausted):  # held: no other session may have it
                uids.lease((uid, uid))
        return uid

    uid = asyncio.run(scenario())
    uids.lease((uid, uid)).release()  # given back


WAIT_S = 120
"""The bound on every wait below: far above what a plan needs; reached only on failure."""


def free_uid() -> int:
    """A uid of the default range no live session holds (given back at once, for the test)."""
    held = uids.lease(uids.DEFAULT_UID_RANGE)
    held.release()
    return held.uid


@pytest.mark.skipif(os.geteuid() != 0, reason="a uid per session is a root gateway's")
def test_a_start_whose_plan_fails_gives_the_uid_back() -> None:
    """The uid is leased before the plan is made (in the planning thread): a plan that fails
    (here, an executable that does not exist) must not keep it."""
    uid = free_uid()
    policy = SandboxPolicy(uid_range=(uid, uid))
    with pytest.raises(FileNotFoundError):
        asyncio.run(
            process.spawn(["/nonexistent/plugin"], cwd=str(DEMO_REPO), env={}, sandbox=policy)
        )
    uids.lease((uid, uid)).release()  # given back


@pytest.mark.skipif(os.geteuid() != 0, reason="a uid per session is a root gateway's")
def test_a_start_cancelled_while_it_is_planned_gives_the_uid_back(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A start abandoned while its plan is made in a thread (its request cancelled): the plan
    finishes there, is discarded, and gives back its cgroup and its uid."""
    uid = free_uid()
    policy = SandboxPolicy(uid_range=(uid, uid))
    entered, gate = threading.Event(), threading.Event()
    made: list[SpawnPlan] = []

    def held_plan(*args: Any) -> SpawnPlan:
        entered.set()
        gate.wait(WAIT_S)
        made.append(sandbox.plan(*args))
        return made[-1]

    async def scenario() -> None:
        discarded = threading.Event()  # set in the planning thread, which runs the discard
        discard = process._discard_plan

        def discarding(planning: concurrent.futures.Future[SpawnPlan]) -> None:
            discard(planning)
            discarded.set()

        monkeypatch.setattr(process, "plan", held_plan)
        monkeypatch.setattr(process, "_discard_plan", discarding)
        starting = asyncio.ensure_future(
            process.spawn(reference_command(), cwd=str(DEMO_REPO), env={}, sandbox=policy)
        )
        try:
            assert await asyncio.to_thread(entered.wait, WAIT_S)
            with pytest.raises(uids.UidsExhausted):  # leased before the plan
                uids.lease((uid, uid))
            starting.cancel()
            with pytest.raises(asyncio.CancelledError):
                await starting
        finally:
            gate.set()
        assert await asyncio.to_thread(discarded.wait, WAIT_S)

    asyncio.run(scenario())
    assert len(made) == 1 and made[0].uid_lease is None  # released by the discard
    uids.lease((uid, uid)).release()  # given back


LINGERER = """import os, sys
sys.path.insert(0, {checkout!r})
from gpp.plugin.sdk import serve

def discover(paths):
    child = os.fork()
    if child == 0:  # a setsid'd grandchild: out of the session's process group
        os.setsid()
        if os.fork() == 0:
            null = os.open("/dev/null", os.O_RDWR)
            for fd in (0, 1, 2):
                os.dup2(null, fd)
            os.execv("/bin/sleep", ["sleep", "{linger_s}"])
        os._exit(0)
    os.waitpid(child, 0)
    return {{"resources": [], "unresolved": [], "findings": [], "classificationSignals": []}}

raise SystemExit(serve("lingerer", "1.0.0", discover))
"""


def processes_of(uid: int) -> list[int]:
    """The pids whose real uid is `uid`, from the host's /proc (zombies aside: killed, they
    wait for the host's init to reap them)."""
    found = []
    for name in filter(str.isdigit, os.listdir("/proc")):
        try:
            lines = Path(f"/proc/{name}/status").read_text().splitlines()
        except OSError:
            continue
        field = {line.split(":")[0]: line.split()[1:] for line in lines if ":" in line}
        if field["State"][0] != "Z" and int(field["Uid"][0]) == uid:
            found.append(int(name))
    return found


@pytest.mark.skipif(os.geteuid() != 0, reason="a uid per session is a root gateway's")
def test_without_namespaces_or_cgroup_a_uid_is_not_given_back_while_a_process_of_it_lives(
    monkeypatch: pytest.MonkeyPatch, searchable_checkout: Path
) -> None:
    """Red team (issue 32): where neither namespaces nor a cgroup can be built and the entry
    allows it, nothing killed a setsid'd grandchild when its session ended, yet the uid went
    back to the pool at once: the next plugin given it could signal, ptrace and read the
    survivor, and the survivor the newcomer (per-uid permissions and quotas shared again)."""
    monkeypatch.setattr(sandbox, "namespaces_available", lambda: False)
    monkeypatch.setattr(sandbox, "cgroup_layout", lambda: "no cgroup here (test)")
    checkout = searchable_checkout  # its SDK and repository, which the plugin's uid can reach
    folder = Path(tempfile.mkdtemp(prefix="gpp-lingerer-"))
    folder.chmod(0o755)
    plugin = folder / "lingerer.py"
    plugin.write_text(LINGERER.format(checkout=str(checkout), linger_s=WAIT_S))
    python = shutil.which("python3", path="/usr/bin") or sys.executable
    policy = SandboxPolicy(network="inherit", readonly_root=False, cgroup="optional")

    async def scenario() -> int:
        async with PluginSession(
            [python, str(plugin)],
            "lingerer",
            "1.0.0",
            cwd=str(checkout / DEMO_REPO.relative_to(REPO)),
            sandbox=policy,
        ) as session:
            said = session.sandbox_mechanisms["identity"]
            await session.discover(["."])
        return int(said.removeprefix("uid ").split(",")[0])

    uid = -1
    try:
        uid = asyncio.run(scenario())
        survivors = processes_of(uid)
        try:
            uids.lease((uid, uid)).release()
        except uids.UidsExhausted:
            given_back = False
        else:
            given_back = True
        assert not (given_back and survivors), f"uid {uid} given back; still running: {survivors}"
    finally:
        for pid in processes_of(uid) if uid > 0 else []:
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)
        shutil.rmtree(folder)


@pytest.mark.skipif(os.geteuid() != 0, reason="running a process as another uid needs root")
def test_a_uid_a_process_runs_as_is_never_leased(folder: str) -> None:
    """Red team (issue 32): a lease is a lock, and nothing stopped a uid from being given to a
    session while a process ran as it (a set-uid file a plugin left, run by a local user; a
    degraded session's survivor): that process could then signal, trace and read the plugin."""
    uid = free_uid()
    squatter = subprocess.Popen(["sleep", str(WAIT_S)], user=uid, group=uid)
    try:
        with pytest.raises(uids.UidsExhausted, match="runs a process"):
            uids.lease((uid, uid), folder)
    finally:
        squatter.kill()
        squatter.wait(WAIT_S)
    uids.lease((uid, uid), folder).release()  # once it is gone: leased
