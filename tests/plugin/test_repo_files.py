"""gpp.plugin.repo_files: what `lstat_plain_path` vouches for, and reads that follow no symlink."""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from gpp.plugin import repo_files
from gpp.plugin.repo_files import (
    lstat_plain_path,
    name_problem,
    open_dir_in_root,
    open_root,
    read_file_in_root,
)


@pytest.fixture
def root(tmp_path: Path) -> Iterator[tuple[Path, int]]:
    repo = tmp_path / "repo"
    (repo / "a" / "b").mkdir(parents=True)
    (repo / "a" / "b" / "f.gfx").write_text("table f\n")
    (repo / "top.gfx").write_text("table top\n")
    outside = tmp_path / "outside"
    (outside / "b").mkdir(parents=True)
    (outside / "b" / "f.gfx").write_text("table secret\n")
    os.symlink(outside, repo / "link")  # a directory symlink leading out
    os.symlink("a", repo / "inlink")  # a directory symlink staying in
    os.symlink("top.gfx", repo / "filelink.gfx")
    os.symlink("nowhere", repo / "dangling.gfx")
    fd = open_root(str(repo))
    try:
        yield repo, fd
    finally:
        os.close(fd)


@pytest.mark.parametrize("rel", [".", "a", "a/b", "a/b/f.gfx", "top.gfx"])
def test_a_path_without_symlinks_gets_its_lstat(root: tuple[Path, int], rel: str) -> None:
    repo, fd = root
    info = lstat_plain_path(fd, rel)
    assert info is not None
    assert (info.st_ino, info.st_mode) == (
        os.lstat(repo / rel).st_ino,
        os.lstat(repo / rel).st_mode,
    )


@pytest.mark.parametrize(
    "rel",
    ["link", "link/b", "link/b/f.gfx", "inlink", "inlink/b/f.gfx", "filelink.gfx", "dangling.gfx",
     "top.gfx/below", "a\x00b"],
)  # fmt: skip
def test_a_symlink_anywhere_on_the_way_gives_none(root: tuple[Path, int], rel: str) -> None:
    assert lstat_plain_path(root[1], rel) is None


@pytest.mark.parametrize("rel", ["missing", "missing/x.gfx", "a/missing", "a/b/missing.gfx"])
def test_a_missing_component_below_real_directories_is_not_found(
    root: tuple[Path, int], rel: str
) -> None:
    with pytest.raises(FileNotFoundError):
        lstat_plain_path(root[1], rel)


def test_a_directory_swapped_for_a_symlink_after_the_lstat_is_not_read(
    root: tuple[Path, int],
) -> None:
    """The lstat only chooses what to open: the open itself re-checks every component."""
    repo, fd = root
    assert lstat_plain_path(fd, "a/b/f.gfx") is not None
    (repo / "a").rename(repo / "a-moved")
    os.symlink(repo.parent / "outside", repo / "a")  # outside/b/f.gfx holds the secret
    with pytest.raises(OSError):
        read_file_in_root(fd, "a/b/f.gfx")
    with pytest.raises(OSError):
        open_dir_in_root(fd, "a/b")


def test_reads_whole_files_of_any_size(root: tuple[Path, int]) -> None:
    repo, fd = root
    for size in (0, 1, 4095, 4096, 1 << 20, (1 << 20) + 3, 3 << 20):
        data = os.urandom(size)
        (repo / "a" / "blob").write_bytes(data)
        assert read_file_in_root(fd, "a/blob") == data
        (repo / "blob").write_bytes(data)
        assert read_file_in_root(fd, "blob") == data


def test_reads_leave_no_descriptor_open(root: tuple[Path, int]) -> None:
    fd = root[1]
    before = len(os.listdir("/proc/self/fd"))
    for rel in ("top.gfx", "a/b/f.gfx", "filelink.gfx", "link/b/f.gfx", "a/b"):
        with contextlib.suppress(OSError):
            read_file_in_root(fd, rel)
    for rel in (".", "a", "a/b", "link", "a/b/f.gfx"):
        with contextlib.suppress(OSError):
            os.close(open_dir_in_root(fd, rel))
    assert len(os.listdir("/proc/self/fd")) == before


def test_walk_in_root_holds_few_descriptors_at_any_depth(tmp_path: Path) -> None:
    """Depth-first over 120 levels with 3 siblings each, in sorted order, every directory once,
    and never more than `max_open` + 2 descriptors of its own open (read from /proc/self/fd)."""
    from deep_trees import remove_tree

    directory = tmp_path / "t"
    for _ in range(120):
        for sibling in ("b", "c"):
            (directory / sibling).mkdir(parents=True)
        directory = directory / "a"
    directory.mkdir()
    root_fd = open_root(str(tmp_path))
    baseline = len(os.listdir("/proc/self/fd"))
    seen: list[str] = []
    peak = 0

    def visit(fd: int, here: str, entries: list[os.DirEntry[str]]) -> list[str]:
        nonlocal peak
        peak = max(peak, len(os.listdir("/proc/self/fd")) - baseline)
        seen.append(here)
        return [e.name for e in entries if e.is_dir(follow_symlinks=False)]

    try:
        failed = repo_files.walk_in_root(root_fd, "t", visit, max_open=8)
    finally:
        os.close(root_fd)
        remove_tree(tmp_path / "t")
    assert failed == []
    assert len(seen) == len(set(seen)) == 1 + 120 * 3
    assert seen[:3] == ["t", "t/a", "t/a/a"]  # depth first, in byte order
    assert 0 < peak <= 8 + 3  # the chain, the directory listed, and listdir's own descriptor


def test_a_name_no_document_can_carry_is_said_in_the_fixed_words() -> None:
    """The texts both reference detectors and the packs give for an entry they skip."""
    assert name_problem("ok.py", "src/ok.py") is None
    assert name_problem("b\udcff.py", "b\udcff.py") == "skipped an entry whose name is not UTF-8"
    assert name_problem("x\\y.py", "src/x\\y.py") == (
        "skipped x\\y.py: not a repo-relative path (must not contain a backslash)"
    )
