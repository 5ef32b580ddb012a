"""What the registry's own interpreter really is, when it is a version manager's shim.

`command = ["python3", "plugin.py"]` where `python3` on the gateway's PATH is a pyenv shim exits
127 inside the sandbox: the shim is a bash script that execs `pyenv`, which execs an interpreter
under `~/.pyenv/versions`, none of which is in the sandbox's view (issue 23). So the spawn asks
the manager once which binary it would run (`pyenv which python3`) and runs that binary, whose
prefix is then in the view.

The gateway may be root, so this is the one place it reads and runs something to plan a spawn,
and it does so from trusted configuration only (issue 32): the file read is the registry's own
`argv[0]` as its PATH finds a bare name in a `shims` folder of the gateway's own PATH, not a
symlink (`may_be_a_shim`: a path the registry names, a folder only the registry's `env.PATH` adds,
which may be the plugin's own, or a link to a plugin's file, is never read), never one in the repository or the plugin's view; the manager must be root's (or the
gateway's) and writable by no one else; it runs with a fixed environment (nothing read from the
shim, no `BASH_ENV`), in `/` (no `.python-version` of the repository), for a bounded time, off the
event loop (`sandbox.plan` runs in a thread), and once per configuration (cached). A plugin's own
files, shebangs included, are the kernel's business inside the sandbox.
"""

from __future__ import annotations

import functools
import os
import re
import stat
import subprocess
from collections.abc import Sequence
from dataclasses import dataclass

HEAD_BYTES = 4096
"""A shim is a few lines; no more of any file is read."""
SHIM_EXEC = re.compile(rb'exec\s+"?(/[^"\s]+/(pyenv|rbenv|nodenv|goenv|jenv|asdf))"?\s+exec\s')
"""The last line of a pyenv/rbenv/nodenv/goenv/jenv/asdf shim: `exec "<manager>" exec ...`."""
ROOT_VARIABLE = {"pyenv": "PYENV_ROOT", "rbenv": "RBENV_ROOT", "nodenv": "NODENV_ROOT",
                 "goenv": "GOENV_ROOT", "jenv": "JENV_ROOT", "asdf": "ASDF_DATA_DIR"}  # fmt: skip
"""Where each manager keeps its versions: the folder above its `shims` folder, derived from the
shim's path rather than read from the shim's `export` lines."""
FIXED_PATH = "/usr/local/bin:/usr/bin:/bin"
MANAGER_TIMEOUT_S = 10


@dataclass(frozen=True)
class Resolution:
    """The binary to run in place of the registry's `argv[0]`; `steps` say how it was found,
    for the diagnostic and `GET /plugins/{id}`."""

    binary: str
    steps: tuple[str, ...]

    def describe(self) -> str:
        return " → ".join(self.steps)


class Unresolvable(Exception):
    """A shim whose manager would not say what it runs, or a file that cannot be read safely."""


def resolve(executable: str, untrusted: Sequence[str] = ()) -> Resolution:
    """What the absolute path `executable` (the registry's `argv[0]`) runs: itself, or what its
    version manager names. A file inside `untrusted` (the repository, the plugin's view) is
    never read. Raises Unresolvable."""
    if _inside(executable, untrusted):
        return Resolution(executable, (executable,))
    return _resolve_trusted(executable, tuple(untrusted))


@functools.lru_cache(maxsize=256)
def _resolve_trusted(executable: str, untrusted: tuple[str, ...]) -> Resolution:
    """Cached: a configuration asks once, not at every start (the answer is the manager's
    global choice, which does not change with the repository)."""
    shim = SHIM_EXEC.search(read_head(executable)) if _trusted(executable) else None
    if shim is None:
        return Resolution(executable, (executable,))
    manager, kind = shim.group(1).decode(), shim.group(2).decode()
    if not _trusted(manager) or _inside(manager, untrusted):
        raise Unresolvable(
            f"{executable} is a shim of {manager}, which is not root's, is writable by others "
            "or lies in the plugin's view or repository: not run to resolve it"
        )
    real = _ask_manager(manager, kind, executable)
    return Resolution(real, (executable, f"{real} ({kind} which)"))


