"""What a plugin's command really runs: through shebang lines and version-manager shims, down
to the interpreter binary, so the sandbox can show it (and run it directly).

`command = ["python3", "plugin.py"]` where `python3` is a pyenv shim exits 127 inside the
sandbox: the shim is a bash script that execs `pyenv`, which reads `.python-version` files and
execs an interpreter under `~/.pyenv/versions`, none of which is in the sandbox's view (issue
23). Binding all of that would widen the view to the whole version manager; instead the spawn
asks the manager once, on the host, which binary it would run (`pyenv which python3`, as the
shim itself would from the plugin's root) and runs that binary, whose prefix is then bound.
A script with a shebang (`#!/usr/bin/env python3`, `#!/opt/py/bin/python`) is run as its
interpreter with the script as an argument, resolved the same way, so `env` does not have to
find anything on a PATH the sandbox cannot see.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from collections.abc import Mapping
from dataclasses import dataclass, field

MAX_DEPTH = 8
"""Shebangs and shims followed at most (a loop, or a silly chain, ends there)."""
SHIM_EXPORT = re.compile(rb'^export\s+([A-Z_]+)="([^"$`]*)"$', re.MULTILINE)
"""A shim's own settings (`export PYENV_ROOT="/root/.pyenv"`), which its manager needs."""
SHIM_EXEC = re.compile(rb'exec\s+"?([^"\s]+/(?:pyenv|rbenv|nodenv|asdf|goenv|jenv))"?\s+exec\s')
"""The last line of a pyenv/rbenv/nodenv/goenv/jenv/asdf shim: `exec "<manager>" exec ...`."""
WRAPPER_EXEC = re.compile(rb'^\s*exec\s+"?(/[^"\s]+)"?\s+"\$@"\s*$', re.MULTILINE)
"""A wrapper script's hand-over to an absolute path with all its arguments."""
SHELLS = frozenset({"sh", "bash", "dash", "zsh", "ksh"})
MANAGER_TIMEOUT_S = 10


@dataclass
class Resolution:
    """`argv` replaces the command's executable (interpreter, its shebang argument, the
    script); `steps` say how it was found, for the diagnostic and `GET /plugins/{id}`."""

    argv: list[str]
    steps: list[str] = field(default_factory=list)

    @property
    def binary(self) -> str:
        return self.argv[0]

    def describe(self) -> str:
        return " → ".join(self.steps)


class Unresolvable(Exception):
    """A shim whose manager would not say what it runs, or a shebang naming nothing found."""


def resolve(executable: str, env: Mapping[str, str], cwd: str | None) -> Resolution:
    """What running the absolute path `executable` execs, with `env` (the plugin's PATH) and
    `cwd` (the plugin's root: version files are read from there). Raises Unresolvable."""
    resolution = Resolution([executable], [executable])
    for _ in range(MAX_DEPTH):
        head = _first_bytes(resolution.binary, 256)
        if not head.startswith(b"#!"):
            return resolution  # a binary (or unreadable: the kernel will say)
        text = _first_bytes(resolution.binary, 4096)
        if (shim := SHIM_EXEC.search(text)) is not None:
            exports = {k.decode(): v.decode() for k, v in SHIM_EXPORT.findall(text)}
            manager = shim.group(1).decode()
            if not _trusted(manager, cwd):
                raise Unresolvable(
                    f"{resolution.binary} is a shim of {manager}, which is not root's or is "
                    "writable by others, or lies in the repository: not run to resolve it"
                )
            real = _ask_manager(manager, resolution.binary, {**env, **exports}, cwd)
            resolution.steps.append(f"{real} ({os.path.basename(shim.group(1).decode())} which)")
            resolution.argv[0] = real
            continue
        interpreter, *argument = head[2:].split(b"\n")[0].decode(errors="replace").split(None, 1)
        script = resolution.argv[0]
        wrapped = WRAPPER_EXEC.findall(text)
        if os.path.basename(interpreter) in SHELLS and len(wrapped) == 1:
            resolution.argv[0] = wrapped[0].decode()
            resolution.steps.append(f"{resolution.argv[0]} (exec in a {interpreter} wrapper)")
            continue
        if os.path.basename(interpreter) == "env" and argument:
            name = argument[0].split()[0]
            found = shutil.which(name, path=env.get("PATH", os.defpath))
            if found is None:
                raise Unresolvable(f"{script}: its shebang runs {name!r}, not found on PATH")
            resolution.argv[:1] = [os.path.abspath(found), script]
            resolution.steps.append(f"{found} (env {name})")
            continue
        resolution.argv[:1] = [interpreter, *argument, script]
        resolution.steps.append(f"{interpreter} (shebang)")
    raise Unresolvable(f"{executable}: more than {MAX_DEPTH} shebangs and shims")


def _trusted(manager: str, cwd: str | None) -> bool:
    """Whether the gateway may run `manager` (as itself) to ask it: owned by root or the
    gateway's uid, writable by nobody else, and not part of the repository being scanned."""
    try:
        st = os.stat(manager)
    except OSError:
        return False
    if cwd and os.path.realpath(manager).startswith(os.path.realpath(cwd).rstrip("/") + "/"):
        return False
    return st.st_uid in (0, os.geteuid()) and not st.st_mode & 0o022


def _first_bytes(path: str, size: int) -> bytes:
    """The start of a file (a shebang line, a shim script's body); nothing if unreadable."""
    try:
        with open(path, "rb") as handle:
            return handle.read(size)
    except OSError:
        return b""


def _ask_manager(manager: str, shim: str, env: Mapping[str, str], cwd: str | None) -> str:
    """`<manager> which <name>`, as the shim would run it (its PATH, the plugin's root)."""
    name = os.path.basename(shim)
    environment = {**os.environ, **env}
    try:
        answer = subprocess.run(
            [manager, "which", name],
            capture_output=True,
            text=True,
            cwd=cwd,
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
