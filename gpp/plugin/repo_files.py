"""Open a repository's files without ever following a symlink: for plugins reading untrusted repos.

Checking a path (`realpath`, `lstat`) and then opening it by name leaves a window in which the
repository's owner can swap a symlink in, and the plugin reads `/etc/passwd` instead. So nothing
here opens by name from the filesystem root: each directory of a repo-relative path is opened
relative to the one before (`openat` through `os.open(..., dir_fd=)`) with
`O_NOFOLLOW | O_DIRECTORY`, the last component with `O_NOFOLLOW`, and the descriptor is then
confirmed with `fstat`. A symlink anywhere in the chain fails the open (`ELOOP`/`ENOTDIR`), so
what is read is always the file that lies at that path inside the root at the moment of reading.

Paths are repo-relative as GPP/3 defines them (no `..`, no `.` segment); the caller validates
that. Standard library only.
"""

from __future__ import annotations

import errno
import os
import stat
from collections.abc import Callable, Iterable

from gpp.core.schema import path_problem

_DIR_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC
# O_NONBLOCK: a FIFO planted in the repo must not block the open; fstat refuses it just after.
_FILE_FLAGS = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC
_READ_CHUNK = 1 << 20


class NotRegularFile(OSError):
    """The path names something other than a regular file (a directory, FIFO, device…)."""


def open_root(root: str = ".") -> int:
    """A directory descriptor for the repository root, the anchor of every later open."""
    return os.open(root, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)


def open_dir_in_root(root_fd: int, rel: str) -> int:
    """A descriptor of the directory `rel` (`.` = the root itself), no symlink followed."""
    if rel == ".":
        return os.dup(root_fd)
    fd = root_fd
    try:
        for part in rel.split("/"):
            parent, fd = fd, os.open(part, _DIR_FLAGS, dir_fd=fd)
            if parent != root_fd:
                os.close(parent)
    except BaseException:
        if fd != root_fd:
            os.close(fd)
        raise
    return fd


def open_file_in_root(root_fd: int, rel: str) -> tuple[int, os.stat_result]:
    """An open descriptor of the regular file at `rel` and its `fstat`; OSError otherwise."""
    head, _, name = rel.rpartition("/")
    if not head:  # a file at the top: opened from the root itself, no descriptor to make
        return open_file_in_dir(root_fd, name, rel)
    parent = open_dir_in_root(root_fd, head)
    try:
        return open_file_in_dir(parent, name, rel)
    finally:
        os.close(parent)


def open_file_in_dir(dir_fd: int, name: str, rel: str) -> tuple[int, os.stat_result]:
    """`open_file_in_root`'s last step: the regular file `name` in the directory `dir_fd` (one
    opened by `open_dir_in_root`, or the root), for a caller that opens many files of one
    directory and so opens the directory's chain once; `rel` names the file in errors."""
    fd = os.open(name, _FILE_FLAGS, dir_fd=dir_fd)
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise NotRegularFile(f"{rel}: not a regular file")
        os.set_blocking(fd, True)
    except BaseException:
        os.close(fd)
        raise
    return fd, info


def read_file_in_root(root_fd: int, rel: str, limit: int | None = None) -> bytes:
    """The bytes of the regular file at `rel`, opened as `open_file_in_root` does; with a
    `limit`, at most `limit + 1` of them (more than `limit` bytes back means "too large", and a
    file that is huge, or grows while read, never fills the memory).

    Read with `os.read`, not through a file object: its buffering, `lseek`, `isatty` probe and
    second `fstat` cost more than reading a small file does.
    """
    fd, info = open_file_in_root(root_fd, rel)
    try:
        want = info.st_size + 1  # one byte more: a file that grew reads on below
        if limit is not None:
            want = min(want, limit + 1)
        data = os.read(fd, want)
        if not data:
            return data
        chunks = [data]
        size = len(data)
        while limit is None or size <= limit:
            chunk = os.read(
                fd, _READ_CHUNK if limit is None else min(_READ_CHUNK, limit + 1 - size)
            )
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
        return data if len(chunks) == 1 else b"".join(chunks)
    finally:
        os.close(fd)


def lstat_plain_path(root_fd: int, rel: str) -> os.stat_result | None:
    """The `lstat` of `rel` when no component of it is a symlink, else None.

    With no symlink on the way, the path's real path is the path itself, and its `stat` is this
    `lstat`: a caller can skip `resolve_in_root` and the `realpath` calls it makes (a dozen
    `lstat`s for a root a few directories deep) for the usual path. Each prefix is `lstat`ed
    relative to the root, in order, so a directory on the way that is a symlink is seen.
    None also when a component cannot be examined (the caller's slow path names why);
    FileNotFoundError when a component is missing below real directories (not found, as a
    `stat` of the name would say).

    Like `resolve_in_root` this only chooses *what* to open: the open itself must still go
    through `open_file_in_root` or `open_dir_in_root`, which re-check every component.
    `rel` must be a valid repo-relative path (no `..`, `.` or empty segment).
    """
    try:
        if rel == ".":
            return os.stat(".", dir_fd=root_fd, follow_symlinks=False)
        end = rel.find("/")
        while end >= 0:
            info = os.stat(rel[:end], dir_fd=root_fd, follow_symlinks=False)
            if not stat.S_ISDIR(info.st_mode):
                return None  # a symlink, or a file with a path below it
            end = rel.find("/", end + 1)
        info = os.stat(rel, dir_fd=root_fd, follow_symlinks=False)
    except FileNotFoundError:
        raise
    except (OSError, ValueError):  # ValueError: a NUL in the path
        return None
    return None if stat.S_ISLNK(info.st_mode) else info


