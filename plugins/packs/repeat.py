"""What a repeated discover of an unchanged repository reuses whole: the walk's verdicts on each
unchanged directory, and the finished document of unchanged inputs.

A pinned session asks the same pack about the same repository again and again, mostly
unchanged. The per-file memo (`gpp.plugin.FileMemo`) already spares the reading and parsing of
unchanged files, but a repeat still listed every directory, judged every name, looked every
file up and linked (or compared every fact to the last link's): 2-13 % of a cold scan. With
these two, a repeat costs the stats that notice nothing changed:

- `Listings`: a directory's verdicts (which files the pack takes, which subdirectories it
  enters, what it reports as skipped), kept under the directory's stamp (device, inode,
  mtime, ctime). Adding, removing or renaming an entry changes the directory's mtime and
  ctime, so while the stamp holds, the names are the same; the files taken are still
  `stat`ed one by one (an edit changes the file, not its directory). A stamp is trusted only
  when its times are `RACY_NS` older than the listing: a file system stamps times from a
  coarse clock (a kernel tick, two seconds on FAT), so an entry added just after a listing
  can leave the directory's times as they were (git's "racily clean" entries); such a
  directory is listed again until its times are old enough.
- `DocumentMemo`: the last document, kept under the fingerprint of everything the document
  is a function of: the paths requested, every file the walk found with its (size, mtime,
  inode) stamp (the per-file memo's key), what the walk reported skipped, and the scanner's
  reader and options. Any change to a walked file (an edit, an added, removed or renamed
  file, a manifest or config the pack reads through its walk) changes the fingerprint and the
  scan goes the incremental way. A document is kept only when it is the whole answer: no
  file left unread at the soft deadline, no read error that a repeat would try again.
- `unchanged`: for the commonest request, the whole repository (`.`), whether the tree the
  last document was made from is still there as it was: each directory opened as the walk
  opens it (from its parent, `O_NOFOLLOW`) and its stamp compared, each file's stamp compared,
  nothing listed, judged or built; any difference, and the scan walks as above. What it costs
  is the `stat`s themselves.
"""

from __future__ import annotations

import os
import stat
import time
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

T = TypeVar("T")

JSONObject = dict[str, Any]

RACY_NS = 2_000_000_000
"""How much older than its listing a directory's times must be for the listing to be kept:
more than any file system's timestamp granularity (a kernel tick; FAT's two seconds)."""
MAX_DIRECTORIES = 65_536
"""Directories whose verdicts are kept; past it, the oldest are forgotten (listed again)."""
MAX_DEPTH = 64
"""`unchanged` holds one descriptor per level; a deeper tree is walked as usual."""
_DIR_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC

DirectoryStamp = tuple[int, int, int, int]


def directory_stamp(info: os.stat_result) -> DirectoryStamp:
    """What changes when an entry of the directory is added, removed or renamed: its mtime, and
    its ctime, which no `utime` can set back."""
    return info.st_dev, info.st_ino, info.st_mtime_ns, info.st_ctime_ns


FileStamp = tuple[int, int, int]
"""A file's (size, mtime, inode): the per-file memo's key."""


def file_stamp(info: os.stat_result) -> FileStamp:
    return info.st_size, info.st_mtime_ns, info.st_ino


@dataclass(frozen=True)
class Seen:
    """One directory of a walk as `unchanged` checks it again: its path from the root (`.`
    the root), its stamp, the files taken in it (names) with their stamps, and whether the
    walk entered a directory below it (they follow it, depth first, as the walk went)."""

    directory: str
    stamp: DirectoryStamp
    files: tuple[str, ...]
    stamps: tuple[FileStamp, ...]
    parent: bool


def unchanged(root_fd: int, tree: Sequence[Seen]) -> bool:
    """Whether every directory of `tree` (a whole walk from the root, depth first) and every
    file taken in it has the stamp it had: False at the first difference, or an error."""
    chain: list[tuple[str, int]] = []  # open ancestors of the next directory, shallowest first
    try:
        for seen in tree:
            if seen.directory == ".":
                if not _same(root_fd, seen):
                    return False
                continue
            parent, _, name = seen.directory.rpartition("/")
            parent = parent or "."
            while chain and chain[-1][0] != parent:
                os.close(chain.pop()[1])
            if not chain and parent != ".":
                return False  # not the depth-first order of a walk
            base = chain[-1][1] if chain else root_fd
            if not seen.files and not seen.parent:  # nothing in it to look at: its own stamp
                info = os.stat(name, dir_fd=base, follow_symlinks=False)  # (a link: another)
                if directory_stamp(info) != seen.stamp:
                    return False
                continue
            fd = os.open(name, _DIR_FLAGS, dir_fd=base)
            try:
                same = _same(fd, seen) and not (seen.parent and len(chain) >= MAX_DEPTH)
            except OSError:
                same = False
            if not same:
                os.close(fd)
                return False
            if seen.parent:
                chain.append((seen.directory, fd))
            else:
                os.close(fd)
        return True
    except OSError:
        return False
    finally:
        for _, fd in chain:
            os.close(fd)


