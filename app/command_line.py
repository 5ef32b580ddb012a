"""Plugins registered on `gpp serve`'s command line, as `uvx mcpo -- cmd` and `npx supergateway
--stdio cmd` take theirs: a first try needs no registry file.

`--plugin ID -- CMD ARGS...` or `--plugin 'ID=CMD ARGS'` (repeatable); `--jsonrpc` for a
JSON-RPC 2.0 one. GPP/3 pins a plugin's id and version in every frame: each GPP/3 plugin is
started once when the gateway starts, and the id its hello announces is pinned (so `ID` may
differ from it), as is the version when no `@VERSION` was given (trust on first use, logged);
both are kept across reloads.
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

from gpp.core import JSONRejected, codes, loads_strict

from .config import Config, ConfigError, PluginConfig, parse_config, version_problem
from .plugin_words import failure_lines

COMMAND_LINE = Path("<command line>")
"""What errors name as the config's file when there is none."""
UNPINNED = f"unpinned-{secrets.token_hex(16)}"
"""The version of a `--plugin` given none, until its hello says it: a valid registry version
no plugin can guess (drawn per process)."""
NO_SUCH_ID = "\x00unpinned"
"""An id no plugin can announce (the schema's strings are printable): a hello is refused for
it, and the refusal carries the frame that says the real id and version."""
FLAG = re.compile(r"^(?P<id>[^@=\s]+)(?:@(?P<version>[^=\s]+))?(?:=(?P<command>.+))?$", re.S)

JSONRPC_VERSION = "unversioned"
"""A JSON-RPC plugin's version when none is given: it has no hello to announce one."""

logger = logging.getLogger("gpp.gateway")


@dataclass(frozen=True)
class CommandLinePlugin:
    id: str
    version: str | None
    command: list[str]
    protocol: str = "gpp/3"


def parse_flags(
    flags: list[str], trailing: list[str], jsonrpc: bool = False
) -> list[CommandLinePlugin]:
    """The `--plugin` flags; the one without `=COMMAND` takes the words after `--`. `jsonrpc`
    (`--jsonrpc`) makes that one, or the only one, a JSON-RPC 2.0 plugin.
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
    if jsonrpc:
        if waiting is None and len(plugins) != 1:
            raise ValueError("--jsonrpc: it marks the --plugin whose command follows `--` (or "
                             "the only --plugin); register several JSON-RPC plugins in a "
                             "registry file")  # fmt: skip
        rpc = plugins[-1]
        plugins[-1] = CommandLinePlugin(rpc.id, rpc.version, rpc.command, "jsonrpc-2.0")
    return plugins


def registry(
    plugins: list[CommandLinePlugin],
    repo: Path,
    token_file: Path | None,
    pinned: dict[str, Announced],
) -> Config:
    """The config these flags make, validated as a registry file's would be; `pinned`: what
    each plugin's hello announced at the first start (a reload keeps it)."""
    raw: dict[str, Any] = {
        "plugin": [
            {
                "id": plugin.id,
                "version": plugin.version
                or (pinned[plugin.id].version if plugin.id in pinned else _unpinned(plugin)),
                "protocol": plugin.protocol,
                "command": plugin.command,
                "root": str(repo),
            }
            | ({"announces": pinned[plugin.id].plugin_id} if plugin.id in pinned else {})
            for plugin in plugins
        ]
    }
    if token_file is not None:
        raw["gateway"] = {"token_file": str(token_file)}
    return parse_config(raw, COMMAND_LINE, Path.cwd())


def _unpinned(plugin: CommandLinePlugin) -> str:
    return JSONRPC_VERSION if plugin.protocol == "jsonrpc-2.0" else UNPINNED


