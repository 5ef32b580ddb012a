"""The per-plugin sandbox, through the gateway: what a hostile plugin can and cannot do.

Isolation is proven by reading (interfaces, errno values, process tables), never by sending
traffic anywhere.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import shutil
import signal
import socket
import subprocess
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from conftest import DEMO_REPO, FIXTURE_PLUGINS, REPO, fixture_command, process_gone
from gateway_harness import (
    Gateway,
    gateway_process,
    reference_plugin,
    running_gateway,
    uds_client,
    wait_exited,
    write_config,
)

from gpp.core import codes
from gpp.host import PluginSession, SandboxPolicy, Timeouts, sandbox

PROBE = ["{python}", str(FIXTURE_PLUGINS / "sandbox_probe.py")]
TMP_PLUGIN = """
import os
from gpp.plugin.sdk import serve

def discover(paths):
    files = sorted(f for f in os.listdir(paths[0]) if f.endswith(".gfx"))
    resources = [{"kind": "file", "name": f, "location": {"path": f"{paths[0]}/{f}", "line": 1},
                  "attrs": {}} for f in files]
    return {"resources": resources, "unresolved": [], "findings": [], "classificationSignals": []}

raise SystemExit(serve("from-tmp", "1.0.0", discover))
"""


def probe_plugin(plugin_id: str, root: Path = REPO, **extra: Any) -> dict[str, Any]:
    return {
        "id": plugin_id,
        "version": "1.0.0",
        "root": str(root),
        "command": PROBE,
        "env": {"PROBE_ID": plugin_id},
        **extra,
    }


@pytest.fixture(scope="module")
def gateway(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Gateway]:
    os.environ["GPP_TEST_SECRET"] = "must not reach plugins"  # visible to the gateway only
    directory = tmp_path_factory.mktemp("sandbox")
    repo = directory / "repo"
    shutil.copytree(DEMO_REPO, repo, symlinks=True)
    (repo / "tmp_plugin.py").write_text(TMP_PLUGIN)
    writable = directory / "writable-repo"
    shutil.copytree(DEMO_REPO, writable, symlinks=True)
    writable.chmod(0o777)  # written by the plugin's uid (its own when the tests run as root)
    plugins = [
        probe_plugin("default", root=repo),
        probe_plugin("readonly", root=repo, sandbox={"readonly_root": True}),
        probe_plugin("writable", root=writable, sandbox={"readonly_root": False}),
        probe_plugin("inherit", root=repo, sandbox={"network": "inherit"}),
        probe_plugin("small-memory", sandbox={"memory_mb": 256}),
        probe_plugin("one-cpu-second", request_ms=30_000, sandbox={"cpu_seconds": 1}),
        probe_plugin("few-processes", sandbox={"max_processes": 24}),
        probe_plugin("terminal", sandbox={"terminal": True}),
        probe_plugin("inotify-taker", root=repo),
        probe_plugin("inotify-neighbour", root=repo),
        reference_plugin(),
        {"id": "reference-detector-node", "version": "1.0.0", "root": str(DEMO_REPO),
         "command": ["node", str(REPO / "plugins/reference_detector.mjs")]},
        {"id": "from-tmp", "version": "1.0.0", "root": str(repo),
         "command": ["{python}", str(repo / "tmp_plugin.py")]},
    ]  # fmt: skip
    try:
        with running_gateway(write_config(directory, plugins)) as gw:
            yield gw
    finally:
        del os.environ["GPP_TEST_SECRET"]


def probe(gw: Gateway, plugin: str, name: str) -> httpx.Response:
    with gw.client() as http:
        return http.post(f"/plugins/{plugin}/discover", json={"paths": [name]})


def attrs(response: httpx.Response) -> list[dict[str, Any]]:
    assert response.status_code == 200, response.text
    return [r["attrs"] for r in response.json()["resources"]]


def test_default_sandbox_sees_only_loopback(gateway: Gateway) -> None:
    assert attrs(probe(gateway, "default", "netinfo")) == [{"interface": "lo"}]
    info = gateway.plugin("default")
    assert info["sandbox"]["network"] == "empty network namespace"
    assert info["sandbox"]["containment"].startswith("pid-namespace")
    assert info["sandbox"]["privileges"].startswith("user namespace with no capabilities")
    assert "RLIMIT_AS" not in info["sandbox"]["rlimits"]  # memory is the cgroup's
    assert "RLIMIT_CPU" not in info["sandbox"]["rlimits"]  # the cgroup's budget instead
    cgroup = info["sandbox"]["cgroup"]
    assert cgroup.startswith(("cgroup v1, one per session", "cgroup v2, one per session"))
    assert "=1024 MiB" in cgroup and "cpu_seconds=60" in cgroup, cgroup


def test_the_environment_is_scrubbed(gateway: Gateway) -> None:
    """The gateway's own environment (tokens, cloud credentials…) never reaches a plugin."""
    names = {a["variable"] for a in attrs(probe(gateway, "default", "env"))}
    assert names <= {"PATH", "LANG", "HOME", "PROBE_ID", "GPP_REQUEST_MS"}  # the host's own
    assert {"PATH", "HOME", "PROBE_ID"} <= names


