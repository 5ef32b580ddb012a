"""Issue 32, a fifth round of attack on the containment: what rounds three and four left open to
a plugin's files, its registry entry as far as the plugin's author decides it, and a repository.

Each test runs the attack as root and passes only when it fails.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import shutil
import stat
import sys
import tempfile
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from conftest import DEMO_REPO, REFERENCE_DETECTOR, reference_command
from gateway_harness import write_config
from test_containment import PROBE, WAIT_S, look, start

from app.config import load_config
from gpp.core import codes
from gpp.host import SandboxPolicy, process


def test_the_registrys_environment_acts_on_no_process_outside_the_sandbox() -> None:
    """The registry's `env` is the plugin's (a compiled plugin's author asks for
    `LD_LIBRARY_PATH = "<plugin>/lib"`, say), and it was the environment of the `sh` and the
    `bwrap` the gateway spawns, which run outside the sandbox as the session's uid, before
    any namespace, seccomp filter or `no_new_privs`: the loader honoured it there, so
    `LD_PRELOAD`/`LD_LIBRARY_PATH` naming the plugin's own library ran the plugin's code on
    the host's network, `/proc` and filesystem (and, for a gateway that is not root, as the
    gateway's own user). `LD_DEBUG_OUTPUT` shows it without a compiler: the loader of every
    process outside the sandbox wrote its trace where the registry's entry said."""
    traces = Path(tempfile.mkdtemp(prefix="gpp-redteam-"))
    try:
        traces.chmod(0o1777)  # any uid may write here, as in a folder of the attacker's own
        env = {"LD_DEBUG": "files", "LD_DEBUG_OUTPUT": str(traces / "trace")}
        with contextlib.suppress(codes.ProtocolError):  # the plugin's own trace is its business
            start([sys.executable, str(REFERENCE_DETECTOR)], env=env)
        written = {path.name: path.read_text(errors="replace")[:200] for path in traces.iterdir()}
    finally:
        shutil.rmtree(traces)
    assert not written, f"the registry's LD_* variables acted outside the sandbox: {written}"


@pytest.mark.parametrize("work", ["staging a repository", "masking a hidden file"])
def test_a_home_the_registry_sets_is_never_touched_by_the_gateway(
    tmp_path: Path, work: str
) -> None:
    """The registry gives the plugin `HOME = "<plugin>/home"`, and the plugin ships `home` as
    a symlink to a folder only root may enter: planning took the plugin's HOME for the
    gateway's own folder, and root made its staging folder and its empty file there and
    changed the mode of whatever the link led to (0700 became 0711, or +x: the host's `/tmp`
    lost its sticky bit), through the plugin's symlink."""
    victim = tmp_path / "victim"
    victim.mkdir(mode=0o700)
    plugin = tmp_path / "plugin"
    plugin.mkdir()
    shutil.copy(PROBE, plugin / "probe.py")
    (plugin / "home").symlink_to(victim)
    repository = tmp_path / "repo"  # behind pytest's 0700 folder: staged for the plugin's uid
    repository.mkdir(mode=0o755)
    (repository / "app.py").write_text("x = 1\n")
    hidden = plugin / "token"
    hidden.write_text("secret")
    hide = (str(hidden),) if work == "masking a hidden file" else ()
    result, _ = start(
        [sys.executable, str(plugin / "probe.py")],
        repository,
        {"LOOK_AT": str(hidden), "HOME": str(plugin / "home")},
        SandboxPolicy(hide=hide),
        "view-probe",
    )
    assert result["resources"]
    assert stat.S_IMODE(victim.stat().st_mode) == 0o700
    assert not list(victim.iterdir())


