"""What `gpp check-config` checks beyond the file's shape: what would otherwise fail only at the
first request (a plugin starts lazily), or only when a probe reads a token file.

The gateway itself does not run these at start-up: a registry with one broken plugin still
serves the others, as it always has. Each problem is one line naming the entry and the key, in
the same form as the config's own errors.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

from gpp.core import codes
from gpp.host import namespaces_refusal

from .config import Config, PluginConfig, read_token_file

SCRIPT_SUFFIXES = frozenset({".py", ".mjs", ".cjs", ".js", ".ts", ".sh", ".rb", ".pl"})
"""An argument ending so names the plugin's file: it must exist."""
CODE_OPTIONS = frozenset({"-c", "-e", "-m", "--eval"})
"""Interpreter options whose value is code or a module name, never a file."""


def preflight(config: Config) -> list[str]:
    problems = []
    if config.gateway.token_file is not None:
        problems += [f"gateway.token_file: {p}" for p in _token_file(config.gateway.token_file)]
    for index, plugin in enumerate(config.plugins.values()):
        where = f"[[plugin]] #{index + 1} ({plugin.id})"
        found = _command(plugin, config.path.parent) + _sandbox(plugin)
        problems += [f"{where}: {problem}" for problem in found]
    return problems


def _token_file(path: Path) -> list[str]:
    """The start's and the reload's own check (`read_token_file`), so none of them can
    accept a file another refuses."""
    try:
        read_token_file(path)
    except ValueError as exc:
        return [str(exc)]
    return []


def _command(plugin: PluginConfig, base: Path) -> list[str]:
    """The executable as the spawn finds it (absolute; relative to the plugin's root, its cwd;
    a bare name on PATH), and every file argument. Words naming a file beside the config were
    already made absolute by the loader, so a relative word left here is not beside it."""
    executable, *args = plugin.command
    problems = []
    if "/" not in executable:
        if shutil.which(executable) is None:
            problems.append(f"command: {executable!r} is not found on PATH")
    elif not os.access(path := plugin.root / executable, os.X_OK):  # an absolute path stays
        why = "is not executable" if path.is_file() else _not_found(executable, plugin.root, base)
        problems.append(f"command: {executable!r} {why}")
    follows_code_option = False
    for word in args:
        names_a_file = not follows_code_option and _names_a_file(word)
        if names_a_file and not (plugin.root / word).is_file():
            problems.append(f"command: {word!r} {_not_found(word, plugin.root, base)}")
        follows_code_option = word in CODE_OPTIONS
    return problems


def _names_a_file(word: str) -> bool:
    return not word.startswith("-") and ("/" in word or Path(word).suffix in SCRIPT_SUFFIXES)


def _not_found(word: str, root: Path, base: Path) -> str:
    if Path(word).is_absolute():
        return "does not exist"
    return f"is neither beside the config ({base}) nor in the root ({root})"


def _sandbox(plugin: PluginConfig) -> list[str]:
    """A plugin that asks for an isolation this machine cannot build is refused at spawn."""
    sandbox = plugin.sandbox
    asked = [
        key
        for key, wanted in (
            ("network", sandbox.network is False),
            ("readonly_root", sandbox.readonly_root),
        )
        if wanted
    ]
    reason = namespaces_refusal() if asked else None
    if reason is None:
        return []
    return [
        f"sandbox.{asked[0]}: needs namespaces, which this machine cannot build ({reason}); "
        'set sandbox.network = "inherit" and readonly_root = false to run without them'
    ]


async def start_each(config: Config, identities: dict[str, str] | None = None) -> list[str]:
    """Start every GPP/3 plugin as the gateway would (its sandbox, env, root), complete the
    handshake and say `bye`: a command that cannot run in its sandbox (exit 127 before `hello`:
    an interpreter out of view) is caught here, not at the first request. JSON-RPC plugins have
    no handshake to prove they run; they are left to their first call. `identities` gets, per
    plugin started, the uid its session ran as (the sandbox's `identity` mechanism)."""
    problems = []
    for index, plugin in enumerate(config.plugins.values()):
        if plugin.protocol != "gpp/3":
            continue
        try:
            async with plugin.session() as session:
                if identities is not None and "identity" in session.sandbox_mechanisms:
                    identities[plugin.id] = session.sandbox_mechanisms["identity"]
        except codes.ProtocolError as error:
            status = f" (exit code {error.exit_code})" if error.exit_code is not None else ""
            problems.append(
                f"[[plugin]] #{index + 1} ({plugin.id}): does not start in its sandbox: "
                f"{error.code}: {error.problem}{status}"
            )
    return problems