def test_network_inherit_is_said_explicitly_and_reported(gateway: Gateway) -> None:
    """Inherited means the gateway's own namespace: exactly its interfaces, not just a `lo`."""
    interfaces = [a["interface"] for a in attrs(probe(gateway, "inherit", "netinfo"))]
    assert sorted(interfaces) == sorted(name for _, name in socket.if_nameindex())
    assert gateway.plugin("inherit")["sandbox"]["network"].startswith("inherited")


def test_repository_write(gateway: Gateway) -> None:
    assert attrs(probe(gateway, "readonly", "write")) == [{"outcome": "EROFS"}]
    assert gateway.plugin("readonly")["sandbox"]["filesystem"].endswith("repository read-only")
    # read-only by default (issue 23: a plugin planted a model file a pack then reported)
    assert attrs(probe(gateway, "default", "write")) == [{"outcome": "EROFS"}]
    assert gateway.plugin("default")["sandbox"]["filesystem"].endswith("repository read-only")
    # writable only when the entry says readonly_root = false
    assert attrs(probe(gateway, "writable", "write")) == [{"outcome": "written"}]
    assert gateway.plugin("writable")["sandbox"]["filesystem"].endswith("repository read-write")


def test_an_untouched_address_space_reservation_past_memory_mb_is_no_failure(
    gateway: Gateway,
) -> None:
    """Issue 32, item 7: runtimes (V8, glibc arenas, Go, the JVM) reserve address space they
    never use; under `RLIMIT_AS = memory_mb` a 2 GiB reservation failed with 256 MB allowed.
    With a session cgroup, memory is what the plugin touches."""
    (result,) = attrs(probe(gateway, "small-memory", "alloc"))
    assert result == {"bytes": 2 * 1024 * 1024 * 1024}
    assert "RLIMIT_AS" not in gateway.plugin("small-memory")["sandbox"]["rlimits"]


def test_memory_touched_past_memory_mb_ends_in_the_cgroups_oom_kill(gateway: Gateway) -> None:
    response = probe(gateway, "small-memory", "fill")
    assert response.status_code == 502
    problem = response.json()
    assert problem["code"] == "E_EOF" and "OOM-killed" in problem["detail"], problem
    assert attrs(probe(gateway, "small-memory", "netinfo")) == [{"interface": "lo"}]


def test_cpu_limit_kills_the_plugin_and_the_gateway_keeps_serving(gateway: Gateway) -> None:
    """`cpu_seconds` is the plugin's total, read from its cgroup's CPU counter: the gateway
    kills the session at the budget and says so."""
    response = probe(gateway, "one-cpu-second", "spin")
    assert response.status_code == 502
    problem = response.json()
    assert problem["code"] == "E_EOF" and "CPU budget spent" in problem["detail"], problem
    assert "cpu_seconds = 1" in problem["detail"] and "SIGKILL" in problem["detail"]
    assert attrs(probe(gateway, "one-cpu-second", "netinfo")) == [{"interface": "lo"}]
    assert gateway.plugin("one-cpu-second")["restarts"] == 1