@pytest.mark.parametrize("target", ["the host's root", "another plugin"])
def test_a_view_folder_the_plugin_ships_as_a_symlink_is_refused(
    tmp_path: Path, target: str
) -> None:
    """The registry lists a folder of the plugin's own in its view (`sandbox.view =
    ["a/lib"]`, as the bundled plugins list `packs`), and the plugin ships `lib` as a
    symlink: the config resolved it, and bwrap binds what a path resolves to, so `lib` → `/`
    put the host's whole filesystem in view (every host process's command line in `/proc`,
    `/run`, other users' readable files), and `lib` → `../b` the plugin beside it."""
    for name in ("a", "b"):
        (tmp_path / name).mkdir()
        shutil.copy(PROBE, tmp_path / name / "probe.py")
    (tmp_path / "b" / "config.json").write_text('{"api_key": "secret"}')
    lib = tmp_path / "a" / "lib"
    lib.symlink_to("/" if target == "the host's root" else "../b")
    entries: list[dict[str, Any]] = [
        {"id": "a", "version": "1.0.0", "command": ["{python}", "a/probe.py"],
         "sandbox": {"view": ["a/lib"]}},
        {"id": "b", "version": "1.0.0", "command": ["{python}", "b/probe.py"]},
    ]  # fmt: skip
    config = load_config(write_config(tmp_path, entries))
    policy = config.plugins["a"].sandbox
    wanted = "proc/1/cmdline" if target == "the host's root" else "config.json"
    with pytest.raises(codes.ProtocolError, match="symlink"):
        seen = look(
            config.plugins["a"].command, [str(lib / wanted)], view=policy.view, hide=policy.hide
        )
        pytest.fail(f"the plugin saw {seen}")


def test_a_plan_held_by_a_hung_mount_fails_that_plugin_alone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A repository on a hung NFS or FUSE mount: planning asks whether the session's uid may
    read it (`stat`), which never returns. The plan ran in the loop's default executor with no
    bound: the start hung for ever holding one of its workers, and with as many such starts as
    workers, every client body and plugin line the loop parses in a thread waited as well.
    Simulated without FUSE: a `stat` or `lstat` under the "mount" waits until the test ends."""
    mount = tmp_path / "mount"
    repository = mount / "repo"
    repository.mkdir(parents=True)
    released, reached = threading.Event(), threading.Event()

    def hanging(real: Callable[..., Any]) -> Callable[..., Any]:
        def call(path: Any, *args: Any, **kwargs: Any) -> Any:
            if isinstance(path, str | os.PathLike) and os.fspath(path).startswith(str(mount)):
                reached.set()
                released.wait(WAIT_S)
            return real(path, *args, **kwargs)

        return call

    monkeypatch.setattr(os, "stat", hanging(os.stat))
    monkeypatch.setattr(os, "lstat", hanging(os.lstat))
    usual_bound = getattr(process, "PLAN_BOUND_S", None)  # today's main has no bound

    async def start_in(root: Path) -> process.PluginProcess:
        starting = process.start_plugin(
            reference_command(), cwd=str(root), env={}, sandbox=SandboxPolicy()
        )
        return await asyncio.wait_for(starting, WAIT_S)

    async def scenario() -> None:
        asyncio.get_running_loop().set_default_executor(ThreadPoolExecutor(max_workers=1))
        try:
            monkeypatch.setattr(process, "PLAN_BOUND_S", 0.5, raising=False)  # it never ends
            with pytest.raises(codes.ProtocolError, match="hung mount"):
                await start_in(repository)
            assert reached.is_set()
            # the loop's own worker is free (today's main held it): a body is still parsed
            assert await asyncio.wait_for(asyncio.to_thread(len, "free"), WAIT_S) == 4
            # no second thread is spent on that repository while the first plan hangs
            with pytest.raises(codes.ProtocolError, match="not ended"):
                await start_in(repository)
            monkeypatch.setattr(process, "PLAN_BOUND_S", usual_bound, raising=False)
            other = await start_in(DEMO_REPO)  # another plugin starts meanwhile
            await other.reap()
        finally:
            released.set()

    asyncio.run(scenario())
    for thread in threading.enumerate():
        if thread.name == "gpp-plan":
            thread.join(WAIT_S)
    assert not process._stuck  # the stuck plan ended, was discarded, and its uid given back


ALICE, BOB = 12345, 12346
"""Two uids no test runs as: a repository's owner, and another user of the host."""


