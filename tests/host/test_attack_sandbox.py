"""Issue 10, second pass: a plugin of a root host looks for writable places and inherited
handles its sandbox might have left it.

Before this pass, bwrap's own root tmpfs (`/`) and `/dev` (with `/dev/shm`) were writable and
sized at half the host's RAM, and HOME was a bind of a host directory: a plugin under
`memory_mb = 256` could park gigabytes in memory outside `RLIMIT_AS`, or fill the host's disk
through HOME, one `RLIMIT_FSIZE`-sized file after another.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from conftest import DEMO_REPO, FIXTURE_PLUGINS
from test_sandbox_escapes import probe_resources

from gpp.host import SandboxPolicy

PROBE = FIXTURE_PLUGINS / "attack_sandbox_probe.py"
MEMORY_MB = 256
Looks = dict[str, dict[str, Any]]


@pytest.fixture(scope="module")
def looks(tmp_path_factory: pytest.TempPathFactory) -> tuple[Looks, Path]:
    repo = tmp_path_factory.mktemp("attack-sandbox") / "repo"
    shutil.copytree(DEMO_REPO, repo)

    resources = probe_resources(
        PROBE, "attack-sandbox-probe", repo, sandbox=SandboxPolicy(memory_mb=MEMORY_MB)
    )
    looks = {
        r["name"]: {**json.loads(r["attrs"]["found"]), "home": r["attrs"]["home"]}
        for r in resources
    }
    return looks, repo


def test_only_capped_tmpfs_mounts_are_writable(looks: tuple[Looks, Path]) -> None:
    """The repository too is read-only by default (issue 23)."""
    found, _ = looks
    home = found["mounts"]["home"]
    writable = {m["path"]: m for m in found["mounts"]["mounts"]}
    assert set(writable) == {"/tmp", "/dev/shm", home}, writable
    for path in ("/tmp", "/dev/shm", home):
        assert writable[path]["type"] == "tmpfs", writable[path]
        assert 0 < writable[path]["bytes"] <= MEMORY_MB * 1024 * 1024, writable[path]


def test_no_file_can_be_created_in_the_sandboxs_own_root_or_dev(looks: tuple[Looks, Path]) -> None:
    outcome = looks[0]["root-dirs"]
    assert (outcome["/"], outcome["/dev"]) == ("EROFS", "EROFS"), outcome


def test_the_plugin_inherits_only_stdin_stdout_and_stderr(looks: tuple[Looks, Path]) -> None:
    held = looks[0]["fds"]["fds"]
    assert [fd for fd, _ in held] == [0, 1, 2], held


def test_the_plugin_has_no_controlling_terminal(looks: tuple[Looks, Path]) -> None:
    outcome = looks[0]["tty"]
    assert outcome["tty_nr"] == 0 and outcome["open"] == "ENXIO", outcome