def test_fork_bomb_is_refused(gateway: Gateway) -> None:
    (result,) = attrs(probe(gateway, "few-processes", "forkbomb"))
    assert result["failure"] == "EAGAIN"
    assert 0 < result["forked"] < 24
    assert "pids.max=24" in gateway.plugin("few-processes")["sandbox"]["processes"]


def test_bundled_plugins_start_under_the_default_sandbox(gateway: Gateway) -> None:
    for plugin in ("reference-detector", "reference-detector-node", "from-tmp"):
        with gateway.client() as http:
            response = http.post(f"/plugins/{plugin}/discover", json={"paths": ["api"]})
        assert response.status_code == 200, (plugin, response.text)
        assert len(response.json()["resources"]) == (1 if plugin == "from-tmp" else 3)
        assert gateway.plugin(plugin)["sandbox"]["network"] == "empty network namespace"


def namespace_members(sandbox_pid: int) -> dict[int, int]:
    """The processes in the PID namespace bwrap (`sandbox_pid`) made: their number there (what
    the plugin sees) → their pid on the host."""
    (init,) = Path(f"/proc/{sandbox_pid}/task/{sandbox_pid}/children").read_text().split()
    namespace = os.readlink(f"/proc/{init}/ns/pid")
    members = {}
    for entry in Path("/proc").iterdir():
        with contextlib.suppress(OSError, ValueError):
            if entry.name.isdigit() and os.readlink(entry / "ns/pid") == namespace:
                (line,) = [
                    x for x in (entry / "status").read_text().splitlines() if x.startswith("NSpid:")
                ]
                members[int(line.split()[-1])] = int(entry.name)
    return members


def host_pids(sandbox_pid: int, inner: dict[str, int]) -> dict[str, int]:
    members = namespace_members(sandbox_pid)
    return {name: members[pid] for name, pid in inner.items()}


def test_a_plugin_that_closes_stdout_gets_eof_at_once() -> None:
    """Issue 10, hole 8: nothing but the plugin holds its stdout (the sandbox's own processes
    used to), so closing it ends the request with E_EOF, not E_TIMEOUT after request_ms."""

    async def scenario() -> tuple[codes.ProtocolError, list[int]]:
        session = PluginSession(
            fixture_command("closes_stdout"),
            "fixture",
            "1.0.0",
            cwd=str(REPO),
            sandbox=SandboxPolicy(),
            timeouts=Timeouts(request_ms=60_000),
        )
        try:
            await session.start()
            assert session.pid is not None
            members = list(namespace_members(session.pid).values())
            with pytest.raises(codes.ProtocolError) as failed:
                await session.discover(["."])
        finally:
            await session.dispose()
        return failed.value, [session.pid, *members]

    error, pids = asyncio.run(scenario())
    assert error.code == "E_EOF", error.diagnostic()
    assert "(plugin still running; killed)" in error.problem
    assert len(pids) >= 3 and all(wait_exited(pid) for pid in pids)  # bwrap, its init, the plugin


def test_a_setsid_grandchild_ends_with_its_session() -> None:
    async def scenario() -> tuple[dict[str, int], list[Path]]:
        async with PluginSession(
            [*_python(PROBE)], "sandbox-probe", "1.0.0", cwd=str(REPO), sandbox=SandboxPolicy()
        ) as session:
            result = await session.discover(["grandchild"])
            assert session.pid is not None
            pids = host_pids(session.pid, result["resources"][0]["attrs"])
            assert not process_gone(pids["grandchild"])  # it really escaped the process group
            process = session._process
            assert process is not None and process.plan is not None
            group = process.plan.cgroup
            assert group is not None
            leftovers = [Path(process.home), *group.dirs.values()]
            assert all(path.exists() for path in leftovers)
        return pids, leftovers

    pids, leftovers = asyncio.run(scenario())
    assert wait_exited(pids["grandchild"]) and wait_exited(pids["plugin"])
    assert not [path for path in leftovers if path.exists()], "HOME or cgroup left behind"


