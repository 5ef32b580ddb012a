"""Issue 32, a sixth round of attack on the containment: what round five changed (paths taken
as written, masks over the system folders, the environment through bwrap's `--args`, the
bounded planning thread, no core dumps), tried by a plugin's files, its registry entry as far
as the plugin's author decides it, a second plugin and a repository.

Each test runs the attack as root and passes only when it fails.
"""

from __future__ import annotations

import os
import resource
import shutil
import sys
import sysconfig
import tempfile
from pathlib import Path
from typing import Any

import pytest
from conftest import DEMO_REPO
from gateway_harness import write_config
from test_attack_round5 import CORE_RAISER
from test_containment import PROBE, look, start

from app.config import load_config
from gpp.core import codes
from gpp.host import SandboxPolicy, process, sandbox, uids
from gpp.host.identity import drops_root
from gpp.host.view import GPP_PACKAGE


@pytest.mark.parametrize("view", ["the entry file's folder", "a listed view"])
def test_a_folder_the_plugin_links_elsewhere_is_not_staged_for_a_file_the_command_names(
    tmp_path: Path, view: str
) -> None:
    """The registry runs the plugin on a file of its own (`["{python}", "x/bin/probe.py",
    "x/sub/.env"]`), and the plugin ships the folder `sub` as a symlink to another user's
    project behind their 0700 home. Root installed the plugin, so the link is root's, in a
    folder only root may write: the walk that finds each folder to stage (round 3) follows it,
    and a gateway deployed behind a 0700 folder (`/root/gate-forge`, as pytest's own temporary
    folders are) staged that project for the plugin's uid; round 5's check looked only at the
    file (its real path lies in its folder's real path: always, when the folder is the link).
    Every file of the project that others may read was in view."""
    home = tmp_path / "alice"
    project = home / "project"
    project.mkdir(parents=True)
    (project / ".env").write_text("API_KEY=alice's\n")
    (project / ".env").chmod(0o644)
    project.chmod(0o755)
    home.chmod(0o700)
    plugin = tmp_path / "x"
    (plugin / "bin").mkdir(parents=True)
    shutil.copy(PROBE, plugin / "bin" / "probe.py")
    (plugin / "sub").symlink_to(project)  # root's link, as root installed the plugin
    entry: dict[str, Any] = {
        "id": "x",
        "version": "1.0.0",
        "command": ["{python}", "x/bin/probe.py", "x/sub/.env"],
    }
    if view == "a listed view":
        entry["sandbox"] = {"view": ["x/bin"]}
    config = load_config(write_config(tmp_path, [entry]))
    policy = config.plugins["x"].sandbox
    with pytest.raises(codes.ProtocolError, match="symlink"):
        seen = look(
            config.plugins["x"].command,
            [str(plugin / "sub" / ".env")],
            view=policy.view,
            hide=policy.hide,
        )
        pytest.fail(f"the plugin saw another user's project through its link: {seen}")


@pytest.mark.parametrize("named", ["the standard library", "a file of the repository"])
def test_a_file_another_plugin_names_is_not_hidden_where_every_plugin_needs_it(
    tmp_path: Path, named: str
) -> None:
    """A second plugin's registry entry names a file it does not own as a word of its command:
    every other plugin's view masks the other plugins' entry files (round 3), so the standard
    library's `encodings/__init__.py` showed empty to every other Python plugin, which could
    no longer start; a word the repository resolves (`README.md`, `package.json`) showed
    empty to every other plugin scanning that repository, which then found nothing there."""
    target = (
        os.path.join(sysconfig.get_paths()["stdlib"], "encodings", "__init__.py")
        if named == "the standard library"
        else "README.md"
    )
    seen_at = target if os.path.isabs(target) else str(DEMO_REPO / target)
    for name in ("a", "b"):
        (tmp_path / name).mkdir()
        shutil.copy(PROBE, tmp_path / name / "probe.py")
    root = str(DEMO_REPO)
    entries: list[dict[str, Any]] = [
        {"id": "a", "version": "1.0.0", "command": ["{python}", "a/probe.py", target],
         "root": root},
        {"id": "b", "version": "1.0.0", "command": ["{python}", "b/probe.py"], "root": root},
    ]  # fmt: skip
    config = load_config(write_config(tmp_path, entries))
    victim = config.plugins["b"]
    seen = look(victim.command, [seen_at], hide=victim.sandbox.hide)
    assert seen[seen_at]["size"] == os.path.getsize(seen_at), seen