@pytest.mark.skipif(os.geteuid() != 0, reason="folders and links of other users need root")
def test_a_repository_that_is_its_owners_symlink_when_the_registry_loads_is_not_staged(
    tmp_path: Path,
) -> None:
    """The registry names a repository in its owner's 0700 home (`~alice/repo`), and alice
    leaves it a symlink to bob's project, behind bob's 0700 home, for the gateway's next
    start or reload. The config resolved the path, so the walk that refuses a user's symlink
    (round 3: a swap after the load) saw bob's real folder, and root staged it for alice's
    plugin: bob's files were in view."""
    plugin = tmp_path / "plugin"
    plugin.mkdir()
    shutil.copy(PROBE, plugin / "probe.py")
    project = tmp_path / "bob" / "project"
    project.mkdir(parents=True)
    (project / "secret.txt").write_text("bob's secret\n")
    (project / "secret.txt").chmod(0o644)
    project.chmod(0o755)
    os.chown(tmp_path / "bob", BOB, BOB)
    (tmp_path / "bob").chmod(0o700)
    alice = tmp_path / "alice"
    alice.mkdir(mode=0o700)
    os.chown(alice, ALICE, ALICE)
    (alice / "repo").symlink_to(project)
    os.lchown(alice / "repo", ALICE, ALICE)
    tmp_path.chmod(0o755)
    entry = {"id": "p", "version": "1.0.0", "command": ["{python}", "plugin/probe.py"]}
    config = load_config(write_config(tmp_path, [{**entry, "root": "alice/repo"}]))
    root = Path(config.plugins["p"].root)
    with pytest.raises(codes.ProtocolError, match="passes through the symlink 'repo'"):
        seen = look(config.plugins["p"].command, [str(root / "secret.txt")], root=root)
        pytest.fail(f"alice's plugin saw bob's project: {seen}")


@pytest.mark.parametrize("target", ["/etc/hostname", "/proc/version"])
def test_a_file_the_command_names_that_the_plugin_ships_as_a_symlink_widens_no_view(
    tmp_path: Path, target: str
) -> None:
    """The registry runs the plugin on a file of its own beside the entry file (`["{python}",
    "x/plugin.py", "x/rules.toml"]`), and the plugin ships `rules.toml` as a symlink: the
    config resolved each file word of the command, and the view holds each one's folder, so
    the link chose the folder: `/etc` in full, or the host's `/proc` over the sandbox's own
    (every host process's command line)."""
    plugin = tmp_path / "x"
    plugin.mkdir()
    shutil.copy(PROBE, plugin / "probe.py")
    (plugin / "rules.toml").symlink_to(target)
    entry = {"id": "x", "version": "1.0.0", "command": ["{python}", "x/probe.py", "x/rules.toml"]}
    config = load_config(write_config(tmp_path, [entry]))
    command = config.plugins["x"].command
    outside = "/etc/shadow" if target.startswith("/etc") else f"/proc/{os.getpid()}/cmdline"
    # refused, naming the link (a link out of its folder leads nowhere in the view), or run
    # with the link's folder alone in view: either way, nothing the link leads to is seen
    with contextlib.suppress(codes.ProtocolError):
        seen = look(command, [outside], hide=config.plugins["x"].sandbox.hide)
        assert not seen[outside]["exists"], f"{outside} was in view ({command})"
        return
    with pytest.raises(codes.ProtocolError, match=f"is a symlink to {target}"):
        look(command, [outside], hide=config.plugins["x"].sandbox.hide)


def test_a_file_word_the_repository_resolves_widens_no_view() -> None:
    """The registry runs the plugin on a file of the repository (`["{python}", "lint.py",
    "config/lint.yaml"]`: a relative word not beside the registry names whatever the
    repository holds there), with `readonly_root = false`: the view held that file's folder,
    bound read-only over the writable repository, and the repository made `config` a relative
    symlink up to `/etc`, which bwrap bound over the sandbox's own `/etc`: all of the host's."""
    base = Path(tempfile.mkdtemp(prefix="gpp-redteam-"))
    try:
        base.chmod(0o755)  # reached without staging, as a user's checkout is
        repository = base / "repo"
        repository.mkdir()
        (repository / "config").symlink_to(os.path.relpath("/etc", repository))
        command = [sys.executable, str(PROBE), "config/hostname"]
        result, _ = start(
            command,
            repository,
            {"LOOK_AT": "/etc/shadow"},
            SandboxPolicy(readonly_root=False),
            "view-probe",
        )
    finally:
        shutil.rmtree(base)
    seen = {r["name"]: r["attrs"] for r in result["resources"]}
    assert not seen["/etc/shadow"]["exists"], "the host's /etc was in view"


def test_a_file_bound_alone_that_the_plugin_links_elsewhere_is_refused(tmp_path: Path) -> None:
    """With a listed view, each file the command names is bound alone, and bwrap binds what a
    path resolves to: the plugin ships `rules.toml` (`["{python}", "x/plugin.py",
    "x/rules.toml"]`) as a symlink to any file of the host its uid may read, outside its view
    (another user's notes, the operator's other configs), and read it at its own name."""
    base = Path(tempfile.mkdtemp(prefix="gpp-redteam-"))
    try:
        base.chmod(0o755)
        notes = base / "bob" / "notes.txt"
        notes.parent.mkdir()
        notes.write_text("bob's notes\n")
        notes.chmod(0o644)
        plugin = base / "x"
        plugin.mkdir()
        shutil.copy(PROBE, plugin / "probe.py")
        (plugin / "rules.toml").symlink_to(notes)
        command = [sys.executable, str(plugin / "probe.py"), str(plugin / "rules.toml")]
        with pytest.raises(codes.ProtocolError, match="is a symlink to"):
            seen = look(command, [str(plugin / "rules.toml")], view=())
            pytest.fail(f"the plugin read another user's file at its own name: {seen}")
    finally:
        shutil.rmtree(base)