def _same(fd: int, seen: Seen) -> bool:
    """Whether the open directory `fd` and the files `seen` took in it are as they were."""
    if directory_stamp(os.fstat(fd)) != seen.stamp:
        return False
    for name, (size, mtime, inode) in zip(seen.files, seen.stamps, strict=True):
        info = os.stat(name, dir_fd=fd, follow_symlinks=False)
        if (
            info.st_mtime_ns != mtime
            or info.st_size != size
            or info.st_ino != inode
            or not stat.S_ISREG(info.st_mode)
        ):
            return False
    return True


class Listings(Generic[T]):
    """A walk's verdicts per directory (repo-relative path), valid while its stamp holds.

    `recall` is asked first, with the directory's `fstat`: the verdicts kept for this stamp, or
    None, and then the stamp is noted with the time; `remember`, after the directory is listed
    and judged, keeps the verdicts under that stamp when its times are old enough (above)."""

    def __init__(
        self, *, wall_ns: Callable[[], int] = time.time_ns, max_entries: int = MAX_DIRECTORIES
    ) -> None:
        self.wall_ns = wall_ns
        self.max_entries = max_entries
        self._kept: dict[str, tuple[DirectoryStamp, T]] = {}
        self._listing: dict[str, tuple[DirectoryStamp, int]] = {}  # recalled in vain: listed now
        self.hits = 0  # directories whose verdicts were recalled; a test reads it

    def recall(self, directory: str, info: os.stat_result) -> T | None:
        stamp = directory_stamp(info)
        kept = self._kept.get(directory)
        if kept is not None and kept[0] == stamp:
            self.hits += 1
            return kept[1]
        self._listing[directory] = (stamp, self.wall_ns())
        return None

    def remember(self, directory: str, verdicts: T) -> None:
        listing = self._listing.pop(directory, None)
        if listing is None:  # not recalled first: no stamp taken before its listing
            return
        stamp, listed_at = listing
        if max(stamp[2], stamp[3]) >= listed_at - RACY_NS:
            self._kept.pop(directory, None)  # changed too recently to tell a later change
            return
        self._kept.pop(directory, None)
        self._kept[directory] = (stamp, verdicts)
        while len(self._kept) > self.max_entries:
            del self._kept[next(iter(self._kept))]

    def forget(self, directory: str) -> None:
        """A recalled directory whose files no longer look as its verdicts say (a race with the
        walk): it is listed again."""
        self._kept.pop(directory, None)

    def clear(self) -> None:
        """Forget every directory's verdicts (the judge of names changed)."""
        self._kept.clear()
        self._listing.clear()

    def kept(self, directory: str) -> tuple[DirectoryStamp, T] | None:
        """The stamp and verdicts kept for `directory`, if any."""
        return self._kept.get(directory)


class DocumentMemo:
    """The last finished document and the fingerprint of its inputs (above)."""

    def __init__(self) -> None:
        self._fingerprint: Hashable | None = None
        self._document: JSONObject | None = None
        self.hits = 0  # discovers answered from here; a test reads it

    def recall(self, fingerprint: Hashable) -> JSONObject | None:
        """A copy of the last document (its lists new, so a caller may change them) when it was
        made from inputs with this fingerprint (None: whatever it was made from, a caller
        having checked that nothing changed), else None."""
        if self._document is None or (fingerprint is not None and fingerprint != self._fingerprint):
            return None
        self.hits += 1
        return {key: list(value) for key, value in self._document.items()}

    def remember(self, fingerprint: Hashable, document: JSONObject) -> None:
        self._fingerprint = fingerprint
        self._document = {key: list(value) for key, value in document.items()}

    def forget(self) -> None:
        self._fingerprint = self._document = None
