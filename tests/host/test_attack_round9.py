"""Issue 32, a ninth round of attack on the containment, as root: what a plugin can hand the
gateway or take from it through the descriptors they share (its stdio, and whatever the gateway
inherited), the 32-bit ABI and the calls a filter by number cannot see into, and the process
attributes fork hands on that no spawn step resets.

Each test runs the attack as root inside a real sandbox, under the gateway's own event loop
(uvloop, through `running_gateway`) where the loop decides what the plugin gets, and passes
only when the attack fails.
"""

from __future__ import annotations

import contextlib
import json
import os
import platform
import shutil
import subprocess
import sysconfig
import tempfile
from pathlib import Path
from typing import Any

import httpx
from conftest import REPO
from gateway_harness import running_gateway, write_config
from test_attack_round8 import PROBE, attempts

from gpp.host import sandbox
from gpp.host.view import GPP_PACKAGE

PLUGIN_ID = "round8-probe"  # the id the shared probe says hello with


def served_attempts(tmp_path: Path, code: str) -> dict[str, str]:
    """What each of the `ATTEMPTS` that `code` defines got in a plugin the gateway runs (its
    default sandbox, its uvloop event loop): "ok", a result, or the errno's name."""
    plugin = tmp_path / "plugin" / "probe.py"
    plugin.parent.mkdir()
    plugin.write_text(PROBE.format(checkout=str(GPP_PACKAGE.parent), attempts=code))
    entry = {"id": PLUGIN_ID, "version": "1.0.0", "root": str(REPO),
             "command": ["{python}", str(plugin)]}  # fmt: skip
    config = write_config(tmp_path, [entry])
    with running_gateway(config) as gateway, gateway.client() as http:
        answer: dict[str, Any] = http.post(
            f"/plugins/{PLUGIN_ID}/discover", json={"paths": ["."]}
        ).json()
        assert "resources" in answer, answer
        # the gateway still answers after the attempts (a frozen loop would not)
        assert httpx.get(f"{gateway.url}/healthz", timeout=30).status_code == 200
    attrs: dict[str, str] = answer["resources"][0]["attrs"]
    return attrs


LINGERING_SOCKET = r"""
import array
HELD = []


def lingering_socket():
    # a TCP connection over the sandbox's own loopback whose peer never reads: closing the
    # sender with SO_LINGER waits in `close` until its unsent bytes go, or the linger ends
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.bind(("127.0.0.1", 0))
    listener.listen(1)
    sender = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sender.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 4096)
    sender.connect(listener.getsockname())
    peer, _ = listener.accept()
    peer.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    sender.setblocking(False)
    try:
        while True:
            sender.send(b"x" * 65536)
    except BlockingIOError:
        pass
    sender.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 5))
    HELD.extend([listener, peer])
    return sender


def hand_over(fd):
    # the lingering socket sent inside a socketpair end whose last reference is the gateway's:
    # dropped by the gateway's read, it is closed in the gateway's thread
    def attempt():
        copy = os.dup(fd)
        try:
            stdio = socket.socket(fileno=copy)  # ENOTSOCK for a pipe: nothing to hand over
        except OSError:
            os.close(copy)
            raise
        sender = lingering_socket()
        inner, carrier = socket.socketpair()
        rights = [(socket.SOL_SOCKET, socket.SCM_RIGHTS, array.array("i", [sender.fileno()]))]
        inner.sendmsg([b"x"], rights)
        sender.close()
        inner.close()
        try:
            rights = [(socket.SOL_SOCKET, socket.SCM_RIGHTS, array.array("i", [carrier.fileno()]))]
            stdio.sendmsg([b" "], rights)
        finally:
            carrier.close()
            stdio.close()
    return attempt


def peer_pidfd(fd):
    def attempt():
        copy = os.dup(fd)
        try:
            stdio = socket.socket(fileno=copy)
        except OSError:
            os.close(copy)
            raise
        try:
            stdio.getsockopt(socket.SOL_SOCKET, 77, 4)  # SO_PEERPIDFD: the gateway's pidfd
        finally:
            stdio.close()
    return attempt


ATTEMPTS = {
    "stdout": hand_over(1),
    "stdin": hand_over(0),
    "stderr": hand_over(2),
    "peer-pidfd": peer_pidfd(0),
}
"""


