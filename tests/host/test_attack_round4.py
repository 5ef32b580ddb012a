"""Issue 32, a fourth round of attack on the containment: what round three left open, and what
an attacker with a plugin's files or a repository could still make a root gateway do.

Each test runs the attack as root and passes only when it fails.
"""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
from pathlib import Path

import pytest
from conftest import REFERENCE_DETECTOR
from gateway_harness import write_config
from test_containment import PROBE, look, on_gateways_path, on_path, planned, script, start

from app.config import load_config
from gpp.core import codes
from gpp.host import SandboxPolicy, sandbox, view


def masked(argv: list[str]) -> set[str]:
    """The paths a planned sandbox shows as the empty file (`view.EMPTY_FILE`)."""
    return {
        argv[i + 2]
        for i, word in enumerate(argv)
        if word == "--ro-bind" and argv[i + 1].endswith(f"/{view.EMPTY_FILE}")
    }


@pytest.mark.parametrize("folder", ["the plugin's own", "relative"])
def test_a_shim_on_a_path_folder_the_registry_adds_for_the_plugin_is_never_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, folder: str
) -> None:
    """The registry puts the plugin's own folder on its PATH (`env.PATH = "<plugin>/bin:…"`,
    or a relative `bin`, found from the gateway's cwd) and runs the bare name with another
    absolute file word (`["detector", "/etc/hostname"]`): the file is the plugin's, but the
    gateway read it as a version manager's shim (root-owned, writable by no one else) and ran
    the `pyenv` it names as root, outside any sandbox."""
    ran = tmp_path / "log" / "ran-as"
    ran.parent.mkdir(mode=0o700)
    plugin = tmp_path / "plugin"
    manager = script(plugin / "libexec" / "pyenv", f"#!/bin/sh\nid -u >> {ran}\nexit 1\n")
    script(plugin / "shims" / "detector", f'#!/bin/sh\nexec "{manager}" exec "$@"\n')
    if folder == "relative":
        monkeypatch.chdir(plugin)
        env = {"PATH": f"shims:{os.environ.get('PATH', os.defpath)}"}
    else:
        env = on_path(plugin / "shims")
    with pytest.raises(codes.ProtocolError):
        start(["detector", "/etc/hostname"], env=env)
    assert not ran.exists(), f"the plugin's manager ran as uid {ran.read_text().split()}"


