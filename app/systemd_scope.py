"""The gateway asking systemd for a delegated cgroup of its own (issue 32, item 8).

A non-root user's shell runs in a cgroup root owns (a terminal's `session-N.scope`), where the
gateway can make no plugin cgroup. The user's own systemd makes one the user owns, with the
`memory` and `pids` controllers delegated, when asked: `systemd-run --user --scope -p
Delegate=yes CMD` runs CMD (by exec: the same process) in a new transient scope. Typed by hand
that always worked; `gpp serve --cgroup auto` (the default) now asks by itself. Where it is not
root, on cgroup v2, cannot make a plugin cgroup where it is, and a user manager is reachable,
it first asks for a scope running `true` (a refusal then leaves the gateway running, and its
start line says why), then execs itself once under the same command with `MARKER` in its
environment (the gateway in the scope never asks again). Exec all the way down keeps the pid:
whoever started the gateway signals and waits for the gateway itself.

`should_ask` is the decision from what was found (pure); the rest are its thin IO adapters.
"""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
import sys
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Literal, NoReturn

from gpp.host import find_cgroup_layout

MARKER = "GPP_SYSTEMD_SCOPE"
"""Set (to "1") in the environment of the gateway that runs in the scope it asked for."""
SCOPE = ("--user", "--scope", "-p", "Delegate=yes", "--quiet")
ASKING = "systemd-run --user --scope -p Delegate=yes"
TRY_WITHIN_S = 30.0
"""How long the trial scope may take (a user manager answers in milliseconds; an emulated
machine's in seconds)."""

Mode = Literal["auto", "required", "optional"]


def should_ask(
    mode: Mode, euid: int, environ: Mapping[str, str], version: int | None, manager: bool
) -> bool:
    """Whether `gpp serve` may ask systemd for a delegated scope, once it has found that it
    can make no plugin cgroup where it runs: `--cgroup auto`, not root (root writes any
    cgroup), not already in the scope it asked for, on cgroup v2 (a v1 host's user manager
    delegates nothing), with a user manager reachable (`manager`)."""
    return mode == "auto" and euid != 0 and environ.get(MARKER) != "1" and version == 2 and manager


def in_asked_scope(environ: Mapping[str, str] = os.environ) -> bool:
    """This gateway runs in the scope it asked systemd for."""
    return environ.get(MARKER) == "1"


def cgroup_version() -> int | None:
    """The cgroup version session groups would use here (pure parse of /proc texts)."""
    try:
        layout = find_cgroup_layout(
            Path("/proc/self/mountinfo").read_text(), Path("/proc/self/cgroup").read_text()
        )
    except OSError:
        return None
    return None if isinstance(layout, str) else layout.version


def user_manager(
    environ: Mapping[str, str] = os.environ,
    which: Callable[[str], str | None] = shutil.which,
) -> str | None:
    """`systemd-run`'s path when the user's systemd can be reached (what `systemd-run --user`
    connects to: `$XDG_RUNTIME_DIR/systemd/private`, else the user bus), or None."""
    systemd_run = which("systemd-run")
    runtime = environ.get("XDG_RUNTIME_DIR")
    if systemd_run is None or not runtime:
        return None
    sockets = (Path(runtime, "systemd", "private"), Path(runtime, "bus"))
    if environ.get("DBUS_SESSION_BUS_ADDRESS") or any(map(_is_socket, sockets)):
        return systemd_run
    return None


def _is_socket(path: Path) -> bool:
    try:
        return stat.S_ISSOCK(path.stat().st_mode)
    except OSError:
        return False


def try_scope(systemd_run: str) -> str | None:
    """Why the user's systemd would not run a command in a delegated scope, or None when it
    ran `true` in one (blocking, bounded)."""
    try:
        done = subprocess.run(
            [systemd_run, *SCOPE, "--", "true"],
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            timeout=TRY_WITHIN_S,
            check=False,
        )
    except subprocess.TimeoutExpired:
        return f"`{ASKING}` did not answer within {TRY_WITHIN_S:.0f} s"
    except OSError as exc:
        return f"`{ASKING}` could not run: {exc.strerror or exc}"
    if done.returncode == 0:
        return None
    said = next((line for line in done.stderr.splitlines() if line.strip()), "")
    return f"`{ASKING}` failed: {said.strip() or f'exit status {done.returncode}'}"


def own_command(argv: Sequence[str] | None) -> list[str]:
    """The command that runs this gateway again: this interpreter with its own arguments
    (`.venv/bin/gpp serve …`, `python -m app serve …`) when `main` read the command line,
    else (`main(argv)` called in a process: `python -m gpp.gateway` is) the CLI's module with
    `argv`, under the interpreter's own flags: `python -I -m gpp.gateway serve`, started
    isolated so that its working folder (a repository it serves) and `PYTHONPATH` import
    nothing, ran again without `-I`, and then imported a `gpp` package of the working folder
    before its own (round 9)."""
    if argv is None:
        return [sys.executable, *sys.orig_argv[1:]]
    flags: list[str] = subprocess._args_from_interpreter_flags()  # type: ignore[attr-defined]
    return [sys.executable, *flags, "-m", __package__ or "app", *argv]


def exec_in_scope(systemd_run: str, command: Sequence[str]) -> NoReturn:
    """Become `command` in a delegated scope of the user's systemd (exec: same pid)."""
    os.environ[MARKER] = "1"
    sys.stdout.flush()
    sys.stderr.flush()
    os.execv(systemd_run, [systemd_run, *SCOPE, "--", *command])
