"""gpp.host.identity: whether the unprivileged uid a root gateway runs plugins as can reach and
read a path, judged from mode bits before the plugin starts (so the refusal names the fix instead
of a plugin failing on its first open), and the staging folders for what it cannot reach."""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from gpp.host import identity

NOBODY = 65534


@pytest.fixture
def base() -> Iterator[Path]:
    """A folder every uid can reach: pytest's own tmp_path sits below a 0700 folder."""
    path = Path(tempfile.mkdtemp(prefix="gpp-identity-", dir="/tmp"))
    path.chmod(0o755)
    try:
        yield path
    finally:
        shutil.rmtree(path)


def _owned_by_root(path: Path, mode: int) -> Path:
    os.chown(path, 0, 0)
    path.chmod(mode)
    return path


def test_the_owners_bits_then_the_groups_then_the_others_decide(tmp_path: Path) -> None:
    file = tmp_path / "f"
    file.write_text("x")
    _owned_by_root(file, 0o604)
    assert identity.allowed(str(file), NOBODY, NOBODY, os.R_OK)
    assert not identity.allowed(str(file), NOBODY, NOBODY, os.R_OK | os.W_OK)
    assert not identity.allowed(str(file), NOBODY, 0, os.R_OK)  # the group's bits: none
    assert identity.allowed(str(file), 0, 0, os.R_OK | os.W_OK)
    assert not identity.allowed(str(tmp_path / "missing"), 0, 0, os.R_OK)


def test_one_closed_ancestor_makes_a_path_unreachable(base: Path) -> None:
    inner = base / "a" / "b"
    inner.mkdir(parents=True)
    _owned_by_root(base / "a", 0o755)
    assert identity.traversable(str(inner), NOBODY, NOBODY)
    _owned_by_root(base / "a", 0o700)
    assert not identity.traversable(str(inner), NOBODY, NOBODY)
    assert identity.traversable(str(inner), 0, 0)


def test_an_unreadable_repository_is_refused_naming_its_mode_and_the_fix(tmp_path: Path) -> None:
    (tmp_path / "repo").mkdir()
    repo = _owned_by_root(tmp_path / "repo", 0o755)
    assert identity.readable_refusal(str(repo), NOBODY, NOBODY) is None
    repo.chmod(0o750)
    refusal = identity.readable_refusal(str(repo), NOBODY, NOBODY)
    assert refusal is not None
    assert f"repository {repo} is not readable by uid {NOBODY}" in refusal
    assert "mode 0750, owner uid 0" in refusal and f"chmod o+rx {repo}" in refusal


def test_only_unreachable_folders_are_staged(base: Path) -> None:
    open_dir = base / "open"
    (base / "closed").mkdir()
    closed_parent = _owned_by_root(base / "closed", 0o700)
    hidden = closed_parent / "lib"
    hidden.mkdir()
    open_dir.mkdir()
    home = base / "home"
    home.mkdir(mode=0o700)
    assert identity.stage([str(open_dir)], NOBODY, NOBODY, str(home)) == {}
    staged = identity.stage([str(open_dir), str(hidden)], NOBODY, NOBODY, str(home))
    assert staged == {str(hidden): str(home / identity.STAGE_FOLDER / "0")}
    assert Path(staged[str(hidden)]).is_dir()
    assert home.stat().st_mode & 0o777 == 0o711


@pytest.mark.skipif(os.geteuid() != 0, reason="staging is done by a root gateway only")
def test_a_source_swapped_between_the_plan_and_the_mount_fails_the_spawn(tmp_path: Path) -> None:
    """Root's mount follows symlinks: what the child mounted must be the folder the plan found
    (device and inode), else the spawn fails rather than bind whatever the path names now."""
    planned, swapped, folder = tmp_path / "planned", tmp_path / "swapped", tmp_path / "stage"
    for path in (planned, swapped, folder):
        path.mkdir()
    device, inode = identity.identify_folder(str(planned))
    outcomes = {}
    for source in (planned, swapped):
        staged = ((str(source), str(folder), device, inode),)
        read_end, write_end = os.pipe()
        pid = os.fork()
        if pid == 0:  # the spawn's child: stage, switch, report
            try:
                identity.Identity(NOBODY, NOBODY, staged).switch()
                os.write(write_end, b"switched")
            except OSError as exc:
                os.write(write_end, str(exc).encode())
            finally:
                os._exit(0)
        os.close(write_end)
        outcomes[source.name] = os.read(read_end, 4096).decode()
        os.close(read_end)
        os.waitpid(pid, 0)
    assert outcomes["planned"] == "switched", outcomes
    assert "changed since the spawn was planned" in outcomes["swapped"], outcomes
