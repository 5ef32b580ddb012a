"""Plugins registered on `gpp serve`'s command line, as `uvx mcpo -- cmd` and `npx supergateway
--stdio cmd` take theirs: a first try needs no registry file.

`--plugin ID -- CMD ARGS...` or `--plugin 'ID=CMD ARGS'` (repeatable). GPP/3 pins a plugin's
version in every frame; an id given without `@VERSION` is pinned to the version its hello
announces when the gateway starts (trust on first use, logged), and kept across reloads.
"""

from __future__ import annotations

import asyncio
import logging
import re
import secrets
import shlex
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from gpp.core import codes
from gpp.core.canonical_json import JSONRejected, loads_strict

from .config import Config, ConfigError, PluginConfig, parse_config, version_problem

COMMAND_LINE = Path("<command line>")
"""What errors name as the config's file when there is none."""
UNPINNED = f"unpinned-{secrets.token_hex(16)}"
"""A version no plugin can guess (drawn per process), and a valid registry version: its hello is
refused, and the refusal carries the frame that says the real one."""
FLAG = re.compile(r"^(?P<id>[^@=\s]+)(?:@(?P<version>[^=\s]+))?(?:=(?P<command>.+))?$", re.S)

logger = logging.getLogger("gpp.gateway")


@dataclass(frozen=True)
class CommandLinePlugin:
    id: str
    version: str | None
    command: list[str]


def parse_flags(flags: list[str], trailing: list[str]) -> list[CommandLinePlugin]:
    """The `--plugin` flags; the one without `=COMMAND` takes the words after `--`.
    Raises ValueError saying what to write instead."""
    plugins, waiting = [], None
    for flag in flags:
        match = FLAG.match(flag)
        if match is None:
            raise ValueError(f"--plugin {flag!r}: write ID, ID@VERSION or 'ID=CMD ARGS'")
        if match["command"]:
            plugins.append(
                CommandLinePlugin(match["id"], match["version"], shlex.split(match["command"]))
            )
        elif waiting is not None:
            raise ValueError(
                f"--plugin {waiting[0]} and --plugin {match['id']} both want the command after "
                "`--`; give all but one as --plugin 'ID=CMD ARGS'"
            )
        else:
            waiting = (match["id"], match["version"])
    if waiting is not None:
        if not trailing:
            raise ValueError(f"--plugin {waiting[0]}: give its command after `--`, e.g. "
                             f"`gpp serve --plugin {waiting[0]} -- python3 plugin.py`")  # fmt: skip
        plugins.append(CommandLinePlugin(waiting[0], waiting[1], trailing))
    elif trailing:
        raise ValueError(f"unexpected words {shlex.join(trailing)!r}: a command after `--` "
                         "belongs to a --plugin ID")  # fmt: skip
    return plugins


def registry(
    plugins: list[CommandLinePlugin],
    repo: Path,
    token_file: Path | None,
    pinned: dict[str, str],
) -> Config:
    """The config these flags make, validated as a registry file's would be."""
    raw: dict[str, Any] = {
        "plugin": [
            {
                "id": plugin.id,
                "version": plugin.version or pinned.get(plugin.id, UNPINNED),
                "command": plugin.command,
                "root": str(repo),
            }
            for plugin in plugins
        ]
    }
    if token_file is not None:
        raw["gateway"] = {"token_file": str(token_file)}
    return parse_config(raw, COMMAND_LINE, Path.cwd())


def pin_versions(config: Config) -> Config:
    """`config` with every unpinned plugin pinned to what its hello announces."""
    unpinned = [plugin for plugin in config.plugins.values() if plugin.version == UNPINNED]
    if not unpinned:
        return config
    announced = asyncio.run(_announced_all(unpinned))
    problems = [f"--plugin {pid}: {got}" for pid, got in announced.items() if isinstance(got, str)]
    if problems:
        raise ConfigError(COMMAND_LINE, problems)
    plugins = dict(config.plugins)
    for plugin_id, got in announced.items():
        assert isinstance(got, Announced)
        logger.info("pinned %s to version %s, as its hello announced", plugin_id, got.version)
        plugins[plugin_id] = plugins[plugin_id].model_copy(update={"version": got.version})
    return config.model_copy(update={"plugins": plugins})


def _announced_version(refusal: codes.ProtocolError) -> str | None:
    """The version a hello refused for its version says, or None (refused for anything else)."""
    if refusal.field != "pluginVersion" or refusal.frame != 1 or not refusal.offending_frame:
        return None
    try:
        hello = loads_strict(refusal.offending_frame.encode("utf-8"))
    except JSONRejected:
        return None
    version = hello.get("pluginVersion") if isinstance(hello, dict) else None
    return version if isinstance(version, str) else None


def _shown(text: str) -> str:
    """Plugin text in a diagnostic: escaped (no control character reaches a terminal), cut."""
    shown = ascii(text)
    return shown if len(shown) <= 80 else shown[:79] + "…"


@dataclass(frozen=True)
class Announced:
    version: str


async def _announced_all(plugins: list[PluginConfig]) -> dict[str, Announced | str]:
    versions = await asyncio.gather(*(_announced(plugin) for plugin in plugins))
    return {plugin.id: version for plugin, version in zip(plugins, versions, strict=True)}


async def _announced(plugin: PluginConfig) -> Announced | str:
    """The version `plugin`'s hello announces, or why none could be read."""
    session = plugin.session()
    try:
        await session.start()
    except codes.ProtocolError as exc:
        announced = _announced_version(exc)
        if announced is None:
            return f"{exc.fail_line()} (or give its version: --plugin {plugin.id}@VERSION)"
        problem = version_problem(announced)
        if problem is None:
            return Announced(announced)
        return (
            f"its hello announced the version {_shown(announced)}, refused: {problem} "
            f"(or give its version: --plugin {plugin.id}@VERSION)"
        )
    finally:
        await session.dispose()
    return "its hello announced the placeholder version it was started with"
