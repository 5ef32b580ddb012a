"""Where a local gateway keeps its token and its Unix socket, and how a client finds them.

`gpp serve` with no token configured generates one at first start in `default_token_file()`;
every client (the CLI, `GatewayClient`, the Node client, which reads the same places) looks in
the same order — GPP_TOKEN, a token file it was given, the default file — so a gateway and a
client started with no token settings meet with no flag, as Jupyter's do.

The folders: GPP_STATE_DIR / GPP_RUNTIME_DIR when set (tests, unusual setups); for root
`/var/lib/gpp` (state: the token survives a reboot, so an engine configured with it keeps
working) and `/run/gpp` (runtime: the socket, gone at reboot); for a user
`$XDG_STATE_HOME/gpp` (else `~/.local/state/gpp`) and `$XDG_RUNTIME_DIR/gpp` (else the state
folder). Root ignores the XDG variables: a `sudo -E` must not put root's token in a user's home.

Over a Unix socket a client asks the kernel who listens (SO_PEERCRED) before it sends a token:
only its own uid or root may have it. A socket someone else bound in its place gets nothing.
"""

from __future__ import annotations

import os
import socket
import stat
import struct
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

TOKEN_VARIABLE = "GPP_TOKEN"
STATE_DIR_VARIABLE = "GPP_STATE_DIR"
RUNTIME_DIR_VARIABLE = "GPP_RUNTIME_DIR"
ROOT_STATE_DIR = Path("/var/lib/gpp")
ROOT_RUNTIME_DIR = Path("/run/gpp")
TOKEN_NAME = "token"
SOCKET_NAME = "gateway.sock"
LOOPBACK_NAMES = frozenset({"localhost", "127.0.0.1", "::1", "[::1]"})


def state_dir() -> Path:
    """Where `gpp serve` keeps the token it generated (see the module's docstring)."""
    if named := os.environ.get(STATE_DIR_VARIABLE):
        return Path(named)
    if os.geteuid() == 0:
        return ROOT_STATE_DIR
    xdg = os.environ.get("XDG_STATE_HOME", "")
    base = Path(xdg) if os.path.isabs(xdg) else Path.home() / ".local" / "state"
    return base / "gpp"


def runtime_dir() -> Path:
    """The private folder of the default Unix socket (see the module's docstring)."""
    if named := os.environ.get(RUNTIME_DIR_VARIABLE):
        return Path(named)
    if os.geteuid() == 0:
        return ROOT_RUNTIME_DIR
    xdg = os.environ.get("XDG_RUNTIME_DIR", "")
    return Path(xdg) / "gpp" if os.path.isabs(xdg) else state_dir()


def default_token_file() -> Path:
    return state_dir() / TOKEN_NAME


def default_socket() -> Path:
    return runtime_dir() / SOCKET_NAME


class TokenNotFound(Exception):
    """A token file the client was told to use cannot be read; one line for the user."""


def find_token(token_file: Path | None = None, *, default_file: bool = True) -> str | None:
    """The token a client sends: GPP_TOKEN, else `token_file`'s contents, else (with
    `default_file`) the default file's when there is one; None when there is none at all.

    A `token_file` named but unreadable raises TokenNotFound (the caller asked for it); the
    default file missing or unreadable (another user's gateway) is simply no token."""
    if token := os.environ.get(TOKEN_VARIABLE, "").strip():
        return token
    if token_file is not None:
        try:
            return _read(token_file)
        except (OSError, UnicodeDecodeError) as exc:
            raise TokenNotFound(f"{token_file}: cannot read the token: {exc}") from None
    if default_file:
        try:
            return _read(default_token_file()) or None
        except (OSError, UnicodeDecodeError):
            return None
    return None


def _read(path: Path) -> str:
    """A regular file's first line-sized bytes: a FIFO put at the path must not hang a client."""
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    with os.fdopen(fd, "rb") as file:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise OSError(f"{path} is not a regular file")
        return file.read(4096).decode("utf-8").strip()


def is_loopback_url(url: str) -> bool:
    """Whether `url` names this host: the default token file is sent nowhere else."""
    host = (urlsplit(url).hostname or "").lower()
    return host in LOOPBACK_NAMES or host.startswith("127.")


class PeerNotTrusted(OSError):
    """The process listening on a Unix socket is neither this user nor root."""


def check_peer(sock: socket.socket, path: str) -> None:
    """Refuse a Unix socket whose listener runs as another user (SO_PEERCRED): whoever took
    the path in the gateway's place must not be handed the bearer token."""
    creds = sock.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED, struct.calcsize("3i"))
    _pid, uid, _gid = struct.unpack("3i", creds)
    if uid not in (os.geteuid(), 0):
        raise PeerNotTrusted(
            f"{path} is served by uid {uid}, neither you (uid {os.geteuid()}) nor root: "
            "not a gateway of yours; nothing was sent"
        )


def check_tcp_peer(sock: socket.socket, where: str) -> None:
    """Refuse a loopback TCP connection whose other end belongs to another user: any local user
    can listen on the gateway's port while it is down (or first), and `gpp status` sent them
    the default token. Loopback has no SO_PEERCRED; the kernel's socket table
    (`/proc/net/tcp`, `tcp6`) says who owns the accepted end (the listener's uid)."""
    uid = tcp_peer_uid(sock)
    if uid is None:
        raise PeerNotTrusted(f"{where}: cannot tell who listens (no entry in /proc/net/tcp)")
    if uid not in (os.geteuid(), 0):
        raise PeerNotTrusted(
            f"{where} is served by uid {uid}, neither you (uid {os.geteuid()}) nor root: "
            "not a gateway of yours; nothing was sent"
        )


def tcp_peer_uid(sock: socket.socket) -> int | None:
    """The uid owning the other end of the local TCP connection `sock`, or None."""
    ours, theirs = sock.getsockname()[:2], sock.getpeername()[:2]
    spellings = [("/proc/net/tcp6", socket.AF_INET6, ours, theirs)]
    if sock.family == socket.AF_INET:  # a dual-stack listener's end is a v4-mapped v6 socket
        spellings = [
            ("/proc/net/tcp", socket.AF_INET, ours, theirs),
            ("/proc/net/tcp6", socket.AF_INET6, _mapped(ours), _mapped(theirs)),
        ]
    for table, family, mine, other in spellings:
        wanted = (_proc_address(family, other), _proc_address(family, mine))
        try:
            with open(table, encoding="ascii") as rows:
                for row in rows:
                    fields = row.split()
                    if len(fields) > 7 and (fields[1], fields[2]) == wanted:
                        return int(fields[7])
        except (OSError, ValueError):
            continue
    return None


def _mapped(address: tuple[Any, ...]) -> tuple[str, int]:
    return f"::ffff:{address[0]}", address[1]


def _proc_address(family: int, address: tuple[Any, ...]) -> str:
    """`address` as /proc/net/tcp{,6} spells it: the address's 32-bit words in host order, in
    hex, then the port."""
    packed = socket.inet_pton(family, address[0])
    words = struct.unpack(f"={len(packed) // 4}I", packed)
    return "".join(f"{word:08X}" for word in words) + f":{address[1]:04X}"