def test_a_genuine_shim_on_the_gateways_own_path_is_still_resolved(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """What issue 23 asked for still holds: `python3` on the gateway's own PATH is a shim, and
    its manager (outside every folder of the plugin) says which binary it runs."""
    root = tmp_path / "fakeenv"
    manager = script(
        root / "libexec" / "pyenv",
        f'#!/bin/sh\n[ "$1" = which ] && echo "{sys.executable}" && exit 0\nexit 1\n',
    )
    script(root / "shims" / "python3", f'#!/usr/bin/env bash\nexec "{manager}" exec "$@"\n')
    monkeypatch.setenv("PATH", f"{root / 'shims'}:{os.environ.get('PATH', os.defpath)}")
    result, mechanisms = start(["python3", str(REFERENCE_DETECTOR)], paths=("api",))
    assert result["resources"]
    assert mechanisms["executable"] == f"{root}/shims/python3 → {sys.executable} (pyenv which)"


def test_without_namespaces_a_plugin_of_a_non_root_gateway_is_told_to_be_the_gateways_uid(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A gateway that is not root, where namespaces cannot be built (`network = "inherit"`,
    `readonly_root = false`): the plugin runs as the gateway's own uid and can read its token
    file and `/proc/<gateway>/environ`; its `sandbox` lines called that uid "unprivileged"."""
    monkeypatch.setattr(sandbox, "namespaces_available", lambda: False)
    monkeypatch.setattr(sandbox, "drops_root", lambda: False)
    entry = script(tmp_path / "plugin" / "detector", "#!/bin/sh\nexit 0\n")
    policy = SandboxPolicy(network="inherit", readonly_root=False, cgroup="optional")
    spawn = sandbox.plan(policy, [str(entry)], str(tmp_path), None, {}, None)
    try:
        said = spawn.mechanisms["identity"]
    finally:
        spawn.close_fds()
        spawn.cleanup()
    assert "unprivileged" not in said, said
    for what in ("gateway's own uid", "token file", "/proc/<gateway>/environ"):
        assert what in said, said


@pytest.mark.parametrize("through", ["the view", "the hidden path"])
def test_a_hidden_file_named_through_a_symlinked_folder_is_still_hidden(
    tmp_path: Path, through: str
) -> None:
    """The gateway's folder holds its registry (hidden); the registry names the plugin's entry
    file through a symlinked path into that folder (`/srv/link/plugin.py`, `/srv/link` →
    the deployment), or names the hidden file through a symlink while the view holds the
    real folder. Masks were matched by path name, so the file showed in full. (Round 6: a
    command naming its file through a symlinked folder is refused, as a symlinked view path
    is: the link could be the plugin's, and it chose what was bound and staged.)"""
    deployment = tmp_path / "deployment"
    registry = deployment / "registry.toml"
    registry.parent.mkdir()
    registry.write_text('token = "secret"\n')
    entry = script(deployment / "plugin.py", "#!/bin/sh\nexit 0\n")
    link = tmp_path / "link"
    link.symlink_to(deployment)
    if through == "the view":
        command, hide = ["/bin/sh", str(link / "plugin.py")], str(registry)
        policy = SandboxPolicy(hide=(hide,))
        with (
            pytest.raises(sandbox.SandboxUnavailable, match="symlink"),
            planned(policy, command, tmp_path / "home") as argv,
        ):
            pytest.fail(f"planned through the link: {argv}")
        return
    else:
        command, hide = ["/bin/sh", str(entry)], str(link / "registry.toml")
    with planned(SandboxPolicy(hide=(hide,)), command, tmp_path / "home") as argv:
        masks = masked(argv)
        bound = {argv[i + 2] for i, word in enumerate(argv) if word.endswith("bind")}
    seen = str(link if through == "the view" else deployment)
    assert seen in bound, argv
    assert f"{seen}/registry.toml" in masks, argv


@pytest.mark.parametrize("installed", ["linked", "copied"])
def test_a_plugin_file_installed_onto_the_gateways_path_is_never_read_as_a_shim(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, installed: str
) -> None:
    """The usual installs of a plugin's executable on the gateway's own PATH: a symlink
    (`/usr/local/bin/detector` → `<plugin>/shims/detector`) or a copy, run with an absolute
    file word. The folder is the operator's, but the file is the plugin's: the gateway read it
    as a shim and ran the `pyenv` it names as root. (A manager's shims live in its own
    `<root>/shims` folder; nothing else is read.)"""
    ran = tmp_path / "log" / "ran-as"
    ran.parent.mkdir(mode=0o700)
    plugin = tmp_path / "plugin"
    manager = script(plugin / "libexec" / "pyenv", f"#!/bin/sh\nid -u >> {ran}\nexit 1\n")
    shim = script(plugin / "shims" / "detector", f'#!/bin/sh\nexec "{manager}" exec "$@"\n')
    operators = tmp_path / "local-bin"
    operators.mkdir()
    if installed == "linked":
        (operators / "detector").symlink_to(shim)
    else:
        script(operators / "detector", shim.read_text())
    with pytest.raises(codes.ProtocolError):
        start(["detector", "/etc/hostname"], env=on_gateways_path(monkeypatch, operators))
    assert not ran.exists(), f"the plugin's manager ran as uid {ran.read_text().split()}"


@pytest.mark.parametrize("link", ["the hidden file", "its folder"])
def test_a_hidden_path_that_is_a_symlink_out_of_the_view_does_not_stop_the_plugin(
    tmp_path: Path, link: str
) -> None:
    """The folder in a plugin's view holds a hidden file that is a symlink out of the view
    (a token file linked to `/run/secrets/…`, another plugin's entry file linked to its
    package): the mask was bound at the link's name, which inside the sandbox dangles, and
    bwrap failed (`Can't create file at …`): the plugin never started. A link out of the
    view is unreadable inside it as it is; only a real location in the view is masked."""
    tmp_path.chmod(0o755)
    outside = tmp_path / "secrets"
    outside.mkdir(mode=0o755)
    (outside / "token").write_text("secret\n")
    folder = tmp_path / "deployment"
    folder.mkdir(mode=0o755)
    shutil.copy(PROBE, folder / "probe.py")
    if link == "the hidden file":
        (folder / "token").symlink_to(outside / "token")
    else:
        (folder / "run").symlink_to(outside)
    hidden = str(folder / ("token" if link == "the hidden file" else "run/token"))
    seen = look([sys.executable, str(folder / "probe.py")], [hidden], hide=(hidden,))
    assert seen["self"], "the plugin did not start"
    assert seen[hidden]["size"] == -1, seen[hidden]  # a link out of the view: unreadable


def test_compiled_plugins_found_on_the_registrys_path_are_hidden_from_each_other(
    tmp_path: Path,
) -> None:
    """Two compiled plugins side by side in a `bin` folder the registry puts on their PATH,
    run by bare name (`["a-detector", "--stdio"]`): only files the command names by path
    counted as a plugin's entry files, so neither was masked in the other's view (the
    folder of its executable), where it read the other's program in full."""
    folder = tmp_path / "bin"
    for plugin_id in ("a", "b"):
        script(folder / f"{plugin_id}-detector", "#!/bin/sh\n# its code\nexit 1\n")
    entries = [
        {
            "id": plugin_id,
            "version": "1.0.0",
            "command": [f"{plugin_id}-detector", "--stdio"],
            "env": {"PATH": f"{folder}:/usr/bin:/bin"},
        }
        for plugin_id in ("a", "b")
    ]
    config = load_config(write_config(tmp_path, entries))
    assert str(folder / "b-detector") in config.plugins["a"].sandbox.hide
    assert str(folder / "a-detector") in config.plugins["b"].sandbox.hide
    assert str(folder / "a-detector") not in config.plugins["a"].sandbox.hide
    plugin = config.plugins["a"]
    with planned(plugin.sandbox, plugin.command, tmp_path / "home", plugin.env) as argv:
        masks = masked(argv)
    assert str(folder / "b-detector") in masks, argv


def test_an_interpreter_run_alone_by_one_plugin_is_not_hidden_from_another_it_runs(
    tmp_path: Path,
) -> None:
    """One plugin runs an interpreter on no file (`["tool", "run", "--stdio"]`: it counts as
    that plugin's own executable, hidden from the others), another runs the same interpreter
    on its entry file: the interpreter must stay readable in the second one's view."""
    folder = tmp_path / "bin"
    tool = script(folder / "tool", "#!/bin/sh\nexit 1\n")
    entry = script(tmp_path / "b" / "b.js", "// its code\n")
    env = {"PATH": f"{folder}:/usr/bin:/bin"}
    entries = [
        {"id": "a", "version": "1.0.0", "command": ["tool", "run", "--stdio"], "env": env},
        {"id": "b", "version": "1.0.0", "command": ["tool", str(entry)], "env": env},
    ]
    config = load_config(write_config(tmp_path, entries))
    assert str(tool) not in config.plugins["b"].sandbox.hide


def test_an_entry_file_linked_to_the_registry_shows_it_empty(tmp_path: Path) -> None:
    """The plugin's entry file is its own symlink to the gateway's registry (readable by
    others, as registries are), and the registry lists a view: the entry file is bound alone,
    and bwrap binds what it resolves to, so the plugin's interpreter read the registry (the
    other plugins' `env` secrets) at its entry file's name; masks matched names only."""
    base = Path(tempfile.mkdtemp(prefix="gpp-redteam-"))
    try:
        base.chmod(0o755)  # the plugin's uid reaches it: the entry file is bound alone
        registry = base / "deployment" / "registry.toml"
        registry.parent.mkdir()
        registry.write_text('[[plugin]]\nenv = { TOKEN = "secret" }\n')
        registry.chmod(0o644)
        plugin = base / "plugin"
        plugin.mkdir()
        (plugin / "p.py").symlink_to(registry)
        (base / "packs").mkdir()
        policy = SandboxPolicy(view=(str(base / "packs"),), hide=(str(registry),))
        # round 5: a file bound alone that links out of its folder and the view is refused
        # (bwrap would bind whichever host file the plugin's link chose), so nothing is bound
        with (
            pytest.raises(sandbox.SandboxUnavailable, match="is a symlink to"),
            planned(policy, ["/bin/sh", str(plugin / "p.py")], tmp_path / "home"),
        ):
            pass
        # linked within the view, it is bound, and the registry there shows empty
        (plugin / "p.py").unlink()
        (plugin / "p.py").symlink_to(os.path.relpath(registry, plugin))
        listed = SandboxPolicy(view=(str(registry.parent),), hide=(str(registry),))
        with planned(listed, ["/bin/sh", str(plugin / "p.py")], tmp_path / "home2") as argv:
            masks = masked(argv)
            bound = {argv[i + 2] for i, word in enumerate(argv) if word.endswith("bind")}
    finally:
        shutil.rmtree(base)
    assert str(plugin / "p.py") in bound, argv
    assert str(plugin / "p.py") in masks, argv
