"""What a reload changes: the plugins added, removed, changed and kept, and the gateway settings
that only a restart applies. Pure functions of two configs, so each rule is tested alone."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from .config import GatewayConfig, PluginConfig

LIVE_GATEWAY_KEYS = frozenset({"token_file"})
"""The only [gateway] key a reload applies: the token is read per request by the middleware.
The others shape the listening socket, the connection protocol or the middleware stack, which
are built once, at start."""


@dataclass(frozen=True)
class RegistryChange:
    added: tuple[str, ...]
    removed: tuple[str, ...]
    changed: tuple[str, ...]
    """Any field of the resolved entry differs (command, root, env, limits, sandbox, version…)."""
    kept: tuple[str, ...]

    @classmethod
    def between(
        cls, old: Mapping[str, PluginConfig], new: Mapping[str, PluginConfig]
    ) -> RegistryChange:
        both = [plugin_id for plugin_id in new if plugin_id in old]
        return cls(
            added=tuple(plugin_id for plugin_id in new if plugin_id not in old),
            removed=tuple(plugin_id for plugin_id in old if plugin_id not in new),
            changed=tuple(plugin_id for plugin_id in both if old[plugin_id] != new[plugin_id]),
            kept=tuple(plugin_id for plugin_id in both if old[plugin_id] == new[plugin_id]),
        )

    @property
    def retired(self) -> tuple[str, ...]:
        """The plugins whose current pools leave the registry: removed, or replaced."""
        return self.removed + self.changed

    @property
    def started(self) -> tuple[str, ...]:
        """The plugins that get a new pool."""
        return self.added + self.changed


def restart_needed(old: GatewayConfig, new: GatewayConfig) -> list[str]:
    """The [gateway] keys that differ and that a reload cannot apply."""
    return [
        key
        for key in GatewayConfig.model_fields
        if key not in LIVE_GATEWAY_KEYS and getattr(old, key) != getattr(new, key)
    ]
