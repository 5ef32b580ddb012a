"""Who a sandboxed plugin runs as when the gateway is root: an unprivileged uid, outside its user
namespace as well as inside.

bwrap run by root maps the plugin's uid to host root: capabilities are dropped, but uid 0 still
owns files, so `/proc/sys` was writable, 0400 files of `/proc` readable and root's keyrings
reachable (issue 23). So the spawn switches to `uid:gid` (the session's own uid, leased from
`sandbox.uid_range` by `gpp.host.uids`, and the same number as gid) before bwrap runs, and bwrap, unprivileged, builds a user namespace mapping that uid
to itself: the plugin is that uid on the host, and host root's files are "others" to it.

What the plugin must see may sit under a directory that uid cannot traverse (the gateway's
pyenv interpreter under `/root`, a repository under a 0700 temporary directory); bwrap, now
unprivileged, resolves bind sources by path, so an fd opened by root would not help. The
pre-exec step therefore bind-mounts each such source, while still root and in a private mount
namespace of its own (the host sees nothing), onto an empty directory of the plugin's HOME
folder (mode 0711), and bwrap binds that at the source's own path. Only the bound directory's own
mode then matters: the repository's root must be readable by the uid (`readable_refusal`).

Root's mount would follow symlinks, and a path the plugin's uid cannot traverse is exactly one
whose target it could not reach on its own: a repository's owner who swapped
`~/repo` for a symlink to another user's project (behind that user's 0700 home) had root bind
the project into the plugin's view. So each source is opened at plan time by a walk that follows
only symlinks no one but root could have placed (`open_folder`), and the child checks that what
its mount put at the staging folder is that very folder (device and inode), else fails: a
descriptor cannot be mounted from instead (a bind from a mount of the namespace it left is
EINVAL).
"""

from __future__ import annotations

import ctypes
import errno
import os
import signal
import stat
from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass

CLONE_NEWNS = 0x00020000
MS_BIND, MS_REC, MS_PRIVATE = 0x1000, 0x4000, 0x40000
PR_SET_PDEATHSIG = 1
KEYCTL_JOIN_SESSION_KEYRING = 1
STAGE_FOLDER = ".gpp-view"
MAX_SYMLINKS = 40
"""As the kernel's own path walk: past this many symlinks a walk is a loop (ELOOP)."""


@dataclass(frozen=True)
class Identity:
    """The uid and gid a plugin runs as, and the sources to stage: (source, staging folder,
    and the device and inode `open_folder` found at the source when the spawn was planned)."""

    uid: int
    gid: int
    staged: tuple[tuple[str, str, int, int], ...] = ()
    keyctl: int = -1
    """The `keyctl` system call's number (-1: none here), to join a fresh session keyring."""

    def switch(self) -> None:
        """In the child between fork and exec, as root: stage, then become `uid:gid` with no
        supplementary group, a fresh session keyring, and the parent-death signal set again
        (a credential change clears it). Raises OSError."""
        libc = ctypes.CDLL(None, use_errno=True)
        if self.staged:
            _check(libc.unshare(CLONE_NEWNS))
            _check(libc.mount(None, b"/", None, MS_REC | MS_PRIVATE, None))
            for source, folder, device, inode in self.staged:
                _check(libc.mount(source.encode(), folder.encode(), None, MS_BIND | MS_REC, None))
                mounted = os.stat(folder)
                if (mounted.st_dev, mounted.st_ino) != (device, inode):  # swapped since the plan
                    raise OSError(errno.ESTALE, f"{source} changed since the spawn was planned")
        os.setgroups([])
        os.setgid(self.gid)
        os.setuid(self.uid)  # as root: real, effective, saved and fs uids alike
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
        if os.getppid() == 1:  # the gateway died before the signal was set again
            os._exit(1)
        if self.keyctl >= 0:
            _check(libc.syscall(self.keyctl, KEYCTL_JOIN_SESSION_KEYRING, None))


def _check(result: int) -> None:
    """libc's convention: -1 and errno on failure (keyctl returns the new keyring's serial)."""
    if result < 0:
        errno = ctypes.get_errno()
        raise OSError(errno, os.strerror(errno))


def drops_root() -> bool:
    """Whether plugins change uid at spawn: only when the gateway runs as root."""
    return os.geteuid() == 0


