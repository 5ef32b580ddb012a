"""`gpp serve --reload`: a plugin whose files change gets a fresh session, as `uvicorn --reload`
restarts a server.

What is watched is what the registry says the plugin's code is: its entry files, and the
folders of its view (`sandbox.view`, or by default the entry file's folder), walked; the
repository a plugin reads is data, not code, and is left out (a plugin that writes there would
otherwise restart itself). The registry file is watched too: a change there is a SIGHUP reload.

Polling of mtimes, from a thread, so a slow disk delays no request and no dependency is added.
The cost is bounded: `__pycache__`, `node_modules` and `.git` are not entered, and at most
`MAX_WATCHED_FILES` files per plugin are stat'ed per poll (the rest is said once in the log).
The comparison is pure (`changed_file`), so each rule is tested with dicts alone.
"""

from __future__ import annotations

import asyncio
import logging
import os
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Protocol

from gpp.host import entry_files

from .config import Config, PluginConfig

log = logging.getLogger("gpp.reload")

IGNORED_DIRS = frozenset({"__pycache__", "node_modules", ".git"})
"""Never entered: bytecode the plugin's own imports write, vendored packages, history."""
MAX_WATCHED_FILES = 2000
"""Per plugin per poll: a view that holds more is watched in part, and the log says so once."""
POLL_SECONDS = 0.5

Stamp = tuple[int, int, int]
"""What says a file changed: mtime (ns), size, inode (an editor's save-by-rename is seen)."""


@dataclass(frozen=True)
class PluginFiles:
    """One plugin's watched files as of one poll: `roots` is what was walked."""

    roots: tuple[str, ...]
    stamps: Mapping[str, Stamp]
    truncated: bool = False


@dataclass(frozen=True)
class Poll:
    registry: Stamp | None
    plugins: Mapping[str, PluginFiles] = field(default_factory=dict)


def watched_roots(plugin: PluginConfig) -> tuple[str, ...]:
    """The plugin's entry files, then its view's folders and files (from the registry only)."""
    entries = entry_files(plugin.command, str(plugin.root))
    listed = plugin.sandbox.view
    folders = [os.path.dirname(entry) for entry in entries] if listed is None else list(listed)
    return tuple(dict.fromkeys([*entries, *folders]))


def stamp(path: str) -> Stamp | None:
    try:
        info = os.stat(path)
    except OSError:
        return None
    return (info.st_mtime_ns, info.st_size, info.st_ino)


def walk(roots: Iterable[str], skip: str, cap: int = MAX_WATCHED_FILES) -> PluginFiles:
    """The stamps of the files under `roots` (a root may be a file), `skip` (the repository)
    and `IGNORED_DIRS` left out, at most `cap` of them, in a stable order."""
    roots = tuple(roots)
    stamps: dict[str, Stamp] = {}
    pending = list(reversed(roots))
    while pending:
        path = pending.pop()
        if path in stamps:
            continue
        if os.path.isdir(path) and not os.path.islink(path):
            if path == skip or path.startswith(skip.rstrip("/") + "/"):
                continue
            try:
                with os.scandir(path) as entries:
                    names = sorted(
                        entry.path
                        for entry in entries
                        if not (entry.name in IGNORED_DIRS and entry.is_dir(follow_symlinks=False))
                    )
            except OSError:
                continue
            pending.extend(reversed(names))
        elif (found := stamp(path)) is not None:
            if len(stamps) >= cap:
                return PluginFiles(roots, stamps, truncated=True)
            stamps[path] = found
    return PluginFiles(roots, stamps)


def poll(config: Config, cap: int = MAX_WATCHED_FILES) -> Poll:
    """Every plugin's files and the registry file, now (blocking: run it in a thread)."""
    registry = stamp(str(config.path)) if config.path.is_file() else None
    return Poll(
        registry,
        {
            plugin_id: walk(watched_roots(plugin), str(plugin.root), cap)
            for plugin_id, plugin in config.plugins.items()
        },
    )


def changed_file(before: PluginFiles, after: PluginFiles) -> str | None:
    """The first file (in path order) added, removed or changed between two polls of the same
    roots; None when nothing did, or when the roots differ (a reload changed the plugin: its
    new pool already starts fresh)."""
    if before.roots != after.roots:
        return None
    for path in sorted({*before.stamps, *after.stamps}):
        if before.stamps.get(path) != after.stamps.get(path):
            return path
    return None


def restarts(before: Poll, after: Poll) -> dict[str, str]:
    """Plugin id -> the changed file that restarts its session."""
    found = {}
    for plugin_id, files in after.plugins.items():
        if plugin_id in before.plugins and (path := changed_file(before.plugins[plugin_id], files)):
            found[plugin_id] = path
    return found


class ReloaderLike(Protocol):
    """What the watch needs of `app.reload.Reloader` (which imports nothing of this module)."""

    def current_config(self) -> Config: ...
    async def reload(self) -> str: ...
    async def restart(self, plugin_id: str, changed: str) -> None: ...


class PluginWatch:
    """Polls until cancelled; hands each change to the reloader's own paths."""

    def __init__(self, interval: float = POLL_SECONDS, cap: int = MAX_WATCHED_FILES) -> None:
        self.interval = interval
        self.cap = cap
        self._said_truncated: set[str] = set()

    async def run(self, reloader: ReloaderLike) -> None:
        last = await asyncio.to_thread(poll, reloader.current_config(), self.cap)
        self._say_truncated(last)
        log.info(
            "watching plugin files",
            extra={"fields": {"plugins": ",".join(last.plugins), "poll_s": self.interval}},
        )
        while True:
            await asyncio.sleep(self.interval)
            try:
                last = await self._step(last, reloader)
            except Exception:  # one bad poll or restart never ends the watching
                log.exception("reload: watching plugin files failed this time; still watching")

    async def _step(self, last: Poll, reloader: ReloaderLike) -> Poll:
        config = reloader.current_config()
        now = await asyncio.to_thread(poll, config, self.cap)
        self._say_truncated(now)
        if last.registry is not None and now.registry != last.registry:
            log.info("registry changed", extra={"fields": {"file": str(config.path)}})
            await reloader.reload()
            now = await asyncio.to_thread(poll, reloader.current_config(), self.cap)
        for plugin_id, path in restarts(last, now).items():
            await reloader.restart(plugin_id, path)
        return now

    def _say_truncated(self, found: Poll) -> None:
        for plugin_id, files in found.plugins.items():
            if files.truncated and plugin_id not in self._said_truncated:
                self._said_truncated.add(plugin_id)
                log.warning(
                    "reload: watching only part of the plugin's files",
                    extra={
                        "fields": {
                            "plugin": plugin_id,
                            "watched": self.cap,
                            "roots": ",".join(files.roots),
                        }
                    },
                )
