"""gpp.plugin.sdk.FileMemo: hits while a file is unchanged, misses after size/mtime/inode change, bounds."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from gpp.plugin import FileMemo


def _stat(size: int, inode: int, mtime_ns: int = 1) -> os.stat_result:
    return os.stat_result((0o100644, inode, 0, 1, 0, 0, size, 0, 0, 0, 0, 0, mtime_ns, 0))


def test_hit_while_unchanged_and_a_miss_after_each_part_of_the_stamp_changes(
    tmp_path: Path,
) -> None:
    file = tmp_path / "models.py"
    file.write_text("a = 1\n")
    memo: FileMemo[int] = FileMemo()
    computed: list[int] = []

    def compute() -> int:
        computed.append(1)
        return len(computed)

    def read() -> int:
        return memo.get("models.py", os.stat(file), compute)

    assert (read(), read()) == (1, 1)
    file.write_text("a = 22\n")  # size
    assert read() == 2
    before = os.stat(file)
    os.utime(file, ns=(before.st_atime_ns, before.st_mtime_ns + 5_000_000_000))  # mtime only
    assert read() == 3
    copy = tmp_path / "copy.py"  # same size and mtime, another inode
    shutil.copy2(file, copy)
    os.replace(copy, file)
    assert os.stat(file).st_ino != before.st_ino and os.stat(file).st_size == before.st_size
    assert (read(), read()) == (4, 4)
    assert (memo.stats.hits, memo.stats.misses, memo.stats.evictions) == (2, 4, 0)


def test_bounded_by_entries_least_recently_used_out_first() -> None:
    memo: FileMemo[str] = FileMemo(max_entries=2)
    memo.get("a", _stat(1, 1), lambda: "a")
    memo.get("b", _stat(1, 2), lambda: "b")
    assert memo.get("a", _stat(1, 1), lambda: "recomputed") == "a"  # a is now the most recent
    memo.get("c", _stat(1, 3), lambda: "c")
    assert len(memo) == 2
    assert memo.get("b", _stat(1, 2), lambda: "b again") == "b again"  # b was the one evicted
    assert memo.stats.evictions == 2  # b for c, then a for b


def test_bounded_by_bytes_and_a_value_over_the_budget_is_not_kept() -> None:
    memo: FileMemo[str] = FileMemo(max_bytes=100)
    memo.get("a", _stat(10, 1), lambda: "a")
    memo.get("c", _stat(10, 2), lambda: "c")
    memo.get("d", _stat(95, 3), lambda: "d")  # 115: a goes; 105: c goes
    assert (len(memo), memo.bytes, memo.stats.evictions) == (1, 95, 2)
    assert memo.get("huge", _stat(1, 4), lambda: "x", cost=500) == "x"
    assert memo.get("huge", _stat(1, 4), lambda: "y", cost=500) == "y"
    assert (len(memo), memo.bytes) == (1, 95)


def test_a_failing_compute_stores_nothing() -> None:
    memo: FileMemo[str] = FileMemo()

    def fail() -> str:
        raise OSError("gone")

    with pytest.raises(OSError):
        memo.get("a", _stat(1, 1), fail)
    assert memo.get("a", _stat(1, 1), lambda: "ok") == "ok"
    with pytest.raises(ValueError):
        FileMemo(max_entries=0)