def test_a_plugin_cannot_hand_the_gateway_a_descriptor_that_freezes_its_loop(
    tmp_path: Path,
) -> None:
    """Broken on main (high). Under uvloop, the gateway's loop, a plugin's stdin, stdout and
    stderr were Unix socketpairs, over which the plugin could send the gateway descriptors
    (`SCM_RIGHTS`). The gateway's reads dropped them, and a file whose last reference is dropped
    in the gateway's thread is closed there: a TCP socket of the plugin's own loopback with
    unsent bytes and `SO_LINGER`, passed inside a socketpair end, held the event loop in
    `close` for as long as the linger the plugin chose (every client, `/healthz` and every
    other plugin's watchdog frozen: `/healthz` timed out after 10 s of a 30 s linger). Through
    stdin, unread, the same waited for the session's end. The peer's pidfd (`SO_PEERPIDFD`) was
    the gateway's too (its uses refused: signals across PID namespaces, `pidfd_getfd`, its
    namespaces). Now the stdio are pipes, which carry bytes only."""
    got = served_attempts(tmp_path, LINGERING_SOCKET)
    assert got == dict.fromkeys(("stdout", "stdin", "stderr", "peer-pidfd"), "ENOTSOCK"), got


INHERITED_HANDLES = r"""
def inherited():
    found = []
    for name in sorted(os.listdir("/proc/self/fd"), key=int):
        fd = int(name)
        if fd <= 2:
            continue
        try:
            os.fstat(fd)
        except OSError:
            continue  # the listing's own descriptor, closed by now
        try:
            with open(os.open("secret", os.O_RDONLY, dir_fd=fd)) as secret:
                found.append(f"{fd}: read {secret.read()!r}")
        except OSError as exc:
            found.append(f"{fd}: {os.readlink(f'/proc/self/fd/{fd}')}")
    return "; ".join(found)


ATTEMPTS = {"inherited": inherited}
"""


def test_a_handle_the_gateway_inherited_never_reaches_a_plugin(tmp_path: Path) -> None:
    """Broken on main (high). uvloop does not implement `close_fds`, and the spawn marked only
    sockets close-on-exec: every descriptor the gateway inherited without close-on-exec from
    whatever started it (a shell's `exec 3</srv`, a CI runner's, a supervisor's) reached every
    plugin inside its sandbox. A folder of the host there let the plugin open what its uid may
    read anywhere outside its view (a folder outside its view, with a file in it, read through
    the descriptor); a file root opened let it read and write that file. Now every descriptor
    past stdio but those the sandbox hands bwrap is marked close-on-exec in the child."""
    outside = tmp_path / "outside-the-view"
    outside.mkdir(mode=0o755)
    (outside / "secret").write_text("host file")
    (outside / "secret").chmod(0o644)
    handle = os.open(outside, os.O_RDONLY | os.O_DIRECTORY)
    os.set_inheritable(handle, True)
    try:
        got = served_attempts(tmp_path, INHERITED_HANDLES)
    finally:
        os.close(handle)
    assert "host file" not in got["inherited"] and str(outside) not in got["inherited"], got
    held = got["inherited"].split("; ") if got["inherited"] else []
    assert all(": pipe:[" in each for each in held), got  # the SDK keeps its stdout on fd 3