def allowed(path: str, uid: int, gid: int, want: int) -> bool:
    """Whether `uid:gid` (no supplementary group) has `want` (os.R_OK | os.X_OK…) on `path` by
    its mode bits (ACLs aside): the owner's bits, else the group's, else the others'."""
    try:
        st = os.stat(path)
    except OSError:
        return False
    shift = 6 if st.st_uid == uid else 3 if st.st_gid == gid else 0
    return (stat.S_IMODE(st.st_mode) >> shift) & want == want


def traversable(path: str, uid: int, gid: int) -> bool:
    """Whether `uid:gid` can reach `path`: search permission on every ancestor."""
    parent = os.path.dirname(os.path.abspath(path))
    while True:
        if not allowed(parent, uid, gid, os.X_OK):
            return False
        if parent == "/":
            return True
        parent = os.path.dirname(parent)


def readable_refusal(root: str, uid: int, gid: int) -> str | None:
    """Why a plugin running as `uid:gid` could not read its repository `root` (None: it can)."""
    if allowed(root, uid, gid, os.R_OK | os.X_OK):
        return None
    try:
        st = os.stat(root)
        mode = f"mode {stat.S_IMODE(st.st_mode):04o}, owner uid {st.st_uid}"
    except OSError as exc:
        mode = exc.strerror or str(exc)
    return (
        f"repository {root} is not readable by uid {uid}, which the sandbox runs plugins as "
        f"({mode}); make it readable by others (chmod o+rx {root}): each plugin session runs "
        "as a uid of its own from sandbox.uid_range"
    )


def identify_folder(path: str) -> tuple[int, int]:
    """The device and inode of the folder `path`, reached as `open_folder` reaches it."""
    fd = open_folder(path)
    try:
        st = os.fstat(fd)
    finally:
        os.close(fd)
    return st.st_dev, st.st_ino


def open_folder(path: str) -> int:
    """An `O_PATH` descriptor of the folder `path`, walked one component at a time from `/`,
    following a symlink only where nobody but root could have placed it (the link root's, in a
    root-owned folder no group or other may write); raises OSError otherwise (ELOOP)."""
    flags = os.O_PATH | os.O_NOFOLLOW | os.O_CLOEXEC
    fd = os.open("/", flags | os.O_DIRECTORY)
    parts = deque(os.path.abspath(path).split("/"))
    hops = 0
    try:
        while parts:
            part = parts.popleft()
            if part in ("", "."):
                continue
            step = os.open(part, flags, dir_fd=fd)
            st = os.fstat(step)
            if not stat.S_ISLNK(st.st_mode):
                os.close(fd)
                fd = step
                continue
            os.close(step)
            folder = os.fstat(fd)
            hops += 1
            if (
                st.st_uid != 0
                or folder.st_uid != 0
                or stat.S_IMODE(folder.st_mode) & 0o022
                or hops > MAX_SYMLINKS
            ):
                raise OSError(
                    errno.ELOOP,
                    f"{path} passes through the symlink {part!r}, which a user other than root "
                    "could have placed or swapped; name the real path in the registry",
                )
            target = os.readlink(part, dir_fd=fd)
            if target.startswith("/"):
                os.close(fd)
                fd = os.open("/", flags | os.O_DIRECTORY)
            parts.extendleft(reversed(target.split("/")))
        if not stat.S_ISDIR(os.fstat(fd).st_mode):
            raise OSError(errno.ENOTDIR, f"{path} is not a folder")
    except BaseException:
        os.close(fd)
        raise
    return fd


def stage(sources: Iterable[str], uid: int, gid: int, home: str) -> dict[str, str]:
    """Staging folders (in `home`) for the directories among `sources` that `uid:gid` cannot
    reach; `home` becomes traversable (0711) so bwrap, as that uid, reaches the folders."""
    unreachable = [s for s in sources if os.path.isdir(s) and not traversable(s, uid, gid)]
    if not unreachable:
        return {}
    base = os.path.join(home, STAGE_FOLDER)
    os.mkdir(base, 0o755)
    os.chmod(home, 0o711)
    staged = {}
    for index, source in enumerate(unreachable):
        folder = os.path.join(base, str(index))
        os.mkdir(folder, 0o755)
        staged[source] = folder
    return staged
