"""A plugin's failure as the CLI prints it: the diagnostic, a line on the interpreter when that
is the cause, and the plugin's own stderr, every line escaped for a terminal.

`gpp discover` and `gpp serve --plugin` (when a plugin fails at start) print the same lines, so
a new user sees the plugin's own words (a SyntaxError's traceback, a missing module) on every
path, and nothing a plugin wrote can clear the screen, set the clipboard or forge a line.
"""

from __future__ import annotations

import re
import shutil
from collections.abc import Sequence

from gpp.core import codes

from .logs import escaped

STDERR_HEADING = "[plugin-protocol] plugin stderr (last lines):"
SDK_MODULES = ("gpp", "gateforge_plugin")
_MISSING_MODULE = re.compile(r"ModuleNotFoundError: No module named '(?P<module>[\w.]+)'")


def terminal_lines(text: str) -> list[str]:
    """`text`, one escaped line per line: what a plugin wrote shown, never acted on."""
    return [escaped(line) for line in text.rstrip("\n").split("\n")]


def failure_lines(error: codes.ProtocolError, command: Sequence[str]) -> list[str]:
    """The two diagnostic lines, the interpreter line where it applies, then the stderr tail."""
    lines = terminal_lines(error.diagnostic())
    if hint := interpreter_hint(error.stderr_tail or "", command):
        lines.append(hint)
    if error.stderr_tail:
        lines.append(STDERR_HEADING)
        lines += [f"  {line}" for line in terminal_lines(error.stderr_tail)]
    return lines


def interpreter_hint(stderr: str, command: Sequence[str]) -> str | None:
    """One line when the plugin died because its interpreter lacks the SDK (a `python3` without
    `gpp`, as after `pipx install .`): which interpreter ran and how to choose the gateway's."""
    missing = _MISSING_MODULE.search(stderr)
    if missing is None or missing["module"].split(".")[0] not in SDK_MODULES or not command:
        return None
    ran = shutil.which(command[0]) or command[0]
    script = next((word for word in command[1:] if word.endswith(".py")), "PLUGIN.py")
    return escaped(
        f"gpp: the plugin ran with {ran}, which has no module {missing['module']!r}; run it "
        f"with the gateway's own Python, which has gpp and gateforge_plugin (`-- {script}` or "
        f"`-- '{{python}}' {script}`), or install gate-forge into that interpreter"
    )