I386 = "i386" if platform.machine() == "x86_64" else "none"
KERNEL_SURFACE = r"""
import fcntl, mmap


def i386(number, *args):
    # `int 0x80` from a 64-bit process: the 32-bit ABI, with its own call numbers
    a = list(args) + [0] * (3 - len(args))
    code = (b"\x53\xb8" + struct.pack("<I", number) + b"\xbb" + struct.pack("<I", a[0])
            + b"\xb9" + struct.pack("<I", a[1]) + b"\xba" + struct.pack("<I", a[2])
            + b"\xcd\x80\x48\x63\xc0\x5b\xc3")  # push rbx … int 0x80; movsxd rax, eax; pop rbx
    page = mmap.mmap(-1, 4096, prot=mmap.PROT_READ | mmap.PROT_WRITE | mmap.PROT_EXEC)
    page.write(code)
    function = ctypes.CFUNCTYPE(ctypes.c_long)(ctypes.addressof(ctypes.c_char.from_buffer(page)))

    def attempt(page=page):
        result = function()
        if result < 0:
            raise OSError(-result, "")
        return f"returned {result}"
    return attempt


def clone3(flags):
    def attempt():
        args = ctypes.create_string_buffer(struct.pack("QQQQQQQQ", flags, 0, 0, 0, 17, 0, 0, 0))
        pid = libc.syscall(NR_CLONE3, args, 64)
        if pid == 0:
            os._exit(0)
        if pid < 0:
            raise OSError(ctypes.get_errno(), "")
        os.waitpid(pid, 0)
    return attempt


def file_capability():
    # a v2 `security.capability` granting CAP_SYS_ADMIN: a set-uid bit by another name
    open("/tmp/capable", "w").close()
    os.setxattr("/tmp/capable", "security.capability",
                struct.pack("<IIIII", 0x02000001, 1 << 21, 0, 0, 0))


def namespace_ioctl(path, request):
    def attempt():
        fd = os.open(path, os.O_RDONLY)
        try:
            return f"fd {fcntl.ioctl(fd, request)}"
        finally:
            os.close(fd)
    return attempt


def inject_input():
    fcntl.ioctl(0, 0x5412, b"x")  # TIOCSTI


NR_CLONE3 = 435
ATTEMPTS = {
    "clone3-newuser": clone3(0x10000000),
    "clone3-newnet": clone3(0x40000000),
    "clone3-newns": clone3(0x20000),
    "file-capability": file_capability,
    "parent-pid-namespace": namespace_ioctl("/proc/self/ns/pid", 0xB702),  # NS_GET_PARENT
    "owner-user-namespace": namespace_ioctl("/proc/self/ns/user", 0xB701),  # NS_GET_USERNS
    "parent-user-namespace": namespace_ioctl("/proc/self/ns/user", 0xB702),
    "inject-terminal-input": inject_input,
    "raise-own-users-priority": lambda: os.setpriority(os.PRIO_USER, os.getuid(), -5),
    "cgroupfs": lambda: str(os.listdir("/sys/fs/cgroup")),
}
if "{i386}" == "i386":
    ATTEMPTS.update({
        "i386-getpid": i386(20),
        "i386-socketcall-vsock": i386(102, 1, 0),  # socketcall(SYS_SOCKET, …)
        "i386-unshare": i386(310, 0x10000000),
        "i386-setns": i386(346, 0, 0),
    })
"""


def test_what_a_filter_by_number_cannot_see_into_is_refused_in_the_sandbox(
    tmp_path: Path,
) -> None:
    """Held. The 32-bit ABI from a 64-bit plugin (`int 0x80`: `socketcall`, whose family the
    filter cannot read, `unshare`, `setns`, even `getpid`): EPERM, every call of another
    ABI. `clone3`, whose flags sit in a struct the filter cannot read, asking for new user,
    network or mount namespaces: no capability (ENOSPC for the user namespace: bwrap set the
    nested limit to 0). A file capability (`security.capability`, not a mode bit the filter
    refuses): EPERM. The namespace ioctls walking up to the host's PID or user namespace: EPERM.
    `TIOCSTI` on its stdin: not a terminal. Raising the priority of every process of its uid:
    EACCES. No cgroupfs in view."""
    got = attempts(tmp_path, KERNEL_SURFACE.replace("{i386}", I386))
    expected = {
        "clone3-newuser": "ENOSPC",
        "clone3-newnet": "EPERM",
        "clone3-newns": "EPERM",
        "file-capability": "EPERM",
        "parent-pid-namespace": "EPERM",
        "owner-user-namespace": "EPERM",
        "parent-user-namespace": "EPERM",
        "inject-terminal-input": "ENOTTY",
        "raise-own-users-priority": "EACCES",
        "cgroupfs": "ENOENT",
    }
    if I386 == "i386":
        expected |= dict.fromkeys(
            ("i386-getpid", "i386-socketcall-vsock", "i386-unshare", "i386-setns"), "EPERM"
        )
    assert got == expected, got


OOM_SCORE = """
ATTEMPTS = {"oom-score-adj": lambda: open("/proc/self/oom_score_adj").read().strip(),
            "lower-it": lambda: lower()}


def lower():
    fd = os.open("/proc/self/oom_score_adj", os.O_WRONLY)
    try:
        os.write(fd, b"-1")
    finally:
        os.close(fd)
"""


def test_a_gateway_protected_from_the_oom_killer_hands_that_to_no_plugin(tmp_path: Path) -> None:
    """Broken on main (medium). `oom_score_adj` passes through fork and exec like the
    scheduling policy the spawn resets: a gateway run with a unit's `OOMScoreAdjust=-1000`
    made every plugin immune to the OOM killer, the host's (which then chose another service)
    and its own cgroup's (which skips such processes), and the plugin could not give it up.
    The gateway here lowers its own where it may (root with CAP_SYS_RESOURCE; where it may
    not, it stays at its own value and the plugin must not be below 0 either); the spawn now
    puts a negative one back to 0 and keeps a positive one."""
    own = Path("/proc/self/oom_score_adj")
    before = own.read_text()
    (tmp_path / "protected").mkdir()
    (tmp_path / "exposed").mkdir()
    with contextlib.suppress(PermissionError):  # lowering needs CAP_SYS_RESOURCE
        own.write_text("-1000")
    try:
        protected = attempts(tmp_path / "protected", OOM_SCORE)
        own.write_text("300")  # raising needs nothing
        exposed = attempts(tmp_path / "exposed", OOM_SCORE)
    finally:
        with contextlib.suppress(PermissionError):
            own.write_text(before)
    assert protected == {"oom-score-adj": "0", "lower-it": "EACCES"}, protected
    assert exposed == {"oom-score-adj": "300", "lower-it": "EACCES"}, exposed