def resolve_in_root(root: str, path: str) -> str | None:
    """The repo-relative real path `path` leads to, or None when it leads outside `root`.

    Only for choosing *what* to open (a named in-root symlink is allowed to count); the open
    itself must still go through `open_file_in_root`, which re-checks every component.
    """
    real_root = os.path.realpath(root)
    real = os.path.realpath(os.path.join(real_root, path))
    if real == real_root:
        return "."
    if not real.startswith(real_root + os.sep):
        return None
    return os.path.relpath(real, real_root).replace(os.sep, "/")


MAX_OPEN_DIRECTORIES = 16
"""How many directory descriptors `walk_in_root` keeps open at once, whatever the depth."""

Visit = Callable[[int, str, list[os.DirEntry[str]]], Iterable[str]]
Recall = Callable[[int, str], Iterable[str] | None]


def walk_in_root(
    root_fd: int,
    top: str,
    visit: Visit,
    *,
    max_open: int = MAX_OPEN_DIRECTORIES,
    recall: Recall | None = None,
) -> list[str]:
    """Walk the directory `top` (in-root, `.` = the root) and those below it that `visit`
    names, without recursion and with at most `max_open` + 2 descriptors open; return the
    directories that could not be opened or listed, in walk order.

    `visit(fd, directory, entries)` gets each directory's open descriptor (for `stat`s relative
    to it), its in-root path and its entries sorted by their UTF-8 bytes, and returns the names
    of the subdirectories to walk next; they are walked depth-first in that order (what the
    Node twins do too, so documents that list skipped entries in walk order stay identical).

    A recursive walk fails on a deep tree twice: the interpreter's recursion limit (about 1,000
    frames), and one descriptor held per level (a model 300 directories down is lost when the
    plugin's fd limit is low). Here the pending directories are paths; the descriptors of the
    current directory's nearest ancestors are kept (the deepest `max_open`), so a child opens
    relative to its parent with one `openat`, and a directory whose ancestors were closed is
    reopened from the deepest one still open — every step with `O_NOFOLLOW`, as everywhere here.

    `recall(fd, directory)`, when given, is asked first for each directory opened: the names of
    its subdirectories to walk, known without listing it (a caller that kept what it decided
    about an unchanged directory), or None to have it listed and `visit`ed. It must not raise.
    """
    failed: list[str] = []
    chain: list[tuple[str, int]] = []  # open ancestors of the next directory, shallowest first
    pending = [top]
    try:
        while pending:
            directory = pending.pop()
            while chain and not _below(directory, chain[-1][0]):
                os.close(chain.pop()[1])
            try:
                fd, entries = _open_and_list(root_fd, chain, directory, recall)
            except OSError as exc:
                if exc.errno not in (errno.EMFILE, errno.ENFILE) or not chain:
                    failed.append(directory)
                    continue
                # The descriptor limit is lower than `max_open` assumed: keep fewer from now on.
                max_open = len(chain) // 2
                while chain:
                    os.close(chain.pop()[1])
                try:
                    fd, entries = _open_and_list(root_fd, chain, directory, recall)
                except OSError:
                    failed.append(directory)
                    continue
            try:
                listed = entries if isinstance(entries, tuple) else visit(fd, directory, entries)
                names = list(listed)
            except OSError:
                os.close(fd)
                failed.append(directory)
                continue
            except BaseException:
                os.close(fd)
                raise
            if not names:
                os.close(fd)
                continue
            chain.append((directory, fd))
            if len(chain) > max_open:
                os.close(chain.pop(0)[1])
            prefix = "" if directory == "." else f"{directory}/"
            pending.extend(prefix + name for name in reversed(names))
    finally:
        for _, fd in chain:
            os.close(fd)
    return failed


def name_problem(name: str, rel: str) -> str | None:
    """Why a walked entry `name`, to be reported as `rel`, cannot be (a document could not carry
    it), or None: the fixed texts the reference detectors (and the Node twin) give."""
    try:
        name.encode("utf-8")
    except UnicodeEncodeError:
        return "skipped an entry whose name is not UTF-8"
    problem = path_problem(rel)
    return None if problem is None else f"skipped {name}: not a repo-relative path ({problem})"


def _open_and_list(
    root_fd: int, chain: list[tuple[str, int]], directory: str, recall: Recall | None
) -> tuple[int, list[os.DirEntry[str]] | tuple[str, ...]]:
    """`directory` opened from its deepest open ancestor in `chain` (else the root), and its
    entries sorted by their bytes, or the subdirectory names `recall` gave for it instead (a
    tuple); the descriptor is the caller's to close."""
    if chain:
        base, base_fd = chain[-1]
        fd = open_dir_in_root(base_fd, directory if base == "." else directory[len(base) + 1 :])
    else:
        fd = open_dir_in_root(root_fd, directory)
    try:
        recalled = recall(fd, directory) if recall is not None else None
        if recalled is not None:
            return fd, tuple(recalled)
        with os.scandir(fd) as listing:
            return fd, sorted(listing, key=lambda e: e.name.encode("utf-8", "surrogateescape"))
    except BaseException:
        os.close(fd)
        raise


def _below(path: str, directory: str) -> bool:
    """Whether `path` lies strictly below `directory` (both in-root, `.` = the root)."""
    return directory == "." or path.startswith(directory + "/")
