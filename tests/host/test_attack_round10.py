"""Issue 32, a tenth round of attack on the containment, as root: the plugin's stdio pipes that
round 9 introduced (what a plugin can make of its ends, what the gateway keeps of its own after
spawns that fail, race or end), and what bwrap is handed beside them.

Each test runs the attack as root inside a real sandbox (the gateway's own uvloop event loop
where the loop decides what the plugin gets) and passes only when the attack fails.
"""

from __future__ import annotations

import asyncio
import os
import platform
import sys
from pathlib import Path
from typing import Any

import uvloop
from conftest import DEMO_REPO
from test_attack_round8 import attempts
from test_seccomp import run

from gpp.core import codes
from gpp.host import PluginSession, SandboxPolicy, seccomp
from gpp.host.view import GPP_PACKAGE

PACKET_MODE = r"""
import fcntl


def packet_mode(fd):
    # O_DIRECT on a pipe's write end: every write a packet of its own, every read of the
    # gateway's end at most one packet, however far behind the gateway is
    def attempt():
        fcntl.fcntl(fd, fcntl.F_SETFL, fcntl.fcntl(fd, fcntl.F_GETFL) | os.O_DIRECT)
    return attempt


def reopened(fd):
    # the same pipe opened afresh through /proc, with O_DIRECT (the gateway's own uid's pipe:
    # a non-root gateway's plugin may open it)
    def attempt():
        os.close(os.open(f"/proc/self/fd/{fd}", os.O_WRONLY | os.O_DIRECT))
    return attempt


def direct_file():
    os.close(os.open("/tmp/direct", os.O_WRONLY | os.O_CREAT | os.O_DIRECT, 0o600))


def spliced(fd):
    # a pipe made in packet mode, its packets spliced into the stdio pipe: splice and tee keep
    # each packet's boundary in the pipe they fill
    def attempt():
        read_end, write_end = os.pipe2(os.O_DIRECT)
        os.write(write_end, b"x")
        os.splice(read_end, fd, 1)
    return attempt


def nonblocking(fd):
    def attempt():
        fcntl.fcntl(fd, fcntl.F_SETFL, fcntl.fcntl(fd, fcntl.F_GETFL) | os.O_NONBLOCK)
    return attempt


ATTEMPTS = {
    "stderr": packet_mode(2),
    "stdout": packet_mode(3),  # the SDK keeps its stdout on fd 3
    "reopened-stderr": reopened(2),
    "spliced-stderr": spliced(2),
    "direct-file": direct_file,
    "nonblocking-stderr": nonblocking(2),
}
"""


def test_a_plugin_cannot_put_its_stdio_pipes_in_packet_mode(tmp_path: Path) -> None:
    """Broken on main (medium). `O_DIRECT` on a pipe's write end is packet mode: each write is a
    packet and each read of the other end returns at most one. A plugin that set it on its
    stderr (or stdout) and wrote single bytes made the gateway's event loop do one read and one
    callback per byte, however far behind it was (ordinary writes merge in the pipe, so a
    reader behind gets up to 64 KiB a read): 200,000 bytes took 200,001 reads where 10,538 did
    without, and ten times the gateway's time, every client waiting meanwhile. The filter
    refuses `O_DIRECT` in `fcntl(F_SETFL)`, `open` and `openat` with EINVAL; other flags pass."""
    got = attempts(tmp_path, PACKET_MODE)
    assert got["stderr"] == got["stdout"] == got["direct-file"] == "EINVAL", got
    assert got["spliced-stderr"] == "EINVAL", got  # round 11: pipe2(O_DIRECT) itself
    assert got["reopened-stderr"] in ("EINVAL", "EACCES"), got  # root's pipe: EACCES first
    assert got["nonblocking-stderr"] == "ok", got


def test_the_filter_refuses_packet_mode_by_every_call_that_sets_it() -> None:
    """The program itself: `O_DIRECT` refused in `fcntl` with F_SETFL alone (other commands'
    third argument is a number or a pointer whose bits mean nothing), in `open` and `openat`
    whatever else they ask, while their set-uid mode rule still holds."""
    program = seccomp.program()
    arch = seccomp.AUDIT_ARCH[platform.machine()]
    fcntl_nr, open_nr, openat_nr = (
        seccomp._syscall_number(name) for name in ("fcntl", "open", "openat")
    )
    direct, nonblock, setfl, setlk, dupfd = os.O_DIRECT, os.O_NONBLOCK, 4, 6, 0
    assert run(program, arch, fcntl_nr, 1, nonblock, arg1=setfl) == seccomp.RET_ALLOW
    assert run(program, arch, fcntl_nr, 1, nonblock | direct, arg1=setfl) == seccomp.RET_EINVAL
    assert run(program, arch, fcntl_nr, 1, direct, arg1=setlk) == seccomp.RET_ALLOW
    assert run(program, arch, fcntl_nr, 1, direct | 10, arg1=dupfd) == seccomp.RET_ALLOW
    at_cwd, write_only, create = 2**64 - 100, os.O_WRONLY, os.O_CREAT
    assert run(program, arch, openat_nr, at_cwd, write_only | create, arg3=0o644) == (
        seccomp.RET_ALLOW
    )
    assert run(program, arch, openat_nr, at_cwd, write_only | direct, arg3=0) == (
        seccomp.RET_EINVAL
    )
    assert run(program, arch, openat_nr, at_cwd, create, arg3=0o4755) == seccomp.RET_EPERM
    if open_nr >= 0:  # not on arm64
        assert run(program, arch, open_nr, 0, 0o644, arg1=create) == seccomp.RET_ALLOW
        assert run(program, arch, open_nr, 0, 0, arg1=direct) == seccomp.RET_EINVAL
        assert run(program, arch, open_nr, 0, 0o4755, arg1=create) == seccomp.RET_EPERM
    pipe2_nr, ordinary = seccomp._syscall_number("pipe2"), os.O_CLOEXEC | os.O_NONBLOCK
    assert run(program, arch, pipe2_nr, 0, 0, arg1=ordinary) == seccomp.RET_ALLOW
    assert run(program, arch, pipe2_nr, 0, 0, arg1=ordinary | direct) == seccomp.RET_EINVAL