def test_a_negative_oom_score_adjustment_is_reset_and_a_positive_one_kept(tmp_path: Path) -> None:
    """The spawn's step on its own (a file stands in for `/proc/self/oom_score_adj`, which a
    gateway without CAP_SYS_RESOURCE, as here, cannot lower to see it work)."""
    for before, after in (("-1000\n", 0), ("-1\n", 0), ("0\n", 0), ("300\n", 300)):
        adjustment = tmp_path / "oom_score_adj"
        adjustment.write_text(before)
        sandbox.reset_oom_protection(str(adjustment))
        assert int(adjustment.read_text()) == after, (before, adjustment.read_text())


DEGRADED_NON_ROOT_GATEWAY = """
# a non-root gateway given an ambient capability (a unit's AmbientCapabilities=, setpriv),
# running a plugin without namespaces (as where bwrap cannot run): what the plugin holds
import asyncio, json, sys
from gpp.host import sandbox
from gpp.host.session import PluginSession
from gpp.host.sandbox import SandboxPolicy

sandbox.namespaces_available = lambda: False
CODE = ("import json, sys; print(json.dumps({k: v.strip() for k, v in (l.split(':', 1) "
        "for l in open('/proc/self/status')) if k.startswith(('Cap', 'NoNewPrivs'))}), file=sys.stderr)")

async def main():
    policy = SandboxPolicy(cgroup="optional", network="inherit", readonly_root=False)
    async with PluginSession([sys.executable, "-c", CODE], "capable", "1.0.0",
                             cwd=sys.argv[1], sandbox=policy) as session:
        pass

try:
    asyncio.run(main())
except Exception as exc:  # it never says hello: its stderr tail is the report
    print(exc.stderr_tail)
"""


def test_a_non_root_gateways_ambient_capabilities_reach_no_plugin(tmp_path: Path) -> None:
    """Broken on main (medium). Without namespaces a non-root gateway's plugin runs as its
    uid, which the registry consents to ("whatever the gateway's user can"), but it also kept
    the gateway's ambient capabilities (a unit's `AmbientCapabilities=CAP_NET_BIND_SERVICE`,
    `setpriv --ambient-caps`), which pass through exec: the bounding set cannot be emptied
    without CAP_SETPCAP, and nothing cleared the ambient set. Now the spawn clears it."""
    reachable = Path(tempfile.mkdtemp(prefix="gpp-ambient-", dir="/tmp"))
    try:
        reachable.chmod(0o755)
        site = Path(sysconfig.get_paths()["purelib"])
        skip = shutil.ignore_patterns("__pycache__")
        for source, target in ((REPO / "gpp", "gpp"), (site / "orjson", "lib/orjson")):
            shutil.copytree(source, reachable / target, ignore=skip, symlinks=True)
        (reachable / "repo").mkdir(mode=0o755)
        env = {"PATH": os.defpath, "PYTHONPATH": f"{reachable}:{reachable / 'lib'}",
               "HOME": "/nonexistent"}  # fmt: skip
        child = subprocess.run(
            ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups",
             "--inh-caps=+net_bind_service", "--ambient-caps=+net_bind_service",
             "/usr/bin/python3", "-c", DEGRADED_NON_ROOT_GATEWAY, str(reachable / "repo")],
            capture_output=True, text=True, timeout=60, env=env, check=False, cwd=reachable,
        )  # fmt: skip
    finally:
        shutil.rmtree(reachable, ignore_errors=True)
    report = next((line for line in child.stdout.splitlines() if line.startswith("{")), "")
    assert report, (child.stdout, child.stderr)
    held = json.loads(report)
    # CapInh may stay: with no_new_privs set, no file's capabilities are granted through it
    assert all(int(held[key], 16) == 0 for key in ("CapPrm", "CapEff", "CapAmb")), held
    assert held["NoNewPrivs"] == "1", held
