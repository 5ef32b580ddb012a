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

import os
import stat

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
        fd = os.open(name, _FILE_FLAGS, dir_fd=root_fd)
    else:
        parent = open_dir_in_root(root_fd, head)
        try:
            fd = os.open(name, _FILE_FLAGS, dir_fd=parent)
        finally:
            os.close(parent)
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise NotRegularFile(f"{rel}: not a regular file")
        os.set_blocking(fd, True)
    except BaseException:
        os.close(fd)
        raise
    return fd, info


def read_file_in_root(root_fd: int, rel: str) -> bytes:
    """The bytes of the regular file at `rel`, opened as `open_file_in_root` does.

    Read with `os.read`, not through a file object: its buffering, `lseek`, `isatty` probe and
    second `fstat` cost more than reading a small file does.
    """
    fd, info = open_file_in_root(root_fd, rel)
    try:
        data = os.read(fd, info.st_size + 1)  # one byte more: a file that grew reads on below
        if not data:
            return data
        chunks = [data]
        while chunk := os.read(fd, _READ_CHUNK):
            chunks.append(chunk)
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