def test_an_interpreter_named_through_a_folder_the_plugin_links_elsewhere_is_refused(
    tmp_path: Path,
) -> None:
    """The registry names the interpreter by a path through a folder of the plugin's
    (`["x/env/bin/python", "y/probe.py"]`), and the plugin ships `x/env` as a symlink to
    another user's virtual environment behind their 0700 home (its `bin/python` a link to the
    host's Python, as every venv's is): the interpreter's folder and prefix are bound as
    named, and a root gateway behind a 0700 folder staged them through root's link (the
    plugin's, once root installed it): that user's whole environment was in view."""
    venv = tmp_path / "alice" / "project" / ".venv"
    (venv / "bin").mkdir(parents=True)
    (venv / "bin" / "python").symlink_to(shutil.which("python3", path="/usr/bin") or "")
    (venv / "secret.cfg").write_text("token = alice's\n")
    for folder in (venv, venv / "bin", venv.parent):
        folder.chmod(0o755)
    (tmp_path / "alice").chmod(0o700)
    (tmp_path / "x").mkdir()
    (tmp_path / "x" / "env").symlink_to(venv)
    (tmp_path / "y").mkdir()
    shutil.copy(PROBE, tmp_path / "y" / "probe.py")
    command = [str(tmp_path / "x" / "env" / "bin" / "python"), str(tmp_path / "y" / "probe.py")]
    wanted = str(tmp_path / "x" / "env" / "secret.cfg")
    env = {"LOOK_AT": wanted, "PYTHONPATH": str(GPP_PACKAGE.parent)}  # `gpp` is in every view
    with pytest.raises(codes.ProtocolError, match="symlink"):
        result, _ = start(command, DEMO_REPO, env, SandboxPolicy(), "view-probe")
        pytest.fail(f"the plugin saw another user's environment: {result['resources']}")


def test_a_plugins_crash_is_not_handed_to_the_hosts_crash_handler(tmp_path: Path) -> None:
    """Round 5 set `RLIMIT_CORE` to 0 so that no crash of a plugin would be the host's to
    handle, but the kernel ignores the limit when `core_pattern` pipes to a handler
    (`|systemd-coredump`, apport): at 0 it still started the handler, as root, outside the
    sandbox and its cgroup, on each crash a plugin chose to have. 1 is the one value that
    makes the kernel abort the dump before the handler (it is what the kernel gives the
    handler itself), and no core file is written below a page either. (The host's
    `core_pattern` is not changed to prove it: the limit the plugin runs under is read.)"""
    plugin = tmp_path / "core_reader.py"
    plugin.write_text(CORE_RAISER.format(checkout=str(GPP_PACKAGE.parent)))
    result, _ = start([sys.executable, str(plugin)], plugin_id="core-raiser")
    assert result["resources"][0]["attrs"] == {"soft": 1, "hard": 1}


RT_PROBE = """import os, sys
sys.path.insert(0, {checkout!r})
from gpp.plugin.sdk import serve

def discover(paths):
    attrs = {{}}
    try:  # real-time at the lowest priority, and straight back: the call is the attack
        os.sched_setscheduler(0, os.SCHED_FIFO, os.sched_param(1))
        os.sched_setscheduler(0, os.SCHED_OTHER, os.sched_param(0))
        attrs["fifo"] = True
    except OSError:
        attrs["fifo"] = False
    try:
        os.setpriority(os.PRIO_PROCESS, 0, -5)
        attrs["niced"] = True
    except OSError:
        attrs["niced"] = False
    return {{"resources": [{{"kind": "scheduling", "name": "rt", "location": {{"path": ".",
        "line": 1}}, "attrs": attrs}}], "unresolved": [], "findings": [],
        "classificationSignals": []}}

raise SystemExit(serve("rt-probe", "1.0.0", discover))
"""


def test_a_plugin_cannot_take_real_time_scheduling_the_gateway_may_have(tmp_path: Path) -> None:
    """A gateway started from a login whose limits allow real-time priorities (PAM's
    `rtprio`, a unit's `LimitRTPRIO=`) passed its `RLIMIT_RTPRIO` and `RLIMIT_NICE` on: no
    capability is needed under them, so a plugin put its processes on `SCHED_FIFO`, where a
    busy loop on every CPU leaves the host (the gateway's loop and its CPU budget check
    included) 5 % of the time, or raised its priority over the gateway's. Both are 0 for the
    plugin whatever the gateway's are. (Raising the gateway's own hard limits to show it
    needs CAP_SYS_RESOURCE, which root lacks where these tests run, so the plan's limits
    are read, and the plugin's attempt, which leaves `SCHED_FIFO` at once, must fail.)"""
    plugin = tmp_path / "rt_probe.py"
    plugin.write_text(RT_PROBE.format(checkout=str(GPP_PACKAGE.parent)))
    gateways = [
        resource.getrlimit(which) for which in (resource.RLIMIT_RTPRIO, resource.RLIMIT_NICE)
    ]
    result, mechanisms = start([sys.executable, str(plugin)], plugin_id="rt-probe")
    assert result["resources"][0]["attrs"] == {"fifo": False, "niced": False}, gateways
    limits = mechanisms["rlimits"].split(", ")
    assert "RLIMIT_RTPRIO=0" in limits and "RLIMIT_NICE=0" in limits, limits