def test_a_setsid_grandchild_ends_when_the_gateway_is_sigkilled(tmp_path: Path) -> None:
    config = write_config(tmp_path, [probe_plugin("probe")])
    uds = tmp_path / "gw.sock"
    with gateway_process(config, uds) as gateway:
        with uds_client(uds) as http:
            response = http.post("/plugins/probe/discover", json={"paths": ["grandchild"]})
            sandbox_pid = http.get("/plugins/probe").json()["pid"]
        pids = host_pids(sandbox_pid, response.json()["resources"][0]["attrs"])
        assert not process_gone(pids["grandchild"])
        # idle, the session is frozen: a v1 freezer's tasks die of SIGKILL only once thawed
        assert wait_frozen(sandbox_pid), "the idle session was not frozen"
        gateway.send_signal(signal.SIGKILL)
        gateway.wait(30)
    assert wait_exited(pids["grandchild"]), "a double-forked grandchild outlived the gateway"
    assert wait_exited(pids["plugin"])


def wait_frozen(pid: int, timeout: float = 10.0) -> bool:
    """Whether the freezer cgroup of `pid` reports it frozen within `timeout` (v1 freezer or
    v2 `cgroup.freeze`, as the host has)."""
    lines = dict(line.split(":", 2)[1:] for line in Path(f"/proc/{pid}/cgroup").read_text().split())
    if "freezer" in lines:
        state, frozen = Path(f"/sys/fs/cgroup/freezer{lines['freezer']}/freezer.state"), "FROZEN"
    else:
        state, frozen = Path(f"/sys/fs/cgroup{lines['']}/cgroup.events"), "frozen 1"
    deadline = time.monotonic() + timeout
    while frozen not in state.read_text():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.02)
    return True


def test_no_namespaces_means_refusal_unless_inherit_is_said(
    monkeypatch: pytest.MonkeyPatch, searchable_checkout: Path
) -> None:
    refusal = "bwrap: No permissions to create a new namespace"
    monkeypatch.setattr(sandbox, "_bwrap_refusal", lambda: refusal)
    # the plugin's own uid reads the probe, its SDK and its repository: a copy every uid can
    # reach, as the checkout may lie behind a 0700 folder (CI's `$(mktemp -d)/c`)
    probe = str(searchable_checkout / Path(PROBE[1]).relative_to(REPO))
    root = str(searchable_checkout)

    async def start(policy: SandboxPolicy, python: str | None = None) -> PluginSession:
        command = [python or _python(PROBE)[0], probe]
        session = PluginSession(command, "sandbox-probe", "1.0.0", cwd=root, sandbox=policy)
        await session.start()
        return session

    with pytest.raises(codes.UnexpectedEOFError) as refused:
        asyncio.run(start(SandboxPolicy()))
    assert "do not allow namespaces" in refused.value.problem
    assert refusal in refused.value.problem  # what bwrap said, for the operator
    assert 'network = "inherit"' in refused.value.problem

    async def inherit() -> dict[str, str]:
        # a root gateway's plugin runs as its uid even here, which cannot reach a pyenv in /root
        python = shutil.which("python3", path="/usr/bin")
        session = await start(SandboxPolicy(network="inherit", readonly_root=False), python)
        try:
            await session.discover(["netinfo"])
            return session.sandbox_mechanisms
        finally:
            await session.dispose()

    mechanisms = asyncio.run(inherit())
    assert mechanisms["containment"].startswith("process group")


