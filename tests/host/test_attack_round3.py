"""Issue 32, a third round of attack on the containment: what an attacker who controls a
plugin's files (installed by root, so root-owned and writable by no one else) can make the root
side do, beyond the attacks `test_containment.py` already runs.

Each test runs the attack as root and passes only when it fails.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

import pytest
from gateway_harness import write_config
from test_containment import planned, script, start

from app.config import load_config
from gpp.core import codes
from gpp.host import SandboxPolicy, process, sandbox


@pytest.mark.parametrize("word", ["--stdio", "serve", "README.md", "config"])
def test_a_manager_named_by_a_plugin_run_with_arguments_is_never_run_by_the_gateway(
    tmp_path: Path, word: str
) -> None:
    """The registry runs the plugin's own executable with an argument (`[".../detector",
    "--stdio"]`, as a compiled plugin is run): the file has a pyenv shim's shape and names the
    plugin's own `pyenv`. Only a lone `argv[0]` counted as the plugin's file, so the gateway
    read this one as a trusted shim and ran its manager as root, outside any sandbox. Nor may
    a file the argument names decide otherwise: one the repository holds (`README.md`), or a
    config file the registry names in another folder of the plugin (`config`)."""
    ran = tmp_path / "log" / "ran-as"
    ran.parent.mkdir(mode=0o700)
    plugin = tmp_path / "plugin"
    manager = script(plugin / "libexec" / "pyenv", f"#!/bin/sh\nid -u >> {ran}\nexit 1\n")
    entry = script(plugin / "shims" / "detector", f'#!/bin/sh\nexec "{manager}" exec "$@"\n')
    if word == "config":
        word = str(script(plugin / "etc" / "detector.json", "{}\n"))
    with pytest.raises(codes.ProtocolError):
        start([str(entry), word])
    assert not ran.exists(), f"the plugin's manager ran as uid {ran.read_text().split()}"


@pytest.mark.parametrize("arguments", [[], ["--stdio"], ["README.md"], ["config"]])
def test_a_plugin_executable_linked_into_a_private_folder_brings_nothing_of_it_into_view(
    tmp_path: Path, arguments: list[str]
) -> None:
    """The plugin's executable is a symlink to an executable under a folder only root may
    search (`<private>/bin/tool`): the gateway followed it as root, added the target's folder
    and its prefix (`<private>`) to the view, and staged them, as root, for the plugin's uid:
    every readable file of the private folder came into view."""
    private = tmp_path / "private"
    script(private / "bin" / "tool", "#!/bin/sh\nexit 0\n")
    (private / "readable-secret").write_text("secret\n")
    private.chmod(0o700)
    plugin = tmp_path / "plugin"
    plugin.mkdir()
    (plugin / "detector").symlink_to(private / "bin" / "tool")
    if arguments == ["config"]:
        arguments = [str(script(plugin / "etc" / "detector.json", "{}\n"))]
    command = [str(plugin / "detector"), *arguments]
    with planned(SandboxPolicy(), command, tmp_path / "home") as argv:
        bound = {argv[i + 2] for i, word in enumerate(argv) if word.endswith("bind")}
    assert not {str(private), str(private / "bin")} & bound, bound


@pytest.mark.parametrize("swapped", ["before the plan", "after the plan"])
def test_without_namespaces_a_repository_swapped_for_a_symlink_is_not_entered_as_root(
    monkeypatch: pytest.MonkeyPatch, swapped: str
) -> None:
    """The degraded mode (no namespaces, `network = "inherit"`, `readonly_root = false`): the
    repository's owner swaps it for a symlink to a folder inside a tree only root may search.
    The spawn changed into the repository as root, before the uid switch, so the plugin's
    uid started with its working directory inside that tree and read it by relative paths.
    Swapped after the plan (its check skipped here), the child's own `chdir` must refuse."""
    monkeypatch.setattr(sandbox, "namespaces_available", lambda: False)
    if swapped == "after the plan":
        monkeypatch.setattr(sandbox, "_reach_refusal", lambda *_: None)
    base = Path(tempfile.mkdtemp(prefix="gpp-redteam-"))
    try:
        base.chmod(0o755)  # the plugin's uid reaches what lies here, as in a shared folder
        inner = base / "private" / "project"
        inner.mkdir(parents=True)
        (inner / "secret").write_text("root-only tree\n")
        (base / "private").chmod(0o700)
        out = base / "out"
        out.mkdir(mode=0o777)
        out.chmod(0o1777)
        repository = base / "repository"
        repository.symlink_to(inner)
        plugin = script(
            base / "plugin" / "detector", f"#!/bin/sh\ncat ./secret > {out}/leak\nexit 1\n"
        )
        with pytest.raises(codes.ProtocolError):
            start(
                [str(plugin), "--stdio"],
                root=repository,
                policy=SandboxPolicy(network="inherit", readonly_root=False, cgroup="optional"),
            )
        leaked = (out / "leak").read_text() if (out / "leak").exists() else ""
        assert "root-only" not in leaked, "the plugin read a root-only tree from its cwd"
    finally:
        shutil.rmtree(base)


def test_a_stale_plugin_home_another_user_made_is_left_to_them() -> None:
    """Anyone may make `/tmp/gpp-home-<a dead pid>-x`: the gateway's first start removed every
    such folder as root, on the event loop, whoever made it, so a local user (or a plugin of
    the degraded mode, which shares the host's /tmp) could have root walk and delete a tree of
    a million files while every client and `/healthz` waited."""
    dead = next(pid for pid in range(4_194_000, 1, -1) if not os.path.exists(f"/proc/{pid}"))
    planted = Path(tempfile.gettempdir()) / f"{process.HOME_PREFIX}{dead}-planted"
    planted.mkdir()
    try:
        (planted / "a-file").write_text("theirs\n")
        for path in (planted, planted / "a-file"):
            os.chown(path, 65534, 65534)
        process._sweep_stale_homes.cache_clear()
        process._sweep_stale_homes()
        assert (planted / "a-file").exists(), "another user's folder was removed by the gateway"
    finally:
        shutil.rmtree(planted, ignore_errors=True)


def test_a_compiled_plugin_run_with_arguments_is_hidden_from_the_one_beside_it(
    tmp_path: Path,
) -> None:
    """Two compiled plugins side by side, each run with an argument (`[".../a-detector",
    "--stdio"]`): only a lone `argv[0]` counted as a plugin's entry file, so neither was
    masked in the other's view (the folder of its executable), where it read the other's
    program in full."""
    for plugin_id in ("a", "b"):
        script(tmp_path / f"{plugin_id}-detector", "#!/bin/sh\n# its code\nexit 1\n")
    entries = [
        {
            "id": plugin_id,
            "version": "1.0.0",
            "command": [str(tmp_path / f"{plugin_id}-detector"), "--stdio"],
        }
        for plugin_id in ("a", "b")
    ]
    config = load_config(write_config(tmp_path, entries))
    assert str(tmp_path / "b-detector") in config.plugins["a"].sandbox.hide
    assert str(tmp_path / "a-detector") in config.plugins["b"].sandbox.hide
    assert str(tmp_path / "a-detector") not in config.plugins["a"].sandbox.hide
    with planned(
        config.plugins["a"].sandbox, config.plugins["a"].command, tmp_path / "home"
    ) as argv:
        masks = {argv[i + 2] for i, word in enumerate(argv) if word == "--ro-bind"}
    assert str(tmp_path / "b-detector") in masks, argv