def pin_versions(config: Config) -> Config:
    """`config` with every GPP/3 plugin pinned to the id its hello announces (so `--plugin
    routes=… pack_http_routes.py` serves the pack as `routes`), and to the version it announces
    when none was given. A plugin whose version was given and that fails this first start is
    left as given: its requests say why."""
    gpp3 = [plugin for plugin in config.plugins.values() if plugin.protocol == "gpp/3"]
    if not gpp3:
        return config
    announced = asyncio.run(_announced_all(gpp3))
    problems = [
        f"--plugin {pid}: {got}"
        for pid, got in announced.items()
        if isinstance(got, str) and config.plugins[pid].version == UNPINNED
    ]
    if problems:
        raise ConfigError(COMMAND_LINE, problems)
    plugins = dict(config.plugins)
    for plugin_id, got in announced.items():
        if isinstance(got, str):
            logger.warning(
                "did not start to say its id; registered as given",
                extra={"fields": {"plugin": plugin_id, "why": got.split("\n", 1)[0]}},
            )
            continue
        plugin = plugins[plugin_id]
        version = got.version if plugin.version == UNPINNED else plugin.version
        logger.info(
            "pinned %s to the id %s and version %s, as its hello announced",
            plugin_id,
            got.plugin_id,
            version,
        )
        plugins[plugin_id] = plugin.model_copy(
            update={"announces": got.plugin_id, "version": version}
        )
    return config.model_copy(update={"plugins": plugins})


def _refused_hello(refusal: codes.ProtocolError) -> tuple[str, str] | None:
    """The id and version a refused hello announced (its offending frame), or None."""
    if refusal.frame != 1 or not refusal.offending_frame:
        return None
    try:
        hello = loads_strict(refusal.offending_frame.encode("utf-8"))
    except JSONRejected:
        return None
    if not isinstance(hello, dict):
        return None
    plugin_id, version = hello.get("pluginId"), hello.get("pluginVersion")
    if not isinstance(plugin_id, str) or not isinstance(version, str):
        return None
    return plugin_id, version


def _shown(text: str) -> str:
    """Plugin text in a diagnostic: escaped (no control character reaches a terminal), cut."""
    shown = ascii(text)
    return shown if len(shown) <= 80 else shown[:79] + "…"


@dataclass(frozen=True)
class Announced:
    plugin_id: str
    version: str


async def _announced_all(plugins: list[PluginConfig]) -> dict[str, Announced | str]:
    versions = await asyncio.gather(*(_announced(plugin) for plugin in plugins))
    return {plugin.id: version for plugin, version in zip(plugins, versions, strict=True)}


async def _announced(plugin: PluginConfig) -> Announced | str:
    """The id and version `plugin`'s hello announces, or why they could not be read. The
    session expects an id no plugin can announce, so the hello is refused, and the refusal
    carries the frame that says the real ones."""
    session = plugin.model_copy(update={"announces": NO_SUCH_ID, "version": UNPINNED}).session()
    try:
        await session.start()
    except codes.UnknownPluginError as exc:
        said = _refused_hello(exc)
        if said is None:
            return "\n".join(_start_failure(exc, plugin))
        plugin_id, version = said
        problem = version_problem(version)
        if problem is None:
            return Announced(plugin_id, version)
        return (
            f"its hello announced the version {_shown(version)}, refused: {problem} "
            f"(or give its version: --plugin {plugin.id}@VERSION)"
        )
    except codes.ProtocolError as exc:
        return "\n".join(_start_failure(exc, plugin))
    finally:
        await session.dispose()
    return f"its hello announced the impossible id {NO_SUCH_ID!r}"


def _start_failure(error: codes.ProtocolError, plugin: PluginConfig) -> list[str]:
    """Why a plugin could not be started to read its version, in its own words (the stderr
    tail: a SyntaxError's traceback, a missing module), with a hint only where it is the
    remedy: a plugin silent past the handshake may be a JSON-RPC one."""
    lines = failure_lines(error, plugin.command)
    if isinstance(error, codes.WatchdogTimeoutError) and error.frame in (None, 1):
        lines.insert(
            2,
            f"gpp: no hello from {plugin.id}; a JSON-RPC 2.0 plugin is served with "
            f"`--plugin {plugin.id} --jsonrpc -- CMD`",
        )
    return lines
