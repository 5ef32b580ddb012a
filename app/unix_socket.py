"""The gateway's Unix socket: private from birth, and removed when the gateway ends.

uvicorn binds the path and then chmods it 0666 (whatever the umask), so any local user could
drive the gateway, and it leaves the file behind at exit. Here the socket is bound inside a
fresh 0700 directory beside the target, made 0600 there (no other user can reach it yet), set
listening, and renamed into place once the gateway is ready: at no moment does the path offer
wider modes, and a client that waits for the path finds a gateway that answers.
At exit the path is unlinked only if it is still this socket (same device and inode): a newer
gateway that took the path over keeps it.

The socket's folder must be the gateway's user's and closed to writes by anyone else: who can
write the folder can rename the socket away and bind their own in its place, and the engine
would hand its bearer token to them (clients also check the listener's uid, SO_PEERCRED). The
default path is in a private runtime folder (`gpp.client.local_gateway.default_socket`), never
in /tmp, where anyone can take a name first.
"""

from __future__ import annotations

import contextlib
import os
import socket
import stat
import tempfile
from dataclasses import dataclass
from pathlib import Path

SOCKET_MODE = 0o600
PRIVATE_FOLDER_MODE = 0o700
BACKLOG = 2048  # uvicorn's default


@dataclass
class UnixListener:
    path: Path
    sock: socket.socket
    identity: tuple[int, int]  # (st_dev, st_ino) of the socket file we made
    staged: Path  # where it listens until `publish` puts it at `path`

    def publish(self) -> None:
        """Rename the socket into place: called once the gateway is ready (its SIGHUP handler
        installed), so a client that waits for the path finds a gateway that answers."""
        os.rename(self.staged, self.path)
        with contextlib.suppress(OSError):
            self.staged.parent.rmdir()

    def remove(self) -> None:
        """Unlink the path (or the staged socket) if it is still ours; close the socket."""
        for place in (self.path, self.staged):
            with contextlib.suppress(OSError):
                found = os.stat(place)
                if (found.st_dev, found.st_ino) == self.identity:
                    os.unlink(place)
        with contextlib.suppress(OSError):
            self.staged.parent.rmdir()
        self.sock.close()


class SocketPathError(Exception):
    """Why the socket cannot be made at that path; one line for the user."""


def listen_private(path: Path) -> UnixListener:
    """A listening Unix socket for `path`, mode 0600 from the start, staged in a private
    directory until `publish`. A stale socket file (no one listening) is replaced; a live one,
    or any other kind of file, is refused."""
    path = path.absolute()
    _refuse_open_folder(path)
    _refuse_what_is_there(path)
    staging = Path(tempfile.mkdtemp(prefix=".gpp-socket-", dir=path.parent))  # mode 0700
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    staged = staging / "s"
    try:
        sock.bind(str(staged))
        os.chmod(staged, SOCKET_MODE)
        sock.listen(BACKLOG)
        made = os.stat(staged)
    except OSError as exc:
        sock.close()
        with contextlib.suppress(OSError):
            staged.unlink()
        with contextlib.suppress(OSError):
            staging.rmdir()
        raise SocketPathError(f"{path}: cannot listen here: {exc.strerror or exc}") from None
    return UnixListener(path, sock, (made.st_dev, made.st_ino), staged)


def make_private_folder(folder: Path) -> None:
    """Create the default socket's folder, 0700, when it is missing."""
    try:
        folder.mkdir(mode=PRIVATE_FOLDER_MODE, parents=True, exist_ok=True)
    except OSError as exc:
        raise SocketPathError(f"{folder}: cannot create: {exc.strerror or exc}") from None


def _refuse_open_folder(path: Path) -> None:
    """Refuse a folder another user owns or may write (see the module's docstring)."""
    folder = Path(os.path.realpath(path.parent))
    try:
        held = os.stat(folder)
    except OSError as exc:
        raise SocketPathError(f"{folder}: {exc.strerror or exc}") from None
    me = os.geteuid()
    if held.st_uid != me:
        raise SocketPathError(
            f"{path}: its folder {folder} is owned by uid {held.st_uid}, not by this gateway's "
            f"user (uid {me}), who could put their own socket in its place; choose a folder "
            "of your own"
        )
    if held.st_mode & (stat.S_IWGRP | stat.S_IWOTH):
        raise SocketPathError(
            f"{path}: its folder {folder} is writable by group or others (mode "
            f"{stat.S_IMODE(held.st_mode):04o}), who could put their own socket in its place; "
            "choose a folder only you can write (without PATH, --uds uses one)"
        )


def _refuse_what_is_there(path: Path) -> None:
    try:
        mode = os.lstat(path).st_mode
    except FileNotFoundError:
        return
    if not stat.S_ISSOCK(mode):
        raise SocketPathError(f"{path} exists and is not a socket; remove it or choose another")
    probe = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        probe.connect(str(path))
    except OSError:
        return  # stale: nobody listens; it is replaced
    finally:
        probe.close()
    raise SocketPathError(f"{path}: another server is listening on it")