def test_an_executable_registry_in_a_system_folder_still_shows_empty() -> None:
    """Round 5 masked the registry inside the system folders every sandbox binds whole, except
    an executable file there (a tool another plugin may run): a registry a `chmod -R 755` left
    executable, or one copied from a filesystem without modes, under `/usr/local/etc`, was
    read in full by every plugin, with the other plugins' `env` secrets. The gateway's own
    files are masked whatever their mode (another plugin's tools in the system folders are
    not hidden at all: they are every plugin's)."""
    base = Path(tempfile.mkdtemp(prefix="gpp-redteam-", dir="/usr/local/share"))
    try:
        base.chmod(0o755)
        registry = base / "registry.toml"
        registry.write_text('[[plugin]]\nenv = { API_KEY = "secret" }\n')
        registry.chmod(0o755)
        seen = look([sys.executable, str(PROBE)], [str(registry)], hide=(str(registry),))
    finally:
        shutil.rmtree(base)
    assert seen[str(registry)]["size"] == 0, seen[str(registry)]


@pytest.mark.parametrize(
    "word", ["/proc/version", "x/../../../../../../../../proc/self/../version"]
)
def test_a_command_word_in_the_hosts_proc_brings_no_host_process_into_view(
    tmp_path: Path, word: str
) -> None:
    """The view holds the folder of each file the command names, and the registry entry's
    author names one of the kernel's (`["{python}", "x/probe.py", "/proc/version"]`, or the
    same through `..` segments, which the config takes as written): the host's `/proc` was
    bound over the sandbox's own, and every process of the host, the gateway's command line
    included, was in view (`/sys` likewise brought the host's sysfs)."""
    (tmp_path / "x").mkdir()
    shutil.copy(PROBE, tmp_path / "x" / "probe.py")
    entry = {"id": "x", "version": "1.0.0", "command": ["{python}", "x/probe.py", word]}
    config = load_config(write_config(tmp_path, [entry]))
    gateway = f"/proc/{os.getpid()}/cmdline"
    with pytest.raises(codes.ProtocolError, match="lies in the host's /proc"):
        seen = look(config.plugins["x"].command, [gateway], hide=config.plugins["x"].sandbox.hide)
        pytest.fail(f"the host's /proc was in view: {seen[gateway]}")


def test_a_view_path_in_a_writable_repository_swapped_after_the_plan_binds_nothing_of_the_host(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The registry lists a folder of the repository in the view (`view = ["<repo>/tools"]`)
    and the repository is writable (`readonly_root = false`): the folder was bound again,
    read-only, over the repository, and a second session of the plugin, writing that same
    repository, swapped it for a relative symlink up to `/proc` between the plan's symlink check and
    bwrap's bind: bwrap bound what it led to, the host's `/proc`, over the sandbox's own.
    (The swap is made in that window here, as the racing session would make it.)"""
    base = Path(tempfile.mkdtemp(prefix="gpp-redteam-"))
    try:
        base.chmod(0o755)  # reached without staging, as a user's checkout is
        repository = base / "repo"
        (repository / "tools").mkdir(parents=True)
        (repository / "tools" / "lint.cfg").write_text("x = 1\n")
        real_plan = sandbox.plan  # what `process` calls as `plan`

        def plan_then_swap(*args: Any, **kwargs: Any) -> Any:
            made = real_plan(*args, **kwargs)
            shutil.rmtree(repository / "tools")
            (repository / "tools").symlink_to(os.path.relpath("/proc", repository))
            return made

        monkeypatch.setattr(process, "plan", plan_then_swap)
        gateway = f"/proc/{os.getpid()}/cmdline"
        policy = {"readonly_root": False, "view": (str(repository / "tools"),)}
        seen = look([sys.executable, str(PROBE)], [gateway], repository, **policy)
    finally:
        shutil.rmtree(base)
    assert not seen[gateway]["exists"], seen


def test_a_plugin_executable_in_its_writable_repository_adds_no_bind_over_it(
    tmp_path: Path,
) -> None:
    """The registry runs a plugin executable that lies in its writable repository
    (`["<repo>/bin/detector", "--stdio"]`): its folder was bound again, read-only, over the
    repository, which the plugin (a second session of it) could swap for a relative link up
    to `/proc` between the plan and bwrap's bind, as a listed view path inside it. The
    folder is in view with the repository: nothing is bound over it."""
    repository = tmp_path / "repo"
    tool = repository / "bin" / "detector"
    tool.parent.mkdir(parents=True)
    tool.write_text("#!/bin/sh\nexit 0\n")
    tool.chmod(0o755)
    (tmp_path / "home").mkdir(mode=0o700)
    policy = SandboxPolicy(readonly_root=False)
    lease = uids.lease(policy.uid_range) if drops_root() else None
    try:
        spawn_plan = sandbox.plan(
            policy,
            [str(tool), "--stdio"],
            str(repository),
            str(tmp_path / "home"),
            {"PATH": "/usr/bin:/bin"},
            lease.uid if lease else None,
        )
    except BaseException:
        if lease is not None:
            lease.release()
        raise
    spawn_plan.uid_lease = lease
    spawn_plan.close_fds()
    spawn_plan.cleanup()  # its cgroup removed, its uid given back
    argv = spawn_plan.argv
    binds = [argv[i + 2] for i, word in enumerate(argv) if word.endswith("bind")]
    assert str(tool.parent) not in binds, argv