def may_be_a_shim(executable: str) -> bool:
    """Whether `executable` (found by a PATH lookup) may be read as a shim: it lies in an
    absolute folder of the gateway's own PATH (the operator's environment, not a folder the
    registry's `env.PATH` adds for one plugin: its own folder, or a relative one found from
    the gateway's cwd), in a manager's own `<root>/shims` folder (where every manager above
    keeps them, and `ROOT_VARIABLE` is derived from), and no symlink leads it elsewhere: a
    plugin's executable linked or copied onto the PATH (`/usr/local/bin/detector`) is the
    plugin's file. Issue 32, round 4."""
    folder = os.path.dirname(os.path.abspath(executable))
    if os.path.basename(folder) != "shims":
        return False
    if os.path.realpath(executable) != os.path.abspath(executable):
        return False
    return any(
        os.path.isabs(entry) and os.path.normpath(entry) == folder
        for entry in os.environ.get("PATH", os.defpath).split(os.pathsep)
    )


def read_head(path: str, size: int = HEAD_BYTES) -> bytes:
    """The first `size` bytes of the regular file `path`, opened so that nothing can make the
    gateway wait or follow a link the path's owner planted: `O_NONBLOCK | O_NOFOLLOW` on the
    path's real location, and a FIFO, device or `/proc/self/fd/N` refused. Raises Unresolvable."""
    try:
        fd = os.open(
            os.path.realpath(path), os.O_RDONLY | os.O_NONBLOCK | os.O_NOFOLLOW | os.O_CLOEXEC
        )
    except OSError as exc:
        raise Unresolvable(f"{path} cannot be opened: {exc.strerror or exc}") from None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise Unresolvable(f"{path} is not a regular file")
        return os.read(fd, size)
    except OSError as exc:
        raise Unresolvable(f"{path} cannot be read: {exc.strerror or exc}") from None
    finally:
        os.close(fd)


def _trusted(path: str) -> bool:
    """Whether the gateway may read or run `path`: owned by root or the gateway's uid and
    writable by no one else (a symlink judged by what it points to)."""
    try:
        st = os.stat(path)
    except OSError:
        return False
    return st.st_uid in (0, os.geteuid()) and not st.st_mode & 0o022


def _inside(path: str, folders: Sequence[str]) -> bool:
    real = os.path.realpath(path)
    return any(
        candidate == folder or candidate.startswith(folder.rstrip("/") + "/")
        for folder in map(os.path.realpath, folders)
        for candidate in (os.path.abspath(path), real)
    )


def _ask_manager(manager: str, kind: str, shim: str) -> str:
    """`<manager> which <name>` with a fixed environment in `/`: the manager's global choice."""
    name = os.path.basename(shim)
    environment = {
        "PATH": FIXED_PATH,
        "HOME": os.environ.get("HOME", "/"),
        ROOT_VARIABLE[kind]: os.path.dirname(os.path.dirname(shim)),
    }
    try:
        answer = subprocess.run(
            [manager, "which", name],
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            cwd="/",
            env=environment,
            timeout=MANAGER_TIMEOUT_S,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise Unresolvable(f"{shim} is a shim of {manager}, which failed: {exc}") from None
    path = answer.stdout.strip().splitlines()[-1] if answer.stdout.strip() else ""
    if answer.returncode != 0 or not os.path.isabs(path) or not os.access(path, os.X_OK):
        said = (answer.stderr or answer.stdout).strip().splitlines()
        raise Unresolvable(
            f"{shim} is a shim of {manager}, and `{os.path.basename(manager)} which {name}` "
            f"did not name an executable ({said[-1] if said else f'exit {answer.returncode}'})"
        )
    return path
