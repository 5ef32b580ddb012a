"""What the routes share: the config, the plugin pools and the metrics."""

from __future__ import annotations

from dataclasses import dataclass

from .config import Config
from .metrics import GatewayMetrics
from .pool import PluginPools


@dataclass
class GatewayState:
    config: Config
    pools: PluginPools
    metrics: GatewayMetrics