DESCRIPTOR_PROBE = """import os, sys
sys.path.insert(0, {checkout!r})
from gpp.plugin.sdk import serve


def held():
    # every descriptor of every process the plugin can see (itself, the sandbox's init)
    found = []
    for pid in sorted(name for name in os.listdir("/proc") if name.isdigit()):
        try:
            names = os.listdir(f"/proc/{{pid}}/fd")
        except OSError as exc:
            found.append(f"{{pid}}={{exc.strerror}}")
            continue
        for name in names:
            try:
                who = "self" if int(pid) == os.getpid() else pid
                found.append(f"{{who}}/{{name}}={{os.readlink(f'/proc/{{pid}}/fd/{{name}}')}}")
            except OSError:
                pass  # the listing's own descriptor, closed by now
    return f"uid={{os.getuid()}} " + " ".join(found)


def discover(paths):
    return {{"resources": [{{"kind": "probe", "name": "fds", "location": {{"path": ".",
        "line": 1}}, "attrs": {{"held": held()}}}}], "unresolved": [], "findings": [],
        "classificationSignals": []}}

raise SystemExit(serve("round10-probe", "1.0.0", discover))
"""


def own_descriptors() -> dict[str, str]:
    held = {}
    for name in os.listdir("/proc/self/fd"):
        try:
            held[name] = os.readlink(f"/proc/self/fd/{name}")
        except OSError:
            continue
    return held


def test_spawns_at_once_or_failing_leak_no_descriptor_into_each_other_or_the_gateway(
    tmp_path: Path,
) -> None:
    """Held. Six plugins started at once under uvloop, beside nine starts that fail (a command
    that does not exist, an interpreter that exits before `hello`, an environment refused
    while the sandbox is planned), three times over: the six at once have six uids, each
    plugin holds its own three pipes and nothing else (no other spawn's pipe, no seccomp or
    `--args` memfd bwrap was handed, no sync pipe), its init holds no descriptor it can read,
    and once every session is over the gateway holds no descriptor it did not hold before."""
    plugin = tmp_path / "plugin" / "probe.py"
    plugin.parent.mkdir()
    plugin.write_text(DESCRIPTOR_PROBE.format(checkout=str(GPP_PACKAGE.parent)))
    missing = tmp_path / "plugin" / "missing.py"

    async def one(
        command: list[str],
        env: dict[str, str] | None = None,
        together: asyncio.Barrier | None = None,
    ) -> str:
        try:
            async with PluginSession(
                command,
                "round10-probe",
                "1.0.0",
                cwd=str(DEMO_REPO),
                env=env,
                sandbox=SandboxPolicy(),
            ) as session:
                result: dict[str, Any] = await session.discover(["."])
                if together is not None:  # every session alive at once, each its uid leased
                    await asyncio.wait_for(together.wait(), 120)
        except codes.ProtocolError as exc:
            return f"failed: {exc}"
        held: str = result["resources"][0]["attrs"]["held"]
        return held

    async def round_of_starts() -> list[str]:
        together = asyncio.Barrier(6)
        return await asyncio.gather(
            *(one([sys.executable, str(plugin)], together=together) for _ in range(6)),
            *(one([str(tmp_path / "no-such-interpreter")]) for _ in range(3)),
            *(one([sys.executable, str(missing)]) for _ in range(3)),
            # refused while planned, after the seccomp program's memfd was made
            *(one([sys.executable, str(plugin)], {"NAME=VALUE": "x"}) for _ in range(3)),
        )

    async def scenario() -> tuple[list[list[str]], dict[str, str], dict[str, str]]:
        await round_of_starts()  # the first probes and caches are made, and kept, here
        before = own_descriptors()
        rounds = [await round_of_starts() for _ in range(3)]
        return rounds, before, own_descriptors()

    rounds, before, after = uvloop.run(scenario())
    pipes_seen: set[str] = set()
    for outcomes in rounds:
        assert all(o.startswith("failed: ") for o in outcomes[6:]), outcomes
        # the plugins running at once: a uid each (mapped as itself), never root or nobody
        uids_at_once = {held.split()[0] for held in outcomes[:6]}
        assert len(uids_at_once) == 6 and not uids_at_once & {"uid=0", "uid=65534"}, outcomes
        for held in outcomes[:6]:
            assert not held.startswith("failed"), held
            words = [w.split("=", 1) for w in held.split()[1:]]
            own = {what for who, what in words if who.startswith("self/")}
            assert all(what.startswith("pipe:[") for what in own), held
            assert len(own) == 3, held  # stdin, stdout (on 3) and stderr (on 1 and 2)
            assert not own & pipes_seen, held  # none another plugin held
            pipes_seen |= own
            # bwrap's init: /dev/null, the plugin's stderr, its own eventfd; no memfd
            others = {what for who, what in words if not who.startswith("self/")}
            assert others <= {"/dev/null", "anon_inode:[eventfd]", *own}, held
    leaked = {fd: what for fd, what in after.items() if before.get(fd) != what}
    assert not leaked, leaked
