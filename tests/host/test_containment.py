"""Issue 32: nothing a plugin or a repository wrote decides anything as root, and a plugin's view
is as narrow as the registry says.

Each attack below worked against the gateway these tests replaced, run as root: the gateway read
the plugin's entry file to follow shims and shebangs, ran the manager it named, honoured the
shim's `export` lines, bound the folder of every file a shebang argument named, opened a shebang's
FIFO on the event loop, ran a plugin as root where namespaces could not be built, and showed a
bundled plugin the whole project (the registry, the other plugins).
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import os
import shutil
import sys
import tempfile
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from conftest import DEMO_REPO, FIXTURE_PLUGINS, REFERENCE_DETECTOR, REPO
from gateway_harness import running_gateway, write_config

from app.config import load_config
from gpp.core import codes
from gpp.host import PluginSession, SandboxPolicy, identity, sandbox, shims, uids
from gpp.host.identity import drops_root, traversable
from gpp.host.sandbox import plan

PROBE = FIXTURE_PLUGINS / "view_probe.py"
WAIT_S = 120
"""The bound on every wait below: far above what a start needs; reached only on failure."""


def script(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    path.chmod(0o755)
    return path


def on_path(folder: Path) -> dict[str, str]:
    return {"PATH": f"{folder}:{os.environ.get('PATH', os.defpath)}"}


def on_gateways_path(monkeypatch: pytest.MonkeyPatch, folder: Path) -> dict[str, str]:
    """`folder` on the gateway's own PATH (the only folders where a shim is read: one only the
    registry's `env.PATH` adds may be the plugin's own) and on the plugin's."""
    monkeypatch.setenv("PATH", on_path(folder)["PATH"])
    return on_path(folder)


def start(
    command: list[str],
    root: Path = DEMO_REPO,
    env: dict[str, str] | None = None,
    policy: SandboxPolicy | None = None,
    plugin_id: str = "reference-detector",
    paths: tuple[str, ...] = (".",),
) -> tuple[dict[str, Any], dict[str, str]]:
    """One discover of `paths` by `command` in its sandbox: the result and the mechanisms.
    (test_shims.py starts its plugins with it too.)"""

    async def scenario() -> tuple[dict[str, Any], dict[str, str]]:
        async with PluginSession(
            command,
            plugin_id,
            "1.0.0",
            cwd=str(root),
            env=env,
            sandbox=policy or SandboxPolicy(),
        ) as session:
            return await session.discover(list(paths)), session.sandbox_mechanisms

    return asyncio.run(scenario())


def look(
    command: list[str], paths: list[str], root: Path = DEMO_REPO, **policy: Any
) -> dict[str, dict[str, Any]]:
    """What the view probe run by `command` sees of `paths` (and of itself: `self`)."""
    env = {"LOOK_AT": "\n".join([*paths, "self"])}
    result, _ = start(command, root, env, SandboxPolicy(**policy), "view-probe")
    return {r["name"]: r["attrs"] for r in result["resources"]}


def bounded(action: Callable[[], Any], unblock: Callable[[], None]) -> Any:
    """`action()` in a thread, waited for at most WAIT_S; past it `unblock()` frees it and the
    test fails (today's main blocked here)."""
    outcome: dict[str, Any] = {}

    def run() -> None:
        try:
            outcome["value"] = action()
        except BaseException as exc:  # handed to the test
            outcome["error"] = exc

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(WAIT_S)
    if thread.is_alive():
        unblock()
        thread.join(WAIT_S)
        pytest.fail(f"{action} blocked")
    if "error" in outcome:
        raise outcome["error"]
    return outcome["value"]


def release(fifo: Path) -> None:
    """Open `fifo` for writing if a reader waits on it (it then reads EOF)."""
    with contextlib.suppress(OSError):
        os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))


@contextlib.contextmanager
def planned(
    policy: SandboxPolicy, command: list[str], home: Path, env: dict[str, str] | None = None
) -> Iterator[list[str]]:
    """The argv `sandbox.plan` builds for a session's own uid, leased as `process.spawn` does
    for a root gateway (the plan's cgroup, descriptors and uid released after); `env`: the
    plugin's (its PATH finds a bare name)."""
    home.mkdir(mode=0o700)
    lease = uids.lease(policy.uid_range) if drops_root() else None
    try:
        spawn_plan = plan(
            policy,
            command,
            str(DEMO_REPO),
            str(home),
            env or on_path(Path("/nonexistent")),
            lease.uid if lease else None,
        )
    except BaseException:
        if lease is not None:
            lease.release()
        raise
    spawn_plan.uid_lease = lease
    try:
        yield spawn_plan.argv
    finally:
        spawn_plan.close_fds()
        spawn_plan.cleanup()