def test_no_cgroup_means_refusal_unless_optional_is_said(monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 23: limits that bind each process only are no limits for the plugin; where no
    cgroup can be made the plugin is refused, unless its config says `cgroup = "optional"`."""
    monkeypatch.setattr(sandbox, "cgroup_layout", lambda: "no cgroup v2 mount, and so on")

    async def run(policy: SandboxPolicy) -> dict[str, str]:
        async with PluginSession(
            [*_python(PROBE)], "sandbox-probe", "1.0.0", cwd=str(REPO), sandbox=policy
        ) as session:
            await session.discover(["netinfo"])
            return session.sandbox_mechanisms

    with pytest.raises(codes.UnexpectedEOFError) as refused:
        asyncio.run(run(SandboxPolicy()))
    assert "no cgroup can be made" in refused.value.problem
    assert "no cgroup v2 mount, and so on" in refused.value.problem
    assert 'cgroup = "optional"' in refused.value.problem

    mechanisms = asyncio.run(run(SandboxPolicy(cgroup="optional", cpu_seconds=5)))
    assert mechanisms["cgroup"].startswith("none (no cgroup v2 mount")
    assert "RLIMIT_CPU=5" in mechanisms["rlimits"]
    # per user: each session of a root gateway has a uid of its own, so it binds the plugin
    assert "RLIMIT_NPROC=64" in mechanisms["rlimits"]


def _python(command: list[str]) -> list[str]:
    import sys

    return [sys.executable if word == "{python}" else word for word in command]


def test_no_pty_from_the_host_wide_pool_unless_a_terminal_is_asked_for(gateway: Gateway) -> None:
    """Issue 32, item 6: `/dev/ptmx` dangles (ENOENT) in the default sandbox."""
    assert attrs(probe(gateway, "default", "pty")) == [{"outcome": "ENOENT"}]
    assert gateway.plugin("default")["sandbox"]["terminal"].startswith("no /dev/ptmx")
    assert attrs(probe(gateway, "terminal", "pty")) == [{"outcome": "opened"}]
    assert "terminal = true" in gateway.plugin("terminal")["sandbox"]["terminal"]


def live_uid(gw: Gateway, plugin: str) -> tuple[int, dict[int, int]]:
    """The uid every process of the plugin's live session holds (read from the host), and its
    namespace's processes (as `namespace_members` says)."""
    assert attrs(probe(gw, plugin, "netinfo")) == [{"interface": "lo"}]  # running now
    members = namespace_members(gw.plugin(plugin)["pid"])
    uids: set[int] = set()
    for host_pid in members.values():
        status = Path(f"/proc/{host_pid}/status").read_text().splitlines()
        (uid_line,) = [line for line in status if line.startswith("Uid:")]
        uids.update(int(n) for n in uid_line.split()[1:])
    (uid,) = uids
    return uid, members


@pytest.mark.skipif(os.geteuid() != 0, reason="a uid per session is a root gateway's")
def test_two_plugins_running_at_once_have_uids_of_their_own(gateway: Gateway) -> None:
    """Issue 32, item 3: every plugin ran as the host's shared `nobody`."""
    first, _ = live_uid(gateway, "default")
    second, _ = live_uid(gateway, "readonly")
    assert first != second
    assert not {first, second} & {0, 65534}
    assert f"uid {first}, gid {first}" in gateway.plugin("default")["sandbox"]["identity"]


@pytest.mark.skipif(os.geteuid() != 0, reason="a uid per session is a root gateway's")
def test_a_process_of_one_plugins_uid_cannot_signal_or_read_another_plugin(
    gateway: Gateway,
) -> None:
    """Inside, a plugin sees no other (its PID namespace: `…[foreign-processes]`); here the
    attacker is anything else running as that uid on the host, as `nobody` was: it can
    neither signal the other plugin's processes nor read their environment."""
    attacker, _ = live_uid(gateway, "default")
    _, members = live_uid(gateway, "readonly")
    setpriv = ["setpriv", f"--reuid={attacker}", f"--regid={attacker}", "--clear-groups"]
    for host_pid in members.values():
        signalled = subprocess.run([*setpriv, "kill", "-0", str(host_pid)], capture_output=True,
                                   text=True, timeout=30, check=False, cwd="/")  # fmt: skip
        assert signalled.returncode != 0 and "not permitted" in signalled.stderr, signalled
        environ = subprocess.run([*setpriv, "cat", f"/proc/{host_pid}/environ"],
                                 capture_output=True, text=True, timeout=30, check=False,
                                 cwd="/")  # fmt: skip
        assert environ.returncode != 0 and "Permission denied" in environ.stderr, environ


@pytest.mark.skipif(os.geteuid() != 0, reason="a uid per session is a root gateway's")
def test_inotify_instances_exhausted_by_one_plugin_leave_the_other_its_own(
    gateway: Gateway,
) -> None:
    """Per-uid kernel quotas are per plugin: one plugin holding every inotify instance its uid
    may have (EMFILE) leaves another able to create one (under a shared uid it got EMFILE)."""
    (taken,) = attrs(probe(gateway, "inotify-taker", "inotify-all"))
    assert taken["failure"] == "EMFILE" and taken["instances"] > 0, taken
    assert attrs(probe(gateway, "inotify-neighbour", "inotify-one")) == [{"outcome": "created"}]
    assert attrs(probe(gateway, "inotify-taker", "inotify-one")) == [{"outcome": "EMFILE"}]


def test_a_failed_namespace_probe_is_retried_a_success_kept(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Issue 32, item 6: a failed probe was cached for the gateway's whole life."""
    answers = iter(["bwrap is not installed", None, "never asked"])
    probes: list[str | None] = []

    def probe() -> str | None:
        probes.append(answer := next(answers))
        return answer

    monkeypatch.setattr(sandbox, "_probed", None)
    monkeypatch.setattr(sandbox, "_probe_bwrap", probe)
    assert sandbox.namespaces_refusal() == "bwrap is not installed"
    assert sandbox.namespaces_refusal() == "bwrap is not installed"  # within the interval
    assert len(probes) == 1
    monkeypatch.setattr(sandbox, "PROBE_RETRY_S", 0.0)  # the interval has passed
    assert sandbox.namespaces_refusal() is None
    assert sandbox.namespaces_available()  # a success is kept, however long after
    assert probes == ["bwrap is not installed", None]


def test_plans_in_threads_share_one_probe_in_flight(monkeypatch: pytest.MonkeyPatch) -> None:
    """Plans run in threads (`process.spawn`): the starts that come while a namespace probe is
    in flight (a failed one being retried, here) wait for its answer under `_PROBING`, and none
    probes beside it or reads a half-written cache."""
    wait_s = 120  # far above what this needs; reached only on failure
    arrived = threading.Semaphore(0)

    class Counted:
        """`_PROBING`, counting who asks for it."""

        def __init__(self) -> None:
            self.lock = threading.RLock()

        def __enter__(self) -> None:
            arrived.release()
            self.lock.acquire()

        def __exit__(self, *exc: object) -> None:
            self.lock.release()

    entered, gate = threading.Event(), threading.Event()
    probes: list[int] = []

    def probe() -> str | None:
        probes.append(threading.get_ident())
        entered.set()
        gate.wait(wait_s)
        return None

    monkeypatch.setattr(sandbox, "_PROBING", Counted())
    monkeypatch.setattr(sandbox, "_probed", ("bwrap is not installed", 0.0))  # failed long ago
    monkeypatch.setattr(sandbox, "PROBE_RETRY_S", 0.0)
    monkeypatch.setattr(sandbox, "_probe_bwrap", probe)
    answers: list[str | None] = []
    threads = [
        threading.Thread(target=lambda: answers.append(sandbox.namespaces_refusal()), daemon=True)
        for _ in range(3)
    ]
    threads[0].start()
    try:
        assert entered.wait(wait_s), "the first probe never started"
        for thread in threads[1:]:
            thread.start()
        for _ in threads:  # the first, and the two that come while it probes
            assert arrived.acquire(timeout=wait_s), "a probe ran outside _PROBING"
    finally:
        gate.set()
        for thread in threads:
            if thread.ident is not None:
                thread.join(wait_s)
    assert answers == [None, None, None] and len(probes) == 1, (answers, probes)