def test_a_file_the_command_names_linked_out_of_its_folder_is_refused_by_name() -> None:
    """Without a listed view, the view holds the folder of each file the command names, not
    what a link there leads to: the plugin's `rules.toml` linked to another user's file led
    nowhere inside the sandbox, and the plugin failed with its interpreter's own words (`can't
    open file`). The start is refused, naming the link, its target and what to write."""
    base = Path(tempfile.mkdtemp(prefix="gpp-redteam-"))
    try:
        base.chmod(0o755)
        notes = base / "bob" / "notes.txt"
        notes.parent.mkdir()
        notes.write_text("bob's notes\n")
        plugin = base / "x"
        plugin.mkdir()
        shutil.copy(PROBE, plugin / "probe.py")
        (plugin / "rules.toml").symlink_to(notes)
        command = [sys.executable, str(plugin / "probe.py"), str(plugin / "rules.toml")]
        with pytest.raises(codes.ProtocolError, match=f"is a symlink to {notes}.*real path"):
            seen = look(command, [str(plugin / "rules.toml")])
            pytest.fail(f"a link out of the plugin's folder was run on: {seen}")
    finally:
        shutil.rmtree(base)


def test_the_registry_in_a_system_folder_every_sandbox_binds_shows_empty() -> None:
    """A system-wide install keeps its registry under `/usr` (`/usr/local/etc/gpp/`, or the
    bundled one edited in place under `…/dist-packages/gpp/plugins/`), readable by others as
    registries are. `/usr` is bound whole into every sandbox, and masks were only placed in
    the folders of the view: every plugin read the registry, with the other plugins' `env`
    secrets, in full."""
    base = Path(tempfile.mkdtemp(prefix="gpp-redteam-", dir="/usr/local/share"))
    try:
        base.chmod(0o755)
        registry = base / "registry.toml"
        registry.write_text('[[plugin]]\nenv = { API_KEY = "secret" }\n')
        registry.chmod(0o644)
        seen = look([sys.executable, str(PROBE)], [str(registry)], hide=(str(registry),))
    finally:
        shutil.rmtree(base)
    assert seen[str(registry)]["size"] == 0, seen[str(registry)]


CORE_RAISER = """import resource, sys
sys.path.insert(0, {checkout!r})
from gpp.plugin.sdk import serve

def discover(paths):
    _, hard = resource.getrlimit(resource.RLIMIT_CORE)
    resource.setrlimit(resource.RLIMIT_CORE, (hard, hard))  # as far as the plugin may
    soft, hard = resource.getrlimit(resource.RLIMIT_CORE)
    attrs = {{"soft": soft, "hard": hard}}
    return {{"resources": [{{"kind": "limit", "name": "core", "location": {{"path": ".",
        "line": 1}}, "attrs": attrs}}], "unresolved": [], "findings": [],
        "classificationSignals": []}}

raise SystemExit(serve("core-raiser", "1.0.0", discover))
"""


def test_a_plugin_cannot_raise_its_core_dump_limit(tmp_path: Path) -> None:
    """The gateway's hard `RLIMIT_CORE` (unlimited, as systemd and most shells leave it) was
    the plugin's: it raised its soft limit and crashed its processes at will, and each crash
    was the host's to handle outside the sandbox and its cgroup: a core file of up to
    `memory_mb` in a writable repository (`core_pattern = core`), or the host's crash
    handler (`|systemd-coredump`, apport) run as root on its memory, compressing and storing
    it on the host's disk, on CPU no `cpu_seconds` counts."""
    plugin = tmp_path / "core_raiser.py"
    plugin.write_text(CORE_RAISER.format(checkout=str(Path(__file__).resolve().parents[2])))
    result, _ = start([sys.executable, str(plugin)], plugin_id="core-raiser")
    assert result["resources"][0]["attrs"] == {"soft": 1, "hard": 1}  # 1: round 6