def test_a_manager_the_plugins_own_file_names_is_never_run_by_the_gateway(tmp_path: Path) -> None:
    """The plugin file has a pyenv shim's shape and names its own `pyenv`: today's main ran that
    `pyenv which` as root, outside any sandbox."""
    ran = tmp_path / "log" / "ran-as"
    ran.parent.mkdir(mode=0o700)
    plugin = tmp_path / "plugin"
    manager = script(plugin / "pyenv", f"#!/bin/sh\nid -u >> {ran}\nexit 1\n")
    entry = script(plugin / "detector", f'#!/bin/sh\nexec "{manager}" exec "$@"\n')
    with pytest.raises(codes.ProtocolError):
        start([str(entry)])
    assert not ran.exists(), f"the plugin's manager ran as uid {ran.read_text().split()}"


def test_a_shims_export_lines_are_not_honoured(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A shim of the registry's interpreter exports BASH_ENV: the genuine manager (a bash
    script) would source it. The manager is asked with a fixed environment instead, in `/`
    (today's main ran it in the repository, whose `.python-version` it then read)."""
    log = tmp_path / "log"
    log.mkdir(mode=0o700)
    hook = script(tmp_path / "hook" / "hook.sh", f"id -u >> {log}/sourced-as\n")
    root = tmp_path / "fakeenv"
    manager = script(
        root / "libexec" / "pyenv",
        f'#!/bin/bash\necho "$PWD" > {log}/cwd\nenv > {log}/env\n'
        f'[ "$1" = which ] && [ "$PYENV_ROOT" = "{root}" ] && echo "{sys.executable}"\n',
    )
    script(
        root / "shims" / "python3",
        f'#!/usr/bin/env bash\nexport BASH_ENV="{hook}"\nexport PYENV_ROOT="{root}"\n'
        f'exec "{manager}" exec "${{0##*/}}" "$@"\n',
    )
    env = {
        **on_gateways_path(monkeypatch, root / "shims"),
        "PYENV_VERSION": "from-the-registry-env",
    }
    result, mechanisms = start(["python3", str(REFERENCE_DETECTOR)], env=env)
    assert result["resources"]
    assert mechanisms["executable"] == f"{root}/shims/python3 → {sys.executable} (pyenv which)"
    assert not (log / "sourced-as").exists(), "the shim's BASH_ENV was sourced by its manager"
    assert (log / "cwd").read_text() == "/\n"
    names = {line.split("=", 1)[0] for line in (log / "env").read_text().splitlines()}
    assert (
        {"PATH", "HOME", "PYENV_ROOT"}
        <= names
        <= {"PATH", "HOME", "PYENV_ROOT", "PWD", "SHLVL", "_"}
    )


@pytest.mark.parametrize("argument", ["/proc/version", "/etc/hostname"])
def test_a_shebang_argument_binds_nothing(tmp_path: Path, argument: str) -> None:
    """`#!<plugin>/p2 /proc/version`: today's main bound the folder of that argument (host
    `/proc`: every host process; a file under `/`: the whole host)."""
    plugin = tmp_path / "plugin"
    second = script(plugin / "p2", "#!/bin/sh\nexit 0\n")
    entry = script(plugin / "p1", f"#!{second} {argument}\n")
    with planned(SandboxPolicy(), [str(entry)], tmp_path / "home") as argv:
        binds = {(argv[i + 1], argv[i + 2]) for i, word in enumerate(argv) if word.endswith("bind")}
    folder = os.path.dirname(argument)
    assert (folder, folder) not in binds, binds
    assert ("/", "/") not in binds and str(plugin) in {dest for _, dest in binds}


def test_a_plugin_whose_shebang_names_a_fifo_fails_alone_and_says_what_to_add(
    tmp_path: Path,
) -> None:
    """Today's main opened the FIFO to read its shebang, on the event loop: the gateway froze
    until someone wrote to it. Now only the kernel inside the sandbox looks (and refuses)."""
    plugin = tmp_path / "plugin"
    plugin.mkdir()
    fifo = plugin / "interpreter"
    os.mkfifo(fifo)
    entry = script(plugin / "detector", f"#!{fifo}\n")
    with pytest.raises(codes.UnexpectedEOFError) as failed:
        bounded(lambda: start([str(entry)]), lambda: release(fifo))
    error = failed.value
    assert error.exit_code == 126, error.diagnostic()
    assert f"{entry} names {fifo} in its #! line" in (error.stderr_tail or ""), error.stderr_tail
    assert "sandbox.view" in error.problem, error.problem


def test_healthz_answers_while_a_plugin_start_is_planned(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Planning runs off the event loop: a version manager held mid-answer (it waits on a FIFO
    the test controls) does not stall `/healthz`; released, the start completes."""
    asked, gate = tmp_path / "asked", tmp_path / "gate"
    os.mkfifo(asked)
    os.mkfifo(gate)
    fakeenv = tmp_path / "fakeenv"
    manager = script(
        fakeenv / "libexec" / "pyenv",
        f'#!/bin/sh\necho asked > "{asked}"\nread line < "{gate}"\necho "{sys.executable}"\n',
    )
    script(fakeenv / "shims" / "python3", f'#!/bin/sh\nexec "{manager}" exec "$@"\n')
    plugin = {
        "id": "reference-detector",
        "version": "1.0.0",
        "command": ["python3", str(REFERENCE_DETECTOR)],
        "root": str(DEMO_REPO),
        "env": on_gateways_path(monkeypatch, fakeenv / "shims"),
    }
    with running_gateway(write_config(tmp_path, [plugin])) as gateway:
        answers: dict[str, httpx.Response] = {}

        def discover() -> None:
            with httpx.Client(base_url=gateway.url, timeout=WAIT_S) as http:
                answers["discover"] = http.post(
                    "/plugins/reference-detector/discover", json={"paths": ["api"]}
                )

        pending = threading.Thread(target=discover, daemon=True)
        pending.start()
        try:
            assert bounded(asked.read_text, lambda: release(asked)) == "asked\n"
            with gateway.client() as http:
                assert http.get("/healthz").status_code == 200
            assert pending.is_alive() and "discover" not in answers
            bounded(lambda: gate.write_text("go\n"), lambda: None)
        finally:
            release(gate)
            pending.join(WAIT_S)
    assert answers["discover"].status_code == 200, answers["discover"].text


@pytest.mark.skipif(os.geteuid() != 0, reason="the uid switch happens only for a root gateway")
def test_without_namespaces_a_root_gateways_plugin_is_still_never_root(
    monkeypatch: pytest.MonkeyPatch, searchable_checkout: Path
) -> None:
    """The degraded mode (`network = "inherit"`, `readonly_root = false`, where bwrap cannot
    run) ran the plugin as the gateway's uid: host root with every capability."""
    monkeypatch.setattr(sandbox, "namespaces_available", lambda: False)
    # without a view to stage it, the plugin's uid cannot reach the gateway's pyenv under /root,
    # nor a checkout behind a 0700 folder: the probe, its SDK and its repository are a copy
    python = shutil.which("python3", path="/usr/bin") or sys.executable
    probe = searchable_checkout / PROBE.relative_to(REPO)
    root = searchable_checkout / DEMO_REPO.relative_to(REPO)
    seen = look([python, str(probe)], [], root, network="inherit", readonly_root=False)["self"]
    first, last = SandboxPolicy().uid_range  # the session's own uid, still never root
    assert seen["Uid"] == seen["Gid"] and first <= int(seen["Uid"]) <= last, seen
    assert int(seen["CapEff"], 16) == int(seen["CapPrm"], 16) == int(seen["CapAmb"], 16) == 0
    assert int(seen["CapBnd"], 16) == 0
    assert seen["NoNewPrivs"] == "1"


def test_a_bundled_plugin_sees_neither_the_registry_nor_the_other_plugins() -> None:
    """The bundled plugins sit side by side beside `plugins/registry.toml`: each names its view
    (its entry file and `packs/`), and sees nothing else of the checkout."""
    config = load_config(REPO / "plugins" / "registry.toml")
    policy = config.plugins["pack-django"].sandbox
    plugins = REPO / "plugins"
    seen = look(
        [sys.executable, str(PROBE)],
        [
            str(plugins / "registry.toml"),
            str(plugins / "pack_sqlalchemy.py"),
            str(plugins / "reference_detector.mjs"),
            str(REPO / "pyproject.toml"),
            str(REPO / ".git"),
            str(plugins / "packs" / "django_models.py"),
        ],
        root=plugins / "examples" / "sample-app",
        **{key: getattr(policy, key) for key in ("view", "hide")},
    )
    visible = [path for path, attrs in seen.items() if attrs.get("exists", True)]
    assert visible == [str(plugins / "packs" / "django_models.py"), "self"], seen
    assert seen[str(plugins / "packs" / "django_models.py")]["size"] > 0


def test_by_default_a_plugin_sees_its_folder_but_not_the_gateways_files_in_it(
    tmp_path: Path,
) -> None:
    """Two plugins dropped in one folder with the registry and a token file, no `view`: each
    sees its folder, with the registry, the token and the other plugin's entry file empty."""
    for name in ("a.py", "b.py"):
        shutil.copy(PROBE, tmp_path / name)
    (tmp_path / "helper.txt").write_text("shared")
    token = tmp_path / "token"
    token.write_text("secret-token")
    token.chmod(0o600)
    entries = [
        {"id": plugin_id, "version": "1.0.0", "command": ["{python}", f"{plugin_id}.py"]}
        for plugin_id in ("a", "b")
    ]
    config = load_config(write_config(tmp_path, entries, gateway={"token_file": "token"}))
    policy = config.plugins["a"].sandbox
    targets = ["registry.toml", "token", "b.py", "a.py", "helper.txt"]
    seen = look(
        config.plugins["a"].command,
        [str(tmp_path / name) for name in targets],
        root=DEMO_REPO,
        hide=policy.hide,
    )
    sizes = {name: seen[str(tmp_path / name)]["size"] for name in targets}
    assert sizes["registry.toml"] == sizes["token"] == sizes["b.py"] == 0, sizes
    assert sizes["a.py"] == PROBE.stat().st_size and sizes["helper.txt"] == len("shared")


@pytest.mark.skipif(os.geteuid() != 0, reason="only a root gateway's plugins change uid")
def test_a_repository_behind_a_private_folder_inside_the_plugins_folder_is_reached(
    tmp_path: Path,
) -> None:
    """The bundled layout's shape: the repository lies in the plugin's folder, behind a 0700
    folder its uid cannot search. It is staged, and that folder is covered, so bwrap can chdir."""
    plugin = tmp_path / "plugin"
    plugin.mkdir()
    shutil.copy(PROBE, plugin / "probe.py")
    repo = plugin / "private" / "repo"
    shutil.copytree(DEMO_REPO, repo)
    (plugin / "private").chmod(0o700)
    seen = look([sys.executable, str(plugin / "probe.py")], [str(repo / "api")], root=repo)
    assert seen[str(repo / "api")]["entries"] > 0, seen


@pytest.mark.parametrize("kind", ["fifo", "own-pipe"])
def test_an_interpreter_the_gateway_would_block_on_fails_that_plugin_alone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, kind: str
) -> None:
    """The registry's own `argv[0]`, found on the gateway's PATH, is the one file it reads to
    plan (a shim?): a FIFO there is refused, never waited on; one the registry names by path
    (the gateway's own pipe, `/proc/self/fd/N`) is never read at all, and fails inside."""
    read_end, write_end = os.pipe()
    fifo = tmp_path / "shims" / "python3"  # where a manager keeps its shims
    fifo.parent.mkdir()
    os.mkfifo(fifo, 0o755)
    executable = "python3" if kind == "fifo" else f"/proc/self/fd/{read_end}"
    env = on_gateways_path(monkeypatch, fifo.parent)
    try:
        with pytest.raises(codes.UnexpectedEOFError) as refused:
            bounded(
                lambda: start([executable, str(REFERENCE_DETECTOR)], env=env),
                lambda: release(fifo),
            )
    finally:
        os.close(read_end)
        os.close(write_end)
    problem = refused.value.problem
    if kind == "fifo":
        assert "plugin could not be started" in problem, problem
        assert f"{fifo} is not a regular file" in problem, problem


def test_the_one_file_read_to_plan_is_read_boundedly(tmp_path: Path) -> None:
    huge = tmp_path / "huge"
    huge.write_bytes(b"#!/bin/sh\n" + b"#" * (8 << 20))
    assert len(shims.read_head(str(huge))) == shims.HEAD_BYTES
    (tmp_path / "link").symlink_to(
        huge
    )  # a link is judged by where it points, never followed twice
    assert shims.read_head(str(tmp_path / "link")) == shims.read_head(str(huge))


def test_every_bundled_plugin_works_in_its_narrow_view() -> None:
    """The bundled registry's views (entry file, plus `packs/` or `sdk/node`) are enough: each
    GPP/3 plugin answers, and none has the `plugins/` folder (the registry, the others) in view."""
    registry = REPO / "plugins" / "registry.toml"
    plugins = [p for p in load_config(registry).plugins.values() if p.protocol == "gpp/3"]
    with (
        running_gateway(registry) as gateway,
        httpx.Client(base_url=gateway.url, timeout=WAIT_S) as http,
    ):
        for plugin in plugins:
            answer = http.post(f"/plugins/{plugin.id}/discover", json={"paths": ["."]})
            assert answer.status_code == 200, (plugin.id, answer.text)
            assert answer.json()["resources"], plugin.id
            said = gateway.plugin(plugin.id)["sandbox"]["view"]
            seen = said.split("; masked")[0].split(", ")
            assert str(REPO) not in seen, (plugin.id, seen)
            if traversable(str(REPO / "plugins"), 65534, 65534):
                assert str(REPO / "plugins") not in seen, (plugin.id, seen)
            else:  # a checkout behind a 0700 folder: the folder, staged, with its masks
                assert str(registry) in said.split("; masked")[1], (plugin.id, said)


@pytest.mark.skipif(os.geteuid() != 0, reason="root stages folders only for a root gateway")
def test_a_repository_swapped_for_a_symlink_is_not_staged_through_it(tmp_path: Path) -> None:
    """Red team (issue 32): a repository behind its owner's 0700 folder is staged by root, whose
    bind mount followed symlinks. Its owner, after the registry was loaded, swapped the folder
    for a symlink to another user's project behind that user's 0700 home: the plugin read it."""
    plugin = tmp_path / "plugin"
    plugin.mkdir()
    shutil.copy(PROBE, plugin / "probe.py")
    project = tmp_path / "victim" / "project"
    project.mkdir(parents=True)
    (project / "secret.txt").write_text("another user's secret\n")
    (project / "secret.txt").chmod(0o644)
    project.chmod(0o755)
    (tmp_path / "victim").chmod(0o700)
    owner = tmp_path / "owner"
    owner.mkdir(mode=0o700)
    os.chown(owner, USER, USER)
    repo = owner / "repo"
    repo.symlink_to(project)  # a folder when the registry was loaded; now the owner's symlink
    os.lchown(repo, USER, USER)
    tmp_path.chmod(0o755)
    with pytest.raises(codes.UnexpectedEOFError) as refused:
        look([sys.executable, str(plugin / "probe.py")], [str(repo / "secret.txt")], root=repo)
    problem = refused.value.problem
    assert "passes through the symlink 'repo'" in problem, problem


@pytest.mark.skipif(os.geteuid() != 0, reason="links owned by another user need root to make")
def test_a_folder_to_stage_is_reached_through_roots_symlinks_only(tmp_path: Path) -> None:
    """What root stages is found by a walk that follows a symlink only where nobody but root
    could have placed it: root's link in a folder only root may write is followed; a user's
    link, or any link in a folder others may write, is refused."""
    real = tmp_path / "real"
    real.mkdir()
    tmp_path.chmod(0o755)
    (tmp_path / "absolute").symlink_to(real)
    (tmp_path / "relative").symlink_to("real/../real")
    real_id = os.stat(real).st_dev, os.stat(real).st_ino
    for name in ("absolute", "relative"):
        assert identity.identify_folder(str(tmp_path / name)) == real_id
        os.lchown(tmp_path / name, USER, USER)
        with pytest.raises(OSError, match=f"passes through the symlink '{name}'"):
            identity.identify_folder(str(tmp_path / name / "."))
    (tmp_path / "shared").mkdir(mode=0o777)
    (tmp_path / "shared").chmod(0o1777)
    (tmp_path / "shared" / "link").symlink_to(real)
    with pytest.raises(OSError, match="passes through the symlink 'link'"):
        identity.identify_folder(str(tmp_path / "shared" / "link"))


USER = 12345
"""A uid no test runs as: the owner of a folder or link "another user" placed."""


SETUID_PLANTER = """import os, shutil, sys
sys.path.insert(0, {checkout!r})
from gpp.plugin.sdk import serve

def attempt(action):
    try:
        action()
    except OSError as exc:
        return exc.errno
    return 0

def discover(paths):
    shutil.copy("/usr/bin/id", "planted")
    tried = {{
        "chmod": attempt(lambda: os.chmod("planted", 0o4755)),
        "chmod-setgid": attempt(lambda: os.chmod("planted", 0o2755)),
        "create": attempt(lambda: os.close(os.open("created", os.O_CREAT | os.O_WRONLY, 0o6755))),
        "plain": attempt(lambda: os.chmod("planted", 0o755)),
    }}
    modes = {{name: os.stat(name).st_mode & 0o7777 for name in ("planted", "created")
             if os.path.exists(name)}}
    resources = [{{"kind": "seen", "name": name, "location": {{"path": ".", "line": 1}},
                  "attrs": {{"errno": value}}}} for name, value in tried.items()]
    resources += [{{"kind": "mode", "name": name, "location": {{"path": ".", "line": 1}},
                   "attrs": {{"mode": value}}}} for name, value in modes.items()]
    return {{"resources": resources, "unresolved": [], "findings": [],
             "classificationSignals": []}}

raise SystemExit(serve("planter", "1.0.0", discover))
"""


def test_a_plugin_cannot_leave_a_set_uid_program_in_a_writable_repository(tmp_path: Path) -> None:
    """Red team (issue 32): with `readonly_root = false` a plugin copied `id` into the
    repository and made it set-uid (and set-gid): run by any local user, it gave them the
    session's uid, from which they could signal, trace and read whichever later session got
    that uid. The seccomp filter refuses both bits on every call that sets a mode."""
    plugin = script(tmp_path / "plugin" / "planter.py", SETUID_PLANTER.format(checkout=str(REPO)))
    repo = Path(tempfile.mkdtemp(prefix="gpp-writable-repo-"))
    repo.chmod(0o777)  # what a plugin writes must be writable by its uid, one per session
    try:
        result, _ = start(
            [sys.executable, str(plugin)], repo, None, SandboxPolicy(readonly_root=False), "planter"
        )
        seen = {r["name"]: r["attrs"] for r in result["resources"]}
        assert seen["plain"]["errno"] == 0, seen  # an ordinary chmod works
        for attempt in ("chmod", "chmod-setgid", "create"):
            assert seen[attempt]["errno"] == errno.EPERM, seen
        for name in ("planted", "created"):
            assert not seen.get(name, {"mode": 0})["mode"] & 0o6000, seen
    finally:
        shutil.rmtree(repo)


def test_the_plan_applies_the_documented_mechanisms_in_order(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 32, item 9: `sandbox.plan()` is its list of mechanisms, applied in the order
    docs/security.md gives them, so the table and the code read the same way."""
    section = (REPO / "docs" / "security.md").read_text(encoding="utf-8")
    section = section.split("### How a spawn is planned", 1)[1].split("\n| ", 1)[0]
    numbered = [line.split("`")[1] for line in section.splitlines() if line[:1].isdigit()]
    assert numbered == [mechanism.__name__ for mechanism in sandbox.NAMESPACED]
    without = section.split("Without namespaces", 1)[1].split("\n\n", 1)[0]
    named = [word for word in without.split("`")[1::2] if callable(getattr(sandbox, word, None))]
    assert named == [mechanism.__name__ for mechanism in sandbox.DEGRADED]

    applied: list[str] = []

    def recorded(mechanism: Callable[[Any], None]) -> Callable[[Any], None]:
        def apply(spawn: Any) -> None:
            applied.append(mechanism.__name__)
            mechanism(spawn)

        return apply

    steps = sandbox.NAMESPACED if sandbox.namespaces_available() else sandbox.DEGRADED
    monkeypatch.setattr(sandbox, "NAMESPACED", tuple(map(recorded, sandbox.NAMESPACED)))
    monkeypatch.setattr(sandbox, "DEGRADED", tuple(map(recorded, sandbox.DEGRADED)))
    entry = script(tmp_path / "plugin" / "detector", "#!/bin/sh\nexit 0\n")
    policy = SandboxPolicy(network="inherit", readonly_root=False)
    with planned(policy, [str(entry)], tmp_path / "home"):
        pass
    assert applied == [mechanism.__name__ for mechanism in steps]
