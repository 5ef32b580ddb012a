"""A per-file memo for plugins: what was learnt from a file is kept until the file changes.

A GPP/3 session is pinned and long-lived, so a plugin process sees the same repository again and
again. `FileMemo` lets it skip re-reading and re-parsing files that did not change: a value is
stored under the file's repo-relative path together with the file's (size, mtime_ns, inode) as
`fstat` reports them, and is handed back only while all three still match. Any change of content
that keeps size, mtime and inode all equal is invisible to it — the trade every build tool makes.

The caller passes a stat of the file it has already opened (an `fstat` of its own descriptor, not a
`stat` of the name, so the key describes the file that would be read) and a `compute` callable
that reads and analyses it; `compute` runs only on a miss. Standard library only; the Node SDK's
`FileMemo` (plugins/sdk/node/file_memo.js) has the same semantics.

Bounded twice, least recently used first out: by entries and by bytes, where an entry's bytes
are the `cost` the caller names (by default the file's size, a fair proxy for what was learnt
from it). A value costlier than the whole byte budget is returned but not kept.
"""

from __future__ import annotations

import os
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Generic, TypeVar

V = TypeVar("V")

DEFAULT_MAX_ENTRIES = 65_536
DEFAULT_MAX_BYTES = 256 * 1024 * 1024


@dataclass(frozen=True)
class FileStamp:
    """What identifies one version of a file: equal stamps, same content (as far as we can tell)."""

    size: int
    mtime_ns: int
    inode: int

    @classmethod
    def of(cls, stat: os.stat_result) -> FileStamp:
        return cls(stat.st_size, stat.st_mtime_ns, stat.st_ino)


@dataclass
class MemoStats:
    """Counters since the memo was made; a test reads them to prove what was (not) recomputed."""

    hits: int = 0
    misses: int = 0
    evictions: int = 0


class Missing:
    """The type of `MISSING`: what `lookup` gives for a path it holds no valid value for."""

    __slots__ = ()


MISSING = Missing()


@dataclass(frozen=True)
class _Entry(Generic[V]):
    stamp: FileStamp
    value: V
    cost: int


class FileMemo(Generic[V]):
    """Values keyed by repo-relative path, valid while the file's `FileStamp` is unchanged."""

    def __init__(
        self, *, max_entries: int = DEFAULT_MAX_ENTRIES, max_bytes: int = DEFAULT_MAX_BYTES
    ) -> None:
        if max_entries < 1 or max_bytes < 1:
            raise ValueError("FileMemo bounds must be positive")
        self.max_entries = max_entries
        self.max_bytes = max_bytes
        self.stats = MemoStats()
        self._entries: OrderedDict[str, _Entry[V]] = OrderedDict()
        self._bytes = 0

    def get(
        self,
        path: str,
        stat: os.stat_result,
        compute: Callable[[], V],
        *,
        cost: int | None = None,
    ) -> V:
        """The value remembered for `path` at this stat, or `compute()`'s, then remembered.

        An exception from `compute` propagates and nothing is stored: callers that want a
        failure remembered (a syntax error, say) return it as a value.
        """
        value = self.lookup(path, stat)
        if isinstance(value, Missing):
            computed = compute()
            self.store(path, stat, computed, cost=cost)
            return computed
        return value

    def lookup(self, path: str, stat: os.stat_result) -> V | Missing:
        """The value remembered for `path` at this stat, else `MISSING` (counted as a miss).

        With `store`, `get` in two steps: a caller that computes its misses together (in
        parallel, say) looks every file up first and stores what it computed after.
        """
        entry = self._entries.get(path)
        if entry is not None and entry.stamp == FileStamp.of(stat):
            self._entries.move_to_end(path)
            self.stats.hits += 1
            return entry.value
        self.stats.misses += 1
        return MISSING

    def store(self, path: str, stat: os.stat_result, value: V, *, cost: int | None = None) -> None:
        """Remember `value` for `path` at this stat; `cost` defaults to the file's size."""
        cost = stat.st_size if cost is None else cost
        self._store(path, _Entry(FileStamp.of(stat), value, cost))

    def __len__(self) -> int:
        return len(self._entries)

    @property
    def bytes(self) -> int:
        """The summed cost of what is kept now."""
        return self._bytes

    def discard(self, path: str) -> None:
        entry = self._entries.pop(path, None)
        if entry is not None:
            self._bytes -= entry.cost

    def _store(self, path: str, entry: _Entry[V]) -> None:
        self.discard(path)
        if entry.cost > self.max_bytes:
            return
        self._entries[path] = entry
        self._bytes += entry.cost
        while len(self._entries) > self.max_entries or self._bytes > self.max_bytes:
            _, evicted = self._entries.popitem(last=False)
            self._bytes -= evicted.cost
            self.stats.evictions += 1
