"""SIGHUP: re-read the registry the gateway was started with and apply it without a restart;
and `gpp serve --reload`'s restart of one plugin whose files changed, drained the same way.

A file that does not load changes nothing: each of its problems is logged as one line, exactly
as `gpp check-config` prints it. A file that loads is applied at once (see
`PluginPools.replace`): no request is refused or lost, because requests hold a lease on the
pool they were routed to and a retired pool shuts down only after its last one.
"""

from __future__ import annotations

import asyncio
import logging
import signal
from collections.abc import Callable

from .config import Config, ConfigError
from .registry import LIVE_GATEWAY_KEYS, restart_needed
from .state import GatewayState

log = logging.getLogger("gpp.reload")

APPLIED = "applied"
INVALID = "invalid"


class Reloader:
    def __init__(
        self,
        state: GatewayState,
        load: Callable[[], Config],
        apply_token: Callable[[str | None], None],
    ) -> None:
        self.state = state
        self.load = load
        self.apply_token = apply_token
        self._one_at_a_time = asyncio.Lock()

    async def reload(self) -> str:
        """Apply the file as it is now; the result is the `result` label of `gpp_reloads`."""
        async with self._one_at_a_time:
            result = await self._reload()
        self.state.metrics.reloads.labels(result).inc()
        return result

    async def _reload(self) -> str:
        try:
            config, token = await asyncio.to_thread(self._read)
        except ConfigError as exc:  # the token file's problems too (Config.token)
            for line in str(exc).splitlines():
                log.error("reload refused", extra={"fields": {"problem": line}})
            return INVALID
        old = self.state.config
        pending = restart_needed(old.gateway, config.gateway)
        self.apply_token(token)
        change = self.state.pools.replace(config.plugins)
        # What is in effect: the new plugins and token, the old socket and limits (so the next
        # reload still says a restart is needed, until there is one).
        live = {key: getattr(config.gateway, key) for key in LIVE_GATEWAY_KEYS}
        gateway = old.gateway.model_copy(update=live)
        self.state.config = config.model_copy(update={"gateway": gateway})
        log.info(
            "reload",
            extra={
                "fields": {
                    "added": ",".join(change.added),
                    "removed": ",".join(change.removed),
                    "changed": ",".join(change.changed),
                    "kept": ",".join(change.kept),
                }
            },
        )
        if pending:
            log.warning(
                "reload: restart needed to apply",
                extra={"fields": {"keys": ",".join(f"gateway.{key}" for key in pending)}},
            )
        await self.state.pools.start_eager(change.started)
        return APPLIED

    def current_config(self) -> Config:
        return self.state.config

    async def restart(self, plugin_id: str, changed: str) -> None:
        """`gpp serve --reload`: the plugin's files changed, so its next request gets a fresh
        session; requests already on the old one finish there (the same drain as a reload)."""
        async with self._one_at_a_time:
            if not self.state.pools.renew(plugin_id):
                return
            log.info(
                "plugin files changed: session restarted",
                extra={"fields": {"plugin": plugin_id, "file": changed}},
            )
            await self.state.pools.start_eager([plugin_id])

    def _read(self) -> tuple[Config, str | None]:
        """The config and its token, read in a thread: off the loop, so a slow disk delays no
        request (and `read_regular_file` refuses what could block: FIFOs, devices)."""
        config = self.load()
        return config, config.token()


class EarlySighups:
    """SIGHUPs that arrive before the event loop takes the signal (while `gpp serve` reads
    its config, pins `--plugin` versions, or starts eager plugins): counted, never fatal (the
    default action ends the process), and replayed as one reload once the gateway is up."""

    def __init__(self) -> None:
        self.count = 0

    def hold(self) -> None:
        """From now until `take`: count SIGHUPs instead of dying of them (main thread only)."""
        signal.signal(signal.SIGHUP, self._count)

    def _count(self, signum: int, frame: object) -> None:
        self.count += 1

    def take(self) -> int:
        taken, self.count = self.count, 0
        return taken


EARLY_SIGHUPS = EarlySighups()
